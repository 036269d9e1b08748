"""Template helpers of the Eternal War One II board (combat/_board.html): the grid's rows and the
"In view" list, each built in one call rather than a template loop (issue 21, item 9).

A board of 200 pieces in view draws some 400 cells and 200 lines of the list; their templates,
then a tag per cell and per line, were most of the page's cost. Each builder here walks its
part once and writes the template's output, byte for byte, from a ``_Render``: what does not
depend on the cell (the language, its words, the URLs, the CSRF field) is read once per page,
and what repeats from cell to cell (a plural's text for a distance or a cost, a localized cost,
a refusal's words, a kind's label) once per distinct value. The values are escaped by ``_e``
(not format_html: its lazy-string check on every argument was most of the cells' cost)."""

from __future__ import annotations

import html

from django import template
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from campaigns.labels import label
from campaigns.messages import error_message
from characters.models import Character
from gamerules.errors import RuleError

register = template.Library()

def _e(value) -> str:
    """``value`` escaped as ``{{ value }}`` escapes it (conditional_escape without its
    lazy-string wrapper)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


class _Render:
    """What one page's board writes again and again, worked out once: the words in the active
    language, and per distinct value a number's text, a plural's text, a refusal's words and a
    kind's label. One per builder call: nothing outlives the page (the language may change
    between requests of a worker)."""

    def __init__(self, c: Character, csrf_token=None):
        self.c = c
        self.words = {
            "actions": gettext("actions"), "yours": gettext("yours"), "ally": gettext("ally"),
            "protected": gettext("protected"), "Level": gettext("Level"),
            "friendly fire": gettext("friendly fire"),
            "ff off": gettext("Friendly fire is off in this campaign: allies cannot be attacked."),
            "ff on": gettext("An ally: friendly fire is on in this campaign."),
            "nobody": gettext("Nobody in view.")}
        self.csrf = ("" if not csrf_token or csrf_token == "NOTPROVIDED" else
                     f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(csrf_token)}">')
        self._texts: dict = {}
        self._plurals: dict = {}
        self._refusals: dict = {}
        self._labels: dict = {}

    def text(self, value) -> str:
        """``value`` as ``{{ value }}`` writes it, escaped: an int as is (no thousand separator
        is set), anything else localized (once per distinct value: Decimal("1") and
        Decimal("1.0") are told apart)."""
        if type(value) is int:
            return str(value)
        key = (type(value), str(value))
        shown = self._texts.get(key)
        if shown is None:
            shown = self._texts[key] = _e(formats.localize(value))
        return shown

    def walk(self, n: int) -> str:
        """The walk's plural text for ``n`` cells, once per count."""
        text = self._plurals.get(("walk", n))
        if text is None:
            text = self._plurals["walk", n] = ngettext(
                "Walk to (%(x)s, %(y)s): %(n)s cell, %(cost)s PA",
                "Walk to (%(x)s, %(y)s): %(n)s cells, %(cost)s PA", n)
        return text

    def away(self, n: int) -> str:
        """A piece's distance's plural text for ``n`` cells, once per count."""
        text = self._plurals.get(("away", n))
        if text is None:
            text = self._plurals["away", n] = ngettext(
                "at (%(x)s, %(y)s), %(n)s cell away", "at (%(x)s, %(y)s), %(n)s cells away", n)
        return text

    def refusal(self, exc) -> str:
        """``error_message(exc)``, escaped; once per template and parameters for a RuleError
        that renders as the base class does."""
        if not isinstance(exc, RuleError) or type(exc).render is not RuleError.render:
            return _e(error_message(exc))
        key = (exc.template, tuple((k, type(v), str(v)) for k, v in sorted(exc.params.items())))
        shown = self._refusals.get(key)
        if shown is None:
            shown = self._refusals[key] = _e(error_message(exc))
        return shown

    def kind(self, p) -> str:
        """``p.get_kind_display()``, escaped, once per kind."""
        shown = self._labels.get(("kind", p.kind))
        if shown is None:
            try:
                name = str(Character.Kind(p.kind).label)
            except ValueError:
                name = p.get_kind_display()
            shown = self._labels[("kind", p.kind)] = _e(name)
        return shown

    def skill(self, kind: str) -> str:
        """``label("skill", kind)``, escaped, once per kind."""
        shown = self._labels.get(("skill", kind))
        if shown is None:
            shown = self._labels[("skill", kind)] = _e(label("skill", kind))
        return shown


def _token(r: _Render, p) -> str:
    """combat/_token.html's drawing of piece ``p``: its initials, its PV bar, its shield."""
    gauge = ("" if p.token_gauge is None else
             '<rect class="token-gauge-bg" x="-14" y="13" width="28" height="4"/><rect '
             f'class="token-gauge" x="-14" y="13" width="{r.text(p.token_gauge)}" height="4" '
             'data-testid="token-gauge"/>')
    shield = '<circle class="token-effect" cx="11" cy="-11" r="4"/>' if p.ew1.is_protected else ""
    return ('<svg class="token-svg" viewBox="-17 -17 34 34" aria-hidden="true" focusable="false">'
            '<circle class="token-body" r="14"/><text class="token-initials" y="4">'
            f"{_e(p.token_initials)}</text>{gauge}{shield}</svg>\n")


@register.simple_tag
def board_rows(board, c, piece_url):
    """The rows of the board's table (``board.rows``: ew1.selectors.Cell), as ``c`` sees them:
    each cell a piece's token (``c`` itself, or a link to the piece's action menu at
    ``piece_url``), else the button that walks there, with its path, cost and refusal."""
    r = _Render(c)
    url = _e(piece_url)
    return mark_safe("".join(  # every value escaped (_e, _Render)
        "<tr>\n        " + "".join([_cell(r, cell, url) for cell in row]) + "\n      </tr>"
        for row in board.rows))


def _cell(r: _Render, cell, url: str) -> str:
    """One cell: its ``td`` with the piece's token or the walk's button."""
    p, c = cell.piece, r.c
    x, y = r.text(cell.x), r.text(cell.y)
    walk = ""
    if p is not None:
        if p.pk == c.pk:
            side = " me"
        elif p.owner_id == c.owner_id:
            side = " mine"
        else:
            side = f" other kind-{_e(p.kind)}"
        classes = "cell" + side + (" ally" if getattr(p, "is_ally", False) else "")
        inner = _piece(r, p, cell, url)
    else:
        classes = "cell blocked" if cell.refusal else "cell"
        if not cell.refusal:
            walk = (f' data-path="{_e(cell.path)}" data-cost="{r.text(cell.cost)}" '
                    f'data-steps="{r.text(cell.steps)}"')
        inner = _walk(r, cell, x, y)
    return (f'\n          <td class="{classes}" data-x="{x}" data-y="{y}"{walk}>\n'
            f"            {inner}\n          </td>\n        ")


def _piece(r: _Render, p, cell, url: str) -> str:
    """A piece's cell: ``c`` itself, or a link to the piece's action menu."""
    x, y = r.text(cell.x), r.text(cell.y)
    if p.pk == r.c.pk:
        text = gettext("You, %(name)s, at (%(x)s, %(y)s), %(pv)s of %(max)s PV") % {
            "name": _e(p.name), "x": x, "y": y, "pv": r.text(p.ew1.pv),
            "max": r.text(p.ew1.pv_max)}
        return (f'<span class="piece token token-{_e(p.token_side)}" data-cell-control '
                f'tabindex="0" role="img" data-testid="token-me" aria-label="{text}">'
                f"{_token(r, p)}</span>\n            \n            ")
    away = r.away(cell.distance) % {"n": r.text(cell.distance), "x": x, "y": y}
    words = r.words
    if p.token_side == "mine":
        whose = _e(", " + words["yours"])
    elif getattr(p, "is_ally", False):
        whose = _e(", " + words["ally"])
    else:
        whose = ""
    pv = ("" if p.token_gauge is None
          else f", {r.text(p.ew1.pv)}/{r.text(p.ew1.pv_max)} PV")
    pk, name = r.text(p.pk), _e(p.name)
    return (
        f'<a class="piece token token-{_e(p.token_side)}" data-cell-control tabindex="-1" '
        f'href="{url}?target={pk}" hx-get="{url}?target={pk}" hx-target="#board-menu" '
        f'hx-swap="innerHTML" data-testid="token-{name}" data-piece="{pk}"\n'
        f'                 >{_token(r, p)}<span class="visually-hidden">{name} ({r.kind(p)}'
        f'{whose}), {away}{pv}: {_e(words["actions"])}</span></a>\n            ')


def _walk(r: _Render, cell, x: str, y: str) -> str:
    """A free cell's button: the walk there, or why it would be refused."""
    if cell.refusal:
        why = r.refusal(cell.refusal)
        refused = f' aria-disabled="true" data-refusal="{why}"'
        text = f"({x}, {y}): {why}"
    else:
        refused = ""
        text = r.walk(cell.steps) % {
            "n": r.text(cell.steps), "x": x, "y": y, "cost": r.text(cell.cost)}
    return (f'<button type="submit" form="board-move" name="to" value="{x},{y}" class="cell-go" '
            f'data-cell-control tabindex="-1"{refused}\n                 aria-label="{text}">'
            '<span class="cell-cost" aria-hidden="true"></span></button>')


@register.simple_tag(takes_context=True)
def in_view_list(context, board, c, attack_url):
    """The lines of the board's "In view" list (``board.in_view``), or "Nobody in view.": each
    piece as ``c`` sees it (its level and PV, its cell, whose it is, its protection) and a form
    for each attack ``c`` can make on it (``p.attack_kinds``: ew1.selectors.attack_options)
    posting to ``attack_url``."""
    r = _Render(c, context.get("csrf_token"))
    if not board.in_view:
        return mark_safe(f"<li>{_e(r.words['nobody'])}</li>")
    url = _e(attack_url)
    return mark_safe("".join([_line(r, p, url) for p in board.in_view]))  # values escaped


def _line(r: _Render, p, url: str) -> str:
    """One line of the list: the piece, its marks, its attacks' forms."""
    name, words, sheet = _e(p.name), r.words, p.ew1
    marks = (
        f'<small>{words["yours"]}</small>' if p.owner_id == r.c.owner_id else "",
        f'<small class="ally" data-testid="ally-{name}">{words["ally"]}</small>'
        if p.is_ally else "",
        f'<small>{words["protected"]}</small>' if sheet.is_protected else "")
    forms = "".join([_attack_form(r, p, name, url, a) for a in p.attack_kinds])
    return (
        f'\n          <li data-testid="in-view-{name}">{name} · {words["Level"]} '
        f"{r.text(sheet.level)} · PV {r.text(sheet.pv)}/{r.text(sheet.pv_max)} · "
        f"({r.text(p.x)}, {r.text(p.y)})\n            "
        + "\n            ".join(marks) + f"\n            {forms}\n          </li>\n        ")


def _attack_form(r: _Render, p, name: str, url: str, attack: tuple) -> str:
    """One attack's form of a line: ``attack`` is (kind, PA cost, chance to hit in %, refusal
    or None)."""
    kind, cost, odds, refused = attack
    words = r.words
    testid = f"attack-{name}" if kind == "brawl" else f"attack-{_e(kind)}-{name}"
    if p.friendly_fire_refused:
        title = f' disabled title="{words["ff off"]}"'
    elif refused:
        title = f' disabled title="{r.refusal(refused)}"'
    elif p.is_ally:
        title = f' title="{words["ff on"]}"'
    else:
        title = ""
    friendly = f' · {words["friendly fire"]}' if p.is_ally and not p.friendly_fire_refused else ""
    return (
        f'\n              <form method="post" action="{url}" hx-post="{url}" hx-target="#board" '
        f'hx-swap="outerHTML" class="inline">{r.csrf}\n                <input '
        f'type="hidden" name="target" value="{r.text(p.pk)}"><input type="hidden" name="kind" '
        f'value="{_e(kind)}">\n                <button type="submit" data-testid="{testid}"'
        f'{title}>{r.skill(kind)} ({r.text(cost)} PA, {r.text(odds)} %){friendly}'
        "</button>\n              </form>\n            ")
