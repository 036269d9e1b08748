/* The Eternal War One II board (templates/combat/_board.html) as a board: no rule lives here.

   - A free cell carries the walk the server computed (gamerules.ew1.movement, through
     ew1.selectors.board_view): data-path ("x,y x,y ...", the cell last), data-cost (PA),
     data-steps; a cell the walk cannot reach or the PA cannot pay carries data-refusal (the
     server's words). Pointing at a cell with a mouse, or focusing it, previews it: the path is
     lit, the cost written on the goal and in #board-preview. A click (or Enter) on the cell
     previewed walks there: #board-move posts "to" (combat:move_to), which plans the walk again
     with the same rule and refuses what no longer holds. A touch previews on the first tap and
     walks on the second.
   - A piece's token is a link (hx-get) to its action menu (combat:piece), swapped into
     #board-menu; the focus goes into the menu, Escape (or its close link) closes it and the
     focus goes back to the piece.
   - The arrow keys move a focus cursor over the cells (one tab stop for the whole grid).
   - A refetch of the board (a pushed change, a poll) replaces it: the cell that had the focus
     gets it back, and its preview is drawn again.

   No inline script or style (the CSP): classes and text only. */
(function () {
  "use strict";

  var previewed = null;   // the cell (td) whose walk is shown
  var restore = null;     // {x, y, preview} of the focus across a board swap

  function grid() { return document.querySelector("#board table[data-board]"); }
  function cellAt(table, x, y) {
    return table.querySelector('td[data-x="' + x + '"][data-y="' + y + '"]');
  }
  function controlOf(td) { return td && td.querySelector("[data-cell-control]"); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }

  function clearPreview(table) {
    table.querySelectorAll("td.on-path, td.path-goal, td.path-refused").forEach(function (td) {
      td.classList.remove("on-path", "path-goal", "path-refused");
      var label = td.querySelector(".cell-cost");
      if (label) { label.textContent = ""; }
    });
    previewed = null;
  }

  function preview(td, byHover) {
    var table = td.closest("table[data-board]");
    var out = document.getElementById("board-preview");
    if (!table) { return; }
    clearPreview(table);
    var button = td.querySelector("button.cell-go");
    if (!button) {
      var piece = td.querySelector("a.token");  // its name is its hidden text (not aria-label)
      if (piece && out) { out.textContent = piece.textContent.trim(); }
      return;
    }
    previewed = td;
    var x = td.dataset.x, y = td.dataset.y;
    if (button.dataset.refusal) {
      td.classList.add("path-refused");
      if (out) { out.textContent = fill(table.dataset.msgRefused, {x: x, y: y, reason: button.dataset.refusal}); }
      return;
    }
    (td.dataset.path || "").split(" ").forEach(function (xy) {
      var parts = xy.split(","), step = parts.length === 2 && cellAt(table, parts[0], parts[1]);
      if (step) { step.classList.add("on-path"); }
    });
    td.classList.add("path-goal");
    td.querySelector(".cell-cost").textContent = td.dataset.cost;
    if (out) {
      var one = td.dataset.steps === "1";
      var template = byHover ? (one ? table.dataset.msgWalkHoverOne : table.dataset.msgWalkHover)
                             : (one ? table.dataset.msgWalkOne : table.dataset.msgWalk);
      out.textContent = fill(template, {x: x, y: y, steps: td.dataset.steps, cost: td.dataset.cost});
    }
  }

  function walk(td) {
    var form = document.getElementById("board-move");
    if (!form) { return; }
    // The hidden field is disabled in the page: without JavaScript the cell's own button
    // sends "to"; here the form is sent without a submitter, so the field carries it.
    form.elements.to.disabled = false;
    form.elements.to.value = td.dataset.x + "," + td.dataset.y;
    restore = {x: td.dataset.x, y: td.dataset.y, preview: false};
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  function rove(table, control) {
    table.querySelectorAll("[data-cell-control]").forEach(function (c) {
      c.setAttribute("tabindex", c === control ? "0" : "-1");
    });
  }

  function mark(table, menu) {
    // The piece whose menu is open is ringed on the board.
    if (!table) { return; }
    table.querySelectorAll("td.selected").forEach(function (td) { td.classList.remove("selected"); });
    var td = menu && cellAt(table, menu.dataset.x, menu.dataset.y);
    if (td) { td.classList.add("selected"); }
  }

  function closeMenu(focusPiece) {
    var holder = document.getElementById("board-menu");
    if (!holder) { return; }
    var menu = holder.querySelector("[data-piece]");
    holder.textContent = "";
    var table = grid();
    mark(table, null);
    if (focusPiece && menu && table) {
      var control = controlOf(cellAt(table, menu.dataset.x, menu.dataset.y));
      if (control) { rove(table, control); control.focus(); }
    }
  }

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") { return; }
    var td = event.target.closest && event.target.closest("table[data-board] td");
    if (td && td !== previewed) { preview(td, true); }
  });

  document.addEventListener("focusin", function (event) {
    var control = event.target.closest && event.target.closest("table[data-board] [data-cell-control]");
    if (!control) { return; }
    var td = control.closest("td");
    rove(td.closest("table"), control);
    if (td !== previewed) { preview(td, false); }
  });

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest("[data-menu-close]");
    if (close) { event.preventDefault(); closeMenu(true); return; }
    var button = event.target.closest && event.target.closest("table[data-board] button.cell-go");
    if (!button) { return; }
    event.preventDefault();
    var td = button.closest("td");
    // A mouse has shown the walk on hover, a key on focus: this click confirms it. A touch
    // (no hover) shows it on the first tap.
    if (td !== previewed) { preview(td, false); return; }
    if (button.dataset.refusal) { return; }
    walk(td);
  });

  var ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.querySelector("#board-menu [data-piece]")) {
      event.preventDefault();
      closeMenu(true);
      return;
    }
    var step = ARROWS[event.key];
    var control = step && event.target.closest && event.target.closest("table[data-board] [data-cell-control]");
    if (!control) { return; }
    event.preventDefault();
    var td = control.closest("td"), table = td.closest("table");
    var next = controlOf(cellAt(table, Number(td.dataset.x) + step[0], Number(td.dataset.y) + step[1]));
    if (next) { rove(table, next); next.focus(); }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "board") { return; }
    var focused = document.activeElement;
    var td = focused && focused.closest && focused.closest("table[data-board] td");
    var inMenu = focused && focused.closest && focused.closest("#board-menu [data-piece]");
    if (td && !restore) { restore = {x: td.dataset.x, y: td.dataset.y, preview: true}; }
    // An action sent from a piece's menu: the focus goes back to the piece.
    if (inMenu && !restore) { restore = {x: inMenu.dataset.x, y: inMenu.dataset.y, preview: false}; }
    previewed = null;
  });

  function afterBoard() {
    var table = grid();
    if (!table) { restore = null; return; }
    if (!restore) {
      var me = table.querySelector('[data-testid="token-me"]');
      if (me) { rove(table, me); }
      return;
    }
    var td = cellAt(table, restore.x, restore.y), control = controlOf(td);
    var again = restore.preview;
    restore = null;
    if (!control) { return; }
    rove(table, control);
    control.focus();
    if (!again) { clearPreview(table); }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.id === "board-menu") {
      mark(grid(), target.querySelector("[data-piece]"));
      var first = target.querySelector("button:not([disabled])") || target.querySelector("[data-menu-close]");
      if (first) { first.focus(); }
      return;
    }
    if (event.detail.elt && (event.detail.elt.id === "board" || (target && target.id === "board"))) { afterBoard(); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    afterBoard();
    mark(grid(), document.querySelector("#board-menu [data-piece]"));
    var first = document.querySelector("#board-menu [data-piece] button:not([disabled])");
    if (first) { first.focus(); }
  });
})();
