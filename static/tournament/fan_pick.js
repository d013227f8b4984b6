/* The fan, tapped or typed: the forms that ask a hand's fan (the referee's quick entry and
 * correction, the organiser's correction) offer the common values as buttons (fan_pick) and a
 * box for any other (fan). Tapping a value empties the box; typing in the box lets go of the
 * tapped value. Without this script the server refuses the two when they differ.
 *
 * Each change made here is announced with an event of its own ("input" on the box, "change"
 * on a radio let go), so that a page that keeps what is typed (the referee's drafts) sees it.
 */
(function () {
  "use strict";

  function syncFan(input) {
    var form = input.form;
    if (!form || !form.querySelector('input[name="fan_pick"]')) {
      return;
    }
    var box = form.elements.fan;
    if (input.name === "fan_pick" && input.checked && box && box.value !== "") {
      box.value = "";
      box.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (input.name === "fan" && input.value !== "") {
      form.querySelectorAll('input[name="fan_pick"]:checked').forEach(function (radio) {
        radio.checked = false;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
  }

  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.target.name === "fan" || event.target.name === "fan_pick") {
        syncFan(event.target);
      }
    });
  });
})();
