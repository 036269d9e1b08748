// The creation pages' running counts (templates/homebrew/_create.html, templates/eclipse/_create.html):
// the points left of the form's budget ([data-budget] on the form, shared by its
// [data-budget-main] inputs; data-budget-all: every point must be spent), each homebrew main's
// points left for its subs (its tens, shared by the [data-sub-of=<main>] inputs), and the
// starting gear: once [data-picks] boxes are ticked, the others are disabled. The server checks
// everything again on submit; without this script the page works as before, without counts.
// The texts come translated in data-msg-* attributes ({n}, {total}, {most} filled in here).
(function () {
  "use strict";

  function number(input) {
    var v = input.value.trim();
    return /^-?\d+$/.test(v) ? parseInt(v, 10) : 0;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  function points(form) {
    var out = form.querySelector("[data-testid=points-left]");
    if (!out || !form.dataset.budget) {
      return;
    }
    var total = parseInt(form.dataset.budget, 10), spent = 0;
    form.querySelectorAll("[data-budget-main]").forEach(function (input) {
      spent += number(input);
    });
    var left = total - spent, d = form.dataset;
    var template = left < 0 ? d.msgOver : (left > 0 && d.budgetAll ? d.msgUnspent : d.msgLeft);
    out.textContent = fill(template, {n: left, total: total});
    out.classList.toggle("error", left < 0 || (left > 0 && !!d.budgetAll));
    out.hidden = false;
  }

  function subs(form) {
    form.querySelectorAll("[data-sub-left]").forEach(function (out) {
      var name = out.dataset.subLeft, main = form.querySelector('[name="' + name + '"]');
      if (!main || !form.dataset.msgSub) {
        return;
      }
      var total = Math.floor(Math.max(0, number(main)) / 10), spent = 0;
      form.querySelectorAll('[data-sub-of="' + name + '"]').forEach(function (input) {
        spent += number(input);
      });
      out.textContent = fill(form.dataset.msgSub, {n: total - spent, total: total});
      out.classList.toggle("error", spent > total);
    });
  }

  function picks(form) {
    var set = form.querySelector("fieldset[data-picks]");
    if (!set) {
      return;
    }
    var most = parseInt(set.dataset.picks, 10);
    var boxes = Array.prototype.slice.call(set.querySelectorAll("input[type=checkbox]"));
    var ticked = boxes.filter(function (b) { return b.checked; }).length;
    boxes.forEach(function (b) {
      b.disabled = !b.checked && ticked >= most;
    });
    var out = set.querySelector("[data-testid=picks-left]");
    if (out) {
      out.textContent = fill(set.dataset.msgPicks, {n: ticked, most: most});
      out.hidden = false;
    }
  }

  function update(form) {
    points(form);
    subs(form);
    picks(form);
  }

  function all() {
    document.querySelectorAll("form[data-budget], form:has(fieldset[data-picks])").forEach(update);
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) {
      update(form);
    }
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) {
      update(form);
    }
  });
  // A refused submit swaps the section (htmx): count again on the new form.
  document.addEventListener("htmx:afterSettle", all);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
})();
