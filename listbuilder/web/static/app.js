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
// New list: the Size box follows the rule set chosen. Its placeholder says what an empty box means
// (the standard game), and a rule set with no standard game needs it typed. Only here: without
// this script the box could not follow a change of rule set, so the server refuses a list without
// the size it needs, and says why.
function listbuilderSizeFollows(select) {
  const size = document.getElementById("new-size");
  const option = select && select.selectedOptions[0];
  if (!size || !option) return;
  size.placeholder = option.dataset.size || "";
  size.required = option.hasAttribute("data-needs-size");
}
document.addEventListener("change", (event) => {
  if (event.target instanceof HTMLSelectElement && event.target.id === "new-system") listbuilderSizeFollows(event.target);
});
document.addEventListener("DOMContentLoaded", () => listbuilderSizeFollows(document.getElementById("new-system")));
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
  holder.append(details);
  link.setAttribute("aria-controls", details.id);
  details.open = true;
  window.htmx.ajax("GET", link.getAttribute("href"), { target: body, swap: "outerHTML" });
});

// The name says whether the rules under it are open (a toggle event does not bubble: caught on its way down).
document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (!(details instanceof HTMLDetailsElement) || !details.classList.contains("unit-rules")) return;
  const link = details.parentElement && details.parentElement.querySelector("a.rules-link");
  if (link) link.setAttribute("aria-expanded", String(details.open));
}, true);
// Rules left open stay open when a change draws the entries again ("+" on the unit whose rules the
// player is reading): each open disclosure moves into the entry drawn in its place, if that is
// still the same unit there, rather than closing and being loaded again.
let listbuilderOpenRules = [];
document.addEventListener("htmx:beforeSwap", () => {
  listbuilderOpenRules = [...document.querySelectorAll("li.entry details.unit-rules[open]")].map((details) => {
    const entry = details.closest("li.entry");
    const link = entry.querySelector("a.rules-link");
    return {details: details, entry: entry.id, href: link ? link.getAttribute("href") : "", name: link ? link.textContent : ""};
  });
});
document.addEventListener("htmx:afterSettle", () => {
  const open = listbuilderOpenRules;
  listbuilderOpenRules = [];
  for (const kept of open) {
    if (kept.details.isConnected) continue; // its entry was not drawn again
    const entry = kept.entry && document.getElementById(kept.entry);
    const link = entry && entry.querySelector("a.rules-link");
    if (!link || link.getAttribute("href") !== kept.href || link.textContent !== kept.name) continue;
    const holder = link.closest(".entry-main, .unit") || link.parentElement;
    if (holder.querySelector(":scope > details.unit-rules")) continue;
    holder.append(kept.details);
    link.setAttribute("aria-controls", kept.details.id);
    link.setAttribute("aria-expanded", "true");
  }
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

// What goes wrong between the page and the server is said on the page, never swapped into it:
// the server down (a restart), or a refusal in plain text from the guard in front of the app.
function listbuilderTrouble(text) {
  const main = document.getElementById("main");
  if (!main) return;
  let note = document.getElementById("trouble");
  if (!note) {
    note = document.createElement("p");
    note.id = "trouble";
    note.className = "message error";
    note.setAttribute("role", "alert");
    main.prepend(note);
  }
  note.textContent = text;
}
document.addEventListener("htmx:sendError", () => {
  listbuilderTrouble("The server did not answer: it may be stopped or restarting. Once it runs again, "
    + "reload the page to see the list as it is before you make the change again.");
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  const type = xhr.getResponseHeader("content-type") || "";
  if (xhr.status >= 400 && !type.startsWith("text/html")) {
    event.detail.shouldSwap = false;
    listbuilderTrouble((xhr.responseText || "The server refused this.").trim() + " Nothing was changed.");
  }
});
document.addEventListener("htmx:afterSwap", (event) => {
  const old = document.getElementById("trouble");
  if (old && event.detail.xhr && event.detail.xhr.status < 400) old.remove();
  // An error shown in place of the page's content: the keyboard and the screen reader go to it.
  const heading = event.detail.target && event.detail.target.id === "main" && document.getElementById("error-title");
  if (heading) heading.focus();
});

// Where the keyboard focus goes after a change. htmx puts it back on the element with the id of
// the one pressed; after a removal that id belongs to the next entry's button of the same kind,
// and a second Enter would remove that entry too. So when the control pressed is gone (a removal,
// "−" on a one-model entry, an applied suggestion), the focus goes to a safe place instead: the
// name of the entry that took the removed one's place, or the list's heading.
let listbuilderPressed = null;
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
  if (!form || (form.method || "").toLowerCase() !== "post") return;
  const entry = form.closest("li.entry");
  listbuilderPressed = {
    form: form,
    entry: entry ? entry.id : "",
    entries: document.querySelectorAll("li.entry").length,
  };
});
function listbuilderSafeFocus() {
  const pressed = listbuilderPressed;
  listbuilderPressed = null;
  if (!pressed || !document.getElementById("builder")) return;
  const now = document.activeElement;
  const lost = !now || now === document.body;
  const gone = document.querySelectorAll("li.entry").length < pressed.entries;
  if (!gone && !lost) return; // the control pressed is still there (a count, a mark): keep it
  // A form that was not drawn again (the catalog's Add buttons) keeps its buttons: a tap that
  // left no focus behind moves nothing, least of all the page under the finger.
  if (!gone && pressed.form.isConnected) return;
  const next = gone && pressed.entry ? document.querySelector("#" + pressed.entry + " .entry-name") : null;
  const target = next || document.getElementById("list-title");
  if (!target) return;
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({preventScroll: true}); // the place it goes is where the player was looking
}
document.addEventListener("htmx:afterSwap", listbuilderSafeFocus); // at once: a key pressed before the settle is safe too
// The repair view: "Line 6" of a problem is a link to the editor (what a browser without this
// script follows); followed here, it selects that line of the text in the editor.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest("a.to-line") : null;
  const editor = document.getElementById("repair-text");
  if (!link || !editor || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  const lines = editor.value.split("\n");
  const line = Math.min(Math.max(Number(link.dataset.line) || 1, 1), lines.length);
  const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  editor.focus();
  editor.setSelectionRange(start, start + lines[line - 1].length);
  const height = editor.scrollHeight / Math.max(lines.length, 1);
  editor.scrollTop = Math.max(0, (line - 3) * height);
});
// The custom unit form: a count of figures typed beside a weapon chooses it, as the server takes a
// count above 0 for an item left unticked (web/forms.py); a count cleared leaves the tick as it is.
document.addEventListener("input", (event) => {
  const count = event.target;
  if (!(count instanceof HTMLInputElement) || !count.closest(".loadout .figures")) return;
  const tick = count.closest(".carried")?.querySelector('input[type="checkbox"]');
  if (tick && Number.parseInt(count.value, 10) > 0) tick.checked = true;
});
