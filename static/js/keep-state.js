// A refresh of the board or the sheet (the poll, or the answer to an action) replaces the
// fragment: keep what the player opened or chose in it. Open "rolls" fold-outs are known by
// their action (data-action), a spell's chosen target by its piece (data-piece); a target that
// left the spell's range falls back to the new first choice.
(function () {
  const kept = {};

  function read(root) {
    return {
      open: Array.from(root.querySelectorAll("details[data-action][open]"),
                       (d) => d.dataset.action),
      targets: Array.from(root.querySelectorAll("form[data-spell] select[name=target]"),
                          (s) => [s.form.dataset.spell, s.selectedOptions[0]?.dataset.piece]),
    };
  }

  function restore(root, state) {
    for (const action of state.open) {
      const details = root.querySelector(`details[data-action="${CSS.escape(action)}"]`);
      if (details) details.open = true;
    }
    for (const [spell, piece] of state.targets) {
      const form = root.querySelector(`form[data-spell="${CSS.escape(spell || "")}"]`);
      const option = form && piece &&
        form.querySelector(`select[name=target] option[data-piece="${CSS.escape(piece)}"]`);
      if (!option) continue;
      const select = option.closest("select");
      select.value = option.value;
      const [x, y] = option.value.split(",");
      form.elements.x.value = x;
      form.elements.y.value = y;
    }
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    const id = event.detail.target && event.detail.target.id;
    if (id === "board" || id === "sheet" || id === "encounter") kept[id] = read(event.detail.target);
  });
  document.addEventListener("htmx:afterSwap", () => {
    for (const id of Object.keys(kept)) {
      const root = document.getElementById(id);
      if (root) restore(root, kept[id]);
      delete kept[id];
    }
  });
})();
