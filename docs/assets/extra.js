// A wide table scrolls sideways inside its frame: let the keyboard reach it too (axe-core's
// scrollable-region-focusable), on every page, also after Material's instant navigation.
function focusableScrollers() {
  for (const frame of document.querySelectorAll(".md-typeset__scrollwrap")) {
    frame.tabIndex = 0;
  }
}
if (typeof document$ !== "undefined") {
  document$.subscribe(focusableScrollers);
} else {
  document.addEventListener("DOMContentLoaded", focusableScrollers);
}
