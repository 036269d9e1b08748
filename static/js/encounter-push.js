/* The encounter page's server push (encounters.push, campaigns.live): one EventSource on the
   encounter's events; a "change" event carrying a version other than the one the fragment shows makes the fragment fetch
   itself (htmx, the "encounter-changed" trigger of templates/encounters/_encounter.html).
   document.body.dataset.push is "live" while the stream is open: the fragment then polls once a
   minute (a safety poll) instead of every second. Every page of the encounter hears the same
   event at once: each waits a random moment (up to JITTER_MS) before fetching, and the events
   that arrive meanwhile make one fetch, so that the herd is spread (the server renders each
   version once per kind of viewer and serves the rest from its cache, encounters.pages). When the server cannot stream (204 under WSGI) or the stream
   fails for good, the browser closes it and the page goes on polling. */
(function () {
  "use strict";

  var root = document.getElementById("encounter");
  if (!root || !root.dataset.events || !window.EventSource) { return; }
  var source = new EventSource(root.dataset.events);
  var JITTER_MS = 200;
  var pending = null, latest = null, always = false;

  function refresh(version) {
    if (version === undefined) { always = true; } else { latest = String(version); }
    if (pending !== null) { return; }  // one fetch is on its way: it gets the newest
    pending = window.setTimeout(function () {
      var fragment = document.getElementById("encounter");
      if (fragment && (always || latest !== fragment.dataset.version)) {
        htmx.trigger(fragment, "encounter-changed");
      }
      pending = null;
      always = false;
    }, Math.random() * JITTER_MS);
  }

  // A step's own answer (encounters.pages._changes) swaps the parts it changed and names the
  // version it was sent from and the one it shows: a page that showed the former now shows the
  // latter, so the push of its own step refetches nothing (a refetch would reset the form the
  // player goes on to fill). The fragment's requests carry the version it shows.
  document.body.addEventListener("encounter-answered", function (event) {
    var fragment = document.getElementById("encounter");
    var answered = event.detail;
    if (fragment && answered.from !== null && String(answered.from) === fragment.dataset.version) {
      fragment.dataset.version = String(answered.to);
    }
  });
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt.id === "encounter" && event.detail.verb === "get") {
      event.detail.path = event.detail.path.replace(
        /([?&]v=)[^&]*/, "$1" + encodeURIComponent(event.detail.elt.dataset.version));
    }
  });

  source.addEventListener("stream-open", function () {
    document.body.dataset.push = "live";
    refresh();  // what changed between the page's render and the stream's opening
  });
  source.addEventListener("change", function (event) {
    refresh(JSON.parse(event.data).version);
  });
  source.addEventListener("stream-error", function () { source.close(); delete document.body.dataset.push; });
  source.onerror = function () {
    // CLOSED: given up (not a stream, or refused); CONNECTING: the browser retries by itself.
    if (source.readyState === EventSource.CLOSED) { delete document.body.dataset.push; }
    else { document.body.dataset.push = "reconnecting"; }
  };
  window.addEventListener("pagehide", function () { source.close(); });
})();
