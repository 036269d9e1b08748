/* The encounter page's alerts (issue 21, item 4), read from data attributes of the fragment
   (templates/encounters/parts/_status.html, _reactions.html; no inline script, the
   Content-Security-Policy runs none):

   - #enc-status [data-alert-turn]: "<encounter>-<turn serial>" while it is the viewer's turn;
   - #enc-reactions [data-alert-prompts]: the ids of the prompts waiting for the viewer.

   While either says something, the tab's title is flagged ("(!) Your turn — ..."); each turn
   and each prompt not announced yet in this tab (the keys are kept in sessionStorage: a
   reload announces nothing twice) plays a short sound (static/sounds/prompt.wav; a browser
   that allows no sound before the user touched the page stays silent) and, when the user
   turned the notifications on (the #enc-alerts button, remembered in localStorage), raises a
   Notification. Every ".countdown[data-deadline]" counts down to its deadline (ISO 8601)
   twice a second: the server's deadline stays the authority (the page fetches itself then,
   templates/encounters/_encounter.html). The last key announced is document.documentElement's
   data-alerted (what the browser test reads). */
(function () {
  "use strict";

  var button = document.getElementById("enc-alerts");
  if (!button) { return; }
  var ON = "percentile.encounter-alerts";
  var SEEN = "percentile.encounter-alerted";
  var KEEP = 50;  // announced keys remembered
  var title = document.title;
  var sound = null;

  function storage(kind) {
    try { return window[kind]; } catch (e) { return null; }  // disabled storage
  }

  function enabled() {
    var local = storage("localStorage");
    return !!(local && local.getItem(ON) === "on" && window.Notification
              && Notification.permission === "granted");
  }

  function showState(denied) {
    button.textContent = denied ? button.dataset.denied
      : (enabled() ? button.dataset.on : button.dataset.off);
    button.setAttribute("aria-pressed", enabled() ? "true" : "false");
  }

  function announced() {
    var session = storage("sessionStorage");
    try { return JSON.parse((session && session.getItem(SEEN)) || "[]"); } catch (e) { return []; }
  }

  function remember(keys) {
    var session = storage("sessionStorage");
    if (session) { session.setItem(SEEN, JSON.stringify(keys.slice(-KEEP))); }
  }

  function ring() {
    if (!sound) { sound = new Audio(button.dataset.sound); }
    try {
      sound.currentTime = 0;
      var played = sound.play();
      if (played && played.catch) { played.catch(function () {}); }  // no sound allowed yet
    } catch (e) { /* no audio in this browser */ }
  }

  function notify(body, tag) {
    if (!enabled()) { return; }
    try { new Notification(document.title, {body: body, tag: tag}); } catch (e) { /* none */ }
  }

  function check() {
    var status = document.querySelector("#enc-status [data-alert-turn]");
    var prompts = document.querySelector("#enc-reactions [data-alert-prompts]");
    var turn = (status && status.dataset.alertTurn) || "";
    var ids = ((prompts && prompts.dataset.alertPrompts) || "").split(" ").filter(Boolean);
    var keys = ids.map(function (id) { return "prompt-" + id; });
    if (turn) { keys.push("turn-" + turn); }
    if (!keys.length) { document.title = title; return; }
    var prompt = ids.length > 0;
    document.title = (prompt ? button.dataset.promptTitle : button.dataset.turnTitle)
      + " — " + title;
    var seen = announced();
    var fresh = keys.filter(function (k) { return seen.indexOf(k) < 0; });
    if (!fresh.length) { return; }
    remember(seen.concat(fresh));
    ring();
    notify(prompt ? button.dataset.promptBody : button.dataset.turnBody, fresh[0]);
    document.documentElement.dataset.alerted = fresh[fresh.length - 1];
  }

  var queued = null;
  function soon() {
    if (queued === null) { queued = window.setTimeout(function () { queued = null; check(); }, 0); }
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var deadline = Date.parse(el.dataset.deadline);
      if (isNaN(deadline)) { return; }
      var left = Math.max(0, Math.ceil((deadline - now) / 1000));
      var text = left > 0 ? (button.dataset.left || "%s s").replace("%s", String(left))
        : (button.dataset.over || "0 s");
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("countdown-low", left <= 10);
    });
  }

  button.hidden = !window.Notification;
  button.addEventListener("click", function () {
    var local = storage("localStorage");
    if (!sound) { sound = new Audio(button.dataset.sound); sound.load(); }  // a gesture: unlocked
    if (enabled()) {
      if (local) { local.setItem(ON, "off"); }
      showState(false);
      return;
    }
    Notification.requestPermission().then(function (permission) {
      if (local) { local.setItem(ON, permission === "granted" ? "on" : "off"); }
      showState(permission === "denied");
    });
  });
  showState(window.Notification && Notification.permission === "denied"
            && storage("localStorage") && storage("localStorage").getItem(ON) === "on");

  document.body.addEventListener("htmx:load", soon);
  document.body.addEventListener("htmx:afterSettle", soon);
  document.body.addEventListener("htmx:oobAfterSwap", soon);
  check();
  tick();
  window.setInterval(tick, 500);
})();
