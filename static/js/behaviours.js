/* What the templates ask for with data attributes, because the Content-Security-Policy
   (docs/deploy.md) runs no inline handler (onchange=...), no style="" attribute and no
   htmx expression (a trigger filter "every 5s [cond]", hx-on): htmx would compile those with
   Function(), which the policy forbids (no 'unsafe-eval'; htmx-config sets allowEval false).

   - <select data-autosubmit>: a change submits its form (the language switch).
   - <select data-target-xy> in a form with x and y inputs: the chosen option's "x,y" value
     fills them (a spell's target).
   - data-cells="N": sets the CSS variable --cells to N (the board's column count).
   - data-poll-unless="editing": the element's requests (its polls and the refetches a pushed
     change asks for) are held, and their answers not swapped, while the focus is in a form
     inside it, or a text typed into one of its forms is not sent yet (the board, while a
     player fills a form; the faction list's creation form); a change pushed meanwhile is
     fetched once the focus leaves it and nothing typed waits (its "live-changed" trigger,
     static/js/live.js).
   - data-live-poll="S": while a server push is live (body[data-push=live] for the encounter's
     stream, body[data-live=live] for the others'), the element polls at most once every S
     seconds (every second or 5 s without the push, a safety poll with it). Requests its
     triggers send on an event are never held by this. */
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.form) { return; }
    if (select.hasAttribute("data-autosubmit")) {
      if (select.form.requestSubmit) { select.form.requestSubmit(); } else { select.form.submit(); }
    } else if (select.hasAttribute("data-target-xy")) {
      var xy = select.value.split(",");
      select.form.elements.x.value = xy[0];
      select.form.elements.y.value = xy[1];
    }
  });

  function setCells(root) {
    var tables = Array.from(root.querySelectorAll("[data-cells]"));
    if (root.matches && root.matches("[data-cells]")) { tables.push(root); }
    tables.forEach(function (el) { el.style.setProperty("--cells", el.dataset.cells); });
  }

  // htmx fires htmx:trigger before a request its triggers send on an event (load and delays
  // included) and nothing before a poll, nor before an htmx.ajax() call, which carries its
  // context (detail.etc; a poll's is empty): what reaches htmx:confirm unannounced and with
  // no context is a poll.
  var announced = new WeakSet();
  var lastRequest = {};  // by element id: an outerHTML swap replaces the element

  // A text typed into a form and not sent yet: a refetch would wipe it.
  var TYPED = "input[type=text], input[type=search], input:not([type]), textarea";
  function typedIn(elt) {
    return Array.from(elt.querySelectorAll(TYPED)).some(function (field) {
      return field.form && field.value !== field.defaultValue;
    });
  }

  var conditions = {
    editing: function (elt) {
      var focused = document.activeElement;
      return Boolean(focused && elt.contains(focused) && focused.closest("form")) || typedIn(elt);
    }
  };

  var heldWhileEditing = new Set();  // element ids whose pushed change waits for the focus

  // Whether the stream that serves elt is open: live.js's for an element bound to topics
  // (data-live), the encounter's (encounter-push.js) for the encounter's fragment. A page may
  // hold both (an encounter's page and its chat panel): one open says nothing of the other.
  function live(elt) {
    return elt.hasAttribute("data-live") ? document.body.dataset.live === "live"
                                         : document.body.dataset.push === "live";
  }

  function hold(elt, isPoll) {
    var unless = elt.dataset.pollUnless;
    if (unless && conditions[unless] && conditions[unless](elt)) {
      if (!isPoll && elt.id) { heldWhileEditing.add(elt.id); }
      return true;
    }
    if (!isPoll) { return false; }
    var every = Number(elt.dataset.livePoll);
    if (every > 0 && live(elt) && elt.id) {
      var last = lastRequest[elt.id];
      return last !== undefined && Date.now() - last < every * 1000 - 100;
    }
    return false;
  }

  document.addEventListener("htmx:trigger", function (event) { announced.add(event.target); });
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    var isPoll = !announced.has(elt) && Object.keys(event.detail.etc || {}).length === 0;
    announced.delete(elt);
    if (hold(elt, isPoll)) { event.preventDefault(); return; }
    if (elt.id) { lastRequest[elt.id] = Date.now(); heldWhileEditing.delete(elt.id); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    // The element's own refetch or poll that left before the focus went into one of its forms
    // and comes back after: not swapped either (the swap would take the form away from the
    // player), fetched again once the focus leaves. A request of the form itself swaps.
    // htmx gives the target as detail.elt: only a request the element itself sent is held.
    var elt = event.detail.elt;
    var config = event.detail.requestConfig;
    if (!config || config.elt !== elt) { return; }
    var unless = elt.dataset && elt.dataset.pollUnless;
    if (elt.id && unless && conditions[unless] && conditions[unless](elt)) {
      event.detail.shouldSwap = false;
      heldWhileEditing.add(elt.id);
    }
  });
  document.addEventListener("focusout", function () {
    // After the focus has moved: fetch what was pushed while a form of the element had it.
    setTimeout(function () {
      heldWhileEditing.forEach(function (id) {
        var elt = document.getElementById(id);
        if (!elt) { heldWhileEditing.delete(id); return; }
        if (!conditions.editing(elt)) { heldWhileEditing.delete(id); htmx.trigger(elt, "live-changed"); }
      });
    }, 0);
  });

  if (window.htmx) { htmx.onLoad(setCells); }
  else { document.addEventListener("DOMContentLoaded", function () { setCells(document); }); }
})();
