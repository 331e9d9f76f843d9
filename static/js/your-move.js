/* "Your move" keeps its list fresh. The header's socket (ws/notifications/) sends the
   member's counts whenever they change, and again when it reconnects; each message has
   the list asked again. A page the browser brings back from its back-forward cache was
   frozen while the member was away: it asks too. */
(function () {
  "use strict";

  function refresh() {
    var list = document.getElementById("your-move-page");
    if (list && window.htmx) window.htmx.trigger(list, "your-move-changed");
  }

  document.addEventListener("htmx:wsAfterMessage", refresh);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) refresh();
  });
})();
