/* Hand calculator: build a hand by tapping tiles and score it through POST /api/score, under
 * MCR, Japanese Transitional or Wilmington (the rule-set switch; Wilmington adds the joker J,
 * one per hand).
 *
 * The hand lives in `state`; every change writes it to the compact-notation box, posts it
 * to the API and shows the answer. Typing in the box works the other way round. Without
 * this script the page still works as a plain form scored on the server.
 */
(function () {
  "use strict";

  var root = document.getElementById("calculator");
  if (!root || !window.fetch || !window.JSON) {
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
  var errorTitles = readJson("calc-error-titles");
  // Django's JavaScript catalog (loaded before this script) translates; without it, English.
  var gettext = window.gettext || function (text) { return text; };
  var pgettext = window.pgettext || function (context, text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) {
      return String(values[match.slice(2, -2)]);
    });
  };
  var setKinds = readJson("calc-set-kinds");
  var profileLabels = readJson("calc-profile-labels");
  var unitFormats = readJson("calc-unit-formats");

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
  var requestNumber = 0;
  // False while the notation box holds text the page could not read as tiles.
  var stateMatchesText = true;
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

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function drawVerdict(status, body) {
    verdictBox.textContent = "";
    var missing = 14 - tileCount();
    if (status !== 200 && body.error === "WRONG_TILE_COUNT" && missing > 0 && stateMatchesText) {
      // Still building the hand: say how far along it is, not that something is wrong.
      var progress = interpolate(
        gettext("%(count)s of 14 tiles: add %(missing)s more."),
        { count: tileCount(), missing: missing },
        true
      );
      var pending = element("div", "verdict verdict--pending");
      pending.appendChild(element("p", "verdict-title", gettext("The hand is not complete yet")));
      pending.appendChild(element("p", "verdict-message", progress));
      verdictBox.appendChild(pending);
      summary.textContent = progress;
      summary.className = "calc-summary";
      drawBar();
      return;
    }
    if (status !== 200) {
      var box = element("div", "verdict verdict--error");
      var title = errorTitles[body.error] || gettext("The hand could not be scored");
      box.appendChild(element("p", "verdict-title", title));
      if (body.message) {
        box.appendChild(element("p", "verdict-message", body.message));
      }
      verdictBox.appendChild(box);
      summary.textContent = title + ".";
      summary.className = "calc-summary calc-summary--error";
      drawBar();
      return;
    }
    if (body.preset === "jt") {
      drawJtVerdict(body);
      return;
    }
    if (body.preset === "wa") {
      drawWaVerdict(body);
      return;
    }
    var win = body.meets_minimum;
    var verdict = element("div", "verdict " + (win ? "verdict--win" : "verdict--false"));
    var headline = win ? gettext("Meets the 8-fan minimum") : errorTitles.BELOW_8_FAN;
    verdict.appendChild(element("p", "verdict-title", headline));

    var totals = element("dl", "verdict-totals");
    [
      [gettext("Total"), body.total, "data-total"],
      [gettext("Without flowers"), body.total_excl_flowers, "data-total-excl-flowers"],
      [gettext("Minimum"), body.minimum, null]
    ].forEach(function (row) {
      var pair = element("div");
      pair.appendChild(element("dt", "", row[0]));
      var value = element("dd", "", String(row[1]));
      if (row[2]) {
        value.setAttribute(row[2], "");
      }
      pair.appendChild(value);
      totals.appendChild(pair);
    });
    verdict.appendChild(totals);
    drawProfile(verdict, body);

    var table = element("table", "verdict-fans");
    table.appendChild(element("caption", "visually-hidden", gettext("Fans counted")));
    var head = element("thead");
    var headRow = element("tr");
    [[gettext("Fan"), ""], [gettext("Points"), "number"], [gettext("Count"), "number"]].forEach(function (col) {
      var th = element("th", col[1], col[0]);
      th.scope = "col";
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    table.appendChild(head);
    var tbody = element("tbody");
    body.fans.forEach(function (fan) {
      var row = element("tr", "fan");
      row.dataset.fan = fan.zh;
      var name = element("td");
      // The fan's name in the page's language; on an English page its Chinese name beside it.
      var chinese = /^zh/i.test(document.documentElement.lang || "");
      name.appendChild(element("span", "fan-name", chinese ? fan.zh : fan.en));
      if (!chinese) {
        name.appendChild(document.createTextNode(" "));
        var zh = element("span", "fan-zh", fan.zh);
        zh.lang = "zh-Hans";
        name.appendChild(zh);
      }
      var sets = (fan.sets || []).map(function (i) { return i + 1; }).join(", ");
      if (sets) {
        name.appendChild(element("span", "fan-sets", interpolate(gettext("sets %(numbers)s"), { numbers: sets }, true)));
      }
      row.appendChild(name);
      row.appendChild(element("td", "number fan-points", String(fan.points)));
      row.appendChild(element("td", "number fan-count", "×" + fan.count));
      tbody.appendChild(row);
    });
    if (!body.fans.length) {
      var empty = element("tr");
      var cell = element("td", "", gettext("No fan."));
      cell.colSpan = 3;
      empty.appendChild(cell);
      tbody.appendChild(empty);
    }
    table.appendChild(tbody);
    verdict.appendChild(table);
    drawComparison(verdict, body);

    if (body.arrangement && body.arrangement.length) {
      verdict.appendChild(element("h3", "verdict-subhead", gettext("Arrangement")));
      var list = element("ol", "verdict-sets");
      body.arrangement.forEach(function (group, i) {
        var item = element("li");
        item.appendChild(element("span", "set-number", String(i + 1)));
        var kind = setKinds[group.kind] || group.kind;
        if (group.declared && group.concealed) {
          kind += gettext(", concealed");
        } else if (group.declared) {
          kind += gettext(", declared");
        }
        item.appendChild(element("span", "set-kind", kind));
        var tiles = element("span", "set-tiles");
        group.tiles.forEach(function (code) {
          tiles.appendChild(miniTile(code));
        });
        item.appendChild(tiles);
        list.appendChild(item);
      });
      verdict.appendChild(list);
    }
    verdictBox.appendChild(verdict);

    summary.textContent = win
      ? interpolate(gettext("%(total)s fan: meets the 8-fan minimum."), { total: body.total }, true)
      : interpolate(
        gettext("False win: %(fan)s fan without flowers, below 8."),
        { fan: body.total_excl_flowers },
        true
      );
    summary.className = "calc-summary " + (win ? "calc-summary--win" : "calc-summary--false");
    drawBar();
  }

  // ----- Which rules scored the hand, and where the other rules differ -----------------------
  // The same markup as scoring/_verdict.html.

  function profileLabel(key) {
    return profileLabels[key] || key;
  }

  function drawProfile(verdict, body) {
    var line = element("p", "verdict-profile", interpolate(
      gettext("Scored by the %(rules)s."), { rules: profileLabel(body.profile) }, true
    ));
    line.dataset.profile = body.profile;
    verdict.appendChild(line);
  }

  function drawComparison(verdict, body) {
    var other = body.comparison;
    if (!other || !other.differences.length) {
      return;
    }
    var box = element("section", "verdict-compare");
    box.dataset.compare = other.profile;
    box.appendChild(element("h3", "verdict-subhead", interpolate(
      gettext("Under the %(rules)s these tiles score differently"),
      { rules: profileLabel(other.profile) },
      true
    )));
    var totals = element("dl", "verdict-totals verdict-compare-totals");
    [[body.profile, body.total], [other.profile, other.total]].forEach(function (row) {
      var pair = element("div");
      pair.appendChild(element("dt", "", profileLabel(row[0])));
      var value = element("dd", "", String(row[1]));
      value.dataset.compareTotal = row[0];
      pair.appendChild(value);
      totals.appendChild(pair);
    });
    box.appendChild(totals);
    var otherMeets = other.error === null;
    if (otherMeets !== body.meets_minimum) {
      box.appendChild(element("p", "verdict-message", otherMeets
        ? gettext("Under those rules the hand meets the 8-fan minimum.")
        : gettext("Under those rules the hand is below the 8-fan minimum: a false win.")));
    }
    var table = element("table", "verdict-fans verdict-compare-fans");
    table.appendChild(element("caption", "visually-hidden", gettext("Fans counted differently")));
    var head = element("thead");
    var headRow = element("tr");
    [[gettext("Fan"), ""], [profileLabel(body.profile), "number"], [profileLabel(other.profile), "number"]].forEach(function (col) {
      var th = element("th", col[1], col[0]);
      th.scope = "col";
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    table.appendChild(head);
    var tbody = element("tbody");
    var chinese = /^zh/i.test(document.documentElement.lang || "");
    other.differences.forEach(function (fan) {
      var row = element("tr", "fan-difference");
      row.dataset.fan = fan.zh;
      var name = element("td");
      name.appendChild(element("span", "fan-name", chinese ? fan.zh : fan.en));
      if (!chinese) {
        name.appendChild(document.createTextNode(" "));
        var zh = element("span", "fan-zh", fan.zh);
        zh.lang = "zh-Hans";
        name.appendChild(zh);
      }
      row.appendChild(name);
      row.appendChild(element("td", "number", fan.count ? fan.points + " ×" + fan.count : "—"));
      row.appendChild(element("td", "number", fan.other_count ? fan.other_points + " ×" + fan.other_count : "—"));
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    box.appendChild(table);
    verdict.appendChild(box);
  }

  // A Japanese Transitional win: F and how it was reached, the patterns, the reading.
  function drawJtVerdict(body) {
    var verdict = element("div", "verdict verdict--win verdict--jt");
    verdict.appendChild(element("p", "verdict-title",
      body.limit ? gettext("Limit hand") : gettext("Japanese Transitional win")));
    var totals = element("dl", "verdict-totals");
    [
      [gettext("Final score"), body.final, "data-final"],
      [pgettext("JT points before doubling", "Points"), body.points, "data-points"],
      [gettext("Doubles"), body.doubles, "data-doubles"],
      [gettext("Raw score"), body.raw, "data-raw"]
    ].forEach(function (row) {
      var pair = element("div");
      pair.appendChild(element("dt", "", row[0]));
      var value = element("dd", "", String(row[1]));
      value.setAttribute(row[2], "");
      pair.appendChild(value);
      totals.appendChild(pair);
    });
    verdict.appendChild(totals);

    var table = element("table", "verdict-fans verdict-patterns");
    table.appendChild(element("caption", "visually-hidden", gettext("Patterns counted")));
    var head = element("thead");
    var headRow = element("tr");
    [[gettext("Pattern"), ""], [gettext("Value"), "number"], [gettext("Count"), "number"]].forEach(function (col) {
      var th = element("th", col[1], col[0]);
      th.scope = "col";
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    table.appendChild(head);
    var tbody = element("tbody");
    body.patterns.forEach(function (pattern) {
      var row = element("tr", "pattern");
      row.dataset.pattern = pattern.key;
      row.dataset.unit = pattern.unit;
      var name = element("td");
      name.appendChild(element("span", "fan-name", pattern.name));
      var sets = (pattern.sets || []).map(function (i) { return i + 1; }).join(", ");
      if (sets) {
        name.appendChild(element("span", "fan-sets", interpolate(gettext("sets %(numbers)s"), { numbers: sets }, true)));
      }
      row.appendChild(name);
      var format = unitFormats[pattern.unit] || "%(value)s";
      row.appendChild(element("td", "number pattern-value", interpolate(format, { value: pattern.value }, true)));
      row.appendChild(element("td", "number fan-count", "×" + pattern.count));
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    verdict.appendChild(table);

    if (body.reading.length) {
      verdict.appendChild(element("h3", "verdict-subhead", gettext("Reading")));
      var list = element("ol", "verdict-sets");
      body.reading.forEach(function (group, i) {
        var item = element("li");
        item.appendChild(element("span", "set-number", String(i + 1)));
        var kind = setKinds[group.kind] || group.kind;
        if (group.kind !== "pair") {
          kind += group.concealed ? gettext(", concealed") : gettext(", melded");
        }
        if (group.winning) {
          kind += gettext(", winning tile");
        }
        item.appendChild(element("span", "set-kind", kind));
        var tiles = element("span", "set-tiles");
        group.tiles.forEach(function (code) {
          tiles.appendChild(miniTile(code));
        });
        item.appendChild(tiles);
        list.appendChild(item);
      });
      verdict.appendChild(list);
    }
    verdictBox.appendChild(verdict);
    summary.textContent = interpolate(
      gettext("%(final)s points: %(points)s points and %(doubles)s doubles."),
      { final: body.final, points: body.points, doubles: body.doubles },
      true
    );
    summary.className = "calc-summary calc-summary--win";
    drawBar();
  }

  function miniTile(code) {
    var info = TILES[code] || { face: code, name: code };
    var mini = element("span", "mini-tile", info.face);
    mini.dataset.tile = code;
    mini.title = info.name;
    return mini;
  }

  // A Wilmington hand: its value in points (a faulty out below the minimum, with the same
  // breakdown), the joker's chosen value, the patterns and the reading.
  function drawWaVerdict(body) {
    var faulty = body.error !== null;
    var verdict = element("div", "verdict verdict--wa " + (faulty ? "verdict--false" : "verdict--win"));
    var headline = faulty
      ? errorTitles[body.error]
      : (body.limit ? gettext("Limit hand") : gettext("Meets the 15-point minimum"));
    verdict.appendChild(element("p", "verdict-title", headline));
    if (body.message) {
      verdict.appendChild(element("p", "verdict-message", body.message));
    }
    var totals = element("dl", "verdict-totals");
    [
      [gettext("Hand value"), body.final, "data-final"],
      [gettext("Total"), body.total, "data-total"],
      [gettext("Minimum"), body.minimum, null]
    ].forEach(function (row) {
      var pair = element("div");
      pair.appendChild(element("dt", "", row[0]));
      var value = element("dd", "", String(row[1]));
      if (row[2]) {
        value.setAttribute(row[2], "");
      }
      pair.appendChild(value);
      totals.appendChild(pair);
    });
    if (body.joker_as) {
      var joker = element("div");
      joker.appendChild(element("dt", "", gettext("Joker as")));
      var value = element("dd");
      value.dataset.jokerAs = body.joker_as;
      value.appendChild(miniTile(body.joker_as));
      joker.appendChild(value);
      totals.appendChild(joker);
    }
    verdict.appendChild(totals);

    var table = element("table", "verdict-fans verdict-patterns");
    table.appendChild(element("caption", "visually-hidden", gettext("Patterns counted")));
    var head = element("thead");
    var headRow = element("tr");
    [[gettext("Pattern"), ""], [pgettext("pattern value", "Points"), "number"], [gettext("Count"), "number"]].forEach(function (col) {
      var th = element("th", col[1], col[0]);
      th.scope = "col";
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    table.appendChild(head);
    var tbody = element("tbody");
    body.patterns.forEach(function (pattern) {
      var row = element("tr", "pattern");
      row.dataset.pattern = pattern.key;
      var name = element("td");
      name.appendChild(element("span", "fan-name", pattern.name));
      row.appendChild(name);
      row.appendChild(element("td", "number pattern-value", String(pattern.points)));
      row.appendChild(element("td", "number fan-count", "×" + pattern.count));
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    verdict.appendChild(table);

    if (body.reading.length) {
      verdict.appendChild(element("h3", "verdict-subhead", gettext("Reading")));
      var list = element("ol", "verdict-sets");
      body.reading.forEach(function (group, i) {
        var item = element("li");
        item.appendChild(element("span", "set-number", String(i + 1)));
        var kind = setKinds[group.kind] || group.kind;
        if (group.declared) {
          kind += gettext(", declared");
        }
        item.appendChild(element("span", "set-kind", kind));
        var tiles = element("span", "set-tiles");
        group.tiles.forEach(function (code) {
          tiles.appendChild(miniTile(code));
        });
        item.appendChild(tiles);
        list.appendChild(item);
      });
      verdict.appendChild(list);
    }
    verdictBox.appendChild(verdict);
    summary.textContent = faulty
      ? interpolate(gettext("Faulty out: %(total)s points, below %(minimum)s."), { total: body.total, minimum: body.minimum }, true)
      : interpolate(gettext("%(final)s points: meets the 15-point minimum."), { final: body.final }, true);
    summary.className = "calc-summary " + (faulty ? "calc-summary--false" : "calc-summary--win");
    drawBar();
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

  function drawEmpty() {
    verdictBox.textContent = "";
    verdictBox.appendChild(element("p", "verdict-empty", gettext("No hand yet.")));
    summary.textContent = "";
    summary.className = "calc-summary";
    drawBar();
  }

  // ----- Scoring ----------------------------------------------------------------------------

  function preset() {
    var checked = form.querySelector('input[name="preset"]:checked');
    return checked ? checked.value : "mcr";
  }

  // Show the fields of the rule set in force only.
  function drawPreset() {
    var current = preset();
    root.querySelectorAll("[data-preset-only]").forEach(function (node) {
      node.hidden = node.dataset.presetOnly.split(" ").indexOf(current) === -1;
    });
  }

  function situation() {
    var fields = form.elements;
    if (preset() === "wa") {
      var selfDrawn = fields.self_drawn.checked;
      var wa = {
        preset: "wa",
        self_drawn: selfDrawn,
        supplement_tile: fields.kong_related.checked && selfDrawn,
        robbing_kong: fields.kong_related.checked && !selfDrawn,
        last_wall_tile: fields.last_wall_tile.checked && selfDrawn,
        last_discard: fields.last_wall_tile.checked && !selfDrawn,
        last_available: fields.last_tile_of_kind.checked,
        heavenly: fields.heavenly.checked,
        earthly: fields.earthly.checked,
        four_kongs_immediate: fields.four_kongs_immediate.checked,
        thirteen_discarded_orphans: fields.thirteen_discarded_orphans.checked,
        seat_wind: fields.seat_wind.value,
        prevalent_wind: fields.prevalent_wind.value
      };
      if (fields.joker_as.value) {
        wa.joker_as = fields.joker_as.value;
      }
      return wa;
    }
    if (preset() === "jt") {
      // The kong and last-tile boxes become JT's flags by whether the win was self-drawn.
      var drawn = fields.self_drawn.checked;
      return {
        preset: "jt",
        self_drawn: drawn,
        supplement_tile: fields.kong_related.checked && drawn,
        robbing_kong: fields.kong_related.checked && !drawn,
        last_wall_tile: fields.last_wall_tile.checked && drawn,
        last_discard: fields.last_wall_tile.checked && !drawn,
        riichi: fields.riichi.checked,
        heavenly: fields.heavenly.checked,
        earthly: fields.earthly.checked,
        seat_wind: fields.seat_wind.value,
        prevalent_wind: fields.prevalent_wind.value
      };
    }
    return {
      self_drawn: fields.self_drawn.checked,
      last_tile_of_kind: fields.last_tile_of_kind.checked,
      kong_related: fields.kong_related.checked,
      last_wall_tile: fields.last_wall_tile.checked,
      seat_wind: fields.seat_wind.value,
      prevalent_wind: fields.prevalent_wind.value,
      flowers: parseInt(fields.flowers.value, 10) || 0,
      profile: fields.profile.value
    };
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

  function score(compact) {
    rememberInAddress();
    if (!compact.trim()) {
      requestNumber += 1;
      drawEmpty();
      return;
    }
    var body = situation();
    body.compact = compact;
    body.compare_profiles = true;
    var mine = ++requestNumber;
    root.classList.add("calc-busy");
    fetch(root.dataset.apiUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body)
    })
      .then(function (response) {
        return response.json().then(function (data) {
          return { status: response.status, data: data };
        });
      })
      .then(function (answer) {
        if (mine === requestNumber) {
          drawVerdict(answer.status, answer.data);
        }
      })
      .catch(function () {
        if (mine === requestNumber) {
          drawVerdict(0, {
            error: "",
            message: gettext("The calculator could not reach the server. Check the connection and try again.")
          });
        }
      })
      .then(function () {
        if (mine === requestNumber) {
          root.classList.remove("calc-busy");
        }
      });
  }

  // Show the typed notation as tiles when the page can read it.
  function readTypedHand() {
    var hand = readCompact(handInput.value);
    stateMatchesText = hand !== null;
    if (hand) {
      state = hand;
      drawHand();
    }
  }

  // The tiles changed: redraw, rewrite the notation box and score.
  function changed() {
    stateMatchesText = true;
    drawHand();
    handInput.value = writeCompact(effectiveHand());
    score(handInput.value);
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
      score(handInput.value);
    }, 350);
  });

  form.addEventListener("change", function (event) {
    if (event.target === handInput) {
      return;
    }
    drawPreset();
    drawSituationLabels();
    score(handInput.value);
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(typingTimer);
    readTypedHand();
    score(handInput.value);
  });

  // ----- Start ------------------------------------------------------------------------------

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
  if (handInput.value.trim()) {
    score(handInput.value);
  }
})();
