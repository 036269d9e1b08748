"""Template helpers of the encounter pages."""

import math

from django import template
from django.utils import formats, timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

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


@register.simple_tag
def glance_html(g):
    """One combatant's state as the viewer may read it (encounters.glance.Glance ``g``): exact,
    its gauges and conditions as icons, each with its tooltip and its words for screen
    readers; described, the word alone. Built here rather than in a template: a row of the
    order shows one per combatant, and 50 rows of it cost more than the rest of the page
    (issue 21, item 9)."""
    parts: list[str] = [format_html('<span class="glance glance-{}" data-testid="glance" data-detail="{}" '
                         'data-level="{}">', g.detail, g.detail, g.level)]
    if g.exact:
        for m in g.meters:
            words = m.words
            bar = ""
            if m.maximum is not None:
                low, high = m.warn
                bar = format_html(
                    '<meter min="0" max="{}" value="{}" low="{}" high="{}" optimum="{}" '
                    'aria-hidden="true"></meter>', _number(m.maximum), _number(m.value),
                    _number(low), _number(high), "0" if m.worse_up else _number(m.maximum))
            value = _number(m.value) + ("" if m.maximum is None else "/" + _number(m.maximum))
            parts.append(format_html(
                '\n  <span class="meter meter-{}" data-testid="meter" data-key="{}" title="{}">'
                '<span class="icon" aria-hidden="true">{}</span>{}<span class="meter-value" '
                'aria-hidden="true">{}</span><span class="visually-hidden">{}</span></span>',
                m.key, m.key, words, m.glyph, bar, value, words))
        for m in g.marks:
            words = m.words
            parts.append(format_html(
                '\n  <span class="mark mark-{}" data-testid="mark" data-key="{}" title="{}">'
                '<span class="icon" aria-hidden="true">{}</span><span class="visually-hidden">'
                '{}</span></span>', m.key, m.key, words, m.glyph, words))
    else:
        label = g.level_label
        parts.append(format_html(
            '\n  <span class="mark mark-level level-{}" data-testid="level" title="{}">'
            '<span class="icon" aria-hidden="true">{}</span> {}</span>', g.level, label,
            g.glyph, label))
    parts.append("</span>\n")
    return mark_safe("".join(parts))  # every value escaped by format_html


# A combatant id no encounter reaches: its place in the row URLs reversed once per render
# (row_urls), filled in per row (row_url).
ROW_SENTINEL = "4611686018427387903"
ROW_ACTIONS = ("remove", "readd", "hide", "reveal", "defeated", "up")


def row_urls(encounter_id: int) -> dict[str, str]:
    """The URLs of the control page's forms of one row (``place`` and each of ROW_ACTIONS),
    with ROW_SENTINEL for the combatant's id: reversed once per render rather than five times
    per row (issue 21, item 9)."""
    from django.urls import reverse

    urls = {what: reverse("encounters:combatant", args=(encounter_id, ROW_SENTINEL, what))
            for what in ROW_ACTIONS}
    urls["place"] = reverse("encounters:place", args=(encounter_id, ROW_SENTINEL))
    return urls


@register.simple_tag(takes_context=True)
def row_url(context, combatant, what):
    """The URL of the form ``what`` (ROW_ACTIONS or "place") of ``combatant``'s row, from the
    context's ``row_urls`` (reversed here when the context has none)."""
    urls = context.get("row_urls")
    if urls is None:
        urls = row_urls(combatant.encounter_id)
    return urls[what].replace(ROW_SENTINEL, str(combatant.pk))


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
