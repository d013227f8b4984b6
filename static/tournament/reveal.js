/* The prize-giving page: the ranking shown one place at a time, from the last to the first.
   Every row is in the page already, so nothing is asked of the server (it runs without a
   network once loaded); without this script every row shows at once. A row not shown yet keeps
   its place (pj-veiled), so the table does not move as the places appear.

   Next place: the space bar, Enter, the right or down arrow, Page Down (a presenter's clicker)
   or a click. Back: the left or up arrow, Page Up or Backspace. With data-reveal-every the
   first key or click starts a timer that shows a place every so many seconds. */
(function () {
  "use strict";
  var table = document.querySelector("[data-reveal]");
  if (!table) { return; }
  var rows = Array.prototype.slice.call(table.querySelectorAll("[data-reveal-row]")).reverse();
  var help = document.querySelector("[data-reveal-help]");
  var every = parseInt(table.getAttribute("data-reveal-every") || "0", 10);
  var shown = 0;
  var timer = null;

  rows.forEach(function (row) { row.classList.add("pj-veiled"); });
  table.setAttribute("data-revealed", "0");
  if (help) { help.hidden = false; }

  function mark() {
    rows.forEach(function (row, index) {
      row.classList.toggle("pj-newest", index === shown - 1);
    });
    table.setAttribute("data-revealed", String(shown));
    if (help) { help.hidden = shown > 0; }
  }

  function next() {
    if (shown >= rows.length) {
      stop();
      return;
    }
    var row = rows[shown];
    row.classList.remove("pj-veiled");
    shown += 1;
    mark();
    row.scrollIntoView({ block: "center" });
    if (shown >= rows.length) { stop(); }
  }

  function back() {
    if (shown === 0) { return; }
    stop();
    shown -= 1;
    rows[shown].classList.add("pj-veiled");
    mark();
    if (shown > 0) { rows[shown - 1].scrollIntoView({ block: "center" }); }
  }

  function stop() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  function advance() {
    if (every > 0 && timer === null && shown < rows.length) {
      next();
      timer = window.setInterval(next, every * 1000);
      return;
    }
    next();
  }

  var forward = [" ", "Enter", "ArrowRight", "ArrowDown", "PageDown"];
  var backward = ["ArrowLeft", "ArrowUp", "PageUp", "Backspace"];
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.target && event.target.closest && event.target.closest("a, button")) {
      if (event.key === " " || event.key === "Enter") { return; }
    }
    if (forward.indexOf(event.key) !== -1) {
      event.preventDefault();
      advance();
    } else if (backward.indexOf(event.key) !== -1) {
      event.preventDefault();
      back();
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target && event.target.closest && event.target.closest("a, button")) { return; }
    advance();
  });
})();
