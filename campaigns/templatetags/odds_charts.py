"""``{% load odds_charts %}``: the odds drawn as inline SVG (campaigns.charts' geometry).

``{% odds_bar segments %}`` a stacked bar of an attack's outcomes and its legend;
``{% odds_histogram chart label testid %}`` a histogram (``label``: what it counts, in the
reader's language); ``{% odds_values pairs %}`` the chances as text, "value: 12.5 %" each.

Built here rather than in a template: a histogram has a column per damage value, and the
template engine took longer to draw them than the odds took to compute. The numbers are the
charts' own strings (digits and a dot); every other text is escaped here. No style attribute
(the Content-Security-Policy allows none): the colours are classes of static/css/app.css. The
chances are text too: the drawing's aria-label, each part's <title>, the legend, the values.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from campaigns.charts import Histogram, Segment

register = template.Library()


@register.simple_tag
def odds_bar(segments: list[Segment]) -> SafeString:
    labels = [(s, escape(s.label)) for s in segments]
    rects = "".join(
        f'<rect class="odds-{s.key}" x="{s.x}" y="0" width="{s.width}" height="6" '
        f'data-testid="odds-bar-{s.key}"><title>{label}: {s.percent} %</title></rect>'
        for s, label in labels)
    legend = "".join(f'<span class="swatch-{s.key}">{label} {s.percent} %</span>'
                     for s, label in labels)
    aria = ", ".join(f"{label} {s.percent} %" for s, label in labels)
    return mark_safe(  # safe: the labels escaped above, the rest our own strings
        '<svg class="odds-chart odds-bar" viewBox="0 0 100 6" preserveAspectRatio="none" '
        f'role="img" data-testid="odds-bar" aria-label="{aria}">{rects}</svg>'
        f'<p class="odds-legend">{legend}</p>')


@register.simple_tag
def odds_histogram(chart: Histogram | None, label: str, testid: str) -> SafeString:
    if chart is None:
        return SafeString("")
    columns = "".join(
        f'<rect class="odds-column" x="{c.x}" y="{c.y}" width="{c.width}" height="{c.height}" '
        f'data-value="{c.value}"><title>{c.value}: {c.percent} %</title></rect>'
        for c in chart.columns)
    aria = escape(gettext("%(label)s, from %(low)s to %(high)s") % {
        "label": label, "low": chart.low, "high": chart.high})
    return mark_safe(  # safe: the label and the test id escaped, the rest numbers
        f'<svg class="odds-chart odds-histogram" viewBox="0 0 {chart.width} {chart.height}" '
        f'preserveAspectRatio="none" role="img" data-testid="{escape(testid)}" '
        f'aria-label="{aria}">{columns}</svg>'
        f'<p class="odds-axis" aria-hidden="true"><span>{chart.low}</span>'
        f'<span>{chart.high}</span></p>')


@register.simple_tag
def odds_values(pairs: list[tuple[int, str]]) -> SafeString:
    """"value: chance %" for each (int, percent string), separated by middle dots."""
    return mark_safe(" · ".join(f"<span>{int(v)}: {escape(p)} %</span>" for v, p in pairs))  # safe: escaped
