// The live page of an online event (templates/games/event_live.html): the round clock
// counts down every second from the deadline the server gave, and the part of the page
// that changes (templates/games/includes/event_live_body.html) is read again every few
// seconds, as the projector does, while the page is visible.
(function () {
  "use strict";
  const box = document.getElementById("live");
  if (!box) return;
  const EVERY = 3000;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    const clock = document.getElementById("round-clock");
    if (!clock) return;
    let left = Math.max(0, Math.floor((Date.parse(clock.dataset.until) - Date.now()) / 1000));
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    clock.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
  }
  async function refresh() {
    if (!document.hidden) {
      try {
        const response = await fetch(box.dataset.url, { credentials: "same-origin" });
        if (response.ok) {
          const html = await response.text();
          if (html !== box.dataset.last) {
            box.dataset.last = html;
            box.innerHTML = html;
            tick();
          }
        }
      } catch (error) { /* offline for a moment: the next read tries again */ }
    }
    setTimeout(refresh, EVERY);
  }
  tick();
  setInterval(tick, 1000);
  setTimeout(refresh, EVERY);
})();
