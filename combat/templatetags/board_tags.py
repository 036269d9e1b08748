"""Template helpers of the Eternal War One II board (combat/_board.html)."""

import functools
import html

from django import template
from django.utils import formats, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from campaigns.labels import label
from campaigns.messages import error_message
from characters.models import Character

register = template.Library()


def _kind(p) -> str:
    """``p.get_kind_display()`` without its per-call dictionary of every choice."""
    try:
        return str(Character.Kind(p.kind).label)
    except ValueError:
        return p.get_kind_display()


def _text(value) -> str:
    """``value`` as ``{{ value }}`` writes it, escaped: an int as is (no thousand separator is
    set), anything else localized."""
    if type(value) is int:
        return str(value)
    return _e(formats.localize(value))


def _token(p) -> str:
    """combat/_token.html's drawing of piece ``p``: its initials, its PV bar, its shield."""
    gauge = ("" if p.token_gauge is None else
             '<rect class="token-gauge-bg" x="-14" y="13" width="28" height="4"/><rect '
             f'class="token-gauge" x="-14" y="13" width="{_text(p.token_gauge)}" height="4" '
             'data-testid="token-gauge"/>')
    shield = '<circle class="token-effect" cx="11" cy="-11" r="4"/>' if p.ew1.is_protected else ""
    return ('<svg class="token-svg" viewBox="-17 -17 34 34" aria-hidden="true" focusable="false">'
            '<circle class="token-body" r="14"/><text class="token-initials" y="4">'
            f"{_e(p.token_initials)}</text>{gauge}{shield}</svg>\n")


@register.simple_tag
def board_cell(cell, c, piece_url):
    """One cell of the board (``cell``: ew1.selectors.Cell) as ``c``'s board draws it: a piece's
    token (``c`` itself, or a link to the piece's action menu at ``piece_url``), else the
    button that walks there, with its path, cost and refusal. Built here rather than in the
    template: a board of 200 pieces in view draws some 400 cells, and their template was most
    of the page's cost (issue 21, item 9); the output is the template's, byte for byte. The
    values are escaped by _e and _text (not format_html: its lazy-string check on every
    argument was most of the cells' cost)."""
    p = cell.piece
    x, y = _text(cell.x), _text(cell.y)
    if p is not None:
        if p.pk == c.pk:
            side = " me"
        elif p.owner_id == c.owner_id:
            side = " mine"
        else:
            side = f" other kind-{_e(p.kind)}"
        classes = "cell" + side + (" ally" if getattr(p, "is_ally", False) else "")
    else:
        classes = "cell blocked" if cell.refusal else "cell"
    walk = ""
    if p is None and not cell.refusal:
        walk = (f' data-path="{_e(cell.path)}" data-cost="{_text(cell.cost)}" '
                f'data-steps="{_text(cell.steps)}"')
    inner = _piece(p, c, cell, piece_url) if p is not None else _walk(cell, x, y)
    return mark_safe(f'\n          <td class="{classes}" data-x="{x}" data-y="{y}"{walk}>\n'
                     f"            {inner}\n          </td>\n        ")


def _piece(p, c, cell, piece_url: str) -> str:
    """A piece's cell: ``c`` itself, or a link to the piece's action menu."""
    x, y = _text(cell.x), _text(cell.y)
    if p.pk == c.pk:
        label = gettext("You, %(name)s, at (%(x)s, %(y)s), %(pv)s of %(max)s PV") % {
            "name": _e(p.name), "x": x, "y": y, "pv": _text(p.ew1.pv),
            "max": _text(p.ew1.pv_max)}
        return (f'<span class="piece token token-{_e(p.token_side)}" data-cell-control '
                f'tabindex="0" role="img" data-testid="token-me" aria-label="{label}">'
                f"{_token(p)}</span>\n            \n            ")
    away = ngettext("at (%(x)s, %(y)s), %(n)s cell away",
                    "at (%(x)s, %(y)s), %(n)s cells away", cell.distance) % {
        "n": _text(cell.distance), "x": x, "y": y}
    words = _words(translation.get_language())
    if p.token_side == "mine":
        whose = _e(", " + words["yours"])
    elif getattr(p, "is_ally", False):
        whose = _e(", " + words["ally"])
    else:
        whose = ""
    pv = ("" if p.token_gauge is None
          else f", {_text(p.ew1.pv)}/{_text(p.ew1.pv_max)} PV")
    url, pk, name = _e(piece_url), _text(p.pk), _e(p.name)
    actions = _e(words["actions"])
    return (
        f'<a class="piece token token-{_e(p.token_side)}" data-cell-control tabindex="-1" '
        f'href="{url}?target={pk}" hx-get="{url}?target={pk}" hx-target="#board-menu" '
        f'hx-swap="innerHTML" data-testid="token-{name}" data-piece="{pk}"\n'
        f'                 >{_token(p)}<span class="visually-hidden">{name} ({_e(_kind(p))}'
        f'{whose}), {away}{pv}: {actions}</span></a>\n            ')


def _walk(cell, x: str, y: str) -> str:
    """A free cell's button: the walk there, or why it would be refused."""
    if cell.refusal:
        why = _e(error_message(cell.refusal))
        refused = f' aria-disabled="true" data-refusal="{why}"'
        label = f"({x}, {y}): {why}"
    else:
        refused = ""
        label = ngettext(
            "Walk to (%(x)s, %(y)s): %(n)s cell, %(cost)s PA",
            "Walk to (%(x)s, %(y)s): %(n)s cells, %(cost)s PA", cell.steps) % {
            "n": _text(cell.steps), "x": x, "y": y, "cost": _text(cell.cost)}
    return (f'<button type="submit" form="board-move" name="to" value="{x},{y}" class="cell-go" '
            f'data-cell-control tabindex="-1"{refused}\n                 aria-label="{label}">'
            '<span class="cell-cost" aria-hidden="true"></span></button>')

@functools.lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, str]:
    """The words of every piece's cell and line, in ``language`` (the active one: translated
    once, not per piece)."""
    return {
        "actions": gettext("actions"), "yours": gettext("yours"), "ally": gettext("ally"),
        "protected": gettext("protected"), "Level": gettext("Level"),
        "friendly fire": gettext("friendly fire"),
        "ff off": gettext("Friendly fire is off in this campaign: allies cannot be attacked."),
        "ff on": gettext("An ally: friendly fire is on in this campaign.")}


def _e(value) -> str:
    """``value`` escaped as ``{{ value }}`` escapes it (conditional_escape without its
    lazy-string wrapper: the "In view" list calls it some thousand times a page)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _shown(value) -> str:
    """``value`` as ``{{ value }}`` writes it, escaped."""
    return str(value) if type(value) is int else _e(formats.localize(value))


@register.simple_tag(takes_context=True)
def in_view_item(context, p, c, attack_url):
    """One line of the board's "In view" list: piece ``p`` as ``c`` sees it (its level and PV,
    its cell, whose it is, its protection) and a form for each attack ``c`` can make on it
    (``p.attack_kinds``: ew1.selectors.attack_options) posting to ``attack_url``. Built here
    rather than in the template, like board_cell: 200 pieces in view made the list most of
    the page's cost (issue 21, item 9); the output is the template's, byte for byte."""
    name, words = _e(p.name), _words(translation.get_language())
    sheet = p.ew1
    marks = (
        f'<small>{words["yours"]}</small>' if p.owner_id == c.owner_id else "",
        f'<small class="ally" data-testid="ally-{name}">{words["ally"]}</small>'
        if p.is_ally else "",
        f'<small>{words["protected"]}</small>' if sheet.is_protected else "")
    forms = "".join(_attack_form(context, p, (name, words), attack_url, a)
                    for a in p.attack_kinds)
    return mark_safe(  # every value escaped (_e, _shown)
        f'\n          <li data-testid="in-view-{name}">{name} · {words["Level"]} '
        f"{_shown(sheet.level)} · PV {_shown(sheet.pv)}/{_shown(sheet.pv_max)} · "
        f"({_shown(p.x)}, {_shown(p.y)})\n            "
        + "\n            ".join(marks) + f"\n            {forms}\n          </li>\n        ")


def _attack_form(context, p, named: tuple[str, dict[str, str]], attack_url: str,
                 attack: tuple) -> str:
    """One attack's form of the "In view" list (in_view_item): ``named`` is (the piece's
    escaped name, the words), ``attack`` (kind, PA cost, chance to hit in %, refusal or
    None)."""
    (name, words), (kind, cost, odds, refused) = named, attack
    testid = f"attack-{name}" if kind == "brawl" else f"attack-{_e(kind)}-{name}"
    if p.friendly_fire_refused:
        title = f' disabled title="{words["ff off"]}"'
    elif refused:
        title = f' disabled title="{_e(error_message(refused))}"'
    elif p.is_ally:
        title = f' title="{words["ff on"]}"'
    else:
        title = ""
    friendly = f' · {words["friendly fire"]}' if p.is_ally and not p.friendly_fire_refused else ""
    url = _e(attack_url)
    return (
        f'\n              <form method="post" action="{url}" hx-post="{url}" hx-target="#board" '
        f'hx-swap="outerHTML" class="inline">{_csrf(context)}\n                <input '
        f'type="hidden" name="target" value="{_shown(p.pk)}"><input type="hidden" name="kind" '
        f'value="{_e(kind)}">\n                <button type="submit" data-testid="{testid}"'
        f'{title}>{_e(label("skill", kind))} ({_shown(cost)} PA, {_shown(odds)} %){friendly}'
        "</button>\n              </form>\n            ")


def _csrf(context) -> str:
    """What ``{% csrf_token %}`` writes."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'
