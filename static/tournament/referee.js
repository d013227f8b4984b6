/* The referee's table screen, made quicker to use with a script; every form works without it.
 *
 * - A tile picker fills the full entry's notation box, one tap per tile, with the tiles of the
 *   fan calculator.
 * - Choosing a winner greys out the same player as discarder.
 * - The two situation flags that depend on it say which case applies: on a discard or
 *   self-drawn.
 * - The full entry's breakdown is fetched from the server as the hand is built (Check without
 *   the page reload); it records nothing.
 */
(function () {
  "use strict";

  var root = document.getElementById("referee");
  if (!root) {
    return;
  }

  // ----- Winner and discarder ---------------------------------------------------------------

  function syncDiscarder(form) {
    var winner = form.querySelector('input[name="winner"]:checked');
    form.querySelectorAll('input[name="discarder"]').forEach(function (radio) {
      var same = winner !== null && radio.value === winner.value;
      radio.disabled = same;
      if (same) {
        radio.checked = false;
      }
    });
  }

  // The flags' names on a discard and self-drawn, in the page's language (#ref-texts).
  var FLAG_LABELS = {
    kong_related: ["flagKongDiscard", "flagKongSelf"],
    last_wall_tile: ["flagWallDiscard", "flagWallSelf"]
  };

  function syncFlags(form) {
    var discarder = form.querySelector('input[name="discarder"]:checked');
    if (!discarder) {
      return;
    }
    var selfDrawn = discarder.value === "self" ? 1 : 0;
    Object.keys(FLAG_LABELS).forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      var label = input && input.parentNode.querySelector("span");
      var text = say(FLAG_LABELS[name][selfDrawn]);
      if (label && text) {
        label.textContent = text;
      }
    });
  }

  function initChoices(scope) {
    scope.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector('input[name="discarder"]')) {
        syncDiscarder(form);
        syncFlags(form);
      }
    });
  }

  root.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || !form.querySelector('input[name="discarder"]')) {
      return;
    }
    if (event.target.name === "winner") {
      syncDiscarder(form);
    }
    if (event.target.name === "discarder") {
      syncFlags(form);
    }
  });

  // ----- Tile picker --------------------------------------------------------------------------

  // Inside an open "[" or "(" that is not closed yet?
  function openGroup(text) {
    var open = Math.max(text.lastIndexOf("["), text.lastIndexOf("("));
    var close = Math.max(text.lastIndexOf("]"), text.lastIndexOf(")"));
    return open > close ? text[open] : "";
  }

  // Add one tile: a suit tile joins a run of its suit just before it ("34m" + 5m = "345m").
  function addTile(text, code) {
    if (code.length === 2) {
      var run = /(\d+)([mps])$/.exec(text);
      if (run && run[2] === code[1]) {
        return text.slice(0, -1) + code[0] + code[1];
      }
    } else if (/[ESWNCFP]$/.test(text)) {
      return text + code;
    }
    return joinPart(text, code);
  }

  function joinPart(text, part) {
    if (!text || /[\s[(]$/.test(text)) {
      return text + part;
    }
    return text + " " + part;
  }

  function addKey(text, key) {
    if (key === "[" || key === "(") {
      return openGroup(text) ? text : joinPart(text, key);
    }
    if (key === "]" || key === ")") {
      var open = openGroup(text);
      if (!open) {
        return text;
      }
      return text.replace(/\s+$/, "") + (open === "[" ? "]" : ")");
    }
    if (key === "clear") {
      return "";
    }
    // Back: take off the last tile or bracket.
    var trimmed = text.replace(/\s+$/, "");
    var run = /(\d+)([mps])$/.exec(trimmed);
    if (run && run[1].length > 1) {
      return trimmed.slice(0, -2) + run[2];
    }
    if (run) {
      return trimmed.slice(0, -2).replace(/\s+$/, "");
    }
    return trimmed.slice(0, -1).replace(/\s+$/, "");
  }

  function update(box, text) {
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("#tile-picker button");
    var form = button && button.form;
    if (!form || !form.elements.tiles) {
      return;
    }
    var box = form.elements.tiles;
    var text = box.value.replace(/\s+$/, "");
    if (button.dataset.tile) {
      update(box, addTile(text, button.dataset.tile));
    } else if (button.dataset.key) {
      update(box, addKey(text, button.dataset.key));
    }
  });

  function initPicker(scope) {
    var picker = scope.querySelector("#tile-picker");
    if (picker) {
      picker.hidden = false;
    }
  }

  // ----- The breakdown as the hand is built ------------------------------------------------
  //
  // The full entry's form is sent as a Check that answers only the breakdown (the server
  // scores it for the chosen winner's seat wind, as Check does). A hand that looks complete is
  // asked about at once, anything else after a pause in typing; only the newest answer is shown.

  var PAUSE = 400;
  var SITUATION = ["winner", "discarder", "flowers", "last_tile_of_kind", "kong_related",
    "last_wall_tile"];
  var breakdownTimer = null;
  var breakdownAsked = 0;  // the number of the newest request: older answers are ignored
  var breakdownAbort = null;

  // 14 tiles, plus one for each kong.
  function looksComplete(text) {
    if (openGroup(text)) {
      return false;
    }
    var tiles = 0;
    text.replace(/(\d+)[mps]/g, function (run, digits) {
      tiles += digits.length;
    });
    tiles += (text.match(/[ESWNCFP]/g) || []).length;
    var kongs = (text.match(/[[(][^\])]*[\])]/g) || []).filter(function (group) {
      var inside = group.slice(1, -1);
      var count = (inside.match(/[ESWNCFP]/g) || []).length;
      inside.replace(/(\d+)[mps]/g, function (run, digits) {
        count += digits.length;
      });
      return count === 4;
    }).length;
    return tiles - kongs >= 14;
  }

  function syncSave(form) {
    var save = form.querySelector('button[name="action"][value="save"]');
    var region = form.querySelector("#breakdown");
    if (save && region) {
      save.hidden = region.querySelector("[data-false-win]") !== null;
    }
  }

  function showBreakdown(form, region, html) {
    region.innerHTML = html;
    region.removeAttribute("data-state");
    syncSave(form);
  }

  function breakdownUnavailable(form, region) {
    var note = document.createElement("p");
    note.className = "ref-breakdown-note";
    note.textContent = say("breakdownOffline");
    region.replaceChildren(note);
    region.setAttribute("data-state", "offline");
    syncSave(form);
  }

  function forgetBreakdown() {
    clearTimeout(breakdownTimer);
    breakdownAsked += 1;
    if (breakdownAbort) {
      breakdownAbort.abort();
      breakdownAbort = null;
    }
  }

  function askBreakdown(form) {
    var region = form.querySelector("#breakdown");
    forgetBreakdown();
    if (!region || !form.isConnected || !window.fetch || !window.FormData) {
      return;
    }
    if (!form.elements.tiles.value.trim()) {
      showBreakdown(form, region, "");
      return;
    }
    var asked = breakdownAsked;
    var data = new FormData(form);
    data.set("action", "check");
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && setTimeout(function () { controller.abort(); }, 15000);
    breakdownAbort = controller;
    region.setAttribute("aria-busy", "true");
    fetch(region.dataset.breakdownUrl, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "referee.js" },
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (!response.ok || response.redirected ||
          response.headers.get("X-Referee-Fragment") !== "verdict") {
        throw new Error("no breakdown");
      }
      return response.text();
    }).then(function (html) {
      if (asked === breakdownAsked && region.isConnected) {
        showBreakdown(form, region, html);
      }
    }).catch(function () {
      if (asked === breakdownAsked && region.isConnected) {
        breakdownUnavailable(form, region);
      }
    }).then(function () {
      clearTimeout(timer);
      if (asked === breakdownAsked) {
        region.removeAttribute("aria-busy");
        breakdownAbort = null;
      }
    });
  }

  function scheduleBreakdown(form, now) {
    clearTimeout(breakdownTimer);
    breakdownTimer = setTimeout(function () { askBreakdown(form); }, now ? 0 : PAUSE);
  }

  root.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && event.target.name === "tiles" && form.querySelector("#breakdown")) {
      scheduleBreakdown(form, looksComplete(event.target.value));
    }
  });
  root.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && SITUATION.indexOf(event.target.name) >= 0 && form.querySelector("#breakdown")) {
      scheduleBreakdown(form, looksComplete(form.elements.tiles.value));
    }
  });

  // ----- Nothing typed is lost ------------------------------------------------------------
  //
  // Every entry form carries a submission key made by the server. What is typed is saved in
  // localStorage (per table and form, key included) as it is typed, and put back when the page
  // is opened again. The forms are sent with fetch: when the connection fails, a banner says
  // so and everything stays, key included, so that pressing Record again either records the
  // entry or, if the first attempt did reach the server, is recognised as already recorded.

  var texts = document.getElementById("ref-texts");
  var draftScope = root.dataset.draftScope;
  var PREFIX = "mcr-referee-draft:";
  var MAX_AGE = 12 * 3600 * 1000;

  function say(name) {
    return (texts && texts.dataset[name]) || "";
  }

  function storageKey(form) {
    return PREFIX + draftScope + ":" + form.dataset.draft;
  }

  function readDraft(form) {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storageKey(form)) || "null");
      return saved && Array.isArray(saved.fields) ? saved : null;
    } catch (error) {
      return null;
    }
  }

  function saveDraft(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") {
        fields.push([name, value]);
      }
    });
    try {
      window.localStorage.setItem(
        storageKey(form),
        JSON.stringify({ saved: Date.now(), fields: fields })
      );
    } catch (error) {
      // Storage full or refused: the form itself still holds what was typed.
    }
  }

  function dropDraft(form) {
    try {
      window.localStorage.removeItem(storageKey(form));
    } catch (error) {
      // Nothing to do.
    }
  }

  function draftValue(draft, name) {
    for (var i = 0; i < draft.fields.length; i++) {
      if (draft.fields[i][0] === name) {
        return draft.fields[i][1];
      }
    }
    return null;
  }

  // Hidden inputs change their default value when set, so form.reset() cannot restore them.
  function rememberHidden(form) {
    var hidden = {};
    form.querySelectorAll('input[type="hidden"][name]').forEach(function (input) {
      hidden[input.name] = input.value;
    });
    form.refHidden = hidden;
  }

  function applyDraft(form, draft) {
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!element.name || element.name === "csrfmiddlewaretoken" || element.type === "submit") {
        return;
      }
      if (element.type === "radio" || element.type === "checkbox") {
        element.checked = draft.fields.some(function (field) {
          return field[0] === element.name && field[1] === element.value;
        });
        return;
      }
      var value = draftValue(draft, element.name);
      if (value !== null) {
        element.value = value;
      }
    });
    initChoices(form.parentNode);
  }

  function discardDraft(form) {
    dropDraft(form);
    form.reset();
    Object.keys(form.refHidden || {}).forEach(function (name) {
      var input = form.querySelector('input[type="hidden"][name="' + name + '"]');
      if (input) {
        input.value = form.refHidden[name];
      }
    });
    var note = form.querySelector(".ref-draft-note");
    if (note) {
      note.remove();
    }
    initChoices(form.parentNode);
  }

  function draftNote(form) {
    var note = document.createElement("div");
    note.className = "ref-draft-note";
    note.setAttribute("role", "status");
    var words = document.createElement("p");
    words.textContent = say("restored");
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "ref-button ref-quiet";
    discard.textContent = say("discard");
    discard.addEventListener("click", function () {
      discardDraft(form);
      var first = form.querySelector("input:not([type=hidden]), select, button");
      if (first) {
        first.focus();
      }
    });
    note.appendChild(words);
    note.appendChild(discard);
    var csrf = form.querySelector('input[name="csrfmiddlewaretoken"]');
    form.insertBefore(note, csrf ? csrf.nextSibling : form.firstChild);
  }

  function restoreDrafts() {
    var recorded = (root.dataset.recordedKeys || "").split(/\s+/);
    var newest = null;
    root.querySelectorAll("form[data-draft]").forEach(function (form) {
      var draft = readDraft(form);
      if (!draft) {
        return;
      }
      var key = draftValue(draft, "submission");
      // A correction's draft is about one hand: once another hand is the last, it is stale.
      var hand = form.dataset.draftHand;
      var otherHand = hand && draftValue(draft, "number") !== hand;
      if (Date.now() - draft.saved > MAX_AGE || (key && recorded.indexOf(key) >= 0) || otherHand) {
        dropDraft(form);  // too old, recorded after all, or about another hand
        return;
      }
      applyDraft(form, draft);
      draftNote(form);
      if (!newest || draft.saved > newest.saved) {
        newest = { form: form, saved: draft.saved };
      }
    });
    var details = newest && newest.form.closest("details");
    if (details) {
      details.open = true;
    }
  }

  function sendStatus(form) {
    var status = form.querySelector(".ref-send-status");
    if (!status) {
      status = document.createElement("div");
      status.className = "ref-send-status";
      status.setAttribute("aria-live", "assertive");
      var actions = form.querySelector(".ref-actions");
      var buttons = form.querySelectorAll('button[type="submit"]');
      var before = actions || buttons[buttons.length - 1] || null;
      form.insertBefore(status, before && before.parentNode === form ? before : null);
    }
    return status;
  }

  function showStatus(form, message, kind) {
    var status = sendStatus(form);
    status.textContent = "";
    if (!message) {
      status.removeAttribute("data-kind");
      return;
    }
    var line = document.createElement("p");
    line.className = "ref-banner";
    line.textContent = message;
    status.setAttribute("data-kind", kind);
    status.appendChild(line);
  }

  function initForms(scope) {
    scope.querySelectorAll("form[data-draft]").forEach(function (form) {
      rememberHidden(form);
      sendStatus(form);
    });
  }

  function init(scope) {
    initChoices(scope);
    initPicker(scope);
    initForms(scope);
  }

  root.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.dataset.draft) {
      saveDraft(form);
    }
  });
  root.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.dataset.draft) {
      saveDraft(form);
    }
  });

  // The page the server answered with takes the place of this one; the live part keeps its
  // element (live.js polls it) with the new content.
  function adopt(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("referee");
    if (!fresh) {
      return false;
    }
    var live = document.getElementById("table-live");
    var freshLive = fresh.querySelector("#table-live");
    if (live && freshLive) {
      live.innerHTML = freshLive.innerHTML;
      freshLive.replaceWith(live);
    }
    root.replaceChildren.apply(root, Array.prototype.slice.call(fresh.childNodes));
    ["data-hands", "data-recorded-keys"].forEach(function (name) {
      root.setAttribute(name, fresh.getAttribute(name) || "");
    });
    var messages = document.querySelector("main .messages");
    var freshMessages = doc.querySelector("main .messages");
    if (messages) {
      messages.remove();
    }
    if (freshMessages) {
      var main = document.querySelector("main");
      main.insertBefore(freshMessages, main.firstChild);
    }
    document.title = doc.title;
    // The address stays the table screen's (a reload posts nothing); the history API marks the
    // new content as a navigation within the page.
    window.history.replaceState(null, "", url || root.dataset.tableUrl);
    if (live && window.liveUpdate) {
      window.liveUpdate.startCountdowns(live);
      window.liveUpdate.tickCountdowns();
    }
    init(root);
    return true;
  }

  function focusAfter(draft, recorded) {
    var target;
    if (recorded) {
      target = document.querySelector("main .messages") || document.getElementById("status");
      window.scrollTo(0, 0);
    } else {
      var entry = root.querySelector('form[data-draft="' + draft + '"]');
      var scope = (entry && entry.closest("details")) || root;
      target = scope.querySelector("#verdict, .ref-form-errors, .has-error, .ref-alert") ||
        root.querySelector(".ref-alert");
    }
    if (target) {
      if (!target.hasAttribute("tabindex")) {
        target.setAttribute("tabindex", "-1");
      }
      target.focus({ preventScroll: recorded });
      if (!recorded) {
        target.scrollIntoView({ block: "center" });
      }
    }
  }

  function send(form, submitter) {
    if (form.refSending) {
      return;
    }
    saveDraft(form);
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    var action = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
    var url = new URL(action, window.location.href);
    url.hash = "";
    var tableUrl = new URL(root.dataset.tableUrl, window.location.href);
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && setTimeout(function () { controller.abort(); }, 20000);
    form.refSending = true;
    form.setAttribute("aria-busy", "true");
    showStatus(form, say("sending"), "sending");
    fetch(url.href, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "referee.js" },
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      return response.text().then(function (html) {
        return { response: response, html: html };
      });
    }).then(function (answer) {
      var response = answer.response;
      var landed = new URL(response.url);
      if (response.redirected && landed.pathname !== tableUrl.pathname) {
        showStatus(form, say("login"), "error");  // sent to the login page
        return;
      }
      if (!response.ok) {
        showStatus(form, say("error").replace("%s", response.status), "error");
        return;
      }
      var recorded = response.redirected;
      if (recorded) {
        dropDraft(form);
      }
      var draft = form.dataset.draft;
      if (!adopt(answer.html, recorded ? response.url : null)) {
        showStatus(form, say("error").replace("%s", response.status), "error");
        return;
      }
      focusAfter(draft, recorded);
    }).catch(function (error) {
      var timedOut = error && error.name === "AbortError";
      showStatus(form, say(timedOut ? "timeout" : "offline"), "error");
      var status = sendStatus(form);
      status.setAttribute("tabindex", "-1");
    }).then(function () {
      clearTimeout(timer);
      form.refSending = false;
      form.removeAttribute("aria-busy");
    });
  }

  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset.draft || !window.fetch || !window.FormData || !window.DOMParser) {
      return;
    }
    event.preventDefault();
    forgetBreakdown();
    send(form, event.submitter);
  });

  // The live part says how many hands the table has: more or fewer than this page shows
  // means somebody else entered or removed one.
  root.addEventListener("live:updated", function (event) {
    var facts = event.target.querySelector && event.target.querySelector("[data-hands-played]");
    var changed = document.getElementById("table-changed");
    if (facts && changed) {
      changed.hidden = facts.getAttribute("data-hands-played") === root.dataset.hands;
    }
  });

  init(root);
  restoreDrafts();
  var full = document.getElementById("full-form");
  if (full && full.elements.tiles && full.elements.tiles.value.trim() &&
      !full.querySelector("#breakdown > *")) {
    askBreakdown(full);
  }
})();
