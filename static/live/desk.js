/* The registration desk: what is typed in the name field brings the matching players under it (the
 * same player first); focus stays in the field and Enter registers the name typed (or, when the
 * field is full, puts the player on the alternates list). */
(function () {
  "use strict";
  // The page loads at the desk after every registration and the field has autofocus: the desk may
  // type before DOMContentLoaded. So the field is wired as soon as this script runs (at the end of the
  // page, the field exists), and whatever was typed before that is searched at once.
  function wire() {
    var input = document.querySelector("[data-role=desk-form] input[name=name]");
    var box = document.querySelector("[data-role=matches]");
    if (!input || !box) return;
    // After "the field is full", Enter puts the player on the alternates list.
    var offer = document.querySelector("[data-action=add-alternate]");
    (offer || input).focus();
    var timer = null, asked = 0;
    function search(mine, tries) {
      var url = input.getAttribute("data-search") + "?name=" + encodeURIComponent(input.value);
      fetch(url, { credentials: "same-origin" })
        .then(function (r) {
          if ((r.status === 503 || r.status === 429) && tries < 3) {
            // A busy server sheds the search (config.overload): ask again after the time it says.
            var wait = Math.min(3, Math.max(0.5, Number(r.headers.get("Retry-After")) || 1));
            setTimeout(function () { if (mine === asked) search(mine, tries + 1); }, wait * 1000);
            return null;
          }
          return r.ok ? r.text() : "";
        })
        .then(function (html) { if (html !== null && mine === asked) box.innerHTML = html; })
        .catch(function () { /* offline: typing and Enter still work */ });
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { search(++asked, 0); }, 150);
    });
    if (input.value) search(++asked, 0);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
