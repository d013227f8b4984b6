/* Hand calculator: build a hand by tapping tiles, under MCR, Japanese Transitional or
 * Wilmington (the rule-set switch; Wilmington adds the joker J, one per hand).
 *
 * The hand lives in `state`; every change writes it to the compact-notation box and asks for
 * the verdict: htmx posts the form to the server (the verdict box's hx-post) and swaps in the
 * verdict it renders (scoring/_verdict.html, the template the page uses without JavaScript).
 * Typing in the box works the other way round. Without this script the page still works as
 * a plain form scored on the server.
 */
(function () {
  "use strict";

  var root = document.getElementById("calculator");
  if (!root || !window.htmx || !window.JSON) {
    return;
  }

  var form = document.getElementById("calc-form");
  var handInput = form.elements.hand;
  var verdictBox = document.getElementById("calc-verdict");
  var summary = document.getElementById("calc-summary");
  var notice = document.getElementById("calc-notice");
  var bar = document.getElementById("calc-bar");
  var wideScreen = window.matchMedia("(min-width: 56rem)");
  var countBox = document.getElementById("calc-count");
  var standingBox = document.getElementById("calc-standing");
  var meldsBox = document.getElementById("calc-melds");
  var winBox = document.getElementById("calc-win");
  var modeHelp = document.getElementById("calc-mode-help");
  // Django's JavaScript catalog (loaded before this script) translates; without it, English.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) {
      return String(values[match.slice(2, -2)]);
    });
  };
  var setKinds = readJson("calc-set-kinds");

  var SUIT_ORDER = { m: 0, p: 1, s: 2 };
  // J, the Wilmington joker, is written like an honour and sorts last.
  var HONOR_ORDER = "ESWNCFPJ";
  var JOKER = "J";
  var MELD_NAMES = {
    chow: gettext("declared chow"),
    pung: gettext("declared pung"),
    kong: gettext("melded kong"),
    concealed_kong: gettext("concealed kong")
  };
  var MODE_HELP = {
    tile: gettext("Tap a tile to add it to the standing tiles. With a full hand, the last tile added is the winning tile."),
    chow: gettext("Tap the lowest tile of the chow: 3m adds 3m 4m 5m."),
    pung: gettext("Tap a tile to add a declared pung of it."),
    kong: gettext("Tap a tile to add a melded (exposed) kong of it."),
    concealed_kong: gettext("Tap a tile to add a concealed kong of it."),
    win: gettext("Tap the tile the hand was won on.")
  };

  // Labels of every tile, read from the picker buttons the server rendered.
  var TILES = {};
  root.querySelectorAll(".calc-picker .tile").forEach(function (button) {
    TILES[button.dataset.tile] = {
      face: button.dataset.face,
      hint: button.dataset.hint,
      name: button.dataset.name
    };
  });

  // standing: tiles in the order tapped; melds: {kind, tiles}; win: an explicit winning tile.
  var state = { standing: [], melds: [], win: null };
  var typingTimer = null;

  function readJson(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : {};
  }

  // ----- Tiles and notation -------------------------------------------------------------

  function isHonor(code) {
    return code.length === 1;
  }

  function tileSortKey(code) {
    if (isHonor(code)) {
      return 30 + HONOR_ORDER.indexOf(code);
    }
    return SUIT_ORDER[code[1]] * 10 + Number(code[0]);
  }

  function sortTiles(tiles) {
    return tiles.slice().sort(function (a, b) {
      return tileSortKey(a) - tileSortKey(b);
    });
  }

  // Write sorted tiles as the notation groups them: "2345p 78s EE".
  function writeTiles(tiles) {
    var parts = [];
    var run = "";
    var runSuit = null;
    sortTiles(tiles).forEach(function (code) {
      var suit = isHonor(code) ? "z" : code[1];
      if (suit !== runSuit && run) {
        parts.push(runSuit === "z" ? run : run + runSuit);
        run = "";
      }
      runSuit = suit;
      run += isHonor(code) ? code : code[0];
    });
    if (run) {
      parts.push(runSuit === "z" ? run : run + runSuit);
    }
    return parts.join(" ");
  }

  function writeCompact(hand) {
    var parts = [];
    if (hand.standing.length) {
      parts.push(writeTiles(hand.standing));
    }
    hand.melds.forEach(function (meld) {
      var inner = writeTiles(meld.tiles).replace(/ /g, "");
      parts.push(meld.kind === "concealed_kong" ? "(" + inner + ")" : "[" + inner + "]");
    });
    if (hand.win) {
      parts.push(hand.win);
    }
    return parts.join(" ");
  }

  // Read tiles like "123m55pEE" into codes; null when the text is not tiles.
  function readTiles(text) {
    var tiles = [];
    var pattern = /(\d+)([mps])|([ESWNCFPJ])|(\s+)/y;
    var match;
    while (pattern.lastIndex < text.length) {
      match = pattern.exec(text);
      if (!match) {
        return null;
      }
      if (match[1]) {
        for (var i = 0; i < match[1].length; i++) {
          if (match[1][i] === "0") {
            return null;
          }
          tiles.push(match[1][i] + match[2]);
        }
      } else if (match[3]) {
        tiles.push(match[3]);
      }
    }
    return tiles;
  }

  function meldKind(tiles, concealed) {
    if (tiles.indexOf(JOKER) !== -1) {
      return null;  // a declared set with the joker: shown as text, scored by the server
    }
    var sorted = sortTiles(tiles);
    var same = sorted.every(function (code) {
      return code === sorted[0];
    });
    if (concealed) {
      return sorted.length === 4 && same ? "concealed_kong" : null;
    }
    if (same && sorted.length === 3) {
      return "pung";
    }
    if (same && sorted.length === 4) {
      return "kong";
    }
    if (sorted.length === 3 && !isHonor(sorted[0]) && sorted.every(function (code, i) {
      return code[1] === sorted[0][1] && Number(code[0]) === Number(sorted[0][0]) + i;
    })) {
      return "chow";
    }
    return null;
  }

  // Read compact notation into a hand; null when the page cannot show it as tiles (the
  // server still scores the text and explains what is wrong).
  function readCompact(text) {
    var hand = { standing: [], melds: [], win: null };
    var pattern = /\[([^\]]*)\]|\(([^)]*)\)|([^[\]()]+)/y;
    var match;
    var loose = [];
    while (pattern.lastIndex < text.length) {
      match = pattern.exec(text);
      if (!match) {
        return null;
      }
      if (match[3] !== undefined) {
        var tiles = readTiles(match[3]);
        if (tiles === null) {
          return null;
        }
        loose = loose.concat(tiles);
        continue;
      }
      var concealed = match[2] !== undefined;
      var meldTiles = readTiles(concealed ? match[2] : match[1]);
      var kind = meldTiles && meldKind(meldTiles, concealed);
      if (!kind) {
        return null;
      }
      hand.melds.push({ kind: kind, tiles: sortTiles(meldTiles) });
    }
    if (loose.length) {
      hand.win = loose.pop();
    }
    hand.standing = loose;
    return hand;
  }

  // ----- The hand -------------------------------------------------------------------------

  function standingNeeded() {
    return 13 - 3 * state.melds.length;
  }

  // The hand as scored: with a full hand and no chosen winning tile, the last tile tapped.
  function effectiveHand() {
    var standing = state.standing.slice();
    var win = state.win;
    var implicit = false;
    if (!win && standing.length === standingNeeded() + 1) {
      win = standing.pop();
      implicit = true;
    }
    return { standing: standing, melds: state.melds, win: win, implicitWin: implicit };
  }

  function tileCount() {
    return state.standing.length + 3 * state.melds.length + (state.win ? 1 : 0);
  }

  function copiesUsed(code) {
    var all = state.standing.concat(state.win ? [state.win] : []);
    state.melds.forEach(function (meld) {
      all = all.concat(meld.tiles);
    });
    return all.filter(function (tile) {
      return tile === code;
    }).length;
  }

  function mode() {
    var checked = root.querySelector('input[name="mode"]:checked');
    return checked ? checked.value : "tile";
  }

  function meldTiles(kind, code) {
    if (kind === "chow") {
      if (isHonor(code) || Number(code[0]) > 7) {
        return null;
      }
      var rank = Number(code[0]);
      return [rank + code[1], rank + 1 + code[1], rank + 2 + code[1]];
    }
    var size = kind === "pung" ? 3 : 4;
    return Array(size).fill(code);
  }

  // How many copies of a tile a hand can hold: four, and one joker.
  function copiesAllowed(code) {
    return code === JOKER ? 1 : 4;
  }

  // Apply one tap on a picker tile; returns a message when the tap was refused.
  function addTile(code) {
    var current = mode();
    if (code === JOKER) {
      if (current !== "tile") {
        return gettext("The joker is added as a standing tile; for a declared set with the joker, type it in the notation box.");
      }
      if (copiesUsed(JOKER) >= 1) {
        return gettext("The hand already holds its joker.");
      }
    }
    if (current === "tile") {
      if (tileCount() >= 14) {
        return gettext("The hand is full. Take a tile out first.");
      }
      if (copiesUsed(code) >= 4) {
        return interpolate(gettext("All four %(tile)s are already in the hand."), { tile: code }, true);
      }
      state.standing.push(code);
      return "";
    }
    if (current === "win") {
      var without = tileCount() - (state.win ? 1 : 0);
      if (without >= 14) {
        return gettext("The hand is full. Take a tile out first, then choose the winning tile.");
      }
      if (copiesUsed(code) - (state.win === code ? 1 : 0) >= 4) {
        return interpolate(gettext("All four %(tile)s are already in the hand."), { tile: code }, true);
      }
      state.win = code;
      return "";
    }
    var tiles = meldTiles(current, code);
    if (!tiles) {
      return gettext("A chow starts on a suit tile from 1 to 7: tap its lowest tile.");
    }
    if (tileCount() + 3 > 14) {
      return gettext("There is no room for another set. Take tiles out first.");
    }
    var tooMany = tiles.filter(function (tile) {
      return copiesUsed(tile) + tiles.filter(function (t) { return t === tile; }).length > 4;
    });
    if (tooMany.length) {
      return interpolate(gettext("There are not enough %(tile)s left for that set."), { tile: tooMany[0] }, true);
    }
    state.melds.push({ kind: current, tiles: tiles });
    return "";
  }

  // ----- Drawing ----------------------------------------------------------------------------

  function tileChip(code, label, onRemove, extraClass) {
    var info = TILES[code] || { face: code, hint: "", name: code };
    var button = document.createElement("button");
    button.type = "button";
    button.className = "tile tile--small" + (extraClass ? " " + extraClass : "");
    button.dataset.tile = code;
    button.setAttribute("aria-label", label + " " + info.name);
    var face = document.createElement("span");
    face.className = "tile-face";
    face.textContent = info.face;
    var hint = document.createElement("span");
    hint.className = "tile-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = info.hint;
    button.appendChild(face);
    button.appendChild(hint);
    button.addEventListener("click", function () {
      var box = button.closest(".calc-tiles");
      onRemove();
      // The tapped tile is gone: keep keyboard focus in the same row, or on Clear.
      var next = box.querySelector(".tile") || document.getElementById("calc-clear");
      next.focus();
    });
    return button;
  }

  function removeStandingAt(index) {
    return function () {
      state.standing.splice(index, 1);
      changed();
    };
  }

  function drawHand() {
    var hand = effectiveHand();
    standingBox.textContent = "";
    meldsBox.textContent = "";
    winBox.textContent = "";

    // Standing tiles sorted for reading, each removing its own tapped copy.
    var order = state.standing.map(function (code, index) {
      return { code: code, index: index };
    });
    if (hand.implicitWin) {
      order.pop();
    }
    order.sort(function (a, b) {
      return tileSortKey(a.code) - tileSortKey(b.code) || a.index - b.index;
    });
    order.forEach(function (item) {
      standingBox.appendChild(tileChip(item.code, gettext("Remove"), removeStandingAt(item.index)));
    });

    state.melds.forEach(function (meld, index) {
      var group = document.createElement("span");
      group.className = "meld meld--" + meld.kind;
      var label = document.createElement("span");
      label.className = "meld-kind";
      label.textContent = meld.kind === "concealed_kong" ? gettext("concealed") : (setKinds[meld.kind] || meld.kind).toLowerCase();
      group.appendChild(label);
      meld.tiles.forEach(function (code) {
        group.appendChild(tileChip(code, interpolate(gettext("Remove %(set)s with"), { set: MELD_NAMES[meld.kind] }, true), function () {
          state.melds.splice(index, 1);
          changed();
        }));
      });
      meldsBox.appendChild(group);
    });

    if (hand.win) {
      winBox.appendChild(tileChip(hand.win, gettext("Remove winning tile"), function () {
        if (hand.implicitWin) {
          state.standing.pop();
        } else {
          state.win = null;
        }
        changed();
      }, "tile--win"));
      if (hand.implicitWin) {
        var note = document.createElement("span");
        note.className = "calc-note";
        note.textContent = gettext("the last tile added");
        winBox.appendChild(note);
      }
    }
    emptyNote(standingBox, gettext("none"));
    emptyNote(meldsBox, gettext("none"));
    emptyNote(winBox, gettext("not chosen yet"));

    countBox.textContent = interpolate(gettext("%(count)s of 14 tiles"), { count: tileCount() }, true);
    root.querySelectorAll(".calc-picker .tile").forEach(function (button) {
      var exhausted = copiesUsed(button.dataset.tile) >= copiesAllowed(button.dataset.tile);
      button.disabled = exhausted;
      button.title = exhausted ? gettext("All four are in the hand") : "";
    });
  }

  function emptyNote(box, text) {
    if (!box.childNodes.length) {
      var note = document.createElement("span");
      note.className = "calc-note";
      note.textContent = text;
      box.appendChild(note);
    }
  }

  // The bar shows the verdict's one line, which the server put in the verdict (hidden).
  function drawSummary() {
    var line = verdictBox.querySelector(".verdict-summary");
    summary.textContent = line ? line.textContent : "";
    var kind = line ? line.dataset.summaryKind : "";
    summary.className = "calc-summary" + (kind ? " calc-summary--" + kind : "");
    drawBar();
  }

  // No verdict came back: say so from the page's own template (in the page's language).
  function drawFailure(templateId) {
    verdictBox.textContent = "";
    verdictBox.appendChild(document.getElementById(templateId).content.cloneNode(true));
    drawSummary();
  }

  function setNotice(text) {
    notice.textContent = text;
    drawBar();
  }

  // The bar at the foot of the screen shows only when it has something to say. On a wide
  // screen the score column is always in view, so the bar only carries refusals.
  function drawBar() {
    var summaryShown = summary.textContent && !wideScreen.matches;
    bar.hidden = !summaryShown && !notice.textContent;
  }

  // ----- Scoring ----------------------------------------------------------------------------

  function preset() {
    // The rule set chosen; none checked: the first offered (the form's default).
    var checked = form.querySelector('input[name="preset"]:checked') ||
      form.querySelector('input[name="preset"]');
    return checked ? checked.value : "";
  }

  // Show the fields of the rule set in force only.
  function drawPreset() {
    var current = preset();
    root.querySelectorAll("[data-preset-only]").forEach(function (node) {
      node.hidden = node.dataset.presetOnly.split(" ").indexOf(current) === -1;
    });
  }

  function drawSituationLabels() {
    var selfDrawn = form.elements.self_drawn.checked;
    document.getElementById("kong-label").textContent =
      selfDrawn ? gettext("Out with replacement tile") : gettext("Robbing the kong");
    document.getElementById("wall-label").textContent =
      selfDrawn ? gettext("Last tile draw") : gettext("Last tile claim");
  }

  function rememberInAddress() {
    if (!window.history || !window.URLSearchParams) {
      return;
    }
    var query = handInput.value.trim() ? "?" + new URLSearchParams(new FormData(form)) : "";
    window.history.replaceState(null, "", window.location.pathname + query);
  }

  // Ask for the verdict on the form as it is now. While one is on its way htmx keeps only the
  // latest ask and sends it once that answer is in (hx-sync "queue last"): the verdict shown
  // is always the last hand's, and no answer is thrown away half-received.
  function score() {
    rememberInAddress();
    window.htmx.trigger(verdictBox, "calc:score");
  }

  // Show the typed notation as tiles when the page can read it.
  function readTypedHand() {
    var hand = readCompact(handInput.value);
    if (hand) {
      state = hand;
      drawHand();
    }
  }

  // The tiles changed: redraw, rewrite the notation box and score.
  function changed() {
    drawHand();
    handInput.value = writeCompact(effectiveHand());
    score();
  }

  // ----- Events -----------------------------------------------------------------------------

  root.querySelectorAll(".calc-picker .tile").forEach(function (button) {
    button.addEventListener("click", function () {
      var refusal = addTile(button.dataset.tile);
      setNotice(refusal);
      if (!refusal) {
        changed();
      }
    });
  });

  root.querySelectorAll('input[name="mode"]').forEach(function (radio) {
    radio.addEventListener("change", function () {
      modeHelp.textContent = MODE_HELP[mode()];
      setNotice("");
    });
  });

  document.getElementById("calc-clear").addEventListener("click", function () {
    state = { standing: [], melds: [], win: null };
    setNotice("");
    changed();
  });

  // Typing in the notation box: show the tiles when the text reads as tiles, and score the
  // text as typed either way so the server can explain a mistake.
  handInput.addEventListener("input", function () {
    window.clearTimeout(typingTimer);
    typingTimer = window.setTimeout(function () {
      readTypedHand();
      score();
    }, 350);
  });

  form.addEventListener("change", function (event) {
    if (event.target === handInput) {
      return;
    }
    drawPreset();
    drawSituationLabels();
    score();
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(typingTimer);
    readTypedHand();
    score();
  });

  verdictBox.addEventListener("htmx:afterSwap", drawSummary);
  verdictBox.addEventListener("htmx:sendError", function () {
    drawFailure("calc-unreachable");
  });
  verdictBox.addEventListener("htmx:timeout", function () {
    drawFailure("calc-unreachable");
  });
  verdictBox.addEventListener("htmx:responseError", function () {
    drawFailure("calc-refused");
  });

  // ----- Start ------------------------------------------------------------------------------

  // htmx starts on the page once it is loaded; the verdict box must listen from the first tap.
  window.htmx.process(verdictBox);
  root.querySelectorAll(".calc-js-only").forEach(function (node) {
    node.hidden = false;
  });
  if (wideScreen.addEventListener) {
    wideScreen.addEventListener("change", drawBar);
  }
  modeHelp.textContent = MODE_HELP[mode()];
  drawPreset();
  drawSituationLabels();
  readTypedHand();
  drawHand();
  // A hand in the address was scored with the page; its verdict is already there.
  drawSummary();
})();
