/* The notifications page's "Push on this device" section: turns Web Push on or off for
   this browser. On: asks the browser's permission, subscribes through the service worker
   with the site's key (data-key) and sends the subscription to the site (data-subscribe,
   CSRF header). Off: unsubscribes in the browser and tells the site (data-unsubscribe).
   The section says where things stand; a browser without push says so and offers nothing. */
(function () {
  "use strict";

  var section = document.getElementById("push-device");
  if (!section) return;
  var status = section.querySelector("[data-push-status]");
  var onButton = section.querySelector("[data-push-on]");
  var offButton = section.querySelector("[data-push-off]");
  var csrf = section.getAttribute("data-csrf");

  function say(text) {
    status.textContent = text;
  }

  function show(subscribed) {
    onButton.hidden = subscribed;
    offButton.hidden = !subscribed;
    say(subscribed ? "Push is on for this device." : "Push is off for this device.");
  }

  function keyBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    base64 += "===".slice((base64.length + 3) % 4);
    var raw = atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function post(url, fields) {
    var body = new FormData();
    Object.keys(fields).forEach(function (name) {
      body.append(name, fields[name]);
    });
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf },
    }).then(function (response) {
      if (!response.ok) throw new Error("The site answered " + response.status);
      return response;
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    say("This browser cannot take push from this site.");
    return;
  }

  function registration() {
    return navigator.serviceWorker.ready;
  }

  registration()
    .then(function (reg) {
      return reg.pushManager.getSubscription();
    })
    .then(function (subscription) {
      show(Boolean(subscription));
    });

  onButton.addEventListener("click", function () {
    onButton.disabled = true;
    say("Asking your browser…");
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return registration();
      })
      .then(function (reg) {
        return reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(section.getAttribute("data-key")),
        });
      })
      .then(function (subscription) {
        var json = subscription.toJSON();
        return post(section.getAttribute("data-subscribe"), {
          endpoint: json.endpoint,
          p256dh: json.keys.p256dh,
          auth: json.keys.auth,
        });
      })
      .then(function () {
        show(true);
      })
      .catch(function (error) {
        show(false);
        say(
          error.message === "denied"
            ? "Your browser does not allow this site's notifications: allow them in its settings first."
            : "Push could not be turned on here. Try again later."
        );
      })
      .finally(function () {
        onButton.disabled = false;
      });
  });

  offButton.addEventListener("click", function () {
    offButton.disabled = true;
    registration()
      .then(function (reg) {
        return reg.pushManager.getSubscription();
      })
      .then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(section.getAttribute("data-unsubscribe"), { endpoint: endpoint }).catch(
            function () {
              return null; // gone on the site already: the browser's side is what counts
            }
          );
        });
      })
      .then(function () {
        show(false);
      })
      .finally(function () {
        offButton.disabled = false;
      });
  });
})();
