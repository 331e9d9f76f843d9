/* A visitor's pages in their browser's time zone: this script sets the cookie "tz" to
   the zone the browser reports; the server reads it on the next request
   (common/zones.py, accounts/middleware.py). Only visitors' pages load it: a member's
   zone is their profile's.

   The script's data-zone is the zone this page was written in. When the browser's
   differs and the cookie did not say it yet, a page fetched with GET is loaded again at
   once, so that a first visit reads its times in the visitor's zone too. A zone the
   server refuses is written to the cookie all the same: the next page does not try
   again, so no page is ever loaded twice for it. */
(function () {
  "use strict";

  var NAME = "tz";
  var script = document.currentScript;

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  function cookie(name) {
    var found = "";
    document.cookie.split(";").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0 && pair.slice(0, at).trim() === name) found = pair.slice(at + 1).trim();
    });
    return found;
  }

  var zone = browserZone();
  // An IANA name ("Asia/Tokyo", "America/Argentina/Buenos_Aires", "Etc/GMT+5"): nothing
  // that would need quoting in a cookie.
  if (!/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone) || cookie(NAME) === zone) return;
  var secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = NAME + "=" + zone + "; Path=/; Max-Age=31536000; SameSite=Lax" + secure;
  var served = script ? canonical(script.getAttribute("data-zone") || "") : zone;
  var again = script && script.hasAttribute("data-reload");
  if (again && zone !== served && cookie(NAME) === zone) window.location.reload();

  // The browser's own name of a zone ("UTC" for "Etc/UTC"), so that a page written in
  // the zone the browser is in under another name is not loaded again.
  function canonical(name) {
    try {
      return new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
    } catch (error) {
      return name;
    }
  }
})();
