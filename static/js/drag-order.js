/* The GM's control page: drag a combatant's row to set the order. SortableJS moves the row;
   the order numbers are then rewritten in the rows' new order and the order form is posted
   (htmx), exactly as typing the numbers and pressing "Set the order" would. The numbers stay
   for the keyboard and without JavaScript. */
(function () {
  "use strict";

  function renumberAndPost(tbody) {
    var inputs = tbody.querySelectorAll("input[name^='pos-']");
    inputs.forEach(function (input, i) { input.value = String(i + 1); });
    var form = document.getElementById(tbody.dataset.sortableOrder);
    if (form) { htmx.trigger(form, "submit"); }
  }

  function init(root) {
    root.querySelectorAll("[data-sortable-order]").forEach(function (tbody) {
      if (tbody.dataset.sortableReady) { return; }
      tbody.dataset.sortableReady = "1";
      Sortable.create(tbody, {
        draggable: "tr[data-draggable]",
        filter: "input, button, select, a",
        preventOnFilter: false,
        animation: 120,
        onEnd: function (event) {
          if (event.oldIndex !== event.newIndex) { renumberAndPost(tbody); }
        }
      });
    });
  }

  htmx.onLoad(init);
})();
