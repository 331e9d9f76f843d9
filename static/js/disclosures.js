/* Disclosures a reader opened stay open when htmx swaps in a fresh copy of their part
   (the standings' "Who met whom", re-read with every result): the server renders them
   closed. Known by id; reopening one fires its toggle, so a part it fetches when opened
   is fetched afresh. */
(function () {
  "use strict";

  var open = [];

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    open = Array.prototype.map.call(target.querySelectorAll("details[id][open]"), function (d) {
      return d.id;
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    var waiting = open;
    open = [];
    waiting.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS" && !details.open) details.open = true;
    });
  });
})();
