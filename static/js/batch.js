// The progress bar of a batch check: polls the progress endpoint, reloads when it is done.
(function () {
  "use strict";
  const box = document.getElementById("batch-progress");
  if (!box) return;
  const T = JSON.parse(document.getElementById("batch-i18n").textContent);
  const bar = document.getElementById("progress-bar");
  const label = document.getElementById("progress-label");
  async function poll() {
    try {
      const response = await fetch(box.dataset.url, { credentials: "same-origin" });
      const p = await response.json();
      bar.style.width = p.percent + "%";
      bar.parentElement.setAttribute("aria-valuenow", p.percent);
      label.textContent = T.progress.replace("%(done)s", p.processed).replace("%(total)s", p.total);
      if (p.status === "done" || p.status === "failed") {
        window.location.reload();
        return;
      }
    } catch (error) {
      label.textContent = T.retrying;
    }
    setTimeout(poll, 700);
  }
  setTimeout(poll, 300);
})();
