// A worker's progress (templates/includes/progress.html): polls the box's URL for
// {status, done, total, percent[, message]} and moves the bar; reloads the page when the
// work is done, or failed without a message of its own to show.
(function () {
  "use strict";
  const box = document.querySelector("[data-progress-url]");
  if (!box) return;
  const T = JSON.parse(document.getElementById("progress-i18n").textContent);
  const bar = box.querySelector(".progress > div");
  const label = box.querySelector(".progress-label");
  async function poll() {
    try {
      const response = await fetch(box.dataset.progressUrl, { credentials: "same-origin" });
      const p = await response.json();
      bar.style.width = p.percent + "%";
      bar.parentElement.setAttribute("aria-valuenow", p.percent);
      label.textContent = p.total
        ? T.progress.replace("%(done)s", p.done).replace("%(total)s", p.total)
            .replace("%(percent)s", p.percent).replace("%%", "%")
        : T.waiting || label.textContent;
      if (p.status === "failed" && p.message) {
        label.textContent = p.message;
        box.classList.add("failed");
        return;
      }
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
