/* The projector page: a button (and the F key) for full screen. The clock and the rotating
   panels are htmx polls (see live.js). */
(function () {
  "use strict";
  var button = document.querySelector("[data-fullscreen]");
  if (!button || !document.fullscreenEnabled) { return; }
  function toggle() {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else {
      document.documentElement.requestFullscreen().catch(function () {});
    }
  }
  button.hidden = false;
  button.addEventListener("click", toggle);
  document.addEventListener("keydown", function (event) {
    if ((event.key === "f" || event.key === "F") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      toggle();
    }
  });
  document.addEventListener("fullscreenchange", function () {
    button.hidden = Boolean(document.fullscreenElement);
  });
})();
