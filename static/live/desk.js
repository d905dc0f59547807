/* The registration desk: what is typed in the name field brings the matching players under it (the
 * same player first); focus stays in the field and Enter registers the name typed. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var input = document.querySelector("[data-role=desk-form] input[name=name]");
    var box = document.querySelector("[data-role=matches]");
    if (!input || !box) return;
    input.focus();
    var timer = null, asked = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var mine = ++asked;
        var url = input.getAttribute("data-search") + "?name=" + encodeURIComponent(input.value);
        fetch(url, { credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.text() : ""; })
          .then(function (html) { if (mine === asked) box.innerHTML = html; })
          .catch(function () { /* offline: typing and Enter still work */ });
      }, 150);
    });
  });
})();
