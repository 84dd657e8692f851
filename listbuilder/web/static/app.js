// listbuilder web builder: the little that htmx does not do. No inline script, no eval.
// Copy buttons: shown only when this script runs; without it the text is there to select.
"use strict";
function listbuilderCopyButtons(root) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    if (button.dataset.ready) continue;
    button.dataset.ready = "1";
    button.hidden = false;
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(source.value);
        button.textContent = "Copied";
      } catch (err) {
        source.select();
        button.textContent = "Selected: press Ctrl-C";
      }
      setTimeout(() => { button.textContent = label; }, 1800);
    });
  }
}
document.addEventListener("DOMContentLoaded", () => listbuilderCopyButtons(document));
// The builder: a change swaps in only the parts it altered (see web/_changed.html), so a form
// that was not sent again (the catalog, the name and limit, the custom unit) holds the version
// the page had when it was drawn. Every change made with htmx sends the version the page shows
// now (#page-version, swapped in by each change); without JavaScript each page is drawn whole.
document.addEventListener("htmx:configRequest", (event) => {
  const shown = document.getElementById("page-version");
  if (shown && event.detail.parameters.version !== undefined) event.detail.parameters.version = shown.value;
});
document.addEventListener("htmx:load", (event) => listbuilderCopyButtons(event.target));
// A unit's rules load the first time its disclosure opens: the link inside it is the page of its
// rules, what a browser without this script follows. ("toggle" does not bubble: listened for on the way down.)
document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (!(details instanceof HTMLDetailsElement) || !details.open || !details.classList.contains("unit-rules")) return;
  const link = details.querySelector("a.rules-link");
  if (!link || details.dataset.loaded || !window.htmx) return;
  details.dataset.loaded = "1";
  window.htmx.ajax("GET", link.getAttribute("href"), { source: link, target: link, swap: "outerHTML" });
}, true);
