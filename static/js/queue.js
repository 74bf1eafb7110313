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
    } catch (e) { /* try again */ }
    setTimeout(poll, 2000);
  }
  poll();
})();
