// Tournament settings form: only the chosen rule preset's own settings are shown. The server
// draws the form for the preset it was given (the rows of other presets' settings have the
// class "preset-off"); switching the preset here shows that preset's rows and hides and
// disables the others, so that a hidden value is never sent. Without this script the rows of
// a newly chosen preset show once the form is saved.
(function () {
  "use strict";

  var select = document.getElementById("id_preset");
  if (!select) {
    return;
  }
  var rows = document.querySelectorAll(".preset-setting");

  function show() {
    var wanted = "preset-for-" + select.value;
    rows.forEach(function (row) {
      var on = row.classList.contains(wanted);
      row.classList.toggle("preset-off", !on);
      row.querySelectorAll("input, select, textarea").forEach(function (input) {
        input.disabled = !on;
      });
    });
  }

  select.addEventListener("change", show);
  show();
})();
