/* The dealer tablet's service worker (issue 15 item 7): the tablet page and its scripts and styles are
 * kept, so a tablet reloaded while the Wi-Fi is down still opens, from the browser's cache, and says it
 * is offline. Pages are fetched from the network first (always the newest when there is one); the
 * static files are served from the cache and refreshed behind. Nothing of the API is kept: the hand
 * lives on the server and comes back over the socket. */
"use strict";
var CACHE = "tablet-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function keep(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname.indexOf("/tablet/") === 0) {
    event.respondWith(fetch(request).then(function (response) { return keep(request, response); })
      .catch(function () { return caches.match(request); }));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (cached) {
      var fresh = fetch(request).then(function (response) { return keep(request, response); });
      return cached || fresh;
    }));
  }
});
