/* Pages that update themselves, without full reloads and without any library.

   An element with data-live-url="..." and data-live-every="seconds" gets its content replaced
   by a GET of that URL (an HTML fragment) every so many seconds.
   - Nothing is fetched while the tab is hidden; a tab shown again is refreshed at once.
   - A failed fetch keeps the old content, sets data-live-stale on the element and shows the
     element's data-live-stale-text in a note above it, until a fetch succeeds again.
   - While the user types in a field inside the element, its content is left alone; the focus,
     the open <details> and the page's scroll position survive an update.
   - Scripts in a fragment are never run.

   Elements with data-countdown="seconds" show a clock counting down (H:MM:SS or M:SS) while
   they also have data-countdown-running; the server's fragment resets them at each update.
   A fragment may name the URL of the next update in a data-live-next attribute (the projector
   page goes through its panels so). After each update the element gets a "live:updated" event
   (it bubbles). */
(function () {
  "use strict";

  var DEFAULT_STALE = "Connection lost, retrying…";

  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }

  /* Countdowns: each remembers when it reaches zero, from its data-countdown at arrival. */
  function startCountdowns(root) {
    var clocks = root.querySelectorAll("[data-countdown]");
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var seconds = parseFloat(clock.getAttribute("data-countdown"));
      if (isNaN(seconds)) { continue; }
      clock.liveDeadline = now + seconds * 1000;
    }
  }

  function tickCountdowns() {
    var clocks = document.querySelectorAll("[data-countdown][data-countdown-running]");
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      if (clock.liveDeadline === undefined) { continue; }
      var left = Math.ceil((clock.liveDeadline - now) / 1000);
      var text = format(left);
      if (clock.textContent !== text) { clock.textContent = text; }
      if (left <= 0) { clock.setAttribute("data-countdown-over", ""); }
    }
  }

  function typing(element) {
    var active = document.activeElement;
    if (!active || !element.contains(active)) { return false; }
    var tag = active.tagName;
    return tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && !/^(button|submit|reset|checkbox|radio|hidden)$/i.test(active.type));
  }

  function staleNote(element) {
    if (!element.liveNote) {
      var note = document.createElement("p");
      note.className = "live-stale-note";
      note.setAttribute("role", "status");
      note.hidden = true;
      note.textContent = element.getAttribute("data-live-stale-text") || DEFAULT_STALE;
      element.parentNode.insertBefore(note, element);
      element.liveNote = note;
    }
    return element.liveNote;
  }

  function setStale(element, stale) {
    if (stale) {
      element.setAttribute("data-live-stale", "");
      staleNote(element).hidden = false;
    } else if (element.hasAttribute("data-live-stale")) {
      element.removeAttribute("data-live-stale");
      staleNote(element).hidden = true;
    }
  }

  function replace(element, html) {
    var active = document.activeElement;
    var focusId = active && element.contains(active) ? active.id : "";
    var open = [];
    var details = element.querySelectorAll("details[id][open]");
    for (var i = 0; i < details.length; i++) { open.push(details[i].id); }
    var x = window.scrollX, y = window.scrollY;

    // A <template> parses the HTML inertly: its scripts never run, and none are kept.
    var template = document.createElement("template");
    template.innerHTML = html;
    var scripts = template.content.querySelectorAll("script");
    for (var s = 0; s < scripts.length; s++) { scripts[s].remove(); }
    element.replaceChildren(template.content);

    for (var d = 0; d < open.length; d++) {
      var again = document.getElementById(open[d]);
      if (again && element.contains(again)) { again.open = true; }
    }
    if (focusId) {
      var target = document.getElementById(focusId);
      if (target && element.contains(target)) { target.focus({ preventScroll: true }); }
    }
    window.scrollTo(x, y);
    var next = element.querySelector("[data-live-next]");
    if (next) { element.setAttribute("data-live-url", next.getAttribute("data-live-next")); }
    startCountdowns(element);
    tickCountdowns();
    element.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  }

  function Live(element) {
    this.element = element;
    var every = parseFloat(element.getAttribute("data-live-every"));
    this.every = Math.max(1, isNaN(every) ? 30 : every) * 1000;
    this.timer = null;
    this.busy = false;
    this.last = Date.now();
  }

  Live.prototype.schedule = function (delay) {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.refresh(); }, delay === undefined ? this.every : delay);
  };

  Live.prototype.refresh = function () {
    var self = this;
    if (document.hidden || this.busy) { return; }  // a visible tab schedules again
    if (typing(this.element)) { this.schedule(); return; }
    this.busy = true;
    fetch(this.element.getAttribute("data-live-url"), {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Requested-With": "live.js" }
    }).then(function (response) {
      // A redirect (say, to the login page) is not the fragment asked for.
      if (!response.ok || response.redirected) { throw new Error("HTTP " + response.status); }
      return response.text();
    }).then(function (html) {
      if (!typing(self.element)) { replace(self.element, html); }
      setStale(self.element, false);
      self.last = Date.now();
    }).catch(function () {
      setStale(self.element, true);
    }).then(function () {
      self.busy = false;
      self.schedule();
    });
  };

  var lives = [];

  function start() {
    startCountdowns(document);
    var elements = document.querySelectorAll("[data-live-url]");
    for (var i = 0; i < elements.length; i++) {
      var live = new Live(elements[i]);
      elements[i].live = live;
      lives.push(live);
      live.schedule();
    }
    if (lives.length || document.querySelector("[data-countdown]")) {
      setInterval(tickCountdowns, 1000);  // a fragment may bring a countdown later
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    for (var i = 0; i < lives.length; i++) {
      var live = lives[i];
      if (Date.now() - live.last >= live.every) { live.schedule(0); } else { live.schedule(); }
    }
  });

  window.liveUpdate = {
    format: format,
    startCountdowns: startCountdowns,
    tickCountdowns: tickCountdowns,
    refresh: function (element) { if (element.live) { element.live.refresh(); } },
    replace: replace
  };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
