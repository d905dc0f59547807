// A "Print" button on a printable page (inline handlers are refused by the pages' CSP).
document.querySelectorAll("[data-action=print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
