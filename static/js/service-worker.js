/* Registers the service worker (/sw.js, served from the site's root so that it controls
   every page): it makes the site installable as an app, keeps the offline page and the
   last "your move" list, and shows pushes. Browsers without service workers, or pages
   not in a secure context (plain http other than localhost), simply go without. */
(function () {
  "use strict";

  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function (error) {
      console.warn("The service worker could not be registered:", error);
    });
  });
})();
