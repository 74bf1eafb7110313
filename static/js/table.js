// The live table: one WebSocket, every message re-renders from the viewer's view.
// Protocol: docs/live-protocol.md. No build step, no dependencies.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const T = JSON.parse(document.getElementById("table-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const ENDED = ["domino", "block", "redeal"];
  const PIPS_V = { 0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
  const PIPS_H = { 0: [], 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 1, 2, 6, 7, 8] };

  let socket = null;
  let view = null; // the last snapshot/update/missed message
  let version = 0;
  let skew = 0; // server clock minus ours, in ms
  let counter = 0;
  let seenEvents = 0;
  let choosing = null; // a tile whose places are offered

  function fmt(text, args) {
    return text.replace(/%\((\w+)\)s/g, (_, key) => String(args[key]));
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([key, value]) => {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    });
    (children || []).forEach((child) => node.appendChild(child));
    return node;
  }

  // ------------------------------------------------------------ dominoes

  function half(n, orient) {
    const on = (orient === "h" ? PIPS_H : PIPS_V)[n];
    const cells = [];
    for (let i = 0; i < 9; i += 1) cells.push(el("i", { class: on.includes(i) ? "on" : "" }));
    return el("span", { class: "half" }, cells);
  }

  function domino(a, b, orient, tile) {
    return el("span", { class: "domino " + orient, "data-tile": tile || a + "-" + b,
      role: "img", "aria-label": a + "-" + b }, [half(a, orient), half(b, orient)]);
  }

  function halves(tile) {
    return tile.split("-").map(Number);
  }

  function key(tile) {
    return halves(tile.split("@")[0].split("!")[0]).sort().join("-");
  }

  function drawLine(hand) {
    const board = $("board");
    board.textContent = "";
    if (!hand || !hand.line.length) return;
    const arms = { left: [], right: [], up: [], down: [] };
    let opening = null;
    hand.line.forEach((piece) => {
      if (piece.end === null) opening = piece;
      else arms[piece.end].push(piece);
    });
    const line = el("div", { class: "line" });
    const [oa, ob] = [opening.left, opening.right];
    const center = el("div", { class: "arm center" + (opening.spinner ? " spinner" : "") },
      [domino(oa, ob, opening.double ? "v" : "h", opening.tile)]);
    const piece = (p, outerFirst, along) => {
      const [a, b] = halves(p.tile);
      const inner = a === p.outer ? b : a;
      const orient = p.double ? (along === "h" ? "v" : "h") : along;
      return outerFirst ? domino(p.outer, inner, orient, p.tile) : domino(inner, p.outer, orient, p.tile);
    };
    line.appendChild(el("div", { class: "arm up" }, arms.up.slice().reverse().map((p) => piece(p, true, "v"))));
    line.appendChild(el("div", { class: "arm left" }, arms.left.slice().reverse().map((p) => piece(p, true, "h"))));
    line.appendChild(center);
    line.appendChild(el("div", { class: "arm right" }, arms.right.map((p) => piece(p, false, "h"))));
    line.appendChild(el("div", { class: "arm down" }, arms.down.map((p) => piece(p, false, "v"))));
    board.appendChild(line);
    const info = [fmt(T.count, { n: hand.table_count })];
    if (hand.boneyard) info.push(fmt(T.boneyard, { n: hand.boneyard }));
    board.appendChild(el("p", { class: "line-info", text: info.join(" · ") }));
  }

  // ------------------------------------------------------------ seats and scores

  function sideName(side) {
    if (view.seat === null) return fmt(T.side, { n: side + 1 });
    return side === view.seat % 2 ? T.us : T.them;
  }

  function seatName(number) {
    const seat = view.table.seats[number];
    if (seat.bot) return seat.name || T.bot + " " + (number + 1);
    return seat.name || fmt(T.seat, { n: number + 1 });
  }

  function drawSeats() {
    const t = view.table;
    const hand = view.hand;
    const base = view.seat === null ? 0 : view.seat;
    const positions = ["bottom", "right", "top", "left"];
    positions.forEach((pos, offset) => {
      const number = (base + offset) % 4;
      const seat = t.seats[number];
      const box = document.querySelector('.seat[data-pos="' + pos + '"]');
      box.textContent = "";
      box.dataset.seat = number;
      const playing = hand && !ENDED.includes(hand.status) && t.status === "playing";
      box.classList.toggle("turn", Boolean(playing && hand.turn === number));
      box.classList.toggle("mine", number === view.seat);
      box.appendChild(el("strong", { class: "name", text: seat.taken ? seatName(number) : T.empty }));
      if (hand && seat.taken) {
        box.appendChild(el("span", { class: "count", text: fmt(T.tiles, { n: hand.tile_counts[number] }) }));
      }
      if (number === view.seat && seat.bot && t.status !== "finished") {
        box.appendChild(el("button", { class: "button small", id: "take-back", text: T.take_back,
          onclick: () => send({ type: "back" }) }));
      }
      if (t.status === "between" && t.ready.includes(number)) {
        box.appendChild(el("span", { class: "badge ok", text: T.ready }));
      }
      if (t.status === "waiting" && !seat.taken && config.user !== null) {
        box.appendChild(el("button", { class: "button small", "data-sit": number, text: T.sit,
          onclick: () => send({ type: "sit", seat: number }) }));
        if (t.host === config.user && t.kind !== "fixture") {
          box.appendChild(el("button", { class: "button small", "data-bot": number, text: T.add_bot,
            onclick: () => send({ type: "bot", seat: number }) }));
        }
      }
    });
    $("hand-number").textContent = t.hand_number ? fmt(T.hand_n, { n: t.hand_number }) : "";
    [0, 1].forEach((side) => {
      $("score-" + side).textContent = sideName(side) + ": " + t.scores[side] + " / " + t.target;
    });
  }

  function drawTimer() {
    const t = view && view.table;
    const box = $("timer");
    if (!t || !t.deadline || t.status === "finished" || t.status === "waiting") {
      box.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((t.deadline * 1000 - (Date.now() + skew)) / 1000));
    box.textContent = "⏱ " + left;
    box.classList.toggle("urgent", left <= 5);
  }

  // ------------------------------------------------------------ my tiles and controls

  function legal() {
    const hand = view.hand;
    if (!hand || view.seat === null || hand.turn !== view.seat || view.table.status !== "playing") return [];
    return hand.legal_actions;
  }

  function drawHand() {
    const box = $("my-hand");
    box.textContent = "";
    const hand = view.hand;
    if (!hand || view.seat === null || !hand.hand) return;
    const actions = legal();
    hand.hand.forEach((tile) => {
      const options = actions.filter((a) => /^\d-\d/.test(a) && key(a) === key(tile));
      const [a, b] = halves(tile);
      const node = domino(a, b, "v", tile);
      if (options.length) {
        node.classList.add("playable");
        node.tabIndex = 0;
        const choose = () => {
          if (options.length === 1) play(options[0]);
          else { choosing = { tile, options }; drawControls(); }
        };
        node.addEventListener("click", choose);
        node.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(); });
      }
      if (choosing && choosing.tile === tile) node.classList.add("chosen");
      box.appendChild(node);
    });
  }

  function drawControls() {
    const box = $("controls");
    box.textContent = "";
    const actions = legal();
    const hand = view.hand;
    if (hand && hand.status === "declare" && actions.length) {
      box.appendChild(el("p", { text: T.five_doubles }));
      box.appendChild(el("button", { class: "button", "data-action": "points", text: T.keep_points, onclick: () => play("points") }));
      box.appendChild(el("button", { class: "button ghost", "data-action": "redeal", text: T.redeal, onclick: () => play("redeal") }));
      return;
    }
    ["pass", "draw"].forEach((kind) => {
      if (actions.includes(kind)) {
        box.appendChild(el("button", { class: "button", "data-action": kind, text: T[kind], onclick: () => play(kind) }));
      }
    });
    if (choosing) {
      box.appendChild(el("span", { text: T.choose_place + " " }));
      choosing.options.forEach((action) => {
        const end = action.split("@")[1];
        box.appendChild(el("button", { class: "button small", "data-action": action, text: T[end] || end, onclick: () => play(action) }));
      });
    }
  }

  // ------------------------------------------------------------ the end of a hand

  function drawResult() {
    const box = $("result");
    const hand = view.hand;
    const t = view.table;
    if (!hand || !hand.result) { box.hidden = true; return; }
    box.hidden = false;
    box.textContent = "";
    const r = hand.result;
    let summary = T.ended_redeal;
    if (r.ended === "domino") summary = fmt(T.ended_domino, { name: seatName(r.winner.seat) });
    else if (r.ended === "block") summary = r.winner ? T.ended_block : T.tie;
    box.appendChild(el("h2", { text: summary }));
    const events = el("ul", { class: "events" });
    hand.events.forEach((e) => {
      events.appendChild(el("li", { text: sideName(e.side) + ": +" + e.points + " " + (T.kinds[e.kind] || e.kind) }));
    });
    box.appendChild(events);
    [0, 1].forEach((side) => {
      box.appendChild(el("p", { class: "points", text: fmt(T.points_for, { side: sideName(side), points: hand.points[side] }) }));
    });
    const hands = el("div", { class: "revealed" });
    hand.hands.forEach((tiles, number) => {
      hands.appendChild(el("div", { class: "revealed-seat", "data-seat": number },
        [el("strong", { text: seatName(number) })].concat(tiles.map((tile) => {
          const [a, b] = halves(tile);
          return domino(a, b, "v", tile);
        }))));
    });
    box.appendChild(hands);
    if (t.forfeit_side !== null) box.appendChild(el("h3", { text: fmt(T.forfeit, { side: sideName(t.forfeit_side) }) }));
    else if (t.over) box.appendChild(el("h3", { text: fmt(T.match_won, { side: sideName(t.winner) }) }));
    if (t.status === "between" && view.seat !== null && !t.ready.includes(view.seat)) {
      box.appendChild(el("button", { class: "button", id: "next-hand", text: T.next, onclick: () => send({ type: "next" }) }));
    }
  }

  // ------------------------------------------------------------ what happened

  function logAction(last) {
    if (!last) return;
    const name = seatName(last.seat);
    const [action] = last.action.split("!");
    let text;
    if (action === "pass") text = fmt(T.passed, { name });
    else if (action === "draw") text = fmt(T.drew, { name });
    else if (action === "points" || action === "redeal") text = name + ": " + (action === "points" ? T.keep_points : T.redeal);
    else text = fmt(T.played, { name, tile: action.split("@")[0] });
    if (last.action.endsWith("!auto")) text += " " + T.auto;
    $("log").appendChild(el("li", { text }));
  }

  function logEvents() {
    const hand = view.hand;
    if (!hand) return;
    if (hand.events.length < seenEvents) seenEvents = 0;
    hand.events.slice(seenEvents).forEach((e) => {
      $("log").appendChild(el("li", { class: "event", text: sideName(e.side) + ": +" + e.points + " " + (T.kinds[e.kind] || e.kind) }));
    });
    seenEvents = hand.events.length;
  }

  function drawStatus() {
    const hand = view.hand;
    // A player whose seat a bot plays is told so (and offered it back), not whose turn it is.
    const replaced = view.seat !== null && view.table.seats[view.seat].bot;
    let text = "";
    if (view.seat === null) text = T.spectating;
    else if (replaced) text = T.bot_for_you;
    if (!replaced && hand && view.table.status === "playing" && !ENDED.includes(hand.status)) {
      text = hand.turn === view.seat ? T.your_turn : fmt(T.waiting_for, { name: seatName(hand.turn) });
    }
    $("status").textContent = text;
    document.getElementById("table-app").classList.toggle("my-turn", Boolean(legal().length));
  }

  function render(message) {
    const newHand = !view || !view.hand || !message.hand || view.hand.hand_number !== message.hand.hand_number;
    view = message;
    version = message.version;
    document.getElementById("table-app").dataset.version = version;
    skew = message.now * 1000 - Date.now();
    choosing = null;
    if (newHand) { $("log").textContent = ""; seenEvents = 0; }
    if (message.type === "update") logAction(message.last);
    (message.missed || []).forEach(logAction);
    logEvents();
    drawSeats();
    drawLine(message.hand);
    drawHand();
    drawControls();
    drawResult();
    drawStatus();
    drawTimer();
  }

  // ------------------------------------------------------------ the socket

  function send(message) {
    counter += 1;
    message.id = "c" + Date.now().toString(36) + "-" + counter;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function play(action) {
    choosing = null;
    send({ type: "play", action, version });
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + config.socket);
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", version })));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (["snapshot", "update", "missed"].includes(message.type)) {
        if (message.version >= version || message.type === "snapshot") render(message);
      } else if (message.type === "error") {
        $("status").textContent = message.message;
      }
    });
    socket.addEventListener("close", (event) => {
      if ([4401, 4404, 1008].includes(event.code)) return;
      $("status").textContent = T.reconnecting;
      setTimeout(connect, 1000);
    });
  }

  setInterval(drawTimer, 250);
  connect();
})();
