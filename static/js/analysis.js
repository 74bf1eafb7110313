// The analysis of a finished hand: ask for it, show the worker's progress, then each
// decision's cost and the verdict. Choosing a move steps the replay to it.
(function () {
  "use strict";
  const root = document.getElementById("analysis");
  if (!root) return;
  const T = JSON.parse(document.getElementById("analysis-i18n").textContent);
  const $ = (id) => document.getElementById(id);
  const fmt = (text, params) => text.replace(/%\((\w+)\)s/g, (_, key) => String(params[key]));
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  let failures = 0;

  function show(data) {
    const busy = data.status === "pending" || data.status === "running";
    $("analysis-progress").hidden = !busy;
    if (busy) {
      $("analysis-bar").max = Math.max(1, data.total);
      $("analysis-bar").value = data.done;
      $("analysis-label").textContent = data.total
        ? fmt(T.progress, { done: data.done, total: data.total })
        : T.waiting;
      setTimeout(poll, 1000);
      return;
    }
    if (data.status === "failed") return error(T.failed);
    if (data.status !== "done") return;
    $("analysis-verdict").hidden = false;
    $("analysis-verdict").textContent = data.verdict;
    const list = $("analysis-moves");
    list.replaceChildren();
    for (const move of data.moves) {
      const item = document.createElement("li");
      item.className = "analysis-move" + (move.costly ? " costly" : "");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "linklike";
      button.textContent = fmt(T.move, { n: move.index + 1, player: move.player, action: move.action.split("@")[0] });
      button.addEventListener("click", () => {
        const slider = $("slider");
        if (!slider) return;
        slider.value = move.index;  // the table as the player saw it, before the move
        slider.dispatchEvent(new Event("input"));
        slider.scrollIntoView({ behavior: "smooth", block: "center" });
      });
      const cost = document.createElement("span");
      cost.className = "cost";
      cost.textContent = move.cost >= 0.5
        ? fmt(T.cost, { best: move.best.split("@")[0], cost: move.cost.toFixed(1) })
        : T.best;
      // How the verdict was reached: every deal solved, a sample of them, or playouts.
      const method = document.createElement("span");
      method.className = "method method-" + (move.method || "estimated");
      method.textContent = move.method === "exact"
        ? fmt(T.exact, { deals: move.deals })
        : move.method === "sampled"
          ? fmt(T.sampled, { deals: move.deals, error: (move.error || 0).toFixed(1) })
          : T.estimated;
      item.append(button, " ", cost, " ", method);
      list.appendChild(item);
    }
  }

  function error(text) {
    $("analysis-progress").hidden = true;
    $("analysis-error").hidden = false;
    $("analysis-error").textContent = text;
  }

  async function call(method) {
    try {
      const response = await fetch(root.dataset.url, {
        method,
        headers: { "X-CSRFToken": csrf, Accept: "application/json" },
        credentials: "same-origin",
      });
      const data = await response.json();
      if (!response.ok) return error((data.error && data.error.message) || T.failed);
      failures = 0;
      show(data);
    } catch (e) {
      if (++failures > 5) return error(T.failed);
      $("analysis-label").textContent = T.retrying;
      setTimeout(poll, 2000);
    }
  }

  function poll() { call("GET"); }
  $("analysis-progress").hidden = false;
  $("analysis-label").textContent = T.waiting;
  call("POST");
})();
