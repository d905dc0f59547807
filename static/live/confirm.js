/* A form that asks first (data-confirm, e.g. busting a player) asks before it is sent, on every page.
 * Loaded in the page's <head>, before any form exists: a click in the moment between a page drawing
 * its forms and its other scripts running must not skip the question. No inline handler: the
 * Content-Security-Policy allows none. Delegated to the document, so forms drawn later ask too. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
