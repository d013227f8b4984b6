/* The referee's table screen, made quicker to use with a script; every form works without it.
 *
 * - A tile picker fills the full entry's notation box, one tap per tile, with the tiles of the
 *   fan calculator.
 * - Choosing a winner greys out the same player as discarder.
 * - The two situation flags that depend on it say which case applies: on a discard or
 *   self-drawn.
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

  var FLAG_LABELS = {
    kong_related: ["Robbing the kong", "Out with replacement tile"],
    last_wall_tile: ["Last tile claim", "Last tile draw"]
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
      if (label) {
        label.textContent = FLAG_LABELS[name][selfDrawn];
      }
    });
  }

  root.querySelectorAll("form").forEach(function (form) {
    if (!form.querySelector('input[name="discarder"]')) {
      return;
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "winner") {
        syncDiscarder(form);
      }
      if (event.target.name === "discarder") {
        syncFlags(form);
      }
    });
    syncDiscarder(form);
    syncFlags(form);
  });

  // ----- Tile picker --------------------------------------------------------------------------

  var picker = document.getElementById("tile-picker");
  var fullForm = document.getElementById("full-form");
  if (!picker || !fullForm) {
    return;
  }
  var box = fullForm.elements.tiles;

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

  function update(text) {
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }

  picker.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) {
      return;
    }
    var text = box.value.replace(/\s+$/, "");
    if (button.dataset.tile) {
      update(addTile(text, button.dataset.tile));
    } else if (button.dataset.key) {
      update(addKey(text, button.dataset.key));
    }
  });

  picker.hidden = false;
})();
