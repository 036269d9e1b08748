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

import functools

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from encounters.templatetags.encounter_tags import (_csrf, _e, _number, name_options,
                                                    portrait_choices)

register = template.Library()

# What a literal {% translate %} writes: the translation as is (a template's literal is safe;
# none of these holds a "%").
_WORDS = (
    "End my turn", "Delay: act after", "Delay", "Game master", "Order", "my order",
    "rolled initiative", "Start", "Next turn", "End the encounter",
    "Players may join with their own character.", "Only you add combatants.",
    "Stop players joining", "Let players join", "Clear every position", "Not started yet.",
    "The encounter is over.", "someone acts", "nobody's turn", "your turn!", "Pictures",
    "portraits and the map's background", "Portrait of", "Portrait (a picture)",
    "Send the portrait", "Remove the portrait", "Background of the map (a picture)",
    "Width on the ground (m)", "Send the background", "Remove the background",
    "Its lower left corner stands at (0, 0) m; its height follows its proportions.",
)
# What a {% blocktranslate %} formats: its message id, its values escaped.
_FORMATS = (
    "%(name)s's move costs the action", "%(name)s acts after", "Round %(n)s",
    "%(name)s's turn", "turn %(k)s of the round",
    "PNG, JPEG, GIF or WebP, at most %(kb)s KB; shown as a 128 px square.",
    "Now %(w)s m by %(h)s m.",
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
        self.encounter_id, self.done = encounter_id, {}

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
