/* The event form and the autopilot's: best-of and time-limit fields show only for their
   match format. The event form's rule fields' placeholders show the chosen preset's values,
   and its tiebreak list's buttons act at once instead of sending the form back. */
(function () {
  document.querySelectorAll("form").forEach(function (form) {
    var matchFormat = form.querySelector("[name=match_format]");
    if (!matchFormat) return;
    function toggleMatch() {
      form.querySelectorAll("[data-match-format]").forEach(function (input) {
        var field = input.closest(".field");
        if (field) field.hidden = matchFormat.value !== input.dataset.matchFormat;
      });
    }
    matchFormat.addEventListener("change", toggleMatch);
    toggleMatch();
  });
  var form = document.querySelector("form.event-form");
  if (!form) return;
  var entryKind = form.querySelector("[name=entry_kind]");
  var boards = form.querySelector("[name=boards]");
  function toggleBoards() { boards.closest(".field").hidden = entryKind.value !== "team"; }
  if (entryKind && boards) { entryKind.addEventListener("change", toggleBoards); toggleBoards(); }

  var source = document.getElementById("rule-presets");
  var presets = source ? JSON.parse(source.textContent) : {};
  var preset = form.querySelector("[name=rule_preset]");
  function placeholders() {
    var values = presets[preset.value] || {};
    Object.keys(values).forEach(function (option) {
      var input = form.querySelector("[name=rule_" + option + "]");
      if (input) input.placeholder = values[option];
    });
  }
  if (preset) { preset.addEventListener("change", placeholders); placeholders(); }

  var box = form.querySelector(".tiebreaks");
  if (!box) return;
  var list = box.querySelector(".tiebreak-list");
  var add = box.querySelector("select[name=tiebreak_add]");
  function refresh() {
    var items = list.querySelectorAll("li[data-key]");
    items.forEach(function (li, i) {
      li.querySelectorAll("button").forEach(function (b) {
        var verb = b.value.split(":")[0];
        b.value = verb + ":" + i;
        if (verb === "up") b.disabled = i === 0;
        if (verb === "down") b.disabled = i === items.length - 1;
      });
    });
    var empty = list.querySelector(".tb-empty");
    if (empty) empty.hidden = items.length > 0;
    box.querySelector(".tb-add").hidden = add.options.length === 0;
  }
  box.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=tiebreak_move]");
    if (!button) return;
    event.preventDefault();
    var verb = button.value.split(":")[0];
    var li = button.closest("li");
    if (verb === "up" && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
    else if (verb === "down" && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
    else if (verb === "remove") {
      var option = document.createElement("option");
      option.value = li.dataset.key; option.textContent = li.querySelector(".tb-label").textContent;
      add.appendChild(option); li.remove();
    } else if (verb === "add" && add.value) {
      var template = list.querySelector("li[data-key]");
      var chosen = add.options[add.selectedIndex];
      var item = template ? template.cloneNode(true) : null;
      if (!item) { form.requestSubmit(button); return; }
      item.dataset.key = chosen.value;
      item.querySelector("input").value = chosen.value;
      item.querySelector(".tb-label").textContent = chosen.textContent;
      item.querySelectorAll("button").forEach(function (b) {
        var label = b.getAttribute("aria-label") || "";
        b.setAttribute("aria-label", label.replace(template.querySelector(".tb-label").textContent, chosen.textContent));
      });
      list.appendChild(item); chosen.remove();
    }
    refresh();
  });
})();
