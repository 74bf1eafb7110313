// The referee's review of a disputed hand: step through the replay, edit the record, and see
// the engine adjudicate it again on every edit. Strings come from the page's JSON catalogue.
(function () {
  "use strict";
  const root = document.getElementById("review");
  if (!root) return;
  const T = JSON.parse(document.getElementById("review-i18n").textContent);
  let record = JSON.parse(document.getElementById("review-record").textContent);
  let data = JSON.parse(document.getElementById("review-data").textContent);
  const editable = root.dataset.editable === "1";
  const $ = (id) => document.getElementById(id);
  let step = 0;
  let timer = null;
  let pending = null;

  const fmt = (text, params) => text.replace(/%\((\w+)\)s/g, (_, key) => String(params[key]));
  const PIPS = { 0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

  function half(n) {
    const el = document.createElement("span");
    el.className = "half";
    for (let i = 0; i < 9; i++) {
      const pip = document.createElement("i");
      if (PIPS[n] && PIPS[n].includes(i)) pip.className = "pip";
      el.appendChild(pip);
    }
    return el;
  }

  function tile(a, b, opts) {
    const el = document.createElement("span");
    el.className = "domino" + (opts && opts.vertical ? " vertical" : "");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", a + "-" + b);
    el.title = a + "-" + b;
    el.append(half(a), half(b));
    return el;
  }

  function parse(name) {
    return name.split("@")[0].split("!")[0].split("-").map(Number);
  }

  function lineOf(view) {
    // The line of play from left to right; a spinner's up and down arms are rows apart.
    const left = [], right = [], up = [], down = [];
    let centre = null;
    view.line.forEach((p) => {
      const [a, b] = parse(p.tile);
      if (p.end === null) { centre = { a: p.left, b: p.right, double: p.double }; return; }
      const other = p.outer === a ? b : a;
      if (p.end === "left") left.unshift({ a: p.outer, b: other, double: p.double });
      else if (p.end === "right") right.push({ a: other, b: p.outer, double: p.double });
      else (p.end === "up" ? up : down).push({ a: other, b: p.outer, double: p.double });
    });
    return { row: centre ? [...left, centre, ...right] : [], up, down };
  }

  function drawLine(view, last) {
    const box = $("line");
    box.replaceChildren();
    const { row, up, down } = lineOf(view);
    [["up", up], ["row", row], ["down", down]].forEach(([name, pieces]) => {
      if (!pieces.length) return;
      const r = document.createElement("div");
      r.className = "line-row " + name;
      pieces.forEach((p) => r.appendChild(tile(p.a, p.b, { vertical: p.double })));
      box.appendChild(r);
    });
    if (last && last.indexOf("-") > 0) {
      const [a, b] = parse(last);
      box.querySelectorAll(".domino").forEach((t) => {
        const [x, y] = t.title.split("-").map(Number);
        if ((x === a && y === b) || (x === b && y === a)) t.classList.add("last");
      });
    }
  }

  function drawSeats(view, faultSeat) {
    const names = view.players || [];
    document.querySelectorAll(".seat").forEach((el) => {
      const seat = Number(el.dataset.seat);
      el.replaceChildren();
      el.classList.toggle("turn", view.turn === seat);
      el.classList.toggle("at-fault", faultSeat === seat);
      const label = document.createElement("p");
      label.className = "seat-name";
      label.textContent = fmt(T.seat, { n: seat }) + (names[seat] ? " · " + names[seat] : "") +
        (view.turn === seat ? " — " + T.turn : "");
      const hand = document.createElement("div");
      hand.className = "hand";
      (view.hands ? view.hands[seat] || [] : []).forEach((name) => {
        const [a, b] = parse(name);
        hand.appendChild(tile(a, b, { vertical: true }));
      });
      el.append(label, hand);
    });
  }

  function faultStep() {
    const f = data.fault;
    if (!f || f.action === null || f.action === undefined || !data.steps.length) return null;
    return Math.min(f.action, data.steps.length - 1);
  }

  function show(n) {
    const steps = data.steps;
    const slider = $("slider");
    slider.max = Math.max(0, steps.length - 1);
    if (!steps.length) {
      $("line").replaceChildren();
      document.querySelectorAll(".seat").forEach((el) => el.replaceChildren());
      $("step-label").textContent = T.noSteps;
      $("table-info").textContent = "";
      return;
    }
    step = Math.max(0, Math.min(n, steps.length - 1));
    slider.value = step;
    const view = steps[step];
    const atFault = faultStep() === step;
    const action = step > 0 && Array.isArray(record.actions) ? record.actions[step - 1] : null;
    drawLine(view, action);
    drawSeats(view, atFault ? data.fault.seat : null);
    let label = fmt(T.step, { n: step, total: steps.length - 1 }) + " · " +
      (step === 0 ? T.deal : fmt(T.after, { n: step - 1, action: action }));
    if (atFault) {
      label += " · " + fmt(T.faultAt, { n: data.fault.action, seat: data.fault.seat }) + ": " +
        record.actions[data.fault.action];
    }
    $("step-label").textContent = label;
    $("step-label").classList.toggle("at-fault", atFault);
    $("table-info").textContent = fmt(T.boneyard, { n: view.boneyard }) + " · " +
      fmt(T.points, { points: view.points.join("–") });
    document.querySelectorAll("#actions li").forEach((li, i) => li.classList.toggle("current", i === step - 1));
  }

  function drawRuling() {
    const r = data.ruling, f = data.fault;
    const incomplete = r.ended === "incomplete";
    $("verdict").textContent = f ? "" : (incomplete ? T.incomplete : T.valid);
    $("verdict").className = "verdict" + (f ? "" : (incomplete ? " warn" : " ok"));
    $("fault").hidden = !f;
    if (f) {
      $("fault-code").textContent = f.code;
      $("fault-where").textContent = f.action === null ? T.faultRecord : fmt(T.faultAt, { n: f.action, seat: f.seat });
      $("fault-rule").textContent = f.rule;
      $("fault-message").textContent = f.message;
    }
    const points = (r.points || []).join("–") || "0–0";
    $("points-line").textContent = fmt(T.points, { points: points }) + " · " +
      fmt(T.ended, { how: T.endedHow[r.ended] || r.ended });
    const list = $("events");
    list.replaceChildren();
    if (!data.events.length) {
      const li = document.createElement("li");
      li.textContent = T.noEvents;
      list.appendChild(li);
    }
    data.events.forEach((e) => {
      const li = document.createElement("li");
      li.textContent = fmt(T.event, { label: e.label, points: e.points, side: e.side }) +
        (e.action !== null ? " (#" + e.action + ")" : "");
      list.appendChild(li);
    });
  }

  function drawActions() {
    const list = $("actions");
    list.replaceChildren();
    const fault = data.fault ? data.fault.action : null;
    (Array.isArray(record.actions) ? record.actions : []).forEach((action, i) => {
      const li = document.createElement("li");
      if (i === fault) li.classList.add("fault");
      if (editable) {
        const input = document.createElement("input");
        input.id = "action-" + i;
        input.value = action;
        input.size = 9;
        input.setAttribute("aria-label", "#" + i);
        input.addEventListener("change", () => { record.actions[i] = input.value.trim(); changed(); });
        input.addEventListener("focus", () => show(i + 1));
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "linklike remove";
        remove.textContent = "×";
        remove.setAttribute("aria-label", "− #" + i);
        remove.addEventListener("click", () => { record.actions.splice(i, 1); changed(); });
        li.append(input, remove);
      } else {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "linklike";
        button.textContent = action;
        button.addEventListener("click", () => show(i + 1));
        li.appendChild(button);
      }
      list.appendChild(li);
    });
  }

  function seatOptions(select, value) {
    select.replaceChildren();
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "—";
    select.appendChild(none);
    (Array.isArray(record.deal) ? record.deal : []).forEach((_, seat) => {
      const o = document.createElement("option");
      o.value = String(seat);
      o.textContent = fmt(T.seat, { n: seat });
      select.appendChild(o);
    });
    select.value = value === undefined || value === null ? "" : String(value);
    select.disabled = !editable;
  }

  function drawDeal() {
    const box = $("deal");
    box.replaceChildren();
    (Array.isArray(record.deal) ? record.deal : []).forEach((hand, seat) => {
      const label = document.createElement("label");
      label.textContent = fmt(T.seat, { n: seat }) + " ";
      const input = document.createElement("input");
      input.id = "deal-" + seat;
      input.value = Array.isArray(hand) ? hand.join(" ") : "";
      input.readOnly = !editable;
      input.addEventListener("change", () => {
        record.deal[seat] = input.value.split(/[\s,]+/).filter(Boolean);
        changed();
      });
      label.appendChild(input);
      box.appendChild(label);
    });
    seatOptions($("leader"), record.leader);
    seatOptions($("opener"), record.opener);
    $("raw").value = JSON.stringify(record, null, 1);
  }

  function render(keepStep) {
    drawRuling();
    drawActions();
    drawDeal();
    show(keepStep ? step : 0);
    const rec = $("rule-record");
    if (rec) rec.value = JSON.stringify(record);
  }

  function setSeat(key, value) {
    if (value === "") delete record[key];
    else record[key] = Number(value);
    changed();
  }

  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  async function adjudicate() {
    const body = JSON.stringify(record);
    pending = body;
    $("checking").hidden = false;
    $("edit-error").hidden = true;
    try {
      const response = await fetch(root.dataset.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: body,
        credentials: "same-origin",
      });
      const answer = await response.json();
      if (pending !== body) return;
      if (!response.ok) throw new Error(answer.error ? answer.error.message : T.failed);
      data = answer;
      render(true);
    } catch (error) {
      $("edit-error").textContent = (error && error.message) || T.failed;
      $("edit-error").hidden = false;
    } finally {
      if (pending === body) $("checking").hidden = true;
    }
  }

  function changed() {
    const rec = $("rule-record");
    if (rec) rec.value = JSON.stringify(record);
    clearTimeout(timer);
    timer = setTimeout(adjudicate, 150);
  }

  $("step-first").addEventListener("click", () => show(0));
  $("step-back").addEventListener("click", () => show(step - 1));
  $("step-forward").addEventListener("click", () => show(step + 1));
  $("step-last").addEventListener("click", () => show(data.steps.length - 1));
  $("first-fault").addEventListener("click", () => {
    const n = faultStep();
    show(n === null ? data.steps.length - 1 : n);
  });
  $("slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") show(step - 1);
    if (e.key === "ArrowRight") show(step + 1);
  });
  if (editable) {
    $("add-action").addEventListener("click", () => { record.actions.push("pass"); changed(); });
    $("leader").addEventListener("change", (e) => setSeat("leader", e.target.value));
    $("opener").addEventListener("change", (e) => setSeat("opener", e.target.value));
    $("raw").addEventListener("change", (e) => {
      try {
        record = JSON.parse(e.target.value);
        changed();
      } catch (error) {
        $("edit-error").textContent = T.notJson;
        $("edit-error").hidden = false;
      }
    });
  }

  const kind = $("rule-kind");
  if (kind) {
    const sync = () => document.querySelectorAll("#rule-form [data-for]").forEach((el) => {
      el.hidden = !el.dataset.for.split(" ").includes(kind.value);
    });
    kind.addEventListener("change", sync);
    sync();
  }
  render(false);
})();
