// Login slips: a Print button, shown only where this script runs (without it, the browser's
// own Print menu does the same).
(function () {
  "use strict";
  document.querySelectorAll(".js-print").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      window.print();
    });
  });
})();
