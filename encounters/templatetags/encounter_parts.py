"""The encounter page's parts built in Python rather than in templates (issue 17, item 2; issue
21, item 9): the status, the acting user's turn, the game master's controls and the pictures'
fold. Each writes what its template wrote, byte for byte (the template file now calls the tag),
as encounter_tags.order_row does for a row: the step's htmx answer renders these parts on
every step, and the whole page every part, so their words are translated once per language
(not per render), their URLs reversed once per render, their values escaped as ``{{ }}``
escapes them (encounter_tags._e).

A system's own turn template (``view.actions_template``) is still a template, included with
the page's context as ``{% include %}`` did.
"""

from __future__ import annotations

from typing import Any
import functools

from django import template
from django.template.defaultfilters import add, floatformat
from django.urls import reverse
from django.utils import formats, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop as N_

from encounters.templatetags.encounter_tags import (_csrf, _e, _number, name_options,
                                                    portrait_choices)

register = template.Library()

# What a literal {% translate %} writes: the translation as is (a template's literal is safe;
# none of these holds a "%").
_WORDS = (
    N_("End my turn"), N_("Delay: act after"), N_("Delay"), N_("Game master"), N_("Order"),
    N_("my order"), N_("rolled initiative"), N_("Start"), N_("Next turn"), N_("End the encounter"),
    N_("Players may join with their own character."), N_("Only you add combatants."),
    N_("Stop players joining"), N_("Let players join"), N_("Clear every position"),
    N_("Not started yet."), N_("The encounter is over."), N_("someone acts"), N_("nobody's turn"),
    N_("your turn!"), N_("Pictures"), N_("portraits and the map's background"), N_("Portrait of"),
    N_("Portrait (a picture)"), N_("Send the portrait"), N_("Remove the portrait"),
    N_("Background of the map (a picture)"), N_("Width on the ground (m)"),
    N_("Send the background"), N_("Remove the background"),
    N_("Its lower left corner stands at (0, 0) m; its height follows its proportions."),
)
# What a {% blocktranslate %} formats: its message id, its values escaped.
_FORMATS = (
    N_("%(name)s's move costs the action"), N_("%(name)s acts after"), N_("Round %(n)s"),
    N_("%(name)s's turn"), N_("turn %(k)s of the round"),
    N_("PNG, JPEG, GIF or WebP, at most %(kb)s KB; shown as a 128 px square."),
    N_("Now %(w)s m by %(h)s m."),
)


@functools.lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, str]:
    """Every word of these parts in ``language`` (the active one): translated once."""
    del language  # the key of the cache: gettext reads the active language
    return {w: gettext(w) for w in (*_WORDS, *_FORMATS)}


def _now() -> dict[str, str]:
    return _words(translation.get_language())


def _oob(context) -> str:
    return ' hx-swap-oob="true"' if context.get("oob") else ""


class _Urls:
    """The encounter's form URLs, each reversed once per render (``encounters:<name>``)."""

    def __init__(self, encounter_id: int):
        self.encounter_id = encounter_id
        self.done: dict[Any, Any] = {}

    def __getitem__(self, name: str) -> str:
        url = self.done.get(name)
        if url is None:
            url = self.done[name] = _e(reverse(f"encounters:{name}", args=(self.encounter_id,)))
        return url


def _urls(context, encounter_id: int) -> _Urls:
    """The render's URLs (kept in its render context: one reverse a name a render)."""
    key = ("encounter_parts.urls", encounter_id)
    urls = context.render_context.get(key)
    if urls is None:
        urls = context.render_context[key] = _Urls(encounter_id)
    return urls


def _form(url: str, csrf: str) -> str:
    """The opening of a step's form (htmx: the answer swaps the fragment) and its token."""
    return (f'<form method="post" action="{url}" hx-post="{url}" hx-target="#encounter" '
            f'hx-swap="outerHTML" class="inline">{csrf}')


@register.simple_tag(takes_context=True)
def status_part(context):
    """parts/_status.html: the round, whose turn, the viewer's turn."""
    view, w = context["view"], _now()
    e = view.encounter
    if e.state == "setup":
        said = f"{w['Not started yet.']}\n    "
    elif e.state == "ended":
        said = f"{w['The encounter is over.']}\n    "
    else:
        current = view.current
        if current:
            who = w["%(name)s's turn"] % {"name": _e(current.name)}
            if current.turns_per_round > 1:
                who += " (" + w["turn %(k)s of the round"] % {
                    "k": _e(_number(e.current_phase + 1))} + ")"
        elif view.someone_acts:
            who = f'<span data-testid="someone-acts">{w["someone acts"]}</span>'
        else:
            who = w["nobody's turn"]
        mine = (f'<strong data-testid="your-turn">· {w["your turn!"]}</strong>'
                if view.my_turn else "")
        said = (f"<strong>{w['Round %(n)s'] % {'n': _e(_number(e.round))}}</strong> ·\n      "
                f"{who}\n      {mine}\n    ")
    return mark_safe(  # every value escaped (_e)
        f'<div id="enc-status"{_oob(context)}>\n  <div class="card" data-testid="status" '
        f'data-alert-turn="{_e(view.alert_turn)}">\n    {said}\n  </div>\n</div>')


@register.simple_tag(takes_context=True)
def turn_part(context):
    """parts/_turn.html: the acting user's turn (the system's actions, the end of the turn,
    the delay), empty when it is not theirs."""
    view, me, w = context["view"], context.get("me"), _now()
    e = view.encounter
    inner = ""
    if me and e.state == "running":
        urls, csrf, page = _urls(context, e.pk), _csrf(context), _e(context.get("page", ""))
        actions = ""
        if view.actions_template:
            with context.push(e=e):
                actions = context.template.engine.get_template(
                    view.actions_template).render(context)
        hidden = (f'<input type="hidden" name="page" value="{page}"><input type="hidden" '
                  f'name="turn" value="{_e(_number(e.turn_serial))}">')
        delay = ""
        if not e.turn_actions:
            delay = (f"\n    {_form(urls['delay'], csrf)}\n      {hidden}<input type=\"hidden\" "
                     f'name="combatant" value="{_e(_number(me.pk))}">\n      '
                     f'<label>{w["Delay: act after"]} <select name="after">'
                     f"{name_options(view.in_order, me.pk)}</select></label>\n      "
                     f'<button type="submit">{w["Delay"]}</button>\n    </form>\n    ')
        inner = (f'\n  <div class="card" data-testid="my-turn">\n    {actions}\n    '
                 f"{_form(urls['next'], csrf)}\n      {hidden}\n      "
                 f'<button type="submit" data-testid="end-turn">{w["End my turn"]}</button>\n'
                 f"    </form>\n    {delay}\n  </div>\n  ")
    return mark_safe(  # every value escaped (_e), the system's part a template's output
        f'<div id="enc-turn"{_oob(context)}>\n  {inner}\n</div>')


@register.simple_tag(takes_context=True)
def controls_part(context):
    """parts/_controls.html (the template encounters/_controls.html was): the game
    master's steps (start; next turn, the action spent, the delay, the end; the players
    joining; the positions cleared)."""
    view = context["view"]
    inner = _controls(context, view) if context.get("page") == "control" else ""
    return mark_safe(  # every value escaped (_e)
        f'<div id="enc-controls"{_oob(context)}>\n  {inner}\n</div>')


def _controls(context, view) -> str:
    e, w = view.encounter, _now()
    urls, csrf = _urls(context, e.pk), _csrf(context)
    page = '<input type="hidden" name="page" value="control">'
    turn = f'{page}<input type="hidden" name="turn" value="{_e(_number(e.turn_serial))}">'
    steps = ""
    if e.state == "setup":
        steps = (f"\n  {_form(urls['start'], csrf)}\n    {page}\n    "
                 f'<select name="mode" aria-label="{w["Order"]}"><option value="gm">'
                 f'{w["my order"]}</option><option value="rolled">{w["rolled initiative"]}'
                 f'</option></select>\n    <button type="submit" data-testid="start">'
                 f'{w["Start"]}</button>\n  </form>\n  ')
    elif e.state == "running":
        current = view.current
        spend = delay = ""
        if current and e.turn_actions < e.actions_per_turn:
            said = w["%(name)s's move costs the action"] % {"name": _e(current.name)}
            spend = (f"\n  {_form(urls['spend_action'], csrf)}\n    {turn}<input "
                     'type="hidden" name="reason" value="move">\n    <button type="submit" '
                     f'data-testid="spend-action">{said}</button>\n  </form>\n  ')
        if current:
            said = w["%(name)s acts after"] % {"name": _e(current.name)}
            delay = (f"\n  {_form(urls['delay'], csrf)}\n    {turn}<input type=\"hidden\" "
                     f'name="combatant" value="{_e(_number(current.pk))}">\n    <label>{said} '
                     f'<select name="after">{name_options(view.in_order, current.pk)}</select>'
                     f'</label>\n    <button type="submit">{w["Delay"]}</button>\n  </form>\n  ')
        steps = (f"\n  {_form(urls['next'], csrf)}\n    {turn}\n    "
                 f'<button type="submit" data-testid="next">{w["Next turn"]}</button>\n  '
                 f"</form>\n  {spend}\n  {delay}\n  {_form(urls['end'], csrf)}\n    {page}"
                 f'<button type="submit">{w["End the encounter"]}</button>\n  </form>\n  ')
    joining = clear = ""
    if e.state != "ended":
        may = e.players_may_join
        state = (w["Players may join with their own character."] if may
                 else w["Only you add combatants."])
        joining = (f"\n  {_form(urls['joining'], csrf)}\n    {page}<input type=\"hidden\" "
                   f'name="allowed" value="{"0" if may else "1"}">\n    '
                   '<span data-testid="joining-state">'
                   f'{state}</span>\n    <button type="submit" data-testid="joining">'
                   f'{w["Stop players joining"] if may else w["Let players join"]}</button>\n'
                   "  </form>\n  ")
        if view.ground:
            clear = (f"\n  {_form(urls['positions_clear'], csrf)}\n    {page}<button "
                     f'type="submit" data-testid="positions-clear">{w["Clear every position"]}'
                     "</button>\n  </form>\n  ")
    return (f'\n<div class="card controls" data-testid="controls">\n  <h2>{w["Game master"]}'
            f"</h2>\n  {steps}\n  {joining}\n  {clear}\n</div>\n")


@register.simple_tag(takes_context=True)
def pictures_part(context):
    """parts/_pictures.html: the fold sending a portrait (the viewer's combatants; the GM's:
    any with a character) and, for the GM, the map's background (encounters.pictures)."""
    from django.conf import settings

    from encounters.pictures import DEFAULT_BACKGROUND_WIDTH_M, MAX_BACKGROUND_WIDTH_M

    view = context["view"]
    e = view.encounter
    if e.state == "ended":
        return ""
    mine_any = portrait_choices(view)
    if not (mine_any or view.gm):
        return ""
    w, csrf, page = _now(), _csrf(context), _e(context.get("page", ""))
    hidden = f'<input type="hidden" name="page" value="{page}">'
    portrait = background = ""
    if mine_any:
        options = "".join(f'<option value="{_e(_number(c.pk))}">{_e(c.name)}</option>'
                          for c in mine_any)
        kb = w["PNG, JPEG, GIF or WebP, at most %(kb)s KB; shown as a 128 px square."] % {
            "kb": _e(_number(settings.PORTRAIT_MAX_BYTES // 1024))}
        portrait = (
            f'<form method="post" action="{_urls(context, e.pk)["portrait"]}" '
            f'enctype="multipart/form-data" data-testid="portrait-form">{csrf}{hidden}\n      '
            f'<label>{w["Portrait of"]} <select name="combatant" '
            f'data-testid="portrait-combatant">{options}</select></label>\n      '
            '<input type="file" name="picture" accept="image/png,image/jpeg,image/gif,'
            f'image/webp" aria-label="{w["Portrait (a picture)"]}" data-testid="portrait-file">'
            f'\n      <button type="submit" data-testid="portrait-send">'
            f'{w["Send the portrait"]}</button> <button type="submit" name="clear" value="1">'
            f'{w["Remove the portrait"]}</button>\n      <small>{kb}</small>\n    </form>')
    if view.gm:
        width = (_e(floatformat(e.background_width_m, "0u")) if e.background_width_m
                 else _e(_number(DEFAULT_BACKGROUND_WIDTH_M)))
        now = ""
        if e.background and e.background_width_m:
            now = w["Now %(w)s m by %(h)s m."] % {
                "w": _e(floatformat(e.background_width_m, "-2")),
                "h": _e(floatformat(e.background_height_m, "-2"))} + " "
        background = (
            f'<form method="post" action="{_urls(context, e.pk)["background"]}" '
            f'enctype="multipart/form-data" data-testid="background-form">{csrf}{hidden}\n      '
            '<input type="file" name="picture" accept="image/png,image/jpeg,image/gif,'
            f'image/webp" aria-label="{w["Background of the map (a picture)"]}" '
            f'data-testid="background-file">\n      <label>{w["Width on the ground (m)"]} '
            f'<input type="number" name="width" min="1" max="{_e(MAX_BACKGROUND_WIDTH_M)}" '
            f'step="1" size="5" value="{width}" data-testid="background-width"></label>\n'
            f'      <button type="submit" data-testid="background-send">'
            f'{w["Send the background"]}</button> <button type="submit" name="clear" '
            f'value="1">{w["Remove the background"]}</button>\n      <small>{now}'
            f'{w["Its lower left corner stands at (0, 0) m; its height follows its proportions."]}'
            "</small>\n    </form>")
    said = w["portraits and the map's background"]
    gm = f" <small>({said})</small>" if view.gm else ""
    return mark_safe(  # every value escaped (_e)
        '\n  \n  <details class="card fold map-pictures" data-testid="map-pictures"><summary>'
        f'{w["Pictures"]}{gm}</summary>\n    {portrait}\n    {background}\n  </details>\n')


# The map's words (parts/_ground.html): literal translations, then formats.
_MAP_WORDS = (
    N_("Map"), N_("hidden"), N_("acting"), N_("hidden from the players"), N_("defeated"),
    N_("{d} m away: {pace}"), N_("{d} m away: too far (at most {m} m)."), N_("{d} m away."),
    N_("Move on the map"), N_("Click a point on the map, or type where to (metres)."),
    N_("Move there"), N_("Not on the map"), N_("player characters"), N_("others"),
    N_("Drag a token to move it, or focus it and use the arrow keys (one square a press)."),
    N_("Map, %(m)s m across, one square %(c)s m"), N_("at %(x)s, %(y)s m"),
    N_("one square %(c)s m"),
)


@functools.lru_cache(maxsize=16)
def _map_words(language: str | None) -> dict[str, str]:
    del language  # the key of the cache: gettext reads the active language
    return {w: gettext(w) for w in _MAP_WORDS}


def _p(value) -> str:
    """``value`` as ``{{ value }}`` writes it inside ``{% localize off %}``, escaped."""
    if isinstance(value, str):
        return _e(value)
    return _e(formats.localize(value, use_l10n=False))


def _m2(value) -> str:
    """``{{ value|floatformat:'-2u' }}`` (metres)."""
    return _e(floatformat(value, "-2u"))


@register.simple_tag(takes_context=True)
def ground_part(context):
    """parts/_ground.html: the map (encounters.ground via ``view.ground``: what the viewer
    sees only), its legend, the current combatant's move form, then the pictures' fold."""
    view = context["view"]
    g = view.ground
    card = ""
    if g:
        card = _map(context, view, g)
    pictures = context.template.engine.get_template(
        "encounters/parts/_pictures.html").render(context)
    return mark_safe(  # every value escaped (_e, _p), the pictures' part a template's output
        f'<div id="enc-ground"{_oob(context)}>\n  {card}\n  {pictures}\n</div>')


def _map(context, view, g) -> str:
    e, f, w = view.encounter, g.frame, _map_words(translation.get_language())
    both = {**_now(), **w}
    editing = context.get("page") == "control" and e.state != "ended"
    out = [
        f'\n  <div class="card map-card"><h2>{w["Map"]}</h2>\n    <div class="map-wrap">\n'
        f'    <svg class="map" data-testid="map" viewBox="0 0 {_p(g.width)} {_p(g.height)}" '
        f'width="{_p(g.display_width)}" height="{_p(g.display_height)}"\n'
        f'         data-left="{_e(floatformat(f.left, "-4u"))}" '
        f'data-top="{_e(floatformat(f.top, "-4u"))}" '
        f'data-scale="{_e(floatformat(f.scale, "-6u"))}" data-cell="{_p(f.cell_m)}"']
    if editing:
        out.append(' data-drag="1"')
    label = w["Map, %(m)s m across, one square %(c)s m"] % {"m": _p(g.metres),
                                                             "c": _p(f.cell_m)}
    out.append(
        f'\n         role="group" aria-label="{label}">\n'
        '      <defs><clipPath id="token-clip"><circle r="11"/></clipPath></defs>\n'
        f'      <rect class="map-ground" x="0" y="0" width="{_p(g.width)}" '
        f'height="{_p(g.height)}"/>\n      ')
    b = g.background
    if b:
        out.append(
            f'<image class="map-background" href="{_p(g.backdrop.url)}" x="{_p(b.u)}" '
            f'y="{_p(b.v)}" width="{_p(b.width)}" height="{_p(b.height)}" '
            'preserveAspectRatio="none" data-testid="map-background" '
            f'data-width-m="{_m2(g.backdrop.width_m)}" '
            f'data-height-m="{_m2(g.backdrop.height_m)}"/>')
    us, vs = g.grid
    height, width = _p(g.height), _p(g.width)
    out.append('\n      <g class="map-grid" aria-hidden="true">')
    out.extend(f'<line x1="{_p(u)}" y1="0" x2="{_p(u)}" y2="{height}"/>' for u in us)
    out.extend(f'<line x1="0" y1="{_p(v)}" x2="{width}" y2="{_p(v)}"/>' for v in vs)
    out.append("</g>\n      ")
    t = g.current
    if t and g.reach:
        out.append('<g class="map-reach" aria-hidden="true" data-testid="map-reach">')
        out.extend(f'<circle cx="{_p(t.u)}" cy="{_p(t.v)}" r="{_p(radius)}" '
                   f'data-metres="{_p(metres)}"><title>{_p(label)}</title></circle>'
                   for metres, radius, label in g.reach)
        out.append("</g>")
    out.append(
        '\n      <g class="map-rings" aria-hidden="true" data-testid="map-rings"></g>\n'
        '      <g class="map-area" aria-hidden="true" data-testid="map-area"></g>\n'
        '      <g class="map-preview" aria-hidden="true"></g>\n      ')
    place, sentinel = None, ""
    if editing:
        from encounters.templatetags.encounter_tags import ROW_SENTINEL, row_urls

        urls = context.get("row_urls") or row_urls(e.pk)
        place = urls["place"]
        sentinel = ROW_SENTINEL
    out.extend(_token(t, w, place, sentinel) for t in g.tokens)
    out.append(_map_side(context, view, g, w, both=both, editing=editing))
    return "".join(out)


def _map_side(context, view, g, w, *, both, editing) -> str:
    """The map's scale bar and the SVG's end, then its side: the move form, the legend,
    what is not on the map, the key and (for the GM editing) the drag help."""
    e, f = view.encounter, g.frame
    out: list[str] = []
    s = g.scale_bar
    out.append(
        f'\n      <g class="map-scale" aria-hidden="true"><line x1="{_p(s["u"])}" '
        f'y1="{_p(s["v"])}" x2="{_p(add(s["u"], s["length"]))}" y2="{_p(s["v"])}"/>'
        f'<text x="{_p(s["u"])}" y="{_p(add(s["v"], -4))}">{_p(s["metres"])} m</text></g>\n'
        '    </svg>\n    <div class="map-side">\n      ')
    out.append(_move_form(context, view, e, both))
    out.append('\n      <ul class="map-legend" data-testid="map-legend">\n        ')
    out.extend(_legend_item(t, w) for t in g.tokens)
    out.append("\n      </ul>\n      ")
    if g.unplaced:
        out.append(f'<p><small>{w["Not on the map"]}: {", ".join(_e(n) for n in g.unplaced)}'
                   "</small></p>")
    hidden = (f' · <span class="chip chip-hidden">&nbsp;</span> {w["hidden"]}' if view.gm
              else "")
    out.append(
        '\n      <p class="map-key"><small><span class="chip chip-party">&nbsp;</span> '
        f'{w["player characters"]} · <span class="chip chip-enemy">&nbsp;</span> '
        f'{w["others"]}{hidden} · {w["one square %(c)s m"] % {"c": _p(f.cell_m)}}'
        "</small></p>\n      ")
    if editing:
        help_ = w["Drag a token to move it, or focus it and use the arrow keys (one square a press)."]
        out.append(
            f'<p class="map-help"><small>{help_}</small></p>\n      <form id="map-place" '
            f'class="map-hidden-form" method="post" action="{_urls(context, e.pk)["control"]}">'
            f'{_csrf(context)}<input type="hidden" name="page" value="control"></form>')
    out.append("\n    </div>\n    </div>\n  </div>\n  ")
    return "".join(out)


def _token(t, w, place, sentinel) -> str:
    """One token of the map (its ring, body, face, gauge, marks), as the SVG's group."""
    out: list[str] = []
    x, y, name = _m2(t.x), _m2(t.y), _e(t.name)
    classes = ((" token-current" if t.current else "") + (" token-hidden" if t.hidden else "")
               + (" token-defeated" if t.defeated else "") + (" token-mine" if t.mine else ""))
    drag = (f' data-place="{_e(place.replace(sentinel, str(t.pk)))}"'
            if place is not None else "")
    words = _p(t.glance.words) if t.glance else ""
    aria = (name + (f" ({w['hidden']})" if t.hidden else "")
            + (f" ({w['acting']})" if t.current else "") + ", "
            + w["at %(x)s, %(y)s m"] % {"x": x, "y": y} + (f": {words}" if t.glance else ""))
    title = f"{name} ({x}, {y} m)"
    if t.glance:
        title += f" · {words}"
    elif t.gauge:
        title += (f" · {_p(t.gauge.label)} {_p(t.gauge.value)}/"
                  f"{_p(t.gauge.maximum)}")
    title += "".join(f" · {_p(n)}" for n in t.effects)
    if t.hidden:
        title += f" · {w['hidden from the players']}"
    face = (f'<image class="token-portrait" href="{_p(t.portrait)}" x="-11" y="-11" '
            'width="22" height="22" clip-path="url(#token-clip)" '
            'data-testid="map-portrait"/>' if t.portrait
            else f'<text class="token-initials" y="4">{_p(t.initials)}</text>')
    gauge = ('<rect class="token-gauge-bg" x="-14" y="16" width="28" height="4"/>'
             f'<rect class="token-gauge" x="-14" y="16" width="{_p(t.gauge_width)}" '
             'height="4" data-testid="map-gauge"/>' if t.gauge else "")
    icons = "".join(
        f'<g class="token-mark mark-{_p(m.key)}" transform="translate(22 {_p(v)})" '
        f'data-testid="map-mark" data-key="{_p(m.key)}"><title>{_p(m.words)}</title>'
        f'<circle r="6"/><text y="3.5">{_p(m.glyph)}</text></g>' for v, m in t.icons)
    out.append(
        f'<g id="map-token-{_p(t.pk)}" class="token token-{_p(t.side)}{classes}"\n'
        f'         data-testid="map-token" data-name="{name}" data-combatant="{_p(t.pk)}" '
        f'data-x="{x}" data-y="{y}" data-u="{_p(t.u)}" data-v="{_p(t.v)}"{drag}\n'
        f'         transform="translate({_p(t.u)} {_p(t.v)})" tabindex="0" role="button"\n'
        f'         aria-label="{aria}">\n        <title>{title}</title>\n        ')
    if t.current:
        out.append('<circle class="token-ring" r="19"/>')
    out.append(
        '\n        <circle class="token-target" r="17"/>\n'
        f'        <circle class="token-body" r="14"/>\n        {face}\n        {gauge}\n'
        "        ")
    if t.effects:
        out.append('<circle class="token-effect" cx="11" cy="-11" r="4" '
                   'data-testid="map-effect"/>')
    out.append(f"\n        {icons}\n        ")
    if t.defeated:
        out.append('<path class="token-cross" d="M-8 -8 L8 8 M8 -8 L-8 8"/>')
    out.append("\n      </g>")
    return "".join(out)


def _legend_item(t, w) -> str:
    """One line of the map's legend: its chip, name, place and state."""
    chip = ((" chip-hidden" if t.hidden else "") + (" chip-current" if t.current else ""))
    face = (f'<img class="chip-portrait" src="{_p(t.portrait)}" alt="" width="16" '
            'height="16" data-testid="legend-portrait">' if t.portrait else _p(t.initials))
    said = ((f" · {w['acting']}" if t.current else "")
            + (f" · {w['hidden']}" if t.hidden else "")
            + (f" · {w['defeated']}" if t.defeated else ""))
    if t.glance:
        said += f' · <span data-testid="map-legend-state">{_p(t.glance.words)}</span>'
    elif t.gauge:
        said += f" · {_p(t.gauge.label)} {_p(t.gauge.value)}/{_p(t.gauge.maximum)}"
    said += "".join(f" · {_p(n)}" for n in t.effects)
    return (
        f'<li data-testid="map-legend-item"><span class="chip chip-{_p(t.side)}{chip}">'
        f"{face}</span> {_e(t.name)}\n          <small>({_m2(t.x)}, {_m2(t.y)}){said}"
        "</small></li>\n        ")


def _move_form(context, view, e, w) -> str:
    """The current combatant's move on the map (the system's, ``view.current_move``), for
    the user in turn with a position."""
    me, m = context.get("me"), view.current_move
    if not (me and m and e.state == "running" and me.x is not None):
        return ""
    url = _p(m.url)
    fields = "".join(f'<input type="hidden" name="{_p(k)}" value="{_p(v)}">' for k, v in m.fields)
    note = (f'<p class="map-move-note" data-testid="map-move-note"><small>{_p(m.note)}</small>'
            "</p>" if m.note else "")
    paces = "".join(
        f'<label><input type="radio" name="pace" value="{_p(p.value)}" '
        f'data-metres="{_p(p.metres)}" data-label="{_p(p.label)}"'
        f'{" checked" if i == 0 else ""}> {_p(p.label)}</label> ' for i, p in enumerate(m.paces))
    x, y = _p(me.x), _p(me.y)
    return (
        f'\n      <form id="map-move" method="post" action="{url}" hx-post="{url}" '
        'hx-target="#encounter" hx-swap="outerHTML" data-testid="map-move" '
        f'data-from-x="{x}" data-from-y="{y}"\n            '
        f'data-msg-ok="{w["{d} m away: {pace}"]}" '
        f'data-msg-far="{w["{d} m away: too far (at most {m} m)."]}" '
        f'data-msg-free="{w["{d} m away."]}">{_csrf(context)}\n        '
        f'<input type="hidden" name="page" value="{_p(context.get("page", ""))}">'
        f'<input type="hidden" name="turn" value="{_p(e.turn_serial)}"><input type="hidden" '
        f'name="combatant" value="{_p(me.pk)}">{fields}\n        <fieldset><legend>'
        f'{w["Move on the map"]}</legend>{note}\n          {paces}\n          <label>x <input '
        f'name="x" size="5" inputmode="decimal" value="{x}" data-testid="map-move-x" '
        'aria-label="x (m)"></label>\n          <label>y <input name="y" size="5" '
        f'inputmode="decimal" value="{y}" data-testid="map-move-y" aria-label="y (m)"></label>'
        '\n          <output class="map-move-preview" data-testid="map-move-preview" '
        f'aria-live="polite">{w["Click a point on the map, or type where to (metres)."]}'
        '</output>\n          <button type="submit" data-testid="map-move-submit">'
        f'{w["Move there"]}</button>\n        </fieldset>\n      </form>')
