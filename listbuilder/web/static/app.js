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
// A unit's rules: its name is a link to the page of its rules (what a browser without this script
// follows). Followed here, it opens a disclosure under the unit that holds them, loaded the first
// time; the name then opens and closes it (aria-expanded says which).
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest("a.rules-link") : null;
  if (!link || !window.htmx || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  const holder = link.closest(".entry-main, .unit") || link.parentElement;
  let details = holder.querySelector(":scope > details.unit-rules");
  if (details) {
    details.open = !details.open;
    return;
  }
  details = document.createElement("details");
  details.className = "unit-rules";
  details.id = "rules-" + Math.random().toString(36).slice(2);
  const summary = document.createElement("summary");
  summary.textContent = "Rules of " + link.textContent;
  const body = document.createElement("div");
  body.className = "unit-rules-text";
  body.textContent = "Loading…";
  details.append(summary, body);
  details.addEventListener("toggle", () => link.setAttribute("aria-expanded", String(details.open)));
  holder.append(details);
  link.setAttribute("aria-controls", details.id);
  details.open = true;
  window.htmx.ajax("GET", link.getAttribute("href"), { target: body, swap: "outerHTML" });
});

// Nothing moves under the finger: when a change swaps in the builder's parts, what it added (an
// entry, a problem, a longer headline) may push the rest down. The button pressed (or, if it was
// swapped, the one with its id) is scrolled back to where it was, so the next tap lands on it.
let listbuilderHeld = null;
document.addEventListener("click", (event) => {
  const pressed = event.target instanceof Element ? event.target.closest("button[id], button[name=unit]") : null;
  listbuilderHeld = pressed && pressed.form ? {button: pressed, id: pressed.id, form: pressed.form, top: pressed.getBoundingClientRect().top} : null;
}, true);
document.addEventListener("htmx:afterSwap", (event) => {
  const held = listbuilderHeld;
  const config = event.detail.requestConfig;
  if (!held || !config || config.elt !== held.form) return;
  listbuilderHeld = null;
  const now = held.button.isConnected ? held.button : held.id && document.getElementById(held.id);
  if (!now) return;
  const moved = now.getBoundingClientRect().top - held.top;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
});
