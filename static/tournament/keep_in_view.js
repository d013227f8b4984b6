/* A box being typed in on a phone stays above the on-screen keyboard: on focus, and again when
 * the visible part shrinks (the keyboard opening), the box and its label are scrolled up or down
 * to the middle of what is still visible. For the boxes of .ref-form and .org-form.
 */
(function () {
  "use strict";

  var TYPED = 'input[type="text"], input[type="number"], input:not([type])';

  function typedBox(element) {
    return element && element.matches && element.matches(TYPED) &&
      element.closest(".ref-form, .org-form")
      ? element
      : null;
  }

  function keepInView(box) {
    var view = window.visualViewport;
    var top = view ? view.offsetTop : 0;
    var height = view ? view.height : window.innerHeight;
    // The box with its label (and the Record button beside it), when they fit; else the box
    // alone. A field drawn with display: contents has no box of its own.
    var field = box.closest(".ref-record-row") || box.closest(".ref-field, .org-form > div");
    var rect = (field || box).getBoundingClientRect();
    if (rect.height === 0 || rect.height > height * 0.6) {
      rect = box.getBoundingClientRect();
    }
    var margin = 8;
    if (rect.top >= top + margin && rect.bottom <= top + height - margin) {
      return;  // in view already
    }
    window.scrollBy(0, rect.top + rect.height / 2 - (top + height / 2));
  }

  var timer = null;

  function keepFocusedInView(delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var box = typedBox(document.activeElement);
      if (box) {
        keepInView(box);
      }
    }, delay);
  }

  document.addEventListener("focusin", function (event) {
    if (typedBox(event.target)) {
      keepFocusedInView(250);  // after the keyboard has begun to open
    }
  });
  // The keyboard shrinks the visual viewport, or (some browsers) the window itself.
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", function () {
      keepFocusedInView(50);
    });
  }
  window.addEventListener("resize", function () {
    keepFocusedInView(50);
  });
})();
