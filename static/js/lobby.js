// The private-table form: choosing a rule set fills in every option with its values.
(function () {
  "use strict";
  const data = document.getElementById("rule-values");
  const preset = document.getElementById("id_preset");
  if (!data || !preset) return;
  const values = JSON.parse(data.textContent);
  preset.addEventListener("change", () => {
    Object.entries(values[preset.value] || {}).forEach(([name, value]) => {
      const field = document.getElementById("id_" + name);
      if (!field) return;
      if (field.type === "checkbox") field.checked = Boolean(value);
      else field.value = String(value);
    });
  });
})();
