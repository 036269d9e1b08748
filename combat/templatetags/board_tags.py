"""Template helpers of the Eternal War One II board (combat/_board.html)."""

from django import template
from django.utils import formats
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

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
    return conditional_escape(formats.localize(value))


def _token(p) -> str:
    """combat/_token.html's drawing of piece ``p``: its initials, its PV bar, its shield."""
    gauge = ("" if p.token_gauge is None else format_html(
        '<rect class="token-gauge-bg" x="-14" y="13" width="28" height="4"/><rect '
        'class="token-gauge" x="-14" y="13" width="{}" height="4" data-testid="token-gauge"/>',
        _text(p.token_gauge)))
    shield = '<circle class="token-effect" cx="11" cy="-11" r="4"/>' if p.ew1.is_protected else ""
    return format_html(
        '<svg class="token-svg" viewBox="-17 -17 34 34" aria-hidden="true" focusable="false">'
        '<circle class="token-body" r="14"/><text class="token-initials" y="4">{}</text>{}{}'
        '</svg>\n', p.token_initials, gauge, mark_safe(shield))


@register.simple_tag
def board_cell(cell, c, piece_url):
    """One cell of the board (``cell``: ew1.selectors.Cell) as ``c``'s board draws it: a piece's
    token (``c`` itself, or a link to the piece's action menu at ``piece_url``), else the
    button that walks there, with its path, cost and refusal. Built here rather than in the
    template: a board of 200 pieces in view draws some 400 cells, and their template was most
    of the page's cost (issue 21, item 9); the output is the template's, byte for byte."""
    p = cell.piece
    x, y = _text(cell.x), _text(cell.y)
    if p is not None:
        if p.pk == c.pk:
            side = " me"
        elif p.owner_id == c.owner_id:
            side = " mine"
        else:
            side = format_html(" other kind-{}", p.kind)
        classes = "cell" + side + (" ally" if getattr(p, "is_ally", False) else "")
    else:
        classes = "cell blocked" if cell.refusal else "cell"
    walk = ""
    if p is None and not cell.refusal:
        walk = format_html(' data-path="{}" data-cost="{}" data-steps="{}"', cell.path,
                           _text(cell.cost), _text(cell.steps))
    inner = _piece(p, c, cell, piece_url) if p is not None else _walk(cell, x, y)
    return format_html('\n          <td class="{}" data-x="{}" data-y="{}"{}>\n            {}\n'
                       '          </td>\n        ', mark_safe(classes), mark_safe(x),
                       mark_safe(y), walk, inner)


def _piece(p, c, cell, piece_url: str) -> str:
    """A piece's cell: ``c`` itself, or a link to the piece's action menu."""
    x, y = _text(cell.x), _text(cell.y)
    if p.pk == c.pk:
        label = gettext("You, %(name)s, at (%(x)s, %(y)s), %(pv)s of %(max)s PV") % {
            "name": conditional_escape(p.name), "x": x, "y": y, "pv": _text(p.ew1.pv),
            "max": _text(p.ew1.pv_max)}
        return format_html(
            '<span class="piece token token-{}" data-cell-control tabindex="0" role="img" '
            'data-testid="token-me" aria-label="{}">{}</span>\n            \n            ',
            p.token_side, mark_safe(label), _token(p))
    away = ngettext("at (%(x)s, %(y)s), %(n)s cell away",
                    "at (%(x)s, %(y)s), %(n)s cells away", cell.distance) % {
        "n": _text(cell.distance), "x": x, "y": y}
    if p.token_side == "mine":
        whose = ", " + gettext("yours")
    elif getattr(p, "is_ally", False):
        whose = ", " + gettext("ally")
    else:
        whose = ""
    pv = ("" if p.token_gauge is None
          else f", {_text(p.ew1.pv)}/{_text(p.ew1.pv_max)} PV")
    return format_html(
        '<a class="piece token token-{side}" data-cell-control tabindex="-1" '
        'href="{url}?target={pk}" hx-get="{url}?target={pk}" hx-target="#board-menu" '
        'hx-swap="innerHTML" data-testid="token-{name}" data-piece="{pk}"\n'
        '                 >{token}<span class="visually-hidden">{name} ({kind}{whose}), '
        '{away}{pv}: {actions}</span></a>\n            ',
        side=p.token_side, url=piece_url, pk=_text(p.pk), name=p.name,
        token=_token(p), kind=_kind(p), whose=whose,
        away=mark_safe(away), pv=mark_safe(pv),
        actions=gettext("actions"))


def _walk(cell, x: str, y: str) -> str:
    """A free cell's button: the walk there, or why it would be refused."""
    refused: str
    if cell.refusal:
        why = error_message(cell.refusal)
        refused = format_html(' aria-disabled="true" data-refusal="{}"', why)
        label = format_html("({}, {}): {}", mark_safe(x), mark_safe(y), why)
    else:
        refused = ""
        label = mark_safe(ngettext(
            "Walk to (%(x)s, %(y)s): %(n)s cell, %(cost)s PA",
            "Walk to (%(x)s, %(y)s): %(n)s cells, %(cost)s PA", cell.steps) % {
            "n": _text(cell.steps), "x": x, "y": y, "cost": _text(cell.cost)})
    return format_html(
        '<button type="submit" form="board-move" name="to" value="{},{}" class="cell-go" '
        'data-cell-control tabindex="-1"{}\n                 aria-label="{}"><span '
        'class="cell-cost" aria-hidden="true"></span></button>', mark_safe(x),
        mark_safe(y), refused, label)
