/* The header's menu on a phone: its button opens and closes the site's links (one row of
   header instead of two). Without this script the links stay in the header, wrapped: the
   class on <html> is what folds them into the menu. Escape or a click elsewhere closes
   it, focus going back to the button after Escape. */
(function () {
  "use strict";

  // Loaded without defer, in <head>: the class is there before the page is first drawn,
  // so what it changes (the header's menu, the new-table form's folded seats) never moves.
  document.documentElement.classList.add("has-menu");

  function parts() {
    var button = document.querySelector(".nav-toggle");
    var nav = button && document.getElementById(button.getAttribute("aria-controls"));
    return button && nav ? { button: button, nav: nav } : null;
  }

  function setOpen(found, open) {
    found.button.setAttribute("aria-expanded", open ? "true" : "false");
    found.nav.classList.toggle("is-open", open);
  }

  document.addEventListener("click", function (event) {
    var found = parts();
    if (!found) return;
    if (found.button.contains(event.target)) {
      setOpen(found, found.button.getAttribute("aria-expanded") !== "true");
    } else if (!found.nav.contains(event.target)) {
      setOpen(found, false);
    }
  });

  document.addEventListener("keydown", function (event) {
    var found = parts();
    if (event.key !== "Escape" || !found || !found.nav.classList.contains("is-open")) return;
    setOpen(found, false);
    found.button.focus();
  });
})();
