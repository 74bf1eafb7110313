// The live table: one WebSocket, every message re-renders from the viewer's view.
// Protocol: docs/live-protocol.md. No build step, no dependencies.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("table-config").textContent);
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
  // Names the server sends as keys, in the viewer's language.
  const ENDS = { left: gettext("Left"), right: gettext("Right"), up: gettext("Up"), down: gettext("Down") };
  const DIRECTION = { ccw: gettext("Play goes counter-clockwise"), cw: gettext("Play goes clockwise") };
  const PLAYED = {
    left: gettext("%(name)s played %(tile)s on the left"), right: gettext("%(name)s played %(tile)s on the right"),
    up: gettext("%(name)s played %(tile)s at the top"), down: gettext("%(name)s played %(tile)s at the bottom"),
  };
  const KINDS = {
    table: gettext("table points"), pass: gettext("pass"), galo: gettext("galo"), paso_corrido: gettext("paso corrido"),
    capicua: gettext("capicúa"), opening_bonus: gettext("salida"), double_domino: gettext("domino with a double"),
    no_double_penalty: gettext("no double to open"), five_doubles: gettext("five doubles"),
  };
  const ENDED_KINDS = { domino: gettext("domino"), block: gettext("tranque"), redeal: gettext("redeal") };
  const SHUTOUT_NAMES = { dominican: gettext("Lisa"), tournament: gettext("Pollona"), latin: gettext("Pollona") };
  // What a hand's points count, by the rules' options: with pairs, and every seat on its own.
  const COUNTED = {
    domino: { all_hands: gettext("the pips left in every other hand, partner's included"),
      opponents: gettext("the pips left in the opponents' hands") },
    block: { others: gettext("the pips in every hand but the winner's own"), all_hands: gettext("the pips in all four hands"),
      opponents: gettext("the pips in the losing pair's hands") },
  };
  const COUNTED_SINGLES = {
    domino: { all_hands: gettext("the pips left in every other hand"),
      opponents: gettext("the pips left in the other players' hands") },
    block: { others: gettext("the pips in every hand but the winner's own"), all_hands: gettext("the pips in every hand"),
      opponents: gettext("the pips in the other players' hands") },
  };
  const MATCH_WON = {
    us: gettext("We win the match!"), you: gettext("You win the match!"), them: gettext("They win the match."),
    side: gettext("%(side)s wins the match."),
  };
  const FINISH_WHY = {
    target: gettext("A pair reached the target."),
    forfeit: gettext("A player was absent for a whole hand at a competition table."),
    abandoned: gettext("Each pair had a player absent for a whole hand: nobody wins a match nobody played, and it counts for no one."),
    closed: gettext("Nobody came back to the table for 24 hours. A casual table counts for no ranking."),
    time: gettext("The time ran out: the side ahead after the hand in play wins."),
  };
  const FINISH_WHY_RANKED = {
    forfeit: gettext("A player was absent for a whole hand at a ranked table: that pair loses the match."),
  };
  const MAX_UNIT = 64;
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

  // Strings come from the JavaScript catalogue (gettext, ngettext: /jsi18n/).
  function fmt(text, args) {
    return interpolate(text, args, true);
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

  // An arm is a snake laid in its own frame: it leaves the opening along +x and runs on while
  // the board has room for the tile and for a turn after it (or for `firstRun` pieces, when
  // it turns early to leave the board to a longer arm); then it turns a corner towards +y and
  // runs back along -x under itself (where that has no room, on down first), and so on.
  // Units: a tile is 2 x 1; a double lies across (1 along, 2 across) and never turns the
  // line. `board.fits(box, index)` says whether the arm's piece number `index` may lie there
  // (inside the board, clear of what is laid), `board.keep` lays it. With `turnOnce` the
  // first corner turns the arm for good: the rest is a snake in the frame turned a quarter
  // (down the board, then back up in columns that step back towards the opening).
  function layArm(pieces, start, board, turnOnce, firstRun) {
    const out = [];
    const fits = board.fits;
    let x = start, y = 0, dir = 1, dropping = false, cornered = false, dx = 0, dy = 0;
    const box = (x0, y0, x1, y1, heading, piece) => ({ x0: Math.min(x0, x1), y0: Math.min(y0, y1),
      x1: Math.max(x0, x1), y1: Math.max(y0, y1), heading, piece });
    const keep = (b) => { board.keep(b, out.length); out.push(b); };
    const put = (b) => { if (!fits(b, out.length)) return false; keep(b); return true; };
    // Room after a piece ending at `x` for the corner of what comes next (a double before it).
    const room = (next, x, y, dir) => !next
      || fits(box(x, y - (next.double ? 1 : 0.5), x + (next.double ? 2 : 1) * dir, y + 1.5), out.length + 1);
    for (let i = 0; i < pieces.length; i += 1) {
      const piece = pieces[i], next = pieces[i + 1];
      if (!dropping) {
        if (piece.double) { if (!put(box(x, y - 1, x + dir, y + 1, [dir, 0], piece))) return null; x += dir; continue; }
        const tile = box(x, y - 0.5, x + 2 * dir, y + 0.5, [dir, 0], piece);
        if ((cornered || i < firstRun) && fits(tile, out.length) && room(next, x + 2 * dir, y, dir)) {
          keep(tile); x += 2 * dir; continue;
        }
        if (turnOnce) {
          // The rest in the frame turned a quarter: along it is +y, its turns step towards -x.
          const turn = (u, v) => [x + 0.5 - v, u];
          const back = (b) => {
            const [ax, ay] = turn(b.x0, b.y0), [bx, by] = turn(b.x1, b.y1);
            return box(ax, ay, bx, by, b.heading && [-b.heading[1], b.heading[0]], b.piece);
          };
          const base = out.length;
          const rest = layArm(pieces.slice(i), y - 0.5, { fits: (b, index) => fits(back(b), base + index),
            keep: (b, index) => board.keep(back(b), base + index) }, false, Infinity);
          return rest && out.concat(rest.map(back));
        }
        if (!put(box(x, y - 0.5, x + dir, y + 1.5, [0, 1], piece))) return null; // the corner, hanging down
        dropping = true; cornered = true; dx = x + dir / 2; dy = y + 1.5;
        continue;
      }
      if (piece.double) { if (!put(box(dx - 1, dy, dx + 1, dy + 1, [0, 1], piece))) return null; dy += 1; continue; }
      const px = dx + dir / 2;
      const under = box(px, dy, px - 2 * dir, dy + 1, [-dir, 0], piece);
      if (fits(under, out.length) && room(next, px - 2 * dir, dy + 0.5, -dir)) { // back the other way
        keep(under); x = px - 2 * dir; y = dy + 0.5; dir = -dir; dropping = false;
        continue;
      }
      if (!put(box(dx - 0.5, dy, dx + 0.5, dy + 2, [0, 1], piece))) return null; // on down
      dy += 2;
    }
    return out;
  }

  // From an arm's frame to the board's: right as is, left turned half round, up and down a
  // quarter (so that every arm turns the same way round the opening); a side of -1 turns it
  // the other way.
  const FRAMES = {
    right: ([x, y]) => [x, y], left: ([x, y]) => [-x, -y],
    up: ([x, y]) => [y, -x], down: ([x, y]) => [-y, x],
  };
  // The ways an arm may run ([side, turnOnce, firstRun]), the first preferred: in rows along
  // its way out, turning one way round the opening or the other; turned once and snaking in
  // columns across its turn; turning after its first pieces (out of a longer arm's way).
  const WAYS = [[1, false, Infinity], [-1, false, Infinity], [1, true, Infinity], [-1, true, Infinity],
    [1, false, 1], [-1, false, 1], [1, false, 2], [-1, false, 2], [1, false, 3], [-1, false, 3]];
  // Where the opening sits across the board: the share of the width to its left and of the
  // height above it, the first tried first (after the balanced place).
  const SPLITS = [0.5, 0.35, 0.65, 0.2, 0.8, 0.27, 0.73, 0.12, 0.88];
  // How many ways are tried at a place, for each arm. Below FINE_UNIT pixels a
  // unit (the least a phone's line may take), every place half a unit apart is tried as well,
  // and more ways at each.
  const WIDE = 16;
  const FINE = 100;
  const FINE_UNIT = 24;

  function bounds(items) {
    const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    items.forEach((i) => {
      b.x0 = Math.min(b.x0, i.x0); b.y0 = Math.min(b.y0, i.y0);
      b.x1 = Math.max(b.x1, i.x1); b.y1 = Math.max(b.y1, i.y1);
    });
    return b;
  }

  // Whether two pieces come too close: none may overlap; two arms keep `arms` apart past
  // their first two pieces (which meet at the opening), so that no arm runs along another
  // and every open end stands clear (a unit round a spinner, whose four arms are the hardest
  // to tell apart, half a unit otherwise); two pieces of an arm that do not follow each other
  // never touch.
  function tooClose(p, q, arms) {
    let apart = -0.01;
    if (p.index >= 0 && q.index >= 0) {
      if (p.end === q.end) apart = Math.abs(p.index - q.index) > 1 ? 0.49 : -0.01;
      else if (p.index > 1 || q.index > 1) apart = arms;
    }
    return Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0) > -apart && Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0) > -apart;
  }

  // The line laid round its opening at (sx, sy) of a board of width x height units: every arm
  // one of its ways, inside the board and clear of the others (the shortest arms first, so
  // that a long one snakes round what they leave), trying at most `ways` ways an arm; null
  // when no ways fit.
  function placeLine(hand, width, height, sx, sy, ways) {
    const arms = { left: [], right: [], up: [], down: [] };
    let opening = null;
    hand.line.forEach((p) => { if (p.end === null) opening = p; else arms[p.end].push(p); });
    hand.ends.forEach((e) => arms[e.end].push({ phantom: e.end, double: false }));
    const upright = opening.spinner || opening.double;
    const apart = opening.spinner ? 0.99 : 0.49;
    const first = upright ? { x0: -0.5, y0: -1, x1: 0.5, y1: 1, orient: "v" } : { x0: -1, y0: -0.5, x1: 1, y1: 0.5, orient: "h" };
    Object.assign(first, { halves: [opening.left, opening.right], piece: opening, index: -1, end: null });
    const left = -width * sx, right = width * (1 - sx), top = -height * sy, bottom = height * (1 - sy);
    if (first.x0 < left || first.x1 > right || first.y0 < top || first.y1 > bottom) return null;
    // What is laid, arm by arm, each with its bounds (a piece far from them is clear of it).
    const laid = [Object.assign([first], { b: bounds([first]) })];
    const names = Object.keys(arms).filter((name) => arms[name].length).sort((a, b) => arms[a].length - arms[b].length);
    // The arm `name` laid one way round what is laid: its pieces on the board, or null.
    const layWay = (name, [side, turnOnce, firstRun]) => {
      const frame = ([x, y]) => FRAMES[name]([x, side * y]);
      const toBoard = (b, index) => {
        const [ax, ay] = frame([b.x0, b.y0]), [bx, by] = frame([b.x1, b.y1]);
        return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by),
          end: name, index, piece: b.piece, heading: b.heading && frame(b.heading) };
      };
      const mine = [];
      const fits = (b, index) => {
        const p = toBoard(b, index);
        if (p.x0 < left - 1e-9 || p.x1 > right + 1e-9 || p.y0 < top - 1e-9 || p.y1 > bottom + 1e-9) return false;
        const clear = (group) => p.x0 > group.b.x1 + 1 || p.x1 < group.b.x0 - 1 || p.y0 > group.b.y1 + 1 || p.y1 < group.b.y0 - 1
          || !group.some((q) => tooClose(p, q, apart));
        return laid.every(clear) && !mine.some((q) => q.index < index && tooClose(p, q, apart));
      };
      const start = name === "up" || name === "down" ? 1 : upright ? 0.5 : 1;
      return layArm(arms[name], start, { fits, keep: (b, index) => mine.push(toBoard(b, index)) }, turnOnce, firstRun) && mine;
    };
    // An arm that has no way on this board even alone rules the place out at once.
    if (names.some((name) => !WAYS.some((way) => layWay(name, way)))) return null;
    let budget = ways * names.length;
    const lay = (k) => {
      if (k === names.length) return true;
      const tried = new Set();
      for (const way of WAYS) {
        if ((budget -= 1) < 0) return false;
        const placed = layWay(names[k], way);
        if (!placed) continue;
        // A way that lays the arm as another did (an arm that never turns) is not tried again.
        const shape = placed.map((p) => p.x0 + "," + p.y0).join(" ");
        if (tried.has(shape)) continue;
        tried.add(shape);
        laid.push(Object.assign(placed, { b: bounds(placed) }));
        if (lay(k + 1)) return true;
        laid.pop();
      }
      return false;
    };
    if (!lay(0)) return null;
    const items = laid.flat();
    items.forEach((item) => {
      if (item.index < 0) return;
      item.orient = item.x1 - item.x0 > item.y1 - item.y0 ? "h" : "v";
      if (item.piece.phantom) return;
      const [a, b] = halves(item.piece.tile);
      const outer = item.piece.outer;
      const inner = a === outer ? b : a;
      // The inner half touches the line: it lies against the heading.
      const forwardish = item.orient === "h" ? item.heading[0] > 0 : item.heading[1] > 0;
      item.halves = forwardish ? [inner, outer] : [outer, inner];
    });
    return items;
  }

  // The share of the board each side of the opening needs for its arms laid straight.
  function balanced(hand) {
    const length = { left: 1, right: 1, up: 1, down: 1 };
    hand.line.forEach((p) => { if (p.end !== null) length[p.end] += p.double ? 1 : 2; });
    hand.ends.forEach((e) => { length[e.end] += 2; });
    return [length.left / (length.left + length.right), length.up / (length.up + length.down)];
  }

  // The largest tiles with which the whole line and its open ends fit the board, apart: the
  // line is drawn as large as the board allows, and zooms out as it grows. As the line grows
  // by a tile, the last layout (its size and place) is tried first: it usually still fits,
  // and the line then keeps its place on the board.
  let fitted = { key: null, fit: null };

  function fitLine(hand, widthPx, heightPx) {
    const key = JSON.stringify([hand.line, hand.ends, widthPx, heightPx]);
    if (fitted.key === key) return fitted.fit;
    const last = fitted.fit;
    const grown = last && last.widthPx === widthPx && last.heightPx === heightPx
      && last.tiles.length <= hand.line.length && last.tiles.every((t, i) => t === hand.line[i].tile);
    const kept = grown ? placeLine(hand, widthPx / last.unit, heightPx / last.unit, last.sx, last.sy, WIDE) : null;
    const fit = kept ? Object.assign({}, last, { items: kept, b: bounds(kept) })
      : searchFit(hand, widthPx, heightPx, grown ? last.unit : MAX_UNIT);
    fit.tiles = hand.line.map((p) => p.tile);
    fitted = { key, fit: Object.assign(fit, { widthPx, heightPx }) };
    return fit;
  }

  function searchFit(hand, widthPx, heightPx, most) {
    const [bx, by] = balanced(hand);
    const coarse = [[bx, by], ...SPLITS.flatMap((sx) => SPLITS.map((sy) => [sx, sy]))];
    const attempt = (unit, fine) => {
      const width = widthPx / unit, height = heightPx / unit;
      let places = coarse;
      if (fine) {
        // Every place of the opening half a unit apart, the nearest the balanced one first.
        const xs = [], ys = [];
        for (let x = 1; x < width; x += 0.5) xs.push(x / width);
        for (let y = 1; y < height; y += 0.5) ys.push(y / height);
        xs.sort((p, q) => Math.abs(p - bx) - Math.abs(q - bx));
        ys.sort((p, q) => Math.abs(p - by) - Math.abs(q - by));
        places = xs.flatMap((sx, i) => ys.map((sy, j) => [sx, sy, i + j])).sort((p, q) => p[2] - q[2]);
      }
      for (const [sx, sy] of places) {
        const items = placeLine(hand, width, height, sx, sy, fine ? FINE : WIDE);
        if (items) return { unit, items, b: bounds(items), sx, sy };
      }
      return null;
    };
    // Small tiles already: the line that grew by a tile most often still fits at their size.
    let finest = Math.min(FINE_UNIT, most);
    if (most <= FINE_UNIT) {
      const kept = attempt(most, true);
      if (kept) return kept;
      finest = most - 1;
    }
    // No larger tiles than the board's area could hold (a tile and each open end: 2 units).
    // Tried down from the largest, in steps that double, then halving between the largest
    // size that fits and the smallest that does not.
    const area = 2 * (hand.line.length + hand.ends.length);
    let failed = Math.min(most, MAX_UNIT, Math.floor(Math.sqrt((widthPx * heightPx) / area))) + 1;
    let best = null;
    for (let step = 1; failed > MIN_UNIT; step *= 2) {
      const size = Math.max(MIN_UNIT, failed - step);
      best = attempt(size, false);
      if (best) break;
      failed = size;
    }
    let high = failed - 1;
    while (best && best.unit < high) {
      const mid = Math.ceil((best.unit + 1 + high) / 2);
      const tried = attempt(mid, false);
      if (tried) best = tried; else high = mid - 1;
    }
    // Small tiles: the places in between may hold larger ones.
    for (let unit = best ? best.unit + 1 : MIN_UNIT; unit <= finest; unit += 1) {
      const tried = attempt(unit, true);
      if (!tried) break;
      best = tried;
    }
    return best || { unit: MIN_UNIT, items: [], b: { x0: 0, y0: 0, x1: 0, y1: 0 }, sx: 0.5, sy: 0.5 };
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
    const active = document.activeElement;
    const focusedEnd = active && active.classList && active.classList.contains("end-target") ? active.dataset.end : null;
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
    $("table-app").style.setProperty("--unit", unit + "px");
    $("table-app").dataset.unit = unit;
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
          "data-end": end, "aria-label": ENDS[end], tabindex: on ? "0" : "-1", "aria-hidden": on ? null : "true",
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
      if (focusedEnd && item.piece.phantom === focusedEnd && lit.includes(focusedEnd)) node.focus();
    });
  }

  function drawLineInfo(hand) {
    const info = $("line-info");
    info.textContent = "";
    if (!hand || !view) return;
    // The way round the table, where there is one: two players take turns.
    if (view.table.seats.length > 2) {
      const dir = view.table.direction === "cw" ? "cw" : "ccw";
      info.appendChild(el("span", { class: "direction", title: DIRECTION[dir] }, [icon(dir, DIRECTION[dir]),
        el("span", { class: "words", "aria-hidden": "true", text: DIRECTION[dir] })]));
    }
    info.appendChild(el("span", { class: "hand-n", "aria-hidden": "true", text: fmt(gettext("Hand %(n)s"), { n: view.table.hand_number }) }));
    if (hand.line.length && !ENDED.includes(hand.status)) {
      info.appendChild(el("span", { text: fmt(gettext("Count: %(n)s"), { n: hand.table_count }) }));
    }
    // A draw game shows how many tiles are left to draw, none included; never which.
    if (view.table.draw_game || hand.boneyard) {
      info.appendChild(el("span", { class: "boneyard", "data-boneyard": hand.boneyard }, [icon("tile"), fmt(ngettext("Boneyard: %(n)s tile", "Boneyard: %(n)s tiles", hand.boneyard), { n: hand.boneyard })]));
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
    if (!paired()) return side === view.seat ? gettext("You") : seatName(side);
    if (view.seat === null) return fmt(gettext("Pair %(n)s"), { n: side + 1 });
    return side === view.seat % 2 ? gettext("Us") : gettext("Them");
  }

  function seatName(number) {
    const seat = view.table.seats[number];
    if (seat.bot && !seat.name) return gettext("Bot") + " " + (number + 1);
    return seat.name || fmt(gettext("Seat %(n)s"), { n: number + 1 });
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
    $("table-app").classList.toggle("waiting", t.status === "waiting");
    const used = positions();
    document.querySelectorAll("#table-app .seat").forEach((box) => {
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
      who.appendChild(el("strong", { class: "name", text: seat.taken ? seatName(number) : gettext("Empty seat") }));
      const tags = el("div", { class: "tags" });
      if (number === view.seat) tags.appendChild(el("span", { class: "tag you", text: gettext("you") }));
      if (partner) tags.appendChild(el("span", { class: "tag partner" }, [icon("partner"), el("span", { class: "label", text: gettext("partner") })]));
      if (seat.bot) {
        const level = config.levels[seat.level] ? " · " + config.levels[seat.level] : "";
        tags.appendChild(el("span", { class: "tag bot" }, [icon("bot"), (seat.name ? gettext("a bot plays") : gettext("Bot")) + level]));
      }
      if (offline) tags.appendChild(el("span", { class: "tag offline" }, [icon("offline"), gettext("offline")]));
      if (hand && seat.taken && !ENDED.includes(hand.status)) {
        const n = hand.tile_counts[number];
        const words = fmt(ngettext("%(n)s tile", "%(n)s tiles", n), { n });
        // On a narrow seat the tile icon and the number say it: the words stay for readers.
        tags.appendChild(el("span", { class: "tag count", title: words }, [icon("tile"),
          el("span", { class: "full", text: words }), el("span", { class: "short", "aria-hidden": "true", text: String(n) })]));
      }
      if (playing && hand.passed && hand.passed.includes(number)) {
        tags.appendChild(el("span", { class: "tag passed" }, [icon("pass"), el("span", { class: "label", text: gettext("passed") })]));
      }
      if (t.status === "between" && t.ready.includes(number)) {
        tags.appendChild(el("span", { class: "tag ready" }, [icon("check"), gettext("Ready")]));
      }
      who.appendChild(tags);
      box.appendChild(who);
      if (t.status === "waiting" && !seat.taken && config.user !== null) {
        box.appendChild(el("button", { class: "button small", type: "button", "data-sit": number, text: gettext("Sit here"),
          onclick: () => send({ type: "sit", seat: number }) }));
        if (t.host === config.user && t.kind !== "fixture") {
          const level = el("select", { class: "bot-level", "data-level": number, "aria-label": gettext("Bot level") },
            Object.entries(config.levels).map(([value, label]) => el("option", { value, text: label })));
          level.value = "medium";
          box.appendChild(level);
          box.appendChild(el("button", { class: "button small", type: "button", "data-bot": number, text: gettext("Add a bot"),
            onclick: () => send({ type: "bot", seat: number, level: level.value }) }));
        }
      }
      box.setAttribute("aria-label", seat.taken ? seatName(number) + (offline ? ", " + gettext("offline") : "") : gettext("Empty seat"));
    });
    $("hand-number").textContent = t.hand_number ? fmt(gettext("Hand %(n)s"), { n: t.hand_number }) : "";
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
        box.appendChild(el("span", { class: "running", title: gettext("This hand"), text: "+" + hand.points[side] }));
      }
    });
  }

  function drawTimer() {
    const t = view && view.table;
    const between = $("between-timer");
    document.querySelectorAll(".seat .ring .left").forEach((c) => c.setAttribute("stroke-dashoffset", "0"));
    document.querySelectorAll(".seat .seconds").forEach((s) => { s.textContent = ""; });
    if (between) between.textContent = "";
    if (!t || !t.deadline || t.paused || t.status === "finished" || t.status === "waiting") return;
    if (timer.deadline !== t.deadline) {
      const observed = t.deadline - (Date.now() + skew) / 1000;
      const turn = t.status === "playing" && view.hand && view.hand.status === "play";
      timer = { deadline: t.deadline, total: Math.max(1, turn ? t.turn_seconds : observed) };
    }
    const left = Math.max(0, (t.deadline * 1000 - (Date.now() + skew)) / 1000);
    const whole = Math.ceil(left);
    if (t.status === "between") {
      if (between) between.textContent = fmt(ngettext("Players who are away count as ready in %(n)s second.", "Players who are away count as ready in %(n)s seconds.", whole), { n: whole });
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
    drawControls();
    drawLine(view.hand);
    const target = document.querySelector(".end-target.lit");
    if (target) target.focus();
  }

  function drawHand() {
    const box = $("my-hand");
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.tile : null;
    box.textContent = "";
    const hand = view.hand;
    if (!hand || view.seat === null || !hand.hand || hand.result) return;
    sizeHand(box, hand.hand.length);
    const actions = legal();
    const buttons = [];
    hand.hand.forEach((tile) => {
      const options = actions.filter((a) => TILE.test(a) && key(a) === key(tile));
      const [a, b] = halves(tile);
      const playable = options.length > 0;
      const button = el("button", { type: "button", class: "tile" + (playable ? " playable" : ""), "data-tile": tile,
        "aria-label": fmt(playable ? gettext("Tile %(tile)s, playable") : gettext("Tile %(tile)s"), { tile }), "aria-disabled": playable ? null : "true",
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

  // On a phone the tiles share one row, as large as fits (two rows if a draw game's hand is
  // long); wider screens keep their size and wrap.
  function sizeHand(box, count) {
    const gap = 5;
    const width = box.clientWidth || window.innerWidth;
    const rows = (width - gap * (count - 1)) / count < 26 ? 2 : 1;
    const perRow = Math.ceil(count / rows);
    const side = Math.floor(Math.min(34, (width - gap * (perRow - 1)) / perRow));
    box.style.setProperty("--hand-w", side + "px");
    box.style.flexWrap = rows > 1 ? "wrap" : "";
  }

  function drawControls() {
    const box = $("controls");
    box.textContent = "";
    const actions = legal();
    const hand = view.hand;
    // Wherever a bot holds the viewer's seat, alone at the table or not: the way back.
    if (view.seat !== null && view.table.seats[view.seat].bot && view.table.status !== "finished") {
      box.appendChild(el("button", { class: "button", id: "take-back", type: "button", text: gettext("Take my seat back"),
        onclick: () => send({ type: "back" }) }));
      return;
    }
    if (hand && hand.status === "declare" && actions.length) {
      box.appendChild(el("p", { text: gettext("You hold five doubles: keep the points or ask for a redeal?") }));
      box.appendChild(el("button", { class: "button", type: "button", "data-action": "points", text: gettext("Keep the points"), onclick: () => play("points") }));
      box.appendChild(el("button", { class: "button ghost", type: "button", "data-action": "redeal", text: gettext("Redeal"), onclick: () => play("redeal") }));
      return;
    }
    if (actions.includes("draw")) box.appendChild(el("p", { class: "draw-hint", text: gettext("Nothing fits: draw from the boneyard.") }));
    ["pass", "draw"].forEach((kind) => {
      if (actions.includes(kind)) {
        box.appendChild(el("button", { class: "button", type: "button", "data-action": kind, text: kind === "pass" ? gettext("Pass") : gettext("Draw"), onclick: () => play(kind) }));
      }
    });
    if (choosing) {
      box.appendChild(el("span", { text: gettext("Where? Tap a lit end, or:") }));
      choosing.options.forEach((action) => {
        const end = action.split("@")[1];
        box.appendChild(el("button", { class: "button small", type: "button", "data-action": action, text: ENDS[end] || end, onclick: () => play(action) }));
      });
      box.appendChild(el("button", { class: "linklike", type: "button", text: gettext("Cancel"), onclick: () => {
        choosing = null; drawHand(); drawControls(); drawLine(view.hand);
      } }));
    }
  }

  // ------------------------------------------------------------ the end of a hand

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function eventName(e, hand) {
    if (e.kind === "hand") return hand.result && hand.result.ended === "block" ? gettext("tranque: pips left") : gettext("domino: pips left");
    return KINDS[e.kind] || e.kind;
  }

  function endedTitle(hand) {
    const r = hand.result;
    if (r.ended === "redeal") return gettext("Redeal: nobody scores, the tiles are dealt again.");
    if (r.ended === "domino") return fmt(gettext("%(name)s dominoed."), { name: seatName(r.winner.seat) });
    if (!r.winner) return gettext("Tranque tied: nobody scores.");
    if (r.winner.seat !== null) return fmt(gettext("Tranque: %(name)s wins it."), { name: seatName(r.winner.seat) });
    return fmt(gettext("Tranque: the hand goes to %(side)s."), { side: sideName(r.winner.side) });
  }

  // Why a tranque went the way it did: the pip counts the rule compared (the engine's).
  function blockWhy(hand) {
    const r = hand.result;
    const c = hand.reckoning;
    if (c.compared) {
      const [blocker, next] = c.compared;
      return fmt(gettext("%(blocker)s blocked with %(bpips)s pips; %(next)s, next to play, held %(npips)s. Fewer pips win, and a tie goes to the blocker."), {
        blocker: seatName(blocker), bpips: c.pips[blocker], next: seatName(next), npips: c.pips[next],
      });
    }
    const text = paired()
      ? fmt(gettext("Pips left: %(us)s %(a)s, %(them)s %(b)s. The pair with fewer wins."), { us: sideName(0), a: c.side_pips[0], them: sideName(1), b: c.side_pips[1] })
      : fmt(gettext("Pips left: %(pips)s. The player with fewer wins."), { pips: c.side_pips.map((p, side) => seatName(side) + " " + p).join(", ") });
    return r.winner ? text : text + " " + gettext("Equal: nobody scores.");
  }

  function handRule(hand) {
    const c = hand.reckoning;
    const r = hand.result;
    const counted = (paired() ? COUNTED : COUNTED_SINGLES)[r.ended === "domino" ? "domino" : "block"];
    let rule = counted[r.ended === "domino" ? c.domino_points : c.block_points];
    if (c.scoring === "penalty") rule = gettext("each losing side's own pips, which that side scores");
    const text = fmt(gettext("Counted: %(rule)s."), { rule });
    return c.round_to > 1 ? text + " " + fmt(gettext("Rounded down to a multiple of %(n)s."), { n: c.round_to }) : text;
  }

  function shutoutName() {
    const rules = view.table.rules;
    const preset = typeof rules === "string" ? rules : rules.preset;
    return SHUTOUT_NAMES[preset] || gettext("Shutout");
  }

  // What the result box shows, but for who is ready: while it stays the same, the box is not
  // drawn again. Updates keep coming between hands (each seat's press, a seat going offline),
  // and a box drawn anew under a click swallowed it, and made screen readers read it all again.
  let resultShown = null;

  function drawResult() {
    const box = $("result");
    const hand = view.hand;
    const t = view.table;
    const finished = t.status === "finished";
    if (!(hand && hand.result) && !finished) { box.hidden = true; resultShown = null; return; }
    if (box.hidden && view.seat !== null) {
      // The hand just ended: bring its reckoning into view (it lies under the table).
      requestAnimationFrame(() => box.scrollIntoView({ behavior: "smooth", block: "nearest" }));
    }
    box.hidden = false;
    const shown = JSON.stringify([hand && hand.hand_number, hand && hand.result, t.status, t.seats, t.scores, t.winner, t.finish]);
    if (shown !== resultShown) {
      resultShown = shown;
      box.textContent = "";
      if (hand && hand.result) drawReckoning(box, hand);
      if (finished) drawMatchEnd(box);
      else if (t.status === "between") {
        box.appendChild(el("div", { class: "between" }, [
          el("p", { class: "muted ready-count" }),
          el("p", { class: "muted", id: "between-timer" }),
        ]));
      }
    }
    const between = box.querySelector(".between");
    if (between) drawReady(between, t);
  }

  // Who is ready for the next hand, and the viewer's button until they are: the same button
  // from one update to the next, so that a press is never lost under a redraw.
  function drawReady(between, t) {
    between.querySelector(".ready-count").textContent = fmt(gettext("Ready: %(n)s of %(total)s."), { n: t.ready.length, total: t.seats.length });
    const waiting = view.seat !== null && !t.ready.includes(view.seat) && !t.seats[view.seat].bot;
    const button = $("next-hand");
    if (waiting && !button) {
      between.appendChild(el("button", { class: "button", type: "button", id: "next-hand", text: gettext("Next hand"), onclick: () => send({ type: "next" }) }));
    } else if (!waiting && button) {
      button.remove();
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
    seats.appendChild(el("caption", { class: "visually-hidden", text: gettext("The tiles left in each hand") }));
    const head = el("tr", {}, [el("th", { scope: "col", text: gettext("Player") }), el("th", { scope: "col", text: gettext("Tiles left") }),
      el("th", { scope: "col", class: "num", text: gettext("Pips") })]);
    seats.appendChild(el("thead", {}, [head]));
    const body = el("tbody");
    hand.hands.forEach((tiles, number) => {
      const row = el("tr", { class: "revealed-seat side-" + sideOf(number), "data-seat": number });
      const won = r.winner && r.winner.seat === number;
      row.appendChild(el("th", { scope: "row", text: seatName(number) + (won ? " ★" : "") }));
      const cell = el("td", { class: "tiles" });
      if (!tiles.length) cell.appendChild(el("span", { class: "muted", text: gettext("none") }));
      tiles.forEach((tile) => { const [a, b] = halves(tile); cell.appendChild(tileSvg(a, b, "v")); });
      row.appendChild(cell);
      row.appendChild(el("td", { class: "num", text: c ? String(c.pips[number]) : "" }));
      body.appendChild(row);
    });
    seats.appendChild(body);
    box.appendChild(el("div", { class: "scroll" }, [seats]));
    // Every point of the hand by side, with its subtotal: each rule that gave points, who
    // scored them, and how many times (the engine's events, added up by rule and seat).
    const scored = el("div", { class: "scored" });
    sides().forEach((side) => {
      const lines = [];
      hand.events.filter((e) => e.side === side).forEach((e) => {
        const same = lines.find((l) => l.kind === e.kind && l.seat === e.seat && e.kind !== "hand");
        if (same) { same.points += e.points; same.times += 1; } else lines.push(Object.assign({ times: 1 }, e));
      });
      if (!lines.length) return;
      const group = el("section", { class: "side-events side-" + side, "data-side": side });
      group.appendChild(el("h3", {}, [el("span", { text: sideName(side) }),
        el("strong", { class: "num subtotal", text: "+" + hand.points[side] })]));
      const list = el("ul", { class: "events" });
      lines.forEach((e) => {
        const item = el("li", { "data-side": e.side, "data-points": e.points, "data-kind": e.kind });
        item.appendChild(el("span", { class: "rule", text: capital(eventName(e, hand)) + (e.times > 1 ? " ×" + e.times : "") }));
        item.appendChild(el("span", { class: "for", text: e.seat === null || e.seat === undefined ? "" : seatName(e.seat) }));
        item.appendChild(el("strong", { class: "num", text: "+" + e.points }));
        if (e.kind === "hand" && c) item.appendChild(el("small", { class: "muted explain", text: handRule(hand) }));
        if (e.kind !== "hand" && c && c.bonus_cap && e.points === 0) item.appendChild(el("small", { class: "muted explain", text: gettext("Capped: bonuses cannot reach the target.") }));
        list.appendChild(item);
      });
      group.appendChild(list);
      scored.appendChild(group);
    });
    if (!hand.events.length) scored.appendChild(el("p", { class: "muted", text: gettext("Nobody scores.") }));
    box.appendChild(scored);
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
      el("a", { href: config.hands + number + "/", text: gettext("Where was this hand lost?") }),
    ]);
  }

  function drawMatchEnd(box) {
    const t = view.table;
    const end = el("div", { class: "match-end" });
    let title = gettext("This table has finished.");
    if (t.finish === "forfeit") title = fmt(gettext("Forfeit: %(side)s lost the match by absence."), { side: sideName(t.forfeit_side) });
    else if ((t.finish === "target" || t.finish === "time") && t.winner !== null) {
      const whose = view.seat === null ? "side" : t.winner !== sideOf(view.seat) ? (paired() ? "them" : "side")
        : paired() ? "us" : "you";
      title = fmt(MATCH_WON[whose], { side: sideName(t.winner) });
    }
    else if (t.finish === "abandoned") title = gettext("The table was abandoned.");
    else if (t.finish === "closed") title = gettext("The table was closed.");
    end.appendChild(el("h2", { text: title }));
    // A lisa or a pollona (the engine's shutout: the losers ended without a hand's points)
    // is announced with the match's end, whatever the last hand shows.
    if (t.finish === "target" && t.shutout) {
      const announce = el("p", { class: "shutout", id: "shutout", role: "status" }, [
        el("span", { text: fmt(paired() ? gettext("%(name)s! The other side ended the match without a hand's points.") : gettext("%(name)s! Every other player ended the match without a hand's points."), { name: shutoutName() }) }),
      ]);
      if (t.shutout_multiplier > 1) {
        announce.appendChild(el("span", { text: " " + fmt(ngettext("It counts as %(n)s match won.", "It counts as %(n)s matches won.", t.shutout_multiplier), { n: t.shutout_multiplier }) }));
      }
      end.appendChild(announce);
    }
    const why = t.finish === "target" && !paired() ? gettext("A player reached the target.")
      : (t.kind === "ranked" && FINISH_WHY_RANKED[t.finish]) || FINISH_WHY[t.finish];
    if (t.finish && why) end.appendChild(el("p", { class: "why", text: why }));
    if (config.ranking && (t.finish === "target" || t.finish === "forfeit")) {
      end.appendChild(el("p", { class: "ranked-counts" }, [
        el("span", { text: gettext("This ranked match counts for the online ranking.") + " " }),
        el("a", { href: config.ranking, id: "to-ranking", text: gettext("See the ranking") }),
      ]));
    }
    end.appendChild(el("p", { class: "final" }, [
      el("span", { text: gettext("Final score:") + " " }),
      el("strong", { text: paired() ? sideName(0) + " " + t.scores[0] + " – " + t.scores[1] + " " + sideName(1)
        : sides().map((side) => sideName(side) + " " + t.scores[side]).join(" · ") }),
    ]));
    if (t.history && t.history.length) {
      const summary = el("table", { class: "summary" });
      summary.appendChild(el("thead", {}, [el("tr", {}, [el("th", { text: gettext("Hand") }), el("th", { text: "" }),
        ...sides().map((side) => el("th", { class: "num", text: sideName(side) }))])]));
      const body = el("tbody");
      t.history.forEach((h) => {
        const number = view.seat !== null && h.ended !== "redeal"
          ? el("a", { href: config.hands + h.hand + "/", title: gettext("Where was this hand lost?"), text: String(h.hand) })
          : String(h.hand);
        body.appendChild(el("tr", {}, [el("td", {}, [number]), el("td", { text: ENDED_KINDS[h.ended] || h.ended }),
          ...h.points.map((points) => el("td", { class: "num", text: String(points) }))]));
      });
      summary.appendChild(body);
      end.appendChild(el("div", { class: "scroll" }, [summary]));
    }
    const actions = el("p", { class: "actions-row" });
    if (config.again && config.user !== null && view.seat !== null) {
      actions.appendChild(el("button", { class: "button", type: "button", id: "play-again", text: gettext("Play again"),
        onclick: () => $("again-form").submit() }));
    }
    actions.appendChild(el("a", { class: "button ghost", href: config.lobby, id: "to-lobby", text: gettext("Back to the lobby") }));
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
    if (move === "pass") text = fmt(gettext("%(name)s passed"), { name });
    else if (move === "draw") text = fmt(gettext("%(name)s drew"), { name });
    else {
      const [tile, end] = move.split("@");
      if (index === 0) text = fmt(gettext("%(name)s opened with %(tile)s"), { name, tile });
      else {
        const piece = hand.line.find((p) => p.end !== null && key(p.tile) === key(tile));
        text = fmt(PLAYED[end || (piece && piece.end)] || gettext("%(name)s played %(tile)s"), { name, tile });
      }
    }
    return action.endsWith("!auto") ? text + " " + gettext("(timer)") : text;
  }

  function drawLog(hand) {
    const log = $("log");
    log.textContent = "";
    $("log-box").hidden = !hand || !(hand.actions.length || hand.declarations.length || redealNote);
    if (!hand) return;
    if (redealNote) log.appendChild(el("li", { class: "event", text: gettext("Redeal: new tiles were dealt.") }));
    const scored = (index) => hand.events.filter((e) => e.action === index).forEach((e) => {
      log.appendChild(el("li", { class: "event", text: fmt(gettext("%(side)s: +%(points)s %(rule)s"), { side: sideName(e.side), points: e.points, rule: eventName(e, hand) }) }));
    });
    hand.declarations.forEach((d) => {
      log.appendChild(el("li", { text: fmt(d.choice === "redeal" ? gettext("%(name)s asked for a redeal") : gettext("%(name)s kept the points for five doubles"), { name: seatName(d.seat) }) }));
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
          drawing.item.textContent = fmt(ngettext("%(name)s drew %(n)s tile", "%(name)s drew %(n)s tiles", drawing.n), { name: seatName(seat), n: drawing.n }) + (drawing.auto ? " " + gettext("(timer)") : "");
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

  // When a paused table closes, in the viewer's words.
  function closingTime(deadline) {
    return new Date(deadline * 1000 - skew).toLocaleString(document.documentElement.lang || undefined,
      { weekday: "short", hour: "2-digit", minute: "2-digit" });
  }

  function drawStatus() {
    const hand = view.hand;
    const t = view.table;
    const replaced = view.seat !== null && t.seats[view.seat].bot;
    let text = "";
    if (view.seat === null) text = gettext("You are watching.");
    else if (replaced && t.status !== "finished") text = gettext("A bot is playing your seat since you were away for a whole hand.");
    if (!replaced && hand && t.status === "playing" && !ENDED.includes(hand.status)) {
      if (hand.status === "declare") text = hand.turn === view.seat ? gettext("Five doubles: choose.") : fmt(gettext("Waiting for %(name)s"), { name: seatName(hand.turn) });
      else text = hand.turn === view.seat ? gettext("Your turn") : fmt(gettext("Waiting for %(name)s"), { name: seatName(hand.turn) });
    }
    if (t.paused && t.status !== "finished" && !replaced) {
      text = fmt(gettext("Paused: nobody is playing. The table waits until %(time)s."), { time: closingTime(t.deadline) });
    }
    if (t.status === "waiting") text = gettext("Waiting for players to sit down.");
    if (t.status === "finished") text = gettext("This table has finished.");
    $("status").textContent = text;
    document.getElementById("table-app").classList.toggle("my-turn", Boolean(legal().length));
    const invite = document.querySelector(".invite");
    if (invite) invite.hidden = t.status === "finished";
  }

  function render(message) {
    const newHand = !view || !view.hand || !message.hand || view.hand.hand_number !== message.hand.hand_number;
    if (newHand) redealNote = Boolean(view && view.hand && view.hand.result && view.hand.result.ended === "redeal");
    // A message that is not a new version (a seat going offline, a deadline put back)
    // leaves the same moves legal: the tile being placed stays chosen.
    if (message.version !== version) choosing = null;
    view = message;
    version = message.version;
    document.getElementById("table-app").dataset.version = version;
    skew = message.now * 1000 - Date.now();
    drawSeats();
    drawHand();
    drawControls();
    drawResult();
    drawStatus();
    fitPlayArea();
    drawLine(message.hand);
    drawTimer();
    drawLog(message.hand);
  }

  // The play area ends at the bottom of the screen, so that the board takes what the score,
  // the seats and the tiles leave of it (measured from the top of the page: scroll 0).
  function fitPlayArea() {
    const area = $("play-area");
    const top = area.getBoundingClientRect().top + window.scrollY;
    area.style.setProperty("--play-h", Math.floor(window.innerHeight - top - 4) + "px");
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
      $("status").textContent = gettext("Reconnecting…");
      setTimeout(connect, 1000);
    });
  }

  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (view) { drawHand(); fitPlayArea(); drawLine(view.hand); } }, 100);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && choosing) { choosing = null; drawHand(); drawControls(); drawLine(view.hand); }
  });
  setInterval(drawTimer, 250);
  connect();
})();
