/* Countdowns: every element with data-deadline (a turn's clock) counts down to it, on
   the server's clock (data-now), four times a second; one with data-stands-until holds
   still until then. Pages with clocks load this alone;
   the game page's script calls RummikubClock.tick() after a swap, so a fresh clock never
   shows blank. */
(function () {
  "use strict";

  function format(seconds) {
    if (seconds >= 86400) {
      var d = Math.floor(seconds / 86400);
      var dh = Math.floor((seconds % 86400) / 3600);
      return d + " d" + (dh ? " " + dh + " h" : "");
    }
    if (seconds >= 3600) {
      var h = Math.floor(seconds / 3600);
      return h + " h " + String(Math.floor((seconds % 3600) / 60)).padStart(2, "0") + " min";
    }
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var deadline = Date.parse(el.dataset.deadline);
      if (isNaN(deadline)) {
        el.textContent = "";
        return;
      }
      if (el.dataset.offset === undefined) {
        var serverNow = Date.parse(el.dataset.now);
        el.dataset.offset = isNaN(serverNow) ? "0" : String(serverNow - Date.now());
      }
      var now = Date.now() + Number(el.dataset.offset);
      // A clock standing still (a vacation, the weekend) shows the time it will have
      // left when it counts again, and counts down from then.
      var standsUntil = Date.parse(el.dataset.standsUntil || "");
      var stands = !isNaN(standsUntil) && now < standsUntil;
      var left = Math.max(0, Math.ceil((deadline - (stands ? standsUntil : now)) / 1000));
      el.classList.toggle("is-standing", stands);
      el.textContent = format(left);
      el.classList.toggle("is-low", left > 0 && left <= 10);
      el.classList.toggle("is-up", left === 0);
    });
  }

  window.RummikubClock = { tick: tick };

  function start() {
    tick();
    setInterval(tick, 250);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
