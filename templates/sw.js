{% load static %}{% comment %}The service worker, served at /sw.js (config.views.service_worker) so that its
scope is the whole site. What it does:
- makes the site installable (a fetch handler) and keeps, for use without a network, the
  offline page, the styles and the icons, and the last "your move" list the member opened;
- shows a push (notifications.services.push sends it) and opens its page when tapped.
Only page loads (GET navigations) are answered from the cache, and only when the network
fails; no other request (a form's POST, htmx's, the sockets') is touched but the log-out. A member's list is kept under their
session only: logging out, or a list that answers with the log-in page, forgets it.
{% endcomment %}"use strict";

const VERSION = "{{ version }}";
const SHELL = "rk-shell-" + VERSION;
const PAGES = "rk-pages";
const OFFLINE_URL = "{% url 'offline' %}";
const YOUR_MOVE_URL = "{% url 'games:your_move' %}";
const LOGOUT_URL = "{% url 'logout' %}";
const STATIC_PREFIX = "{% get_static_prefix %}";
const PRECACHE = {{ precache|safe }};
const ICON = "{{ icon }}";
const BADGE = "{{ badge }}";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name !== SHELL && name !== PAGES).map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

function isYourMove(url) {
  return url.pathname === YOUR_MOVE_URL;
}

async function logOut(request) {
  const response = await fetch(request);
  await caches.delete(PAGES);
  return response;
}

async function navigate(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (isYourMove(url)) {
      const pages = await caches.open(PAGES);
      if (response.ok && !response.redirected) {
        await pages.put(YOUR_MOVE_URL, response.clone());
      } else {
        await pages.delete(YOUR_MOVE_URL);
      }
    }
    return response;
  } catch (error) {
    if (isYourMove(url)) {
      const kept = await caches.match(YOUR_MOVE_URL, { cacheName: PAGES });
      if (kept) {
        return kept;
      }
    }
    return (await caches.match(OFFLINE_URL, { cacheName: SHELL })) || Response.error();
  }
}

async function staticFile(request) {
  // Network first (names are hashed in production, not with DEBUG), the copy without one.
  try {
    const response = await fetch(request);
    if (response.ok) {
      const shell = await caches.open(SHELL);
      await shell.put(request, response.clone());
    }
    return response;
  } catch (error) {
    return (await caches.match(request)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith(navigate(request));
  } else if (request.mode === "navigate" && url.pathname === LOGOUT_URL) {
    event.respondWith(logOut(request));
  } else if (request.method === "GET" && url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(request));
  }
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = {};
  }
  const title = notice.title || "Rummikub Club";
  const options = {
    body: notice.body || "",
    tag: notice.tag || undefined,
    renotify: Boolean(notice.tag),
    icon: ICON,
    badge: BADGE,
    data: { url: notice.url || YOUR_MOVE_URL },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

async function openPage(path) {
  const target = new URL(path, self.location.origin);
  if (target.origin !== self.location.origin) {
    return;
  }
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of open) {
    if (new URL(client.url).pathname === target.pathname && "focus" in client) {
      return client.focus();
    }
  }
  return self.clients.openWindow(target.href);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || YOUR_MOVE_URL;
  event.waitUntil(openPage(path));
});
