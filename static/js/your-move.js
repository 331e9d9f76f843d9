/* "Your move" is read again whenever the header's socket pushes the member's counts (its
   hx-trigger). A page the browser brings back from its back-forward cache was frozen
   while the member was away, and its socket may say nothing new: it asks too. */
(function () {
  "use strict";

  window.addEventListener("pageshow", function (event) {
    var list = document.getElementById("your-move-page");
    if (event.persisted && list && window.htmx) window.htmx.trigger(list, "your-move-changed");
  });
})();
