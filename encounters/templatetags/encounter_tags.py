"""Template helpers of the encounter pages."""

import functools
import html
import math

from django import template
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from campaigns import charts
from campaigns.models import RollGrade

register = template.Library()


@register.filter
def sheet_of(character, view):
    """The character's rule-system sheet (``view.spec.sheet_related_name``), or None."""
    name = getattr(view.spec, "sheet_related_name", "")
    return getattr(character, name, None) if character is not None and name else None


@register.filter
def glance_of(combatant, view):
    """What ``view``'s viewer reads of ``combatant``'s state (encounters.glance.Glance), or
    None."""
    return view.glances.get(combatant.pk)


@register.filter
def option_label(key, view):
    """A reaction option's label from the rule system's ``action_labels``."""
    return view.label(key)


@register.filter
def seconds_until(moment):
    """Whole seconds (rounded up, at least 1) from now until ``moment``, or "" without one: the
    delay after which a page fetches itself again so that a prompt past its deadline is
    defaulted on time (views._poll) even while no step is pushed."""
    if moment is None:
        return ""
    return max(1, math.ceil((moment - timezone.now()).total_seconds()))


@register.filter
def prompt_of(reaction, view):
    """What ``reaction`` says of its attack (encounters.hooks.PromptDetails), or None."""
    return view.prompts.get(reaction.pk)


@register.filter
def defence_of(details, key):
    """The DefenceOdds of the answer ``key`` in ``details`` (a PromptDetails), or None."""
    if details is None:
        return None
    return next((d for d in details.defences if d.key == key), None)


@register.filter
def percent_text(chance):
    """A chance (a Fraction) in percent with one decimal, as the odds' tables write it."""
    return charts.percent(chance)


@register.filter
def grade_label(code):
    """A d100 grade's label in the reader's language (campaigns.models.RollGrade)."""
    try:
        return RollGrade(code).label
    except ValueError:
        return code


@register.simple_tag
def chance_bar(chance):
    """A chance drawn as a bar (inline SVG, classes for the colours: no style attribute, the
    Content-Security-Policy allows none): the part that succeeds, on the rest's ground."""
    width = f"{float(chance) * charts.WIDTH:.3f}"
    label = escape(gettext("%(p)s %% to succeed") % {"p": charts.percent(chance)})
    return mark_safe(  # the label escaped, the rest numbers
        '<svg class="odds-chart odds-bar chance-bar" viewBox="0 0 100 6" '
        f'preserveAspectRatio="none" role="img" aria-label="{label}" data-testid="chance-bar">'
        f'<rect class="odds-defended" x="0" y="0" width="{width}" height="6"></rect></svg>')


def _number(value) -> str:
    """``value`` as ``{{ value }}`` writes it: an int as is (no thousand separator is set),
    anything else localized."""
    return str(value) if type(value) is int else str(formats.localize(value))


def _e(value) -> str:
    """``value`` escaped as ``{{ value }}`` escapes it (django.utils.html.conditional_escape,
    without its lazy-string wrapper: the rows call it some thousand times a page)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


@register.simple_tag
def glance_html(g):
    """One combatant's state as the viewer may read it (encounters.glance.Glance ``g``): exact,
    its gauges and conditions as icons, each with its tooltip and its words for screen
    readers; described, the word alone. Built here rather than in a template: a row of the
    order shows one per combatant, and 50 rows of it cost more than the rest of the page
    (issue 21, item 9)."""
    parts = [f'<span class="glance glance-{_e(g.detail)}" data-testid="glance" '
             f'data-detail="{_e(g.detail)}" data-level="{_e(g.level)}">']
    if g.exact:
        for m in g.meters:
            words, key = _e(m.words), _e(m.key)
            bar = ""
            if m.maximum is not None:
                low, high = m.warn
                optimum = "0" if m.worse_up else _e(_number(m.maximum))
                bar = (f'<meter min="0" max="{_e(_number(m.maximum))}" '
                       f'value="{_e(_number(m.value))}" low="{_e(_number(low))}" '
                       f'high="{_e(_number(high))}" optimum="{optimum}" '
                       'aria-hidden="true"></meter>')
            value = _number(m.value) + ("" if m.maximum is None else "/" + _number(m.maximum))
            parts.append(
                f'\n  <span class="meter meter-{key}" data-testid="meter" data-key="{key}" '
                f'title="{words}"><span class="icon" aria-hidden="true">{_e(m.glyph)}</span>'
                f'{bar}<span class="meter-value" aria-hidden="true">{_e(value)}</span>'
                f'<span class="visually-hidden">{words}</span></span>')
        for m in g.marks:
            words, key = _e(m.words), _e(m.key)
            parts.append(
                f'\n  <span class="mark mark-{key}" data-testid="mark" data-key="{key}" '
                f'title="{words}"><span class="icon" aria-hidden="true">{_e(m.glyph)}</span>'
                f'<span class="visually-hidden">{words}</span></span>')
    else:
        label, level = _e(g.level_label), _e(g.level)
        parts.append(
            f'\n  <span class="mark mark-level level-{level}" data-testid="level" '
            f'title="{label}"><span class="icon" aria-hidden="true">{_e(g.glyph)}</span> '
            f'{label}</span>')
    parts.append("</span>\n")
    return mark_safe("".join(parts))  # every value escaped (_e)


# A combatant id no encounter reaches: its place in the row URLs reversed once per render
# (row_urls), filled in per row (order_row).
ROW_SENTINEL = "4611686018427387903"
ROW_ACTIONS = ("remove", "readd", "hide", "reveal", "defeated", "up")


def row_urls(encounter_id: int) -> dict[str, str]:
    """The URLs of the control page's row actions (``place`` and each of ROW_ACTIONS), with
    ROW_SENTINEL for the combatant's id: reversed once per render rather than five times per
    row (issue 21, item 9)."""
    from django.urls import reverse

    urls = {what: reverse("encounters:combatant", args=(encounter_id, ROW_SENTINEL, what))
            for what in ROW_ACTIONS}
    urls["place"] = reverse("encounters:place", args=(encounter_id, ROW_SENTINEL))
    return urls


@functools.lru_cache(maxsize=16)
def _row_words(language: str | None) -> dict[str, str]:
    """The words of every row, in ``language`` (the active one: translated once, not per row).
    Translations are written as is, as ``{% translate %}`` writes them."""
    return {
        "order number": gettext("order number"), "Place": gettext("Place"),
        "hidden": gettext("hidden"), "surprised": gettext("surprised"),
        "defeated": gettext("defeated"), "out": gettext("out of the encounter"),
        "joined": gettext("joined in round %(n)s"), "turns": gettext("%(n)s turns a round"),
        "tiebreak": gettext("tie: tie-breaker"), "position": gettext("tie: entry order"),
        "added": gettext("tie: added first"), "tie broken by": gettext("tie broken by"),
        **{label: gettext(label) for _what, label in (READD, REMOVE, *(
            pair for _flag, *pairs in SWITCHES for pair in pairs))}}


def _small(words: str) -> str:
    """``words``: a translation, written as is (as ``{% translate %}`` writes it)."""
    return f"<small>({words})</small>"


@register.simple_tag(takes_context=True)
def order_row(context, c, n):
    """One row of the order (parts/_order.html; alone, out of band, in a step's answer:
    encounters.pages._changes), ``n`` its place: the combatant's name and marks, initiative,
    state and position, and on the control page (``editing``: an encounter not ended) its
    order number, its position's form and the switches. One form a row, the position's: the
    switches are its buttons, each posting to its own URL (``formaction``), so that the
    CSRF token is written once a row. Built here rather than in a template, like
    glance_html: 50 rows of a template were most of the page's cost (issue 21, item 9)."""
    view, words = context["view"], _row_words(translation.get_language())
    editing = context.get("editing")
    current = c.pk == view.current_id
    classes = ("current" if current else "") + (" defeated" if c.defeated else "") + (
        " removed" if c.removed else "")
    if editing and not c.removed:
        order = (f'<input form="order-form" name="pos-{c.pk}" value="{_e(n)}" size="2" '
                 f'inputmode="numeric" aria-label="{words["order number"]}">')
    elif c.rank is not None and not c.removed:
        order = str(c.rank + 1)
    else:
        order = ""
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    drag = ' data-draggable="1"' if editing and not c.removed else ""
    return mark_safe(  # every value escaped (_e)
        f'\n        <tr id="enc-row-{c.pk}"{oob} data-testid="combatant" '
        f'data-name="{_e(c.name)}"{drag} class="{classes}">\n'
        f"          <td>{order}</td>\n          <td>{_who(c, current, words)}</td>\n"
        f"          <td>{_initiative(c, words)}</td>\n"
        f'          <td data-testid="state">{_state(context, view, c)}</td>\n'
        f'          <td data-testid="position">{_position(context, c, editing, words)}</td>\n'
        f"          <td>{_switches(context, c, editing, words)}</td>\n        </tr>\n")


def _who(c, current: bool, words: dict[str, str]) -> str:
    """The name cell: the turn's mark, the portrait, the name and what is true of it."""
    from encounters.ground import portrait_of

    portrait = portrait_of(c)
    marks = (
        _small(words["hidden"]) if c.hidden else "",
        _small(words["surprised"]) if c.surprised else "",
        _small(words["defeated"]) if c.defeated else "",
        _small(words["out"]) if c.removed else "",
        _small(words["joined"] % {"n": _number(c.joined_round)}) if c.joined_round > 1 else "",
        _small(words["turns"] % {"n": _number(c.turns_per_round)})
        if c.turns_per_round > 1 else "")
    img = (f'<img class="chip-portrait" src="{_e(portrait)}" alt="" width="16" height="16" '
           'data-testid="row-portrait"> ') if portrait else ""
    return (f"{'▶ ' if current else ''}{img}{_e(c.name)}\n            "
            + "\n            ".join(marks))


def _initiative(c, words: dict[str, str]) -> str:
    shown = "" if c.initiative is None else _e(_number(c.initiative))
    if not c.tie:
        return shown
    tie = words[c.tie if c.tie in ("tiebreak", "position") else "added"]
    return f'{shown} <small title="{words["tie broken by"]}">{tie}</small>'


def _state(context, view, c) -> str:
    """The state cell: the glance (encounters.glance) when the system gives one, else the
    system's gauges partial for whom the viewer may read (the GM, the viewer's own)."""
    if view.has_states:
        g = view.glances.get(c.pk)
        return glance_html(g) if g else ""
    partial = view.spec.templates.gauges if view.spec is not None else None
    if not (partial and ((c.character and view.gm) or c.pk in view.mine)):
        return ""
    s = sheet_of(c.character, view)
    if not s:
        return ""
    with context.push(c=c.character, s=s):
        return context.template.engine.get_template(partial).render(context)


def _position(context, c, editing, words: dict[str, str]) -> str:
    """The position cell: the GM's form (the row's one form), else the position if any."""
    if not editing:
        return "" if c.x is None else f"({_e(_number(c.x))}, {_e(_number(c.y))})"
    url = _row_url(context, c, "place")
    x = "" if c.x is None else _e(_number(c.x))
    y = "" if c.y is None else _e(_number(c.y))
    return (f'<form id="row-{c.pk}" method="post" action="{url}" hx-post="{url}" '
            f'hx-target="#encounter" hx-swap="outerHTML" class="inline">{_csrf(context)}'
            '<input type="hidden" name="page" value="control">'
            f'<input name="x" value="{x}" size="5" inputmode="decimal" aria-label="x (m)"> '
            f'<input name="y" value="{y}" size="5" inputmode="decimal" aria-label="y (m)"> '
            f'<button type="submit" data-testid="place">{words["Place"]}</button></form>')


def _csrf(context) -> str:
    """What ``{% csrf_token %}`` writes (the cached body's hole: encounters.pages)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'


# The row's switches: (what, its label) for a combatant out of the encounter; else the
# removal, then for each flag (when set, when not).
READD = ("readd", gettext_noop("Re-add"))
REMOVE = ("remove", gettext_noop("Remove"))
SWITCHES = (("hidden", ("reveal", gettext_noop("Reveal")), ("hide", gettext_noop("Hide"))),
            ("defeated", ("up", gettext_noop("Back up")), ("defeated", gettext_noop("Defeated"))))


def _switches(context, c, editing, words: dict[str, str]) -> str:
    """The switches of the control page's row: buttons of the row's form (``form``), each
    posting to its own URL (``formaction``)."""
    if not editing:
        return ""
    chosen = [READD] if c.removed else [REMOVE] + [
        on if getattr(c, flag) else off for flag, on, off in SWITCHES]
    buttons = " ".join(
        f'<button type="submit" form="row-{c.pk}" formaction="{_row_url(context, c, what)}" '
        f'data-testid="{what}-{c.pk}">{words[label]}</button>' for what, label in chosen)
    return f"\n            {buttons}\n            "


def _row_url(context, c, what: str) -> str:
    """The URL of the action ``what`` (ROW_ACTIONS or "place") of ``c``'s row, escaped, from
    the context's ``row_urls`` (reversed here once when the context has none)."""
    urls = context.get("row_urls")
    if urls is None:
        urls = context["row_urls"] = row_urls(c.encounter_id)
    return _e(urls[what].replace(ROW_SENTINEL, str(c.pk)))


@register.filter
def portrait_choices(view):
    """The combatants in play whose portrait this viewer may give (the GM: every one with a
    character; a player: their own), placed or not, for the portrait form
    (encounters.pictures)."""
    return [c for c in view.combatants if c.character_id is not None and not c.removed
            and (view.gm or c.pk in view.mine)]


@register.simple_tag
def background_default_m():
    """A new background's width on the ground, in metres (encounters.pictures)."""
    from encounters.pictures import DEFAULT_BACKGROUND_WIDTH_M

    return DEFAULT_BACKGROUND_WIDTH_M


@register.simple_tag
def background_most_m():
    """The widest background on the ground, in metres (encounters.pictures)."""
    from encounters.pictures import MAX_BACKGROUND_WIDTH_M

    return MAX_BACKGROUND_WIDTH_M


@register.simple_tag
def portrait_kb():
    """The largest portrait sent, in KB (settings.PORTRAIT_MAX_BYTES)."""
    from django.conf import settings

    return settings.PORTRAIT_MAX_BYTES // 1024


@register.filter
def portrait_url(combatant) -> str:
    """The address of ``combatant``'s character's portrait, "" without one (the order's row
    shows it beside the name, as the map's token does: encounters.ground)."""
    from encounters.ground import portrait_of

    return portrait_of(combatant)


@register.simple_tag
def name_options(items, leave_out=None):
    """``<option value="<pk>"><name></option>`` for each of ``items`` (combatants or
    characters) but the one whose pk is ``leave_out``: the control page's selects list every
    combatant, some of them twice (issue 21, item 9)."""
    return mark_safe("".join(  # every value escaped (_e)
        f'<option value="{_e(_number(i.pk))}">{_e(i.name)}</option>' for i in items
        if leave_out is None or i.pk != leave_out))
