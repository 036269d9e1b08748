/* The encounter page's server push (encounters.push, campaigns.live): one EventSource on the
   encounter's events; a "body" event carries the new fragment itself (encounters.streamed),
   swapped in with no request; a "change" event carrying a version other than the one the
   fragment shows makes the fragment fetch itself (htmx, the "encounter-changed" trigger of templates/encounters/_encounter.html).
   document.body.dataset.push is "live" while the stream is open: the fragment then polls once a
   minute (a safety poll) instead of every second. Every page of the encounter hears the same
   event at once: each waits a random moment (up to JITTER_MS) before fetching, and the events
   that arrive meanwhile make one fetch, so that the herd is spread (the server renders each
   version once per kind of viewer and serves the rest from its cache, encounters.pages). When the server cannot stream (204 under WSGI) or the stream
   fails for good, the browser closes it and the page goes on polling. */
(function () {
  "use strict";

  var root = document.getElementById("encounter");
  if (!root || !root.dataset.events || !window.EventSource || !window.percentileStream) { return; }
  var JITTER_MS = 200;
  var pending = null, latest = null, always = false;

  // While the fragment's own fetch is in flight a new one cannot start (htmx queues it on the
  // element, and the answer's outerHTML swap drops it with the element), nor until htmx has
  // settled the new fragment (its triggers are not bound before); and that answer may have
  // been read before the change: the check is made again once the fetch has settled.
  // A fetch htmx never ends (none known) holds nothing past FETCH_MS.
  var fetching = false, fetchingSince = 0, missed = false, FETCH_MS = 20000;
  function refresh(version) {
    if (version === undefined) { always = true; } else { latest = String(version); }
    if (pending !== null) { return; }  // one fetch is on its way: it gets the newest
    pending = window.setTimeout(function () {
      var fragment = document.getElementById("encounter");
      pending = null;
      if (fetching && Date.now() - fetchingSince < FETCH_MS) { missed = true; return; }
      if (fragment && (always || latest !== fragment.dataset.version)) {
        htmx.trigger(fragment, "encounter-changed");
      }
      always = false;
    }, Math.random() * JITTER_MS);
  }
  function ownFetch(event) {
    // detail.elt is the fragment's parent once the answer has swapped the fragment out; the
    // request's config keeps the element that sent it.
    var config = event.detail.requestConfig;
    return Boolean(config && config.elt && config.elt.id === "encounter" && config.verb === "get");
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (ownFetch(event)) { fetching = true; fetchingSince = Date.now(); }
  });
  // A fetch that left before the page's own step answered comes back with a version the
  // page already shows (the answer's out-of-band parts): swapping it would reset the form the
  // player has started to fill since. Only a newer version is swapped in.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr, fragment = document.getElementById("encounter");
    if (!ownFetch(event) || !xhr || xhr.status !== 200 || !fragment) { return; }
    var shown = /^\s*<[^>]*\bdata-version="(\d+)"/.exec(xhr.responseText || "");
    if (shown && Number(shown[1]) <= Number(fragment.dataset.version)) {
      event.detail.shouldSwap = false;
    }
  });
  // A fetch the server refused (503 while it is busy: thousands of pages refetching at once)
  // or that failed is made again after a growing random wait (RETRY_MS doubled, RETRIES in a
  // row at most), rather than waiting for the safety poll a minute later.
  var RETRY_MS = 2000, RETRIES = 5, retries = 0;
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!ownFetch(event) || !fetching) { return; }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    // After htmx's settle timer, set before this event: the new fragment is bound by then.
    window.setTimeout(function () {
      fetching = false;
      if ((status === 0 || status >= 500) && retries < RETRIES) {
        var wait = RETRY_MS * Math.pow(2, retries);
        retries += 1;
        window.setTimeout(function () { refresh(always ? undefined : latest); },
                          wait / 2 + Math.random() * wait / 2);
        return;
      }
      if (status > 0 && status < 500) { retries = 0; }
      if (missed) { missed = false; refresh(always ? undefined : latest); }
    }, (htmx.config.defaultSettleDelay || 0) + 1);
  });

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

  // A step's new fragment pushed in the stream (encounters.streamed): swapped in as a
  // refetch's answer is, when it is newer than the one shown, with no request. The swap is
  // announced as htmx announces a fetched answer's (htmx:beforeSwap, which keep-state.js
  // reads and may cancel), then made by htmx (its triggers bound, htmx:afterSwap and
  // afterSettle fired).
  function swapPushed(data) {
    var fragment = document.getElementById("encounter");
    latest = String(data.version);
    if (!fragment || Number(data.version) <= Number(fragment.dataset.version)) { return; }
    var detail = {target: fragment, elt: fragment, shouldSwap: true, pushed: true};
    htmx.trigger(fragment, "htmx:beforeSwap", detail);
    if (detail.shouldSwap) { htmx.swap(fragment, data.html, {swapStyle: "outerHTML"}); }
  }

  // Reopened after a refused reconnect (window.percentileStream, static/js/live.js); not once
  // the server closed it with "stream-error".
  var stream = window.percentileStream(root.dataset.events, function (source) {
    source.addEventListener("stream-open", function () {
      document.body.dataset.push = "live";
      refresh();  // what changed between the page's render (or the drop) and the opening
    });
    source.addEventListener("change", function (event) {
      refresh(JSON.parse(event.data).version);
    });
    source.addEventListener("body", function (event) {
      swapPushed(JSON.parse(event.data));
    });
    source.addEventListener("stream-error", function () {
      stream.final = true;
      source.close();
      delete document.body.dataset.push;
    });
    source.onerror = function () {
      // CONNECTING: the browser retries by itself; CLOSED: it gave up.
      if (source.readyState === EventSource.CLOSED) { delete document.body.dataset.push; }
      else { document.body.dataset.push = "reconnecting"; }
    };
  });
})();
