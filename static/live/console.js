/* The director console: the clock widget is live (clock.js); when a newer director snapshot arrives
 * the other panels are re-fetched from the server-rendered page and swapped in, unless the director
 * is typing in one, and the clock forms' hidden clock_version follows the snapshot's. */
(function () {
  "use strict";
  var pending = null;
  function refreshPanels() {
    fetch(location.pathname, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live-panel]").forEach(function (panel) {
          if (panel.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON" && document.activeElement !== document.body) return;
          var fresh = doc.querySelector('[data-live-panel="' + panel.getAttribute("data-live-panel") + '"]');
          if (fresh && fresh.innerHTML !== panel.innerHTML) panel.innerHTML = fresh.innerHTML;
        });
      })
      .catch(function () { /* offline: the next snapshot tries again */ });
  }
  // A form that asks first (data-confirm, e.g. busting a player): no inline handler, the page's
  // Content-Security-Policy allows none. Delegated, so panels swapped in later ask too.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-clock]");
    if (!root || !root.clockView) return;
    var socket = root.clockView.socket, first = true;
    var original = socket.handlers.snapshot;
    socket.handlers.snapshot = function (data, msg) {
      original(data, msg);
      // Each clock button posts the clock version the director is looking at: a repeated or stale
      // post changes nothing and says the clock has already moved.
      var version = data && data.clock && data.clock.clock_version;
      if (typeof version === "number") {
        document.querySelectorAll("input[data-clock-version]").forEach(function (input) { input.value = String(version); });
      }
      if (first) { first = false; return; }
      clearTimeout(pending);
      pending = setTimeout(refreshPanels, 250);
    };
  });
})();
