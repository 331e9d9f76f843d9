/* Sign-up offers the browser's own time zone: each select[data-browser-zone] still at
   UTC (its default) is set to the zone the browser reports, when the list has it. The
   member sees it chosen and may change it; without this script it stays UTC. */
(function () {
  "use strict";

  function offer() {
    var zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return;
    }
    document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
      if (!zone || select.value !== "UTC") return;
      var known = Array.prototype.some.call(select.options, function (option) {
        return option.value === zone;
      });
      if (known) select.value = zone;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", offer);
  else offer();
})();
