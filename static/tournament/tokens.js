// The tokens page: focusing the new token's secret selects all of it, ready to copy.
(function () {
  "use strict";
  document.querySelectorAll(".org-secret-value").forEach(function (field) {
    field.addEventListener("focus", function () {
      field.select();
    });
  });
})();
