/* The encounter's map (templates/encounters/parts/_ground.html). The SVG says its frame in
   data attributes (metres at the top left corner, SVG units a metre, metres a square):

   - the GM (control page: svg[data-drag]) drags a token, or focuses it and presses the arrow
     keys (one square a press), and the new place is posted to the token's data-place URL
     (encounters' positions step) through the hidden form #map-place, as htmx: the step's
     answer swaps the changed parts and pushes the change to every other page;
   - the player in turn clicks a point: its metres fill the move form's x and y (#map-move),
     the pace that reaches it is chosen, the distance and cost are shown; the form posts to the
     system's move step, which checks the distance again;
   - a click on a token (or Enter on it) chooses it in the attack form's target select
     (select[data-map-target]); the targeted token is marked;
   - the selected weapon's range bands are drawn as rings around the acting token (an option's
     data-ranges: metres, comma separated, data-bands their names; data-reach for melee);
   - an area attack's template is drawn before firing while its form is open or changed
     (form[data-map-area]: "explode", a blast's circle around the centre chosen, or a cone
     towards it; "zone", the suppressive fire's band ahead of the acting token towards the
     combatant aimed at), and the tokens inside are named in the form's output: only tokens
     on this map, which holds only what the viewer may see (encounters.visibility). The
     numbers come from the server (eclipse.templatetags ep_area: the rules' reach).

   No inline script or style (the CSP): transforms are SVG attributes. */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var DRAG_UNITS = 3;  // a pointer moved less than this is a click
  var refocus = null;  // the token to focus again once the step's answer is swapped in

  function frameOf(svg) {
    return {left: parseFloat(svg.dataset.left), top: parseFloat(svg.dataset.top),
            scale: parseFloat(svg.dataset.scale), cell: parseFloat(svg.dataset.cell)};
  }

  function unitsAt(svg, event) {
    var p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    var q = p.matrixTransform(svg.getScreenCTM().inverse());
    return {u: q.x, v: q.y};
  }

  function toMetres(f, u, v) {
    return {x: Math.round((f.left + u / f.scale) * 10) / 10,
            y: Math.round((f.top - v / f.scale) * 10) / 10};
  }

  function toUnits(f, x, y) {
    return {u: (x - f.left) * f.scale, v: (f.top - y) * f.scale};
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function fmt(n) { return (Math.round(n * 10) / 10).toString(); }

  // --- the GM places --------------------------------------------------------------------
  function place(token, x, y) {
    var form = document.getElementById("map-place");
    if (!form || !token.dataset.place) { return; }
    if (document.activeElement === token) { refocus = token.id; }
    htmx.ajax("POST", token.dataset.place, {source: form, target: "#encounter",
      swap: "outerHTML", values: {x: String(x), y: String(y), page: "control"}});
  }

  function startDrag(svg, token, event) {
    var f = frameOf(svg), start = unitsAt(svg, event), moved = false;
    var u0 = parseFloat(token.dataset.u), v0 = parseFloat(token.dataset.v), at = null;
    token.setPointerCapture(event.pointerId);
    function move(e) {
      var p = unitsAt(svg, e), du = p.u - start.u, dv = p.v - start.v;
      if (!moved && Math.abs(du) < DRAG_UNITS && Math.abs(dv) < DRAG_UNITS) { return; }
      moved = true;
      token.classList.add("dragging");
      at = {u: Math.min(Math.max(u0 + du, 0), svg.viewBox.baseVal.width),
            v: Math.min(Math.max(v0 + dv, 0), svg.viewBox.baseVal.height)};
      token.setAttribute("transform", "translate(" + at.u + " " + at.v + ")");
    }
    function up() {
      token.removeEventListener("pointermove", move);
      token.removeEventListener("pointerup", up);
      token.removeEventListener("pointercancel", up);
      token.classList.remove("dragging");
      if (!moved) { target(token); return; }
      var m = toMetres(f, at.u, at.v);
      place(token, m.x, m.y);
    }
    token.addEventListener("pointermove", move);
    token.addEventListener("pointerup", up);
    token.addEventListener("pointercancel", up);
  }

  var ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1]};

  function onKey(svg, token, event) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      target(token);
      return;
    }
    var step = ARROWS[event.key];
    if (!step || !svg.dataset.drag || !token.dataset.place) { return; }
    event.preventDefault();
    var f = frameOf(svg);
    place(token, Math.round((parseFloat(token.dataset.x) + step[0] * f.cell) * 100) / 100,
          Math.round((parseFloat(token.dataset.y) + step[1] * f.cell) * 100) / 100);
  }

  // --- targeting ------------------------------------------------------------------------
  function targetSelect() { return document.querySelector("select[data-map-target]"); }

  function markTarget(root) {
    var select = targetSelect();
    (root || document).querySelectorAll("svg.map .token").forEach(function (t) {
      t.classList.toggle("targeted", !!select && select.value === t.dataset.combatant);
    });
  }

  function target(token) {
    var select = targetSelect();
    if (!select) { return; }
    var ok = Array.prototype.some.call(select.options, function (o) {
      return o.value === token.dataset.combatant;
    });
    if (!ok) { return; }
    select.value = token.dataset.combatant;
    select.dispatchEvent(new Event("change", {bubbles: true}));
    markTarget();
  }

  // --- the player's move ----------------------------------------------------------------
  function preview(svg, form) {
    var f = frameOf(svg), layer = svg.querySelector(".map-preview");
    var x = parseFloat(form.elements.x.value), y = parseFloat(form.elements.y.value);
    var fx = parseFloat(form.dataset.fromX), fy = parseFloat(form.dataset.fromY);
    var out = form.querySelector("output");
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    if (isNaN(x) || isNaN(y)) { return; }
    var d = Math.hypot(x - fx, y - fy);
    var paces = Array.prototype.slice.call(form.querySelectorAll("input[name=pace]"));
    var reaching = paces.filter(function (p) { return parseFloat(p.dataset.metres) >= d; });
    var far = paces.length > 0 && reaching.length === 0;
    if (reaching.length) { reaching[0].checked = true; }  // the cheapest pace that reaches it
    var chosen = paces.filter(function (p) { return p.checked; })[0];
    if (far) {
      var most = Math.max.apply(null, paces.map(function (p) { return parseFloat(p.dataset.metres); }));
      out.textContent = form.dataset.msgFar.replace("{d}", fmt(d)).replace("{m}", fmt(most));
    } else if (chosen) {
      out.textContent = form.dataset.msgOk.replace("{d}", fmt(d)).replace("{pace}", chosen.dataset.label);
    } else {
      out.textContent = form.dataset.msgFree.replace("{d}", fmt(d));
    }
    layer.classList.toggle("too-far", far);
    var a = toUnits(f, fx, fy), b = toUnits(f, x, y);
    el("line", {x1: a.u, y1: a.v, x2: b.u, y2: b.v}, layer);
    el("circle", {cx: b.u, cy: b.v, r: 6}, layer);
    el("text", {x: b.u + 9, y: b.v - 8}, layer).textContent = fmt(d) + " m";
  }

  function clickPoint(svg, event) {
    var form = document.getElementById("map-move");
    if (!form || event.target.closest(".token")) { return; }
    var p = unitsAt(svg, event), m = toMetres(frameOf(svg), p.u, p.v);
    form.elements.x.value = String(m.x);
    form.elements.y.value = String(m.y);
    preview(svg, form);
  }

  // --- the weapon's range bands ---------------------------------------------------------
  function rings(svg) {
    var layer = svg.querySelector(".map-rings"), select = document.querySelector("select[data-map-weapon]");
    var actor = svg.querySelector(".token-current.token-mine") || svg.querySelector(".token-current");
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    if (!select || !actor || select.selectedIndex < 0) { return; }
    var option = select.options[select.selectedIndex], f = frameOf(svg);
    var u = parseFloat(actor.dataset.u), v = parseFloat(actor.dataset.v);
    if (option.dataset.reach) {
      el("circle", {cx: u, cy: v, r: parseFloat(option.dataset.reach) * f.scale,
                    "class": "ring-reach", "data-testid": "map-ring"}, layer);
      return;
    }
    var names = (option.dataset.bands || "").split(",");
    (option.dataset.ranges || "").split(",").forEach(function (m, i) {
      var metres = parseFloat(m);
      if (!(metres > 0)) { return; }
      el("circle", {cx: u, cy: v, r: metres * f.scale, "data-testid": "map-ring"}, layer);
      el("text", {x: u + 3, y: v - metres * f.scale - 3}, layer).textContent =
        (names[i] || "") + " " + metres + " m";
    });
  }

  // --- an area attack's template ---------------------------------------------------------
  var CONE_HALF_DEG = 30;  // the cone's drawing only: the rule counts its targets by range band
  var activeArea = null;  // the area form last opened or changed

  function metresOf(token) {
    return {x: parseFloat(token.dataset.x), y: parseFloat(token.dataset.y)};
  }

  function tokenOf(svg, pk) {
    return pk ? svg.querySelector('.token[data-combatant="' + pk + '"]') : null;
  }

  function actorOf(svg) {
    return svg.querySelector(".token-current.token-mine") || svg.querySelector(".token-current");
  }

  function areaShape(svg, form) {
    // {draw: function(layer), inside: function(metres) -> bool} or a message key
    var f = frameOf(svg), actor = actorOf(svg);
    var weapon = form.querySelector("select[data-map-area-weapon]");
    var aim = tokenOf(svg, (form.querySelector("select[data-map-area-centre]") || {}).value);
    if (!weapon || weapon.selectedIndex < 0 || !aim) { return "aim"; }
    var option = weapon.options[weapon.selectedIndex], c = metresOf(aim);
    if (form.dataset.mapArea === "explode" && option.dataset.area !== "cone") {
      var radius = option.dataset.radius === "" ? null : parseFloat(option.dataset.radius);
      var closed = option.dataset.closed === "1";
      return {exclude: null, inside: function (m) {
        if (radius === null) { return true; }
        var d = Math.hypot(m.x - c.x, m.y - c.y);
        return closed ? d <= radius + 1e-9 : d < radius;
      }, draw: function (layer) {
        var at = toUnits(f, c.x, c.y);
        if (radius === null) {
          el("rect", {x: 0, y: 0, width: svg.viewBox.baseVal.width, height: svg.viewBox.baseVal.height,
                      "data-testid": "map-area-shape"}, layer);
          return;
        }
        el("circle", {cx: at.u, cy: at.v, r: radius * f.scale, "data-testid": "map-area-shape"}, layer);
        el("text", {x: at.u + 3, y: at.v - radius * f.scale - 3}, layer).textContent = radius + " m";
      }};
    }
    if (!actor) { return "aim"; }
    var o = metresOf(actor), hx = c.x - o.x, hy = c.y - o.y, norm = Math.hypot(hx, hy);
    if (!(norm > 0)) { return "aim"; }
    var ux = hx / norm, uy = hy / norm;
    if (form.dataset.mapArea === "zone") {
      var width = parseFloat(form.dataset.width), depth = parseFloat(option.dataset.depth);
      return {exclude: actor, inside: function (m) {  // firing.SuppressiveZone.covers
        var dx = m.x - o.x, dy = m.y - o.y, ahead = dx * ux + dy * uy;
        var aside = Math.abs(-dx * uy + dy * ux);
        return ahead > 0 && ahead <= depth && aside <= width / 2;
      }, draw: function (layer) {
        var nx = -uy * width / 2, ny = ux * width / 2;
        var pts = [[o.x + nx, o.y + ny], [o.x - nx, o.y - ny],
                   [o.x - nx + ux * depth, o.y - ny + uy * depth], [o.x + nx + ux * depth, o.y + ny + uy * depth]];
        el("polygon", {points: pts.map(function (p) { var q = toUnits(f, p[0], p[1]); return q.u + "," + q.v; }).join(" "),
                       "data-testid": "map-area-shape"}, layer);
      }};
    }
    var ranges = (option.dataset.ranges || "").split(",").map(parseFloat).filter(function (r) { return r > 0; });
    var far = ranges.length ? ranges[ranges.length - 1] : norm, half = CONE_HALF_DEG * Math.PI / 180;
    return {exclude: actor, message: "cone", inside: function (m) {
      var dx = m.x - o.x, dy = m.y - o.y, d = Math.hypot(dx, dy);
      return d > 0 && d <= far && (dx * ux + dy * uy) / d >= Math.cos(half) - 1e-9;
    }, draw: function (layer) {
      var a = toUnits(f, o.x, o.y), r = far * f.scale, ang = Math.atan2(-uy, ux);
      var p1 = {u: a.u + r * Math.cos(ang - half), v: a.v + r * Math.sin(ang - half)};
      var p2 = {u: a.u + r * Math.cos(ang + half), v: a.v + r * Math.sin(ang + half)};
      el("path", {d: "M" + a.u + " " + a.v + " L" + p1.u + " " + p1.v + " A" + r + " " + r + " 0 0 1 " +
                  p2.u + " " + p2.v + " Z", "data-testid": "map-area-shape"}, layer);
      ranges.slice(0, -1).forEach(function (m) {
        var rr = m * f.scale;
        el("path", {"class": "area-arc", d: "M" + (a.u + rr * Math.cos(ang - half)) + " " + (a.v + rr * Math.sin(ang - half)) +
                    " A" + rr + " " + rr + " 0 0 1 " + (a.u + rr * Math.cos(ang + half)) + " " + (a.v + rr * Math.sin(ang + half))}, layer);
      });
    }};
  }

  function areas(svg) {
    var layer = svg.querySelector(".map-area");
    if (!layer) { return; }
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    document.querySelectorAll("form[data-map-area] output[data-map-area-list]").forEach(function (o) {
      o.textContent = "";
    });
    var form = activeArea;
    if (!form || !document.body.contains(form)) { return; }
    var details = form.querySelector("details");
    if (details && !details.open) { return; }
    var out = form.querySelector("output[data-map-area-list]"), shape = areaShape(svg, form);
    if (typeof shape === "string") {
      if (out) { out.textContent = form.dataset.msgAim || ""; }
      return;
    }
    shape.draw(layer);
    var names = [];
    svg.querySelectorAll(".token").forEach(function (t) {
      if (t !== shape.exclude && shape.inside(metresOf(t))) { names.push(t.dataset.name); }
    });
    if (out) {
      var text = names.length ? form.dataset.msgIn.replace("{names}", names.join(", ")) : form.dataset.msgNone;
      out.textContent = shape.message === "cone" ? text + " " + form.dataset.msgCone : text;
    }
  }

  function areaChanged(form) {
    activeArea = form;
    document.querySelectorAll("svg.map").forEach(areas);
  }

  // --- wiring ---------------------------------------------------------------------------
  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var svgs = scope.matches && scope.matches("svg.map") ? [scope] : scope.querySelectorAll("svg.map");
    svgs.forEach(function (svg) {
      if (svg.dataset.ready) { return; }
      svg.dataset.ready = "1";
      svg.querySelectorAll(".token").forEach(function (token) {
        token.addEventListener("pointerdown", function (e) {
          if (e.button !== 0) { return; }
          if (svg.dataset.drag && token.dataset.place) { e.preventDefault(); startDrag(svg, token, e); }
        });
        token.addEventListener("click", function () {
          if (!(svg.dataset.drag && token.dataset.place)) { target(token); }
        });
        token.addEventListener("keydown", function (e) { onKey(svg, token, e); });
      });
      svg.addEventListener("click", function (e) { clickPoint(svg, e); });
      markTarget(svg);
      rings(svg);
      areas(svg);
      if (refocus) {
        var again = document.getElementById(refocus);
        if (again && svg.contains(again)) { again.focus(); refocus = null; }
      }
    });
    var form = document.getElementById("map-move");
    if (form && !form.dataset.ready) {
      form.dataset.ready = "1";
      ["input", "change"].forEach(function (kind) {
        form.addEventListener(kind, function (e) {
          var svg = document.querySelector("svg.map");
          if (svg && (e.target.name === "x" || e.target.name === "y")) { preview(svg, form); }
        });
      });
    }
  }

  document.addEventListener("change", function (e) {
    if (!e.target.matches) { return; }
    if (e.target.matches("select[data-map-target]")) { markTarget(); }
    if (e.target.matches("select[data-map-weapon]")) {
      document.querySelectorAll("svg.map").forEach(rings);
    }
    var area = e.target.closest && e.target.closest("form[data-map-area]");
    if (area) { areaChanged(area); }
  });

  // a details element's toggle does not bubble: caught on the way down
  document.addEventListener("toggle", function (e) {
    var area = e.target.closest && e.target.closest("form[data-map-area]");
    if (!area) { return; }
    if (e.target.open) { areaChanged(area); } else if (activeArea === area) { areaChanged(null); }
  }, true);

  htmx.onLoad(init);
})();
