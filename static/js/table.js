// The live table: one WebSocket, every message re-renders from the viewer's view.
// Protocol: docs/live-protocol.md. No build step, no dependencies.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const T = JSON.parse(document.getElementById("table-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const ENDED = ["domino", "block", "redeal"];
  const TILE = /^\d-\d/;
  // Pip spots of a half, in a 100 x 100 square (a horizontal tile turns them a quarter).
  const SPOTS = {
    0: [], 1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[25, 25], [50, 50], [75, 75]],
    4: [[27, 27], [73, 27], [27, 73], [73, 73]],
    5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
    6: [[28, 22], [72, 22], [28, 50], [72, 50], [28, 78], [72, 78]],
  };
  // Inline icons (24 x 24 paths): no emoji glyphs that some systems lack.
  const ICONS = {
    bot: "M12 2a2 2 0 0 1 1 3.7V7h4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3v-8a3 3 0 0 1 3-3h4V5.7A2 2 0 0 1 12 2zM9 11.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm6 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM8.5 17h7v1.5h-7z",
    pass: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 0 1 6.3 12.9L7.1 5.7A8 8 0 0 1 12 4zM5.7 7.1l11.2 11.2A8 8 0 0 1 5.7 7.1z",
    check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
    partner: "M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm0 2c-2.7 0-8 1.3-8 4v3h16v-3c0-2.7-5.3-4-8-4zm8 0c-.3 0-.7 0-1.1.1 1.3.9 2.1 2.2 2.1 3.9v3h7v-3c0-2.7-5.3-4-8-4z",
    ccw: "M12 4a8 8 0 1 1-7.7 10h2.1A6 6 0 1 0 12 6v3L7.5 5 12 1z",
    cw: "M12 4a8 8 0 1 0 7.7 10h-2.1A6 6 0 1 1 12 6v3l4.5-4L12 1z",
    offline: "M12 17a2 2 0 1 1 0 4 2 2 0 0 1 0-4zM7.05 14.05a7 7 0 0 1 9.9 0l-1.41 1.41a5 5 0 0 0-7.08 0zM3.51 10.51a12 12 0 0 1 16.98 0l-1.42 1.42a10 10 0 0 0-14.14 0zM4.4 2.6l17 17-1.4 1.4-17-17z",
    tile: "M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm0 2v7.3h8V4zm0 8.7V20h8v-7.3zM12 6.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6zm-1.8 8a1.2 1.2 0 1 1 0 2.4 1.2 1.2 0 0 1 0-2.4zm3.6 0a1.2 1.2 0 1 1 0 2.4 1.2 1.2 0 0 1 0-2.4z",
  };
  const MAX_UNIT = 30;
  const MIN_UNIT = 5;
  const RING = 2 * Math.PI * 21;

  let socket = null;
  let view = null; // the last snapshot/update/missed message
  let version = 0;
  let skew = 0; // server clock minus ours, in ms
  let counter = 0;
  let choosing = null; // {tile, options}: a tile that fits several ends
  let timer = { deadline: null, total: 1 };
  let redealNote = false; // the last hand ended in a redeal: this one is its new deal

  // ------------------------------------------------------------ helpers

  function fmt(text, args) {
    return text.replace(/%\((\w+)\)s/g, (_, k) => String(args[k]));
  }

  function plural(forms, n, args) {
    const text = n === 0 ? forms.zero : n === 1 ? forms.one : forms.other;
    return fmt(text, Object.assign({ n }, args || {}));
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    });
    (children || []).forEach((c) => node.appendChild(typeof c === "string" ? document.createTextNode(c) : c));
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    return node;
  }

  function icon(name, label) {
    const node = svg("svg", { viewBox: "0 0 24 24", class: "icon icon-" + name, focusable: "false" });
    if (label) { node.setAttribute("role", "img"); node.setAttribute("aria-label", label); }
    else node.setAttribute("aria-hidden", "true");
    node.appendChild(svg("path", { d: ICONS[name] }));
    return node;
  }

  function halves(tile) {
    return tile.split("@")[0].split("!")[0].split("-").map(Number);
  }

  function key(tile) {
    return halves(tile).sort().join("-");
  }

  // ------------------------------------------------------------ dominoes

  // A domino as an inline SVG: `a` on the left (or top), `b` on the right (or bottom).
  function tileSvg(a, b, orient) {
    const h = orient === "h";
    const [w, ht] = h ? [200, 100] : [100, 200];
    const node = svg("svg", { viewBox: `0 0 ${w} ${ht}`, class: "domino " + orient, "data-tile": a + "-" + b,
      role: "img", "aria-label": a + "-" + b, focusable: "false" });
    node.appendChild(svg("rect", { class: "body", x: 3, y: 3, width: w - 6, height: ht - 6, rx: 14 }));
    node.appendChild(svg("line", h ? { x1: 100, y1: 16, x2: 100, y2: 84 } : { x1: 16, y1: 100, x2: 84, y2: 100 }));
    [a, b].forEach((n, i) => {
      SPOTS[n].forEach(([x, y]) => {
        const [cx, cy] = h ? [y + i * 100, x] : [x, y + i * 100];
        node.appendChild(svg("circle", { cx, cy, r: 9.5 }));
      });
    });
    return node;
  }

  // ------------------------------------------------------------ the board: a snake in a box

  // An arm is laid out in its own frame: it leaves the opening along +x and turns towards
  // +y at the board's edges, back along -x, and so on. Units: a tile is 2 x 1; a double lies
  // across (1 along, 2 across) and never turns the line.
  function layArm(pieces, start, forward, backward) {
    const out = [];
    let x = start, y = 0, dir = 1, dropping = false, dx = 0, dy = 0;
    const put = (x0, y0, x1, y1, heading, piece) => out.push({
      x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1), heading, piece });
    pieces.forEach((piece, i) => {
      const next = pieces[i + 1];
      if (!dropping) {
        if (piece.double) { put(x, y - 1, x + dir, y + 1, [dir, 0], piece); x += dir; return; }
        const need = 3 + (next && next.double ? 1 : 0);
        if (dir > 0 ? x + need <= forward : x - need >= backward) {
          put(x, y - 0.5, x + 2 * dir, y + 0.5, [dir, 0], piece); x += 2 * dir; return;
        }
        put(x, y - 0.5, x + dir, y + 1.5, [0, 1], piece); // the corner, hanging down
        dropping = true; dx = x + dir / 2; dy = y + 1.5;
        return;
      }
      if (piece.double) { put(dx - 1, dy, dx + 1, dy + 1, [0, 1], piece); dy += 1; return; }
      const px = dx + dir / 2;
      put(px, dy, px - 2 * dir, dy + 1, [-dir, 0], piece); // back the other way, under it
      x = px - 2 * dir; y = dy + 0.5; dir = -dir; dropping = false;
    });
    return out;
  }

  // From an arm's frame to the board's: right as is, left turned half round, up and down
  // a quarter (so that every arm turns the same way round the opening).
  const FRAMES = {
    right: ([x, y]) => [x, y], left: ([x, y]) => [-x, -y],
    up: ([x, y]) => [y, -x], down: ([x, y]) => [-y, x],
  };

  function placeLine(hand, width, height) {
    const arms = { left: [], right: [], up: [], down: [] };
    let opening = null;
    hand.line.forEach((p) => { if (p.end === null) opening = p; else arms[p.end].push(p); });
    const spinner = Boolean(opening.spinner);
    const items = [];
    if (spinner || opening.double) {
      items.push({ x0: -0.5, y0: -1, x1: 0.5, y1: 1, orient: "v", halves: [opening.left, opening.right], piece: opening });
    } else {
      items.push({ x0: -1, y0: -0.5, x1: 1, y1: 0.5, orient: "h", halves: [opening.left, opening.right], piece: opening });
    }
    const across = spinner || opening.double ? 0.5 : 1;
    const open = new Set(hand.ends.map((e) => e.end));
    Object.keys(arms).forEach((name) => {
      const pieces = arms[name].slice();
      if (open.has(name)) pieces.push({ phantom: name, double: false });
      if (!pieces.length) return;
      const vertical = name === "up" || name === "down";
      const forward = (vertical ? height : width) / 2 - 0.2;
      const backward = spinner ? 1.5 : -forward;
      layArm(pieces, vertical ? 1 : across, forward, backward).forEach((r) => {
        const [ax, ay] = FRAMES[name]([r.x0, r.y0]);
        const [bx, by] = FRAMES[name]([r.x1, r.y1]);
        const heading = FRAMES[name](r.heading);
        const item = { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by),
          piece: r.piece, end: name };
        item.orient = item.x1 - item.x0 > item.y1 - item.y0 ? "h" : "v";
        if (!r.piece.phantom) {
          const [a, b] = halves(r.piece.tile);
          const outer = r.piece.outer;
          const inner = a === outer ? b : a;
          // The inner half touches the line: it lies against the heading.
          const forwardish = item.orient === "h" ? heading[0] > 0 : heading[1] > 0;
          item.halves = forwardish ? [inner, outer] : [outer, inner];
        }
        items.push(item);
      });
    });
    return items;
  }

  function bounds(items) {
    const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    items.forEach((i) => {
      b.x0 = Math.min(b.x0, i.x0); b.y0 = Math.min(b.y0, i.y0);
      b.x1 = Math.max(b.x1, i.x1); b.y1 = Math.max(b.y1, i.y1);
    });
    return b;
  }

  // Whether two pieces of the layout cover the same ground (an arm turned into another
  // where the board was too small for it at that scale).
  function overlapping(items) {
    return items.some((p, i) => items.slice(i + 1).some((q) =>
      Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0) > 0.01 && Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0) > 0.01));
  }

  // The largest tiles with which the whole line and its open ends fit the board, apart.
  function fitLine(hand, widthPx, heightPx) {
    let best = null;
    for (let unit = MAX_UNIT; unit >= MIN_UNIT; unit -= 1) {
      const items = placeLine(hand, widthPx / unit, heightPx / unit);
      const b = bounds(items);
      best = { unit, items, b };
      if ((b.x1 - b.x0) * unit <= widthPx && (b.y1 - b.y0) * unit <= heightPx && !overlapping(items)) break;
    }
    return best;
  }

  function lastPlayed(hand) {
    for (let i = hand.actions.length - 1; i >= 0; i -= 1) {
      if (TILE.test(hand.actions[i])) return key(hand.actions[i]);
    }
    return null;
  }

  function drawLine(hand) {
    const board = $("board");
    const line = $("line");
    line.textContent = "";
    drawLineInfo(hand);
    if (!hand || !hand.line.length) return;
    const style = getComputedStyle(board);
    const widthPx = board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const heightPx = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const { unit, items, b } = fitLine(hand, widthPx, heightPx);
    const left = parseFloat(style.paddingLeft) + (widthPx - (b.x1 - b.x0) * unit) / 2;
    const top = parseFloat(style.paddingTop) + (heightPx - (b.y1 - b.y0) * unit) / 2;
    const last = lastPlayed(hand);
    const lit = choosing ? choosing.options.map((a) => a.split("@")[1]) : [];
    board.style.setProperty("--unit", unit + "px");
    items.forEach((item) => {
      const box = {
        left: left + (item.x0 - b.x0) * unit, top: top + (item.y0 - b.y0) * unit,
        width: (item.x1 - item.x0) * unit, height: (item.y1 - item.y0) * unit,
      };
      let node;
      if (item.piece.phantom) {
        const end = item.piece.phantom;
        const on = lit.includes(end);
        const action = on ? choosing.options.find((a) => a.split("@")[1] === end) : null;
        node = el("button", { type: "button", class: "end-target " + item.orient + (on ? " lit" : ""),
          "data-end": end, "aria-label": T.ends[end], tabindex: on ? "0" : "-1", "aria-hidden": on ? null : "true",
          onclick: () => { if (action) play(action); } });
      } else {
        node = tileSvg(item.halves[0], item.halves[1], item.orient);
        node.classList.add("placed");
        if (item.piece.spinner) node.classList.add("spinner");
        if (item.piece.tile && key(item.piece.tile) === last) node.classList.add("last");
        node.dataset.end = item.end || "opening";
      }
      Object.entries(box).forEach(([k, v]) => { node.style[k] = v + "px"; });
      line.appendChild(node);
    });
  }

  function drawLineInfo(hand) {
    const info = $("line-info");
    info.textContent = "";
    if (!hand || !view) return;
    const dir = view.table.direction === "cw" ? "cw" : "ccw";
    info.appendChild(el("span", { class: "direction" }, [icon(dir), T.direction[dir]]));
    if (hand.line.length && !ENDED.includes(hand.status)) {
      info.appendChild(el("span", { text: fmt(T.count, { n: hand.table_count }) }));
    }
    // A draw game shows how many tiles are left to draw, none included; never which.
    if (view.table.draw_game || hand.boneyard) {
      info.appendChild(el("span", { class: "boneyard", "data-boneyard": hand.boneyard }, [icon("tile"), plural(T.boneyard, hand.boneyard)]));
    }
  }

  // ------------------------------------------------------------ seats and scores

  // Without pairs every seat is a side of its own, and scores under its player's name.
  function paired() {
    return view.table.pairs !== false;
  }

  function sideOf(seat) {
    return paired() ? seat % 2 : seat;
  }

  function sides() {
    return view.table.scores.map((_, side) => side);
  }

  function sideName(side) {
    if (!paired()) return side === view.seat ? T.you_side : seatName(side);
    if (view.seat === null) return fmt(T.side, { n: side + 1 });
    return side === view.seat % 2 ? T.us : T.them;
  }

  function seatName(number) {
    const seat = view.table.seats[number];
    if (seat.bot && !seat.name) return T.bot + " " + (number + 1);
    return seat.name || fmt(T.seat, { n: number + 1 });
  }

  // Where each seat sits, in play order from the viewer's: partner opposite at four; at
  // three the others on either side; at two the opponent opposite.
  function positions() {
    const cw = view.table.direction === "cw";
    const count = view.table.seats.length;
    if (count === 2) return ["bottom", "top"];
    if (count === 3) return cw ? ["bottom", "left", "right"] : ["bottom", "right", "left"];
    return cw ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
  }

  function drawSeats() {
    const t = view.table;
    const hand = view.hand;
    const base = view.seat === null ? 0 : view.seat;
    const playing = hand && !ENDED.includes(hand.status) && t.status === "playing";
    const count = t.seats.length;
    const felt = document.querySelector(".felt");
    felt.classList.remove("seats-2", "seats-3", "seats-4");
    felt.classList.add("seats-" + count);
    const used = positions();
    document.querySelectorAll(".felt .seat").forEach((box) => {
      box.hidden = !used.includes(box.dataset.pos);
      if (box.hidden) { box.textContent = ""; delete box.dataset.seat; }
    });
    used.forEach((pos, offset) => {
      const number = (base + offset) % count;
      const seat = t.seats[number];
      const box = document.querySelector('.seat[data-pos="' + pos + '"]');
      box.textContent = "";
      box.dataset.seat = number;
      box.className = "seat side-" + sideOf(number);
      const turn = Boolean(playing && hand.turn === number);
      box.classList.toggle("turn", turn);
      box.classList.toggle("mine", number === view.seat);
      const partner = paired() && view.seat !== null && number === (view.seat + 2) % 4;
      box.classList.toggle("partner", partner);
      const offline = Boolean(t.offline && t.offline.includes(number));
      box.classList.toggle("offline", offline);
      const avatar = el("div", { class: "avatar" });
      const ring = svg("svg", { viewBox: "0 0 48 48", class: "ring", "aria-hidden": "true" });
      ring.appendChild(svg("circle", { cx: 24, cy: 24, r: 21, class: "track" }));
      ring.appendChild(svg("circle", { cx: 24, cy: 24, r: 21, class: "left", "stroke-dasharray": RING.toFixed(1) }));
      avatar.appendChild(ring);
      if (seat.bot) avatar.appendChild(icon("bot"));
      else avatar.appendChild(el("span", { class: "initial", text: seat.taken ? seatName(number).charAt(0).toUpperCase() : "" }));
      avatar.appendChild(el("span", { class: "seconds" }));
      if (offline) avatar.appendChild(el("span", { class: "away" }, [icon("offline")]));
      box.appendChild(avatar);
      const who = el("div", { class: "who" });
      who.appendChild(el("strong", { class: "name", text: seat.taken ? seatName(number) : T.empty }));
      const tags = el("div", { class: "tags" });
      if (number === view.seat) tags.appendChild(el("span", { class: "tag you", text: T.you }));
      if (partner) tags.appendChild(el("span", { class: "tag partner" }, [icon("partner"), T.partner]));
      if (seat.bot) {
        const level = T.levels[seat.level] ? " · " + T.levels[seat.level] : "";
        tags.appendChild(el("span", { class: "tag bot" }, [icon("bot"), (seat.name ? T.bot_plays : T.bot) + level]));
      }
      if (offline) tags.appendChild(el("span", { class: "tag offline" }, [icon("offline"), T.offline]));
      if (hand && seat.taken && !ENDED.includes(hand.status)) {
        tags.appendChild(el("span", { class: "tag count" }, [icon("tile"), plural(T.tiles, hand.tile_counts[number])]));
      }
      if (playing && hand.passed && hand.passed.includes(number)) {
        tags.appendChild(el("span", { class: "tag passed" }, [icon("pass"), T.passed_tag]));
      }
      if (t.status === "between" && t.ready.includes(number)) {
        tags.appendChild(el("span", { class: "tag ready" }, [icon("check"), T.ready]));
      }
      who.appendChild(tags);
      box.appendChild(who);
      if (number === view.seat && seat.bot && t.status !== "finished") {
        box.appendChild(el("button", { class: "button small", id: "take-back", type: "button", text: T.take_back,
          onclick: () => send({ type: "back" }) }));
      }
      if (t.status === "waiting" && !seat.taken && config.user !== null) {
        box.appendChild(el("button", { class: "button small", type: "button", "data-sit": number, text: T.sit,
          onclick: () => send({ type: "sit", seat: number }) }));
        if (t.host === config.user && t.kind !== "fixture") {
          const level = el("select", { class: "bot-level", "data-level": number, "aria-label": T.bot_level },
            Object.entries(T.levels).map(([value, label]) => el("option", { value, text: label })));
          level.value = "medium";
          box.appendChild(level);
          box.appendChild(el("button", { class: "button small", type: "button", "data-bot": number, text: T.add_bot,
            onclick: () => send({ type: "bot", seat: number, level: level.value }) }));
        }
      }
      box.setAttribute("aria-label", seat.taken ? seatName(number) + (offline ? ", " + T.offline : "") : T.empty);
    });
    $("hand-number").textContent = t.hand_number ? fmt(T.hand_n, { n: t.hand_number }) : "";
    const bar = document.querySelector(".scorebar");
    bar.classList.toggle("many", t.scores.length > 2);
    bar.querySelectorAll(".score").forEach((box) => { if (Number(box.dataset.side) >= t.scores.length) box.remove(); });
    sides().forEach((side) => {
      let box = $("score-" + side);
      if (!box) { box = el("span", { id: "score-" + side, "data-side": side }); bar.appendChild(box); }
      box.className = "score side-" + side;
      box.textContent = "";
      box.appendChild(el("span", { class: "who", text: sideName(side) }));
      box.appendChild(el("strong", { text: String(t.scores[side]) }));
      box.appendChild(el("span", { class: "of", text: "/ " + t.target }));
      if (hand && !hand.result && hand.points[side]) {
        box.appendChild(el("span", { class: "running", title: T.this_hand, text: "+" + hand.points[side] }));
      }
    });
  }

  function drawTimer() {
    const t = view && view.table;
    const between = $("between-timer");
    document.querySelectorAll(".seat .ring .left").forEach((c) => c.setAttribute("stroke-dashoffset", "0"));
    document.querySelectorAll(".seat .seconds").forEach((s) => { s.textContent = ""; });
    if (between) between.textContent = "";
    if (!t || !t.deadline || t.status === "finished" || t.status === "waiting") return;
    if (timer.deadline !== t.deadline) {
      const observed = t.deadline - (Date.now() + skew) / 1000;
      const turn = t.status === "playing" && view.hand && view.hand.status === "play";
      timer = { deadline: t.deadline, total: Math.max(1, turn ? t.turn_seconds : observed) };
    }
    const left = Math.max(0, (t.deadline * 1000 - (Date.now() + skew)) / 1000);
    const whole = Math.ceil(left);
    if (t.status === "between") {
      if (between) between.textContent = plural(T.next_in, whole);
      return;
    }
    const box = document.querySelector(".seat.turn");
    if (!box) return;
    const fraction = Math.min(1, left / timer.total);
    box.querySelector(".ring .left").setAttribute("stroke-dashoffset", (RING * (1 - fraction)).toFixed(1));
    box.querySelector(".seconds").textContent = String(whole);
    box.classList.toggle("urgent", whole <= 5);
  }

  // ------------------------------------------------------------ my tiles and controls

  function legal() {
    const hand = view.hand;
    if (!hand || view.seat === null || hand.turn !== view.seat || view.table.status !== "playing") return [];
    return hand.legal_actions;
  }

  function choose(tile, options) {
    if (options.length === 1) { play(options[0]); return; }
    choosing = { tile, options };
    drawHand();
    drawLine(view.hand);
    drawControls();
    const target = document.querySelector(".end-target.lit");
    if (target) target.focus();
  }

  function drawHand() {
    const box = $("my-hand");
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.tile : null;
    box.textContent = "";
    const hand = view.hand;
    if (!hand || view.seat === null || !hand.hand || hand.result) return;
    const actions = legal();
    const buttons = [];
    hand.hand.forEach((tile) => {
      const options = actions.filter((a) => TILE.test(a) && key(a) === key(tile));
      const [a, b] = halves(tile);
      const playable = options.length > 0;
      const button = el("button", { type: "button", class: "tile" + (playable ? " playable" : ""), "data-tile": tile,
        "aria-label": fmt(playable ? T.tile_playable : T.tile_label, { tile }), "aria-disabled": playable ? null : "true",
        tabindex: "-1" }, [tileSvg(a, b, "v")]);
      if (playable) {
        button.addEventListener("click", () => choose(tile, options));
        buttons.push(button);
      }
      if (choosing && choosing.tile === tile) button.classList.add("chosen");
      box.appendChild(button);
    });
    // One tab stop; the arrow keys move between the playable tiles, Enter plays.
    const current = buttons.find((b) => b.dataset.tile === focused) || buttons[0];
    if (current) current.tabIndex = 0;
    buttons.forEach((button, i) => {
      button.addEventListener("keydown", (event) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        const next = buttons[(i + step + buttons.length) % buttons.length];
        buttons.forEach((b) => { b.tabIndex = -1; });
        next.tabIndex = 0;
        next.focus();
      });
    });
    if (focused && current && current.dataset.tile === focused) current.focus();
  }

  function drawControls() {
    const box = $("controls");
    box.textContent = "";
    const actions = legal();
    const hand = view.hand;
    if (hand && hand.status === "declare" && actions.length) {
      box.appendChild(el("p", { text: T.five_doubles }));
      box.appendChild(el("button", { class: "button", type: "button", "data-action": "points", text: T.keep_points, onclick: () => play("points") }));
      box.appendChild(el("button", { class: "button ghost", type: "button", "data-action": "redeal", text: T.redeal, onclick: () => play("redeal") }));
      return;
    }
    if (actions.includes("draw")) box.appendChild(el("p", { class: "draw-hint", text: T.draw_hint }));
    ["pass", "draw"].forEach((kind) => {
      if (actions.includes(kind)) {
        box.appendChild(el("button", { class: "button", type: "button", "data-action": kind, text: T[kind], onclick: () => play(kind) }));
      }
    });
    if (choosing) {
      box.appendChild(el("span", { text: T.choose_place }));
      choosing.options.forEach((action) => {
        const end = action.split("@")[1];
        box.appendChild(el("button", { class: "button small", type: "button", "data-action": action, text: T.ends[end] || end, onclick: () => play(action) }));
      });
      box.appendChild(el("button", { class: "linklike", type: "button", text: T.cancel, onclick: () => {
        choosing = null; drawHand(); drawLine(view.hand); drawControls();
      } }));
    }
  }

  // ------------------------------------------------------------ the end of a hand

  function eventName(e, hand) {
    if (e.kind === "hand") return hand.result && hand.result.ended === "block" ? T.kinds.hand_block : T.kinds.hand_domino;
    return T.kinds[e.kind] || e.kind;
  }

  function endedTitle(hand) {
    const r = hand.result;
    if (r.ended === "redeal") return T.ended_redeal;
    if (r.ended === "domino") return fmt(T.ended_domino, { name: seatName(r.winner.seat) });
    if (!r.winner) return T.tie;
    if (r.winner.seat !== null) return fmt(T.block_won_seat, { name: seatName(r.winner.seat) });
    return fmt(T.block_won_side, { side: sideName(r.winner.side) });
  }

  // Why a tranque went the way it did: the pip counts the rule compared (the engine's).
  function blockWhy(hand) {
    const r = hand.result;
    const c = hand.reckoning;
    if (c.compared) {
      const [blocker, next] = c.compared;
      return fmt(T.why_blocker_vs_next, {
        blocker: seatName(blocker), bpips: c.pips[blocker], next: seatName(next), npips: c.pips[next],
      });
    }
    const text = paired()
      ? fmt(T.why_lowest_side, { us: sideName(0), a: c.side_pips[0], them: sideName(1), b: c.side_pips[1] })
      : fmt(T.why_lowest_seat, { pips: c.side_pips.map((p, side) => seatName(side) + " " + p).join(", ") });
    return r.winner ? text : text + " " + T.why_tie;
  }

  function handRule(hand) {
    const c = hand.reckoning;
    const r = hand.result;
    const rules = paired() ? T : T.singles;
    let rule = r.ended === "domino" ? rules.rule_domino[c.domino_points] : rules.rule_block[c.block_points];
    if (c.scoring === "penalty") rule = T.rule_penalty;
    const text = fmt(T.counted, { rule });
    return c.round_to > 1 ? text + " " + fmt(T.rounded, { n: c.round_to }) : text;
  }

  function shutoutName() {
    const rules = view.table.rules;
    const preset = typeof rules === "string" ? rules : rules.preset;
    return T.shutout_names[preset] || T.shutout;
  }

  function drawResult() {
    const box = $("result");
    const hand = view.hand;
    const t = view.table;
    const finished = t.status === "finished";
    if (!(hand && hand.result) && !finished) { box.hidden = true; return; }
    if (box.hidden && view.seat !== null) {
      // The hand just ended: bring its reckoning into view (it lies under the table).
      requestAnimationFrame(() => box.scrollIntoView({ behavior: "smooth", block: "nearest" }));
    }
    box.hidden = false;
    box.textContent = "";
    if (hand && hand.result) drawReckoning(box, hand);
    if (finished) drawMatchEnd(box);
    else if (t.status === "between") {
      const ready = el("div", { class: "between" });
      ready.appendChild(el("p", { class: "muted", text: fmt(T.ready_count, { n: t.ready.length, total: t.seats.length }) }));
      ready.appendChild(el("p", { class: "muted", id: "between-timer" }));
      if (view.seat !== null && !t.ready.includes(view.seat) && !t.seats[view.seat].bot) {
        ready.appendChild(el("button", { class: "button", type: "button", id: "next-hand", text: T.next, onclick: () => send({ type: "next" }) }));
      }
      box.appendChild(ready);
    }
  }

  function drawReckoning(box, hand) {
    const r = hand.result;
    const c = hand.reckoning;
    box.appendChild(el("h2", { text: endedTitle(hand) }));
    if (r.ended === "block" && c) box.appendChild(el("p", { class: "why", text: blockWhy(hand) }));
    if (r.ended === "redeal") return;
    // Each seat's remaining tiles and pips.
    const seats = el("table", { class: "reckoning" });
    seats.appendChild(el("caption", { class: "visually-hidden", text: T.left_in_hands }));
    const head = el("tr", {}, [el("th", { scope: "col", text: T.player }), el("th", { scope: "col", text: T.tiles_left }),
      el("th", { scope: "col", class: "num", text: T.pips })]);
    seats.appendChild(el("thead", {}, [head]));
    const body = el("tbody");
    hand.hands.forEach((tiles, number) => {
      const row = el("tr", { class: "revealed-seat side-" + sideOf(number), "data-seat": number });
      const won = r.winner && r.winner.seat === number;
      row.appendChild(el("th", { scope: "row", text: seatName(number) + (won ? " ★" : "") }));
      const cell = el("td", { class: "tiles" });
      if (!tiles.length) cell.appendChild(el("span", { class: "muted", text: T.no_tiles }));
      tiles.forEach((tile) => { const [a, b] = halves(tile); cell.appendChild(tileSvg(a, b, "v")); });
      row.appendChild(cell);
      row.appendChild(el("td", { class: "num", text: c ? String(c.pips[number]) : "" }));
      body.appendChild(row);
    });
    seats.appendChild(body);
    box.appendChild(el("div", { class: "scroll" }, [seats]));
    // Every point of the hand, with the rule that gave it (the engine's events).
    const list = el("ul", { class: "events" });
    hand.events.forEach((e) => {
      const item = el("li", { "data-side": e.side, "data-points": e.points, "data-kind": e.kind });
      item.appendChild(el("span", { class: "rule", text: eventName(e, hand) }));
      item.appendChild(el("span", { class: "for", text: sideName(e.side) }));
      item.appendChild(el("strong", { class: "num", text: "+" + e.points }));
      if (e.kind === "hand" && c) item.appendChild(el("small", { class: "muted explain", text: handRule(hand) }));
      if (e.kind !== "hand" && c && c.bonus_cap && e.points === 0) item.appendChild(el("small", { class: "muted explain", text: T.capped }));
      list.appendChild(item);
    });
    if (!hand.events.length) list.appendChild(el("li", { class: "muted", text: T.nobody_scores }));
    box.appendChild(list);
    const totals = el("div", { class: "totals" });
    sides().forEach((side) => {
      totals.appendChild(el("p", { class: "total side-" + side, "data-side": side }, [
        el("span", { text: sideName(side) }),
        el("span", { class: "num", text: hand.scores_before[side] + " + " + hand.points[side] + " = " }),
        el("strong", { class: "num after", text: String(hand.scores[side]) }),
        el("span", { class: "muted", text: " / " + view.table.target }),
      ]));
    });
    box.appendChild(totals);
    if (view.seat !== null && r.ended !== "redeal") box.appendChild(analysisLink(hand.hand_number));
  }

  // A player's way to the finished hand's replay and the analysis of where it was lost.
  function analysisLink(number) {
    return el("p", { class: "analysis-link" }, [
      el("a", { href: config.hands + number + "/", text: T.where_lost }),
    ]);
  }

  function drawMatchEnd(box) {
    const t = view.table;
    const end = el("div", { class: "match-end" });
    let title = T.finished;
    if (t.finish === "forfeit") title = fmt(T.forfeit, { side: sideName(t.forfeit_side) });
    else if (t.finish === "target" && t.winner !== null) {
      const whose = view.seat === null ? "side" : t.winner !== sideOf(view.seat) ? (paired() ? "them" : "side")
        : paired() ? "us" : "you";
      title = fmt(T.match_won[whose], { side: sideName(t.winner) });
    }
    else if (t.finish === "abandoned") title = T.abandoned;
    end.appendChild(el("h2", { text: title }));
    // A lisa or a pollona (the engine's shutout: the losers ended without a hand's points)
    // is announced with the match's end, whatever the last hand shows.
    if (t.finish === "target" && t.shutout) {
      const announce = el("p", { class: "shutout", id: "shutout", role: "status" }, [
        el("span", { text: fmt(paired() ? T.shutout_text : T.singles.shutout_text, { name: shutoutName() }) }),
      ]);
      if (t.shutout_multiplier > 1) {
        announce.appendChild(el("span", { text: " " + plural(T.shutout_counts, t.shutout_multiplier, { n: t.shutout_multiplier }) }));
      }
      end.appendChild(announce);
    }
    const why = t.finish === "target" && !paired() ? T.singles.target_reached
      : (t.kind === "ranked" && T.finish_why_ranked[t.finish]) || T.finish_why[t.finish];
    if (t.finish && why) end.appendChild(el("p", { class: "why", text: why }));
    if (config.ranking && t.finish) {
      end.appendChild(el("p", { class: "ranked-counts" }, [
        el("span", { text: T.ranked_counts + " " }),
        el("a", { href: config.ranking, id: "to-ranking", text: T.see_ranking }),
      ]));
    }
    end.appendChild(el("p", { class: "final" }, [
      el("span", { text: T.final_score + " " }),
      el("strong", { text: paired() ? sideName(0) + " " + t.scores[0] + " – " + t.scores[1] + " " + sideName(1)
        : sides().map((side) => sideName(side) + " " + t.scores[side]).join(" · ") }),
    ]));
    if (t.history && t.history.length) {
      const summary = el("table", { class: "summary" });
      summary.appendChild(el("thead", {}, [el("tr", {}, [el("th", { text: T.hand }), el("th", { text: "" }),
        ...sides().map((side) => el("th", { class: "num", text: sideName(side) }))])]));
      const body = el("tbody");
      t.history.forEach((h) => {
        const number = view.seat !== null && h.ended !== "redeal"
          ? el("a", { href: config.hands + h.hand + "/", title: T.where_lost, text: String(h.hand) })
          : String(h.hand);
        body.appendChild(el("tr", {}, [el("td", {}, [number]), el("td", { text: T.ended_kinds[h.ended] || h.ended }),
          ...h.points.map((points) => el("td", { class: "num", text: String(points) }))]));
      });
      summary.appendChild(body);
      end.appendChild(el("div", { class: "scroll" }, [summary]));
    }
    const actions = el("p", { class: "actions-row" });
    if (config.again && config.user !== null && view.seat !== null) {
      actions.appendChild(el("button", { class: "button", type: "button", id: "play-again", text: T.play_again,
        onclick: () => $("again-form").submit() }));
    }
    actions.appendChild(el("a", { class: "button ghost", href: config.lobby, id: "to-lobby", text: T.to_lobby }));
    end.appendChild(actions);
    box.appendChild(end);
  }

  // ------------------------------------------------------------ what happened, in players' words

  // The whole hand's log, rebuilt from its public actions at every message: who acted is
  // known from the opener (a draw keeps the turn), where a tile went from the line.
  function actionText(seat, action, index, hand) {
    const name = seatName(seat);
    const [move] = action.split("!");
    let text;
    if (move === "pass") text = fmt(T.log.passed, { name });
    else if (move === "draw") text = fmt(T.log.drew, { name });
    else {
      const [tile, end] = move.split("@");
      if (index === 0) text = fmt(T.log.opened, { name, tile });
      else {
        const piece = hand.line.find((p) => p.end !== null && key(p.tile) === key(tile));
        text = fmt(T.log["played_" + (end || (piece && piece.end))] || T.log.played, { name, tile });
      }
    }
    return action.endsWith("!auto") ? text + " " + T.log.auto : text;
  }

  function drawLog(hand) {
    const log = $("log");
    log.textContent = "";
    if (!hand) return;
    if (redealNote) log.appendChild(el("li", { class: "event", text: T.log.redealt }));
    const scored = (index) => hand.events.filter((e) => e.action === index).forEach((e) => {
      log.appendChild(el("li", { class: "event", text: fmt(T.log.scored, { side: sideName(e.side), points: e.points, rule: eventName(e, hand) }) }));
    });
    hand.declarations.forEach((d) => {
      log.appendChild(el("li", { text: fmt(d.choice === "redeal" ? T.log.asked_redeal : T.log.kept_points, { name: seatName(d.seat) }) }));
    });
    scored(null);
    let seat = hand.opener;
    let drawing = null; // {seat, n, auto, item}: the line of a seat's draws in a row
    hand.actions.forEach((action, index) => {
      if (action.startsWith("draw")) {
        const auto = action.endsWith("!auto");
        if (drawing && drawing.seat === seat) {
          drawing.n += 1;
          drawing.auto = drawing.auto || auto;
          drawing.item.textContent = plural(T.log.drew_n, drawing.n, { name: seatName(seat) }) + (drawing.auto ? " " + T.log.auto : "");
          return; // a draw keeps the turn and scores nothing
        }
        drawing = { seat, n: 1, auto, item: el("li", { text: actionText(seat, action, index, hand) }) };
        log.appendChild(drawing.item);
        return;
      }
      drawing = null;
      log.appendChild(el("li", { text: actionText(seat, action, index, hand) }));
      scored(index);
      if (!action.startsWith("draw")) seat = (seat + 1) % view.table.seats.length;
    });
    log.scrollTop = log.scrollHeight;
  }

  function drawStatus() {
    const hand = view.hand;
    const t = view.table;
    const replaced = view.seat !== null && t.seats[view.seat].bot;
    let text = "";
    if (view.seat === null) text = T.spectating;
    else if (replaced && t.status !== "finished") text = T.bot_for_you;
    if (!replaced && hand && t.status === "playing" && !ENDED.includes(hand.status)) {
      if (hand.status === "declare") text = hand.turn === view.seat ? T.five_doubles_yours : fmt(T.waiting_for, { name: seatName(hand.turn) });
      else text = hand.turn === view.seat ? T.your_turn : fmt(T.waiting_for, { name: seatName(hand.turn) });
    }
    if (t.status === "waiting") text = T.waiting_seats;
    if (t.status === "finished") text = T.finished;
    $("status").textContent = text;
    document.getElementById("table-app").classList.toggle("my-turn", Boolean(legal().length));
    const invite = document.querySelector(".invite");
    if (invite) invite.hidden = t.status === "finished";
  }

  function render(message) {
    const newHand = !view || !view.hand || !message.hand || view.hand.hand_number !== message.hand.hand_number;
    if (newHand) redealNote = Boolean(view && view.hand && view.hand.result && view.hand.result.ended === "redeal");
    view = message;
    version = message.version;
    document.getElementById("table-app").dataset.version = version;
    skew = message.now * 1000 - Date.now();
    choosing = null;
    drawSeats();
    drawLine(message.hand);
    drawHand();
    drawControls();
    drawResult();
    drawStatus();
    drawTimer();
    drawLog(message.hand);
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

  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (view) drawLine(view.hand); }, 100);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && choosing) { choosing = null; drawHand(); drawLine(view.hand); drawControls(); }
  });
  setInterval(drawTimer, 250);
  connect();
})();
