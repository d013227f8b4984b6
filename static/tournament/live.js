/* Pages that update themselves: what htmx does not do for them.

   A live region is an htmx poll that carries data-live-stale-text, e.g.
     <div hx-get="..." hx-trigger="every 20s, live:refresh" data-live-stale-text="...">
   htmx fetches the fragment and swaps it in (scripts in it never run: allowScriptTags is off in
   the htmx-config meta). This script adds:
   - nothing is fetched while the tab is hidden; a tab shown again after a skipped update is
     refreshed at once (the "live:refresh" event);
   - a failed update (no answer, an error status, or a redirect elsewhere, say to the login
     page) keeps the old content, sets data-live-stale and shows data-live-stale-text in a note
     above the region until an update succeeds;
   - while the user types in a field inside the region it is left alone; the open <details>
     and the page's scroll position survive an update (htmx keeps the focus itself);
   - a fragment may name the URL of the next update in data-live-next (the projector goes
     through its panels so);
   - an answer identical to the last one swapped in is not swapped again (the DOM, the focus
     and the countdowns are left alone);
   - after each update the region gets a "live:updated" event (it bubbles).
   Nothing here handles caching: the live pages send their fragments with an ETag and
   Cache-Control: no-cache, so the browser itself asks again with If-None-Match and hands htmx
   the fragment it kept when the server answers 304 (tournament/web/live.py).

   Elements with data-countdown="seconds" show a clock counting down (H:MM:SS or M:SS) while
   they also have data-countdown-running; each fragment the server sends resets them. */
(function () {
  "use strict";

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
      var seconds = parseFloat(clocks[i].getAttribute("data-countdown"));
      if (!isNaN(seconds)) { clocks[i].liveDeadline = now + seconds * 1000; }
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

  function isLive(element) {
    return element.hasAttribute && element.hasAttribute("data-live-stale-text");
  }

  function typing(element) {
    var active = document.activeElement;
    if (!active || !element.contains(active)) { return false; }
    var tag = active.tagName;
    return tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && !/^(button|submit|reset|checkbox|radio|hidden)$/i.test(active.type));
  }

  function setStale(element, stale) {
    var note = element.liveNote;
    if (stale && !note) {
      note = element.liveNote = document.createElement("p");
      note.className = "live-stale-note";
      note.setAttribute("role", "status");
      note.textContent = element.getAttribute("data-live-stale-text");
      element.parentNode.insertBefore(note, element);
    }
    if (note) { note.hidden = !stale; }
    element.toggleAttribute("data-live-stale", stale);
  }

  // An answer from another address than the one asked (a redirect) is not the fragment.
  function redirected(detail) {
    var asked = new URL(detail.pathInfo.finalRequestPath, location.href);
    return new URL(detail.xhr.responseURL || asked.href).pathname !== asked.pathname;
  }

  // Handle htmx's event `name` for the live regions' requests (some go to the target).
  function on(name, handler) {
    document.addEventListener(name, function (event) {
      var detail = event.detail;
      var element = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
      if (isLive(element)) { handler(element, detail, event); }
    });
  }

  on("htmx:beforeRequest", function (element, detail, event) {
    if (document.hidden) { element.liveMissed = true; }
    if (document.hidden || typing(element)) { event.preventDefault(); }
  });

  on("htmx:configRequest", function (element, detail) {
    if (element.liveNext) { detail.path = element.liveNext; }
  });

  on("htmx:beforeSwap", function (element, detail) {
    if (redirected(detail)) {
      detail.shouldSwap = false;
      detail.isError = true;
    } else if (detail.shouldSwap && typing(element)) {
      detail.shouldSwap = false;
    } else if (detail.shouldSwap && detail.xhr.responseText === element.liveText) {
      // The fragment it has (a 304 comes to htmx as a 200 with the kept body): nothing to
      // redo, and the focus, scroll, selection and running countdowns stay as they are.
      detail.shouldSwap = false;
    } else if (detail.shouldSwap) {
      element.liveText = detail.xhr.responseText;
      var open = element.querySelectorAll("details[id][open]");
      element.liveKept = {
        open: Array.prototype.map.call(open, function (details) { return details.id; }),
        x: window.scrollX,
        y: window.scrollY
      };
    }
  });

  on("htmx:afterSwap", function (element) {
    var kept = element.liveKept;
    if (kept) {
      kept.open.forEach(function (id) {
        var again = document.getElementById(id);
        if (again && element.contains(again)) { again.open = true; }
      });
      window.scrollTo(kept.x, kept.y);
    }
    var next = element.querySelector("[data-live-next]");
    if (next) { element.liveNext = next.getAttribute("data-live-next"); }
    element.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  });

  on("htmx:afterRequest", function (element, detail) {
    element.liveMissed = false;
    setStale(element, detail.successful !== true);
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    document.querySelectorAll("[data-live-stale-text]").forEach(function (element) {
      if (element.liveMissed) { htmx.trigger(element, "live:refresh"); }
    });
  });

  startCountdowns(document);
  setInterval(tickCountdowns, 1000);
  // Any content htmx puts in the page later may bring countdowns too.
  htmx.onLoad(function (content) {
    if (content !== document.body) {
      startCountdowns(content);
      tickCountdowns();
    }
  });
})();
