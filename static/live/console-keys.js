/* The console's keyboard shortcuts: each key presses the button that carries it (data-hotkey), so a
 * key does only what is offered now (no Pause on a finished tournament). "?" shows the list. Keys are
 * ignored while a field has the focus. */
(function () {
  "use strict";
  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }
  function help(show) {
    var panel = document.getElementById("hotkeys");
    if (panel) panel.hidden = show === undefined ? !panel.hidden : !show;
  }
  document.addEventListener("click", function (event) {
    var t = event.target.closest && event.target.closest("[data-action=hotkeys], [data-action=hotkeys-close]");
    if (!t) return;
    help(t.getAttribute("data-action") === "hotkeys" ? undefined : false);
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(document.activeElement)) return;
    var key = event.key;
    if (key === "?") { help(); event.preventDefault(); return; }
    if (key === "Escape") { help(false); return; }
    if (key === "d" || key === "D") {
      var desk = document.querySelector("[data-action=desk]");
      if (desk) { event.preventDefault(); location.href = desk.href; }
      return;
    }
    var wanted = key === "=" ? "+" : key.toLowerCase();
    var button = document.querySelector('[data-hotkey="' + (wanted === " " ? " " : wanted) + '"]');
    if (!button) return;
    event.preventDefault();
    button.click();
  });
})();
