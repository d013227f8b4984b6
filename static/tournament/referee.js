/* The referee's table screen, made quicker to use with a script; every form works without it.
 *
 * - A tile picker fills the full entry's notation box, one tap per tile, with the tiles of the
 *   hand calculator.
 * - Choosing a winner greys out the same player as discarder, and the winner and the
 *   discarder among the further winners on the same discard (WA).
 * - (A fan value tapped or typed: fan_pick.js, shared with the organiser's correction.)
 * - The two situation flags that depend on it say which case applies: on a discard or
 *   self-drawn.
 * - The full entry's breakdown is asked for as the hand is built (htmx, see #breakdown in the
 *   template); this script only says when it is unavailable.
 * - What is typed is kept as a draft until it is recorded (see "Nothing typed is lost").
 * - (A box being typed in is kept above a phone's on-screen keyboard: keep_in_view.js.)
 *
 * htmx sends the entry forms and replaces the page's <main> with the answer; the listeners
 * are on the document, so they outlive that.
 */
(function () {
  "use strict";

  var root = document.getElementById("referee");
  if (!root) {
    return;
  }
  var tableUrl = new URL(root.dataset.tableUrl, window.location.href);

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
      // A preset's own flag keeps its label (JT and WA name the discard case apart).
      var input = form.querySelector('input[name="' + name + '"]:not([data-fixed-label])');
      var label = input && input.parentNode.querySelector("span");
      var text = say(FLAG_LABELS[name][selfDrawn]);
      if (label && text) {
        label.textContent = text;
      }
    });
  }

  // Further winners on the same discard (WA): not the winner, not the discarder, and nobody
  // on a self-drawn win; their boxes are emptied and disabled (the server refuses them too).
  function syncAlso(form) {
    var winner = form.querySelector('input[name="winner"]:checked');
    var discarder = form.querySelector('input[name="discarder"]:checked');
    form.querySelectorAll('input[name^="also_"]').forEach(function (box) {
      var key = box.name.replace(/^also_(tiles_)?/, "");
      var out = (winner !== null && key === winner.value) ||
        (discarder !== null && (discarder.value === "self" || key === discarder.value));
      if (out && box.value !== "") {
        box.value = "";
      }
      box.disabled = out;
    });
  }

  function initChoices(scope) {
    scope.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector('input[name="discarder"]')) {
        syncDiscarder(form);
        syncFlags(form);
        syncAlso(form);
      }
    });
  }

  document.addEventListener("change", function (event) {
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
    if (event.target.name === "winner" || event.target.name === "discarder") {
      syncAlso(form);
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

  document.addEventListener("click", function (event) {
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

  // The tile buttons, made from each row's data-tiles ("code|face|hint|spoken name;" per tile):
  // without the script there is no picker, so the page does not carry them.
  function tileButton(entry) {
    var parts = entry.split("|");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "tile";
    button.dataset.tile = parts[0];
    button.setAttribute("aria-label", parts[3]);
    ["tile-face", "tile-hint"].forEach(function (name, index) {
      var span = document.createElement("span");
      span.className = name;
      span.textContent = parts[index + 1];
      if (index) {
        span.setAttribute("aria-hidden", "true");
      }
      button.appendChild(span);
    });
    return button;
  }

  function initPicker(scope) {
    var picker = scope.querySelector("#tile-picker");
    if (!picker) {
      return;
    }
    picker.querySelectorAll(".ref-picker-row[data-tiles]").forEach(function (row) {
      row.dataset.tiles.split(";").filter(Boolean).forEach(function (entry) {
        row.appendChild(tileButton(entry));
      });
      row.removeAttribute("data-tiles");
    });
    picker.hidden = false;
  }

  // ----- The breakdown as the hand is built ------------------------------------------------
  //
  // htmx sends the full entry's form as a Check after a pause in typing (the server answers
  // the breakdown alone, scored for the chosen winner's seat wind); a newer request replaces
  // an older one, so only the newest answer is shown. Nothing is asked before a tile is typed.

  // The element whose request an htmx event is about (some events are sent to the target).
  function requester(detail) {
    return (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
  }

  function breakdownOf(detail) {
    var element = requester(detail);
    return element && element.id === "breakdown" ? element : null;
  }

  function syncSave(form) {
    var save = form.querySelector('button[name="action"][value="save"]');
    var region = form.querySelector("#breakdown");
    if (save && region) {
      save.hidden = region.querySelector("[data-false-win]") !== null;
    }
  }

  function breakdownUnavailable(region) {
    var note = document.createElement("p");
    note.className = "ref-breakdown-note";
    note.textContent = say("breakdownOffline");
    region.replaceChildren(note);
    region.setAttribute("data-state", "offline");
    syncSave(region.closest("form"));
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var region = breakdownOf(event.detail);
    if (region && !region.closest("form").elements.tiles.value.trim()) {
      event.preventDefault();
      region.replaceChildren();
      region.removeAttribute("data-state");
      syncSave(region.closest("form"));
    } else if (region) {
      region.setAttribute("aria-busy", "true");
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var region = breakdownOf(event.detail);
    if (region) {
      region.removeAttribute("aria-busy");
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var region = breakdownOf(event.detail);
    if (region && event.detail.xhr.getResponseHeader("X-Referee-Fragment") !== "verdict") {
      event.detail.shouldSwap = false;  // an error, or the login page
      breakdownUnavailable(region);
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var region = breakdownOf(event.detail);
    if (region) {
      region.removeAttribute("data-state");
      syncSave(region.closest("form"));
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var region = breakdownOf(event.detail);
      if (region) {
        breakdownUnavailable(region);
      }
    });
  });

  // ----- Nothing typed is lost ------------------------------------------------------------
  //
  // Every entry form carries a submission key made by the server. What is typed is saved in
  // localStorage (per table and form, key included) as it is typed, and put back when the page
  // is opened again. htmx sends the forms: when the connection fails, a banner says so and
  // everything stays, key included, so that pressing Record again either records the entry
  // or, if the first attempt did reach the server, is recognised as already recorded.

  var draftScope = root.dataset.draftScope;
  var PREFIX = "mcr-referee-draft:";
  var MAX_AGE = 12 * 3600 * 1000;

  function say(name) {
    var texts = document.getElementById("ref-texts");
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

  // `lost`: the draft was left by a send that failed (no connection, no answer, an error, the
  // login page); kept until the draft is dropped, so that the note put back on reopening says
  // why it is there.
  function saveDraft(form, lost) {
    var before = readDraft(form);
    lost = Boolean(lost || (before && before.lost));
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") {
        fields.push([name, value]);
      }
    });
    try {
      window.localStorage.setItem(
        storageKey(form),
        JSON.stringify({ saved: Date.now(), fields: fields, lost: lost })
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

  function draftNote(form, lost) {
    var note = document.createElement("div");
    note.className = "ref-draft-note";
    note.setAttribute("role", "status");
    var words = document.createElement("p");
    words.textContent = say(lost ? "restoredLost" : "restored");
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
      draftNote(form, draft.lost);
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

  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = event.target.form;
      if (form && form.dataset.draft) {
        saveDraft(form);
      }
    });
  });

  // htmx sends an entry form (hx-post) and puts the <main> of the answer in place of this
  // page's: the table screen again, with a message after a recording, or the form with what
  // was refused. What htmx leaves to us: the draft, the banners, the address, the focus.

  function sentForm(event) {
    var form = requester(event.detail);
    return form && form.dataset && form.dataset.draft ? form : null;
  }

  function onForm(name, handler) {
    document.addEventListener(name, function (event) {
      var form = sentForm(event);
      if (form) {
        handler(form, event.detail, event);
      }
    });
  }

  onForm("htmx:configRequest", function (form, detail) {
    detail.path = detail.path.split("#")[0];  // the focus, not the address, shows the answer
  });

  onForm("htmx:beforeRequest", function (form) {
    saveDraft(form);
    var region = form.querySelector("#breakdown");
    if (region) {
      htmx.trigger(region, "htmx:abort");  // a breakdown still on its way is of no use now
    }
    form.setAttribute("aria-busy", "true");
    showStatus(form, say("sending"), "sending");
  });

  onForm("htmx:beforeSwap", function (form, detail) {
    var xhr = detail.xhr;
    var landed = new URL(xhr.responseURL || tableUrl.href);
    var asked = new URL(detail.pathInfo.finalRequestPath, window.location.href);
    var redirected = landed.pathname !== asked.pathname;
    if (redirected && landed.pathname !== tableUrl.pathname) {
      detail.shouldSwap = false;
      saveDraft(form, true);
      showStatus(form, say("login"), "error");  // sent to the login page
    } else if (xhr.status >= 400 || detail.serverResponse.indexOf('id="referee"') < 0) {
      detail.shouldSwap = false;
      saveDraft(form, true);
      showStatus(form, say("error").replace("%s", xhr.status), "error");
    } else {
      form.refRecorded = redirected;  // post/redirect/get: the entry was recorded
      if (redirected) {
        dropDraft(form);
      }
      // The new entries go in before the old ones leave: one open entry of the old page would
      // close the new page's (one <details name="entry"> is open at a time).
      document.querySelectorAll("main details[name][open]").forEach(function (details) {
        details.open = false;
      });
    }
  });

  onForm("htmx:afterSwap", function (form, detail) {
    var recorded = form.refRecorded;
    // The address stays the table screen's (a reload posts nothing).
    window.history.replaceState(null, "", recorded ? detail.xhr.responseURL : tableUrl.href);
    init(document.getElementById("referee"));
    focusAfter(form.dataset.draft, recorded);
  });

  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    onForm(name, function (form) {
      saveDraft(form, true);
      showStatus(form, say(name === "htmx:timeout" ? "timeout" : "offline"), "error");
      sendStatus(form).setAttribute("tabindex", "-1");
    });
  });

  onForm("htmx:afterRequest", function (form) {
    form.removeAttribute("aria-busy");
  });

  function focusAfter(draft, recorded) {
    var screen = document.getElementById("referee");
    var target;
    if (recorded) {
      // The screen opens at the message and the next entry, as the redirect's #next does
      // without the script: on a phone the winner's buttons are then in view.
      var next = document.getElementById("next");
      target = document.querySelector("main .messages") || next || document.getElementById("status");
      if (next) {
        next.scrollIntoView({ block: "start" });
      } else {
        window.scrollTo(0, 0);
      }
    } else {
      var entry = screen.querySelector('form[data-draft="' + draft + '"]');
      var scope = (entry && entry.closest("details")) || screen;
      target = scope.querySelector("#verdict, .ref-form-errors, .has-error, .ref-alert") ||
        screen.querySelector(".ref-alert");
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

  // The live part says how many hands the table has: more or fewer than this page shows
  // means somebody else entered or removed one.
  document.addEventListener("live:updated", function (event) {
    var facts = event.target.querySelector && event.target.querySelector("[data-hands-played]");
    var changed = document.getElementById("table-changed");
    var screen = document.getElementById("referee");
    if (facts && changed && screen) {
      changed.hidden = facts.getAttribute("data-hands-played") === screen.dataset.hands;
    }
  });

  init(root);
  restoreDrafts();
  // A restored full entry gets its breakdown once htmx has set the page up.
  document.addEventListener("DOMContentLoaded", function () {
    var full = document.getElementById("full-form");
    var region = full && full.querySelector("#breakdown");
    if (region && full.elements.tiles.value.trim() && !region.firstElementChild) {
      htmx.trigger(region, "breakdown:ask");
    }
  });
})();

