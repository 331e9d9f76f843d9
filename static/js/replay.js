/* The replay: arrow keys step through the turns, Home and End jump to the ends. */
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  var last = null;

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    var link = document.querySelector('[data-replay="' + which + '"][href]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-replay]");
    if (link) last = link.dataset.replay;
  });

  // The frame is swapped whole; the button that was used keeps the focus if it still can.
  document.addEventListener("htmx:afterSettle", function () {
    if (!last || document.activeElement !== document.body) return;
    var again = document.querySelector('[data-replay="' + last + '"][href]');
    if (again) again.focus({ preventScroll: true });
  });
})();
