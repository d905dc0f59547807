/* A "Print" button on a printable page (no inline handler: the Content-Security-Policy allows none). */
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-action=print]");
  if (button) window.print();
});
