/* The check-in desk's QR scanner (templates/tournament/organiser/check_in.html).

   A player's private link is printed as a QR code. Its text, once read, goes into the desk's
   search-or-scan field (#desk-q) and the field's form is submitted: the server checks the
   player of a link in at once (a barcode scanner typing into the field and pressing Enter does
   the same, with no script). Reading is done by the vendored jsQR (static/vendor/jsqr/), which
   this page alone loads:
   - where the browser may open the camera (navigator.mediaDevices.getUserMedia: a secure
     context, HTTPS or localhost), "Scan with the camera" shows its picture and reads a few
     frames a second until a code is found, and opens again on the page the scan leads to
     (until "Stop the camera"), where the code just sent is read again only once it has left
     the picture;
   - everywhere, "Take a photo of the QR code" is a file input (accept="image/*",
     capture="environment": the phone's camera app); the photo is drawn on a canvas and read.
     On plain http at a venue this is the way in.
   The messages come from the container's data-text-* attributes (translated by the page).
   A tap in the list that htmx cannot swap in (a login page, an error) is sent again as a
   plain form. */
(function () {
  "use strict";

  /* A tap (a row's form, sent by htmx) that is not answered with its row: the session ended
     and the answer is the login page, or an error. The form is then sent as a plain form, and
     the browser shows whatever the server says in place of the page. */
  function tapOf(event) {
    var detail = event.detail || {};
    var element = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    return element && element.classList && element.classList.contains("desk-tap") ? element : null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var tap = tapOf(event);
    var xhr = event.detail.xhr;
    if (!tap || !xhr.responseURL) { return; }
    if (new URL(xhr.responseURL).pathname !== new URL(tap.action, location.href).pathname) {
      event.detail.shouldSwap = false;
      tap.submit();
    }
  });

  document.addEventListener("htmx:responseError", function (event) {
    var tap = tapOf(event);
    if (tap) { tap.submit(); }
  });

  var box = document.getElementById("desk-camera");
  var field = document.getElementById("desk-q");
  if (!box || !field || !field.form || typeof window.jsQR !== "function") { return; }

  var form = field.form;
  var status = document.getElementById("desk-camera-status");
  var start = document.getElementById("desk-camera-start");
  var stop = document.getElementById("desk-camera-stop");
  var photo = document.getElementById("desk-photo");
  var video = document.getElementById("desk-video");
  var canvas = document.createElement("canvas");
  var context = canvas.getContext("2d", { willReadFrequently: true });
  var stream = null;
  var timer = null;
  var sent = false;

  // Frames and photos are read at most this wide or high (in pixels): enough for a QR code
  // that fills a good part of the picture, and fast on a phone.
  var FRAME_SIZE = 640;
  var PHOTO_SIZES = [1280, 800];
  var EVERY_MS = 200;

  function say(name) {
    status.textContent = name ? box.getAttribute("data-text-" + name) || "" : "";
  }

  // The code of the picture `source` (width by height), drawn at most `most` pixels wide or
  // high; null when none is found.
  function read(source, width, height, most) {
    var scale = Math.min(1, most / Math.max(width, height));
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    var pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return window.jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: "attemptBoth" });
  }

  function submit(text) {
    if (sent) { return; }
    sent = true;
    say("found");
    field.value = text;
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  /* The camera's picture, read a few times a second. */

  // The camera stays on from one scan to the next: a scan reloads the page (the player checked
  // in, or why not), and the page opens the camera again while this is set for the tab.
  var KEEP = "desk-camera-on";

  function keep(on) {
    try {
      if (on) { window.sessionStorage.setItem(KEEP, "1"); } else { window.sessionStorage.removeItem(KEEP); }
    } catch (error) { /* storage refused: the camera is opened by hand each time */ }
  }

  function kept() {
    try { return window.sessionStorage.getItem(KEEP) === "1"; } catch (error) { return false; }
  }

  // The code a scan has just sent. When the camera opens again on the page the scan led to,
  // the same code is most likely still in front of it: it is read again only after a frame
  // without it, so the desk's answer stays on the screen while the player is still there.
  var HELD = "desk-camera-held";
  var held = null;

  function hold(text) {
    held = text;
    try {
      if (text) { window.sessionStorage.setItem(HELD, text); } else { window.sessionStorage.removeItem(HELD); }
    } catch (error) { /* storage refused: the code may be read again at once */ }
  }

  function heldBefore() {
    try { return window.sessionStorage.getItem(HELD); } catch (error) { return null; }
  }

  function stopCamera() {
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    if (stream) {
      stream.getTracks().forEach(function (track) { track.stop(); });
      stream = null;
    }
    video.srcObject = null;
    video.hidden = true;
    stop.hidden = true;
    start.hidden = false;
  }

  function scanFrame() {
    timer = null;
    if (!stream) { return; }
    if (video.readyState >= video.HAVE_CURRENT_DATA && video.videoWidth) {
      var code = read(video, video.videoWidth, video.videoHeight, FRAME_SIZE);
      if (code && code.data && code.data !== held) {
        stopCamera();
        hold(code.data);
        submit(code.data);
        return;
      }
      if (!code || !code.data) { hold(null); }
    }
    timer = window.setTimeout(scanFrame, EVERY_MS);
  }

  function startCamera() {
    sent = false;
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (opened) {
        stream = opened;
        video.srcObject = opened;
        video.hidden = false;
        start.hidden = true;
        stop.hidden = false;
        say("looking");
        keep(true);
        return video.play();
      })
      .then(function () { scanFrame(); })
      .catch(function () {
        stopCamera();
        keep(false);
        say("no-camera");
      });
  }

  /* A photo of the code, from the phone's camera app or a file. */

  function readPhoto(file) {
    sent = false;
    say("reading");
    // createImageBitmap decodes the file itself: no blob: or data: address for the page's
    // Content-Security-Policy to refuse.
    if (typeof window.createImageBitmap !== "function") { say("unreadable"); return; }
    window.createImageBitmap(file).then(function (bitmap) {
      var code = null;
      for (var i = 0; i < PHOTO_SIZES.length && !code; i++) {
        code = read(bitmap, bitmap.width, bitmap.height, PHOTO_SIZES[i]);
      }
      if (bitmap.close) { bitmap.close(); }
      if (code && code.data) {
        submit(code.data);
      } else {
        say("not-found");
      }
    }, function () { say("unreadable"); });
  }

  box.hidden = false;
  var camera = !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  start.hidden = !camera;
  start.addEventListener("click", function () { hold(null); startCamera(); });
  stop.addEventListener("click", function () { stopCamera(); keep(false); hold(null); say(""); });
  photo.addEventListener("change", function () {
    if (photo.files && photo.files[0]) { readPhoto(photo.files[0]); }
    photo.value = "";
  });
  if (camera && kept()) { held = heldBefore(); startCamera(); }
  // The camera is let go when the page is left or hidden (a phone's screen turned off).
  window.addEventListener("pagehide", stopCamera);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden && stream) { stopCamera(); say(""); }
  });
})();
