// The run page on a phone: one part at a time (now, entries, options, standings, rounds),
// chosen in a bar at the bottom of the screen. An address with a #part (the dashboard's
// "Go" links: #finish, #draft, #entries, #confirm-results) opens the part holding it.
(function () {
  "use strict";
  const bar = document.getElementById("run-tabs");
  if (!bar) return;
  const panels = [...document.querySelectorAll("[data-run-panel]")];
  const tabs = [...bar.querySelectorAll("a[data-tab]")];

  function panelOf(hash) {
    const target = hash && hash.length > 1 && document.getElementById(decodeURIComponent(hash.slice(1)));
    const panel = target && target.closest("[data-run-panel]");
    return panel ? panel.dataset.runPanel : "now";
  }

  function show(name) {
    for (const panel of panels) panel.classList.toggle("current", panel.dataset.runPanel === name);
    for (const tab of tabs) {
      if (tab.dataset.tab === name) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
  }

  for (const tab of tabs) {
    tab.addEventListener("click", (event) => {
      event.preventDefault();
      show(tab.dataset.tab);
      history.replaceState(null, "", tab.getAttribute("href"));
      const first = panels.find((p) => p.classList.contains("current"));
      if (first) window.scrollTo({ top: Math.max(0, first.getBoundingClientRect().top + window.scrollY - 12) });
    });
  }
  window.addEventListener("hashchange", () => show(panelOf(location.hash)));
  bar.hidden = false;
  document.body.classList.add("run-tabbed");
  show(panelOf(location.hash));
  if (location.hash.length > 1) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
})();
