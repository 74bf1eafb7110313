// Matchmaking: poll until the table is found, then go to it.
(function () {
  "use strict";
  const box = document.getElementById("queue");
  async function poll() {
    try {
      const response = await fetch(box.dataset.status, { credentials: "same-origin" });
      const data = await response.json();
      if (data.table) { window.location.href = data.table; return; }
    } catch (e) { /* try again */ }
    setTimeout(poll, 2000);
  }
  poll();
})();
