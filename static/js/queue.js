// Matchmaking: poll until the table is found, then go to it. No longer waiting (the player
// stopped looking in another tab): reload, and the server sends the page where it belongs.
(function () {
  "use strict";
  const box = document.getElementById("queue");
  async function poll() {
    try {
      const response = await fetch(box.dataset.status, { credentials: "same-origin" });
      const data = await response.json();
      if (data.table) { window.location.href = data.table; return; }
      if (data.waiting === false) { window.location.reload(); return; }
      const count = document.getElementById("queue-waiting");
      const queue = (data.counts || {})[box.dataset.rules] || {};
      if (count && box.dataset.kind in queue) count.textContent = String(queue[box.dataset.kind]);
    } catch (e) { /* try again */ }
    setTimeout(poll, 2000);
  }
  poll();
})();
