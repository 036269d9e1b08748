/* The live pages (campaigns.live): one EventSource for the topics the page's elements declare
   (data-live="board-3 character-7", the stream's URL in data-live-url). A "change" event on a
   topic triggers "live-changed" on every element bound to it, which refetches itself (htmx:
   hx-trigger="live-changed, ..."); an element whose data-live-version equals the event's
   version is already current. document.body.dataset.live is "live" while the stream is open:
   the elements' polls then slow down to a safety net. When the server cannot stream (204 under
   WSGI) or the stream fails for good, the browser closes it and the polls go on at their pace.
   The elements may be swapped (outerHTML): they are looked up again at each event.
   Each htmx request of the page sends a random X-Live-Origin id; the change it makes comes back
   with that id as "origin", and the element the request swapped is not refetched for it: its
   answer was rendered after the change (a refetch would replace it, and its notice, with the
   same state). The other elements bound to the topic are. */
(function () {
  "use strict";

  // A page's own request into a live element and the element's refetches share one queue
  // (htmx's hx-sync on the element): the user's request replaces a refetch in flight, whose
  // swap would otherwise take the element out from under the request's answer (htmx swaps into
  // the target it resolved when the request left); a refetch or poll is dropped while the
  // user's request runs, whose answer is newer. Set here for every live element and what
  // requests inside it, so that no template has to repeat it.
  var REQUESTS = "[hx-get],[hx-post],[hx-put],[hx-patch],[hx-delete]";
  function syncRequests(root) {
    var live = Array.from(root.querySelectorAll("[data-live]"));
    if (root.matches && root.matches("[data-live]")) { live.push(root); }
    live.forEach(function (el) {
      if (!el.hasAttribute("hx-sync")) { el.setAttribute("hx-sync", "this:abort"); }
      el.querySelectorAll(REQUESTS).forEach(function (r) {
        if (!r.hasAttribute("hx-sync")) { r.setAttribute("hx-sync", "closest [data-live]:replace"); }
      });
    });
  }
  if (window.htmx) { htmx.onLoad(syncRequests); }

  // A stream that outlives a refused reconnect, for this script and encounter-push.js. The
  // browser reconnects a dropped stream by itself, after the delay the server drew for the page
  // (campaigns.live), but gives up for good on an answer that is not a stream: a proxy's 502
  // or the server's 503 while it restarts and every page reconnects at once. A stream that was
  // open is then opened again after a growing random wait (REOPEN_MS, doubled each time, at
  // most REOPEN_MAX_MS), REOPEN_TRIES times in a row at most; meanwhile the page polls at its
  // pace. One that never opened (204 under WSGI), or that its page marks final, is not.
  // bind(source) adds the page's listeners to each EventSource opened; the returned object's
  // "final" may be set by them.
  var REOPEN_MS = 5000, REOPEN_MAX_MS = 60000, REOPEN_TRIES = 8;
  window.percentileStream = function (url, bind) {
    var stream = { source: null, opened: false, reopens: 0, final: false };
    function open() {
      var source = stream.source = new EventSource(url);
      source.addEventListener("stream-open", function () {
        stream.opened = true;
        stream.reopens = 0;
      });
      bind(source);
      source.addEventListener("error", function () {
        if (source.readyState !== EventSource.CLOSED || stream.final || !stream.opened ||
            stream.reopens >= REOPEN_TRIES) { return; }
        var wait = Math.min(REOPEN_MAX_MS, REOPEN_MS * Math.pow(2, stream.reopens));
        stream.reopens += 1;
        window.setTimeout(open, wait / 2 + Math.random() * wait / 2);
      });
    }
    open();
    window.addEventListener("pagehide", function () { stream.final = true; stream.source.close(); });
    return stream;
  };

  var first = document.querySelector("[data-live][data-live-url]");
  if (!first || !window.EventSource) { return; }
  var topics = {};
  document.querySelectorAll("[data-live]").forEach(function (el) {
    el.dataset.live.split(/\s+/).forEach(function (t) { if (t) { topics[t] = true; } });
  });
  var names = Object.keys(topics);
  if (!names.length) { return; }
  var query = names.map(function (t) { return "t=" + encodeURIComponent(t); }).join("&");

  var swappedBy = {};  // origin id -> the id of the element its request targets
  function originId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var id = originId();
    var target = event.detail.target;
    event.detail.headers["X-Live-Origin"] = id;
    if (target && target.id) {
      swappedBy[id] = target.id;
      setTimeout(function () { delete swappedBy[id]; }, 60000);
    }
  });

  // A change that comes while an element's request is in flight cannot refetch it then
  // (hx-sync drops the refetch, and a queued one dies with the element its answer swaps out),
  // and that answer may have been read before the change; nor just after an outerHTML swap,
  // until htmx has settled the new element (its triggers are not bound before). The element
  // refetches once both are over. busy: live element -> its requests in flight or settling;
  // missed: live element -> the version announced meanwhile ("" when none). Both are kept by
  // the element's id: the successor an outerHTML swap puts in its place is busy until the swap
  // has settled. A request htmx never ends (none known) holds nothing past BUSY_MS.
  var busy = new Map(), missed = new Map(), BUSY_MS = 20000;
  function keyOf(el) { return el.id || el; }
  function isBusy(el) {
    var entry = busy.get(keyOf(el));
    return Boolean(entry && Date.now() - entry.since < BUSY_MS);
  }
  function liveOf(event) {
    // detail.elt is where the event was dispatched: the element's parent once the answer has
    // swapped the element out. The request's config keeps the element that sent it.
    var config = event.detail.requestConfig;
    var elt = (config && config.elt) || event.detail.elt;
    return elt && elt.closest ? elt.closest("[data-live]") : null;
  }
  function settled(el) {
    var key = keyOf(el), entry = busy.get(key);
    if (entry && entry.count > 1) { entry.count -= 1; return; }
    busy.delete(key);
    if (!missed.has(key)) { return; }
    var version = missed.get(key);
    missed.delete(key);
    var current = el.isConnected ? el : (el.id ? document.getElementById(el.id) : null);
    if (!current || (version !== "" && current.dataset.liveVersion === version)) { return; }
    htmx.trigger(current, "live-changed");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = liveOf(event);
    if (!el) { return; }
    var entry = isBusy(el) ? busy.get(keyOf(el)) : { count: 0 };
    entry.count += 1;
    entry.since = Date.now();
    busy.set(keyOf(el), entry);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var el = liveOf(event);
    if (!el || !busy.has(keyOf(el))) { return; }
    // htmx settles a swap after its settle delay, on a timer set before this event: one set
    // now for longer runs after it.
    setTimeout(function () { settled(el); }, (htmx.config.defaultSettleDelay || 0) + 1);
  });

  function refresh(topic, version, origin) {
    var answered = origin !== undefined ? swappedBy[origin] : undefined;
    document.querySelectorAll("[data-live]").forEach(function (el) {
      if (topic !== undefined && el.dataset.live.split(/\s+/).indexOf(topic) < 0) { return; }
      if (version !== undefined && el.dataset.liveVersion === String(version)) { return; }
      if (answered !== undefined && el.id === answered) { return; }
      if (isBusy(el)) {
        missed.set(keyOf(el), version !== undefined ? String(version) : "");
        return;
      }
      htmx.trigger(el, "live-changed");
    });
  }

  // The elements as the page rendered them: at the stream's first opening only those may have
  // missed a change (one swapped since was rendered later, by the page's own request or poll;
  // refetching it would replace its answer's notice with the same state). After a reconnect,
  // every element: changes may have been lost while the stream was down.
  var asRendered = new WeakSet(document.querySelectorAll("[data-live]"));
  var opened = false;

  window.percentileStream(first.dataset.liveUrl + "?" + query, function (source) {
    source.addEventListener("stream-open", function () {
      document.body.dataset.live = "live";
      if (opened) { refresh(); return; }
      opened = true;
      document.querySelectorAll("[data-live]").forEach(function (el) {
        if (asRendered.has(el)) { htmx.trigger(el, "live-changed"); }
      });
    });
    source.addEventListener("change", function (event) {
      var data = JSON.parse(event.data);
      refresh(data.topic, data.version, data.origin);
    });
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { delete document.body.dataset.live; }
      else { document.body.dataset.live = "reconnecting"; }
    };
  });
})();
