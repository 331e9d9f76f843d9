/* The site's message area (base.html): an htmx action refused with a 4xx and its sentence
   (common.refusals sends the sentence for the area, out of band) shows the sentence on
   every page. htmx swaps no 4xx answer by default, so without this a refusal anywhere but
   the game page (whose htmx-config swaps them) showed nothing. */
(function () {
  "use strict";

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status < 400 || xhr.status >= 500) return;
    if (!document.getElementById("game-message")) return;
    if (xhr.responseText.indexOf('id="game-message"') === -1) return;
    // Only the out-of-band area is swapped: the request's own target stays as it was.
    htmx.swap(document.body, xhr.responseText, { swapStyle: "none" });
  });
})();
