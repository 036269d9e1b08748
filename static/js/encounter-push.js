/* The encounter page's server push (encounters.push): one EventSource on the encounter's
   events; a "version" event other than the one the fragment shows makes the fragment fetch
   itself (htmx, the "encounter-changed" trigger of templates/encounters/_encounter.html).
   document.body.dataset.push is "live" while the stream is open: the fragment then polls every
   10 s instead of every second. When the server cannot stream (204 under WSGI) or the stream
   fails for good, the browser closes it and the page goes on polling. */
(function () {
  "use strict";

  var root = document.getElementById("encounter");
  if (!root || !root.dataset.events || !window.EventSource) { return; }
  var source = new EventSource(root.dataset.events);

  function refresh(version) {
    var fragment = document.getElementById("encounter");
    if (fragment && (version === undefined || String(version) !== fragment.dataset.version)) {
      htmx.trigger(fragment, "encounter-changed");
    }
  }

  source.addEventListener("stream-open", function () {
    document.body.dataset.push = "live";
    refresh();  // what changed between the page's render and the stream's opening
  });
  source.addEventListener("version", function (event) {
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
