/* Entry forms: a player field searches the club's roster as one types. Picking a player fills
   the hidden id; typing again clears it, and a name left as typed is a new roster player. */
(function () {
  function setup(box) {
    var input = box.querySelector("input[type=text]");
    var hidden = box.querySelector("input[type=hidden]");
    var list = box.querySelector(".roster-list");
    var hint = box.querySelector(".roster-hint");
    var timer = null, active = -1, items = [];
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    list.id = input.id + "-list";
    input.setAttribute("aria-controls", list.id);

    function close() { list.hidden = true; input.setAttribute("aria-expanded", "false"); active = -1; }
    function choose(player) {
      input.value = player.name; hidden.value = player.id;
      hint.textContent = player.club || ""; close();
    }
    function highlight(i) {
      items.forEach(function (li, n) { li.setAttribute("aria-selected", n === i ? "true" : "false"); });
      active = i;
    }
    function show(players) {
      list.innerHTML = ""; items = [];
      players.forEach(function (player) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        li.textContent = player.name;
        if (player.club) { var c = document.createElement("small"); c.textContent = " · " + player.club; li.appendChild(c); }
        li.addEventListener("mousedown", function (e) { e.preventDefault(); choose(player); });
        list.appendChild(li); items.push(li);
      });
      hint.textContent = players.length || !input.value.trim() ? "" : box.dataset.none;
      list.hidden = !players.length;
      input.setAttribute("aria-expanded", players.length ? "true" : "false");
      active = -1;
      box.players = players;
    }
    input.addEventListener("input", function () {
      hidden.value = ""; hint.textContent = "";
      clearTimeout(timer);
      var q = input.value.trim();
      if (!q) { show([]); return; }
      timer = setTimeout(function () {
        fetch(box.dataset.search + "?q=" + encodeURIComponent(q), { credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.json() : { players: [] }; })
          .then(function (data) { if (input.value.trim() === q) show(data.players); });
      }, 200);
    });
    input.addEventListener("keydown", function (e) {
      if (list.hidden) return;
      if (e.key === "ArrowDown") { e.preventDefault(); highlight(Math.min(active + 1, items.length - 1)); }
      else if (e.key === "ArrowUp") { e.preventDefault(); highlight(Math.max(active - 1, 0)); }
      else if (e.key === "Enter" && active >= 0) { e.preventDefault(); choose(box.players[active]); }
      else if (e.key === "Escape") { close(); }
    });
    input.addEventListener("blur", function () { setTimeout(close, 100); });
  }
  document.querySelectorAll(".roster-pick[data-search]").forEach(setup);
})();
