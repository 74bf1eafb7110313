// The lobby: the private-table form (choosing a rule set fills in every option with its
// values), and the matchmaking queues (the kinds each rule set offers, and how many people
// wait in each queue, kept live).
(function () {
  "use strict";
  const data = document.getElementById("rule-values");
  const preset = document.getElementById("id_preset");
  if (data && preset) {
    const values = JSON.parse(data.textContent);
    preset.addEventListener("change", () => {
      Object.entries(values[preset.value] || {}).forEach(([name, value]) => {
        const field = document.getElementById("id_" + name);
        if (!field) return;
        if (field.type === "checkbox") field.checked = Boolean(value);
        else field.value = String(value);
      });
    });
  }

  const countsData = document.getElementById("queue-counts");
  const table = document.querySelector("table.queue-counts");
  if (!countsData || !table) return;
  let counts = JSON.parse(countsData.textContent);
  const T = JSON.parse(document.getElementById("queue-strings").textContent);
  const rules = document.getElementById("id_queue_rules");

  function waitingText(n) {
    if (!n) return T.none;
    return T.waiting.replace("%(n)s", String(n));
  }

  function drawChoices() {
    if (!rules) return;
    const offered = counts[rules.value] || {};
    document.querySelectorAll(".queue-choice").forEach((box) => {
      const kind = box.dataset.kind;
      box.hidden = !(kind in offered);
      const span = box.querySelector(".waiting");
      if (span) span.textContent = kind in offered ? waitingText(offered[kind]) : "";
    });
  }

  function drawTable() {
    table.querySelectorAll("tbody tr").forEach((row) => {
      const offered = counts[row.dataset.rules] || {};
      row.querySelectorAll("td[data-kind]").forEach((cell) => {
        if (cell.hasAttribute("data-none")) return;
        const n = offered[cell.dataset.kind] || 0;
        cell.textContent = String(n);
        cell.classList.toggle("busy", n > 0);
      });
    });
  }

  async function poll() {
    if (!document.hidden) {
      try {
        const response = await fetch(table.dataset.url, { credentials: "same-origin" });
        if (response.ok) {
          counts = (await response.json()).counts;
          drawTable();
          drawChoices();
        }
      } catch (e) { /* try again */ }
    }
    setTimeout(poll, 5000);
  }

  if (rules) rules.addEventListener("change", drawChoices);
  // Enter in the partner's name asks for a pair's game, not the form's first button.
  const partner = document.getElementById("id_partner");
  if (partner) {
    partner.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      document.getElementById("duo-match").click();
    });
  }
  drawChoices();
  drawTable();
  setTimeout(poll, 5000);
})();
