"""The odds drawn (issue 21, item 3): the geometry of campaigns.charts, then the odds fragment's
inline SVG for a known attack (the bars as long as the exact chances, the histograms' columns
scaled to the most likely value, the text alternatives) in English and French; the form asks
again on every change; and the odds bench's requests go through."""

from __future__ import annotations

import re
from fractions import Fraction
from types import SimpleNamespace

import pytest
from django.urls import reverse

from campaigns import charts
from eclipse.acting import loaded_of
from eclipse.play_selectors import odds_for
from tests.eclipse_play.conftest import running
from tests.eclipse_play.test_pages import HTMX, _attack, _logged


def test_a_stacked_bar_is_as_long_as_each_chance():
    bar = charts.stacked_bar([("critical", "c", Fraction(1, 20)), ("hit", "h", Fraction(3, 8)),
                              ("defended", "d", Fraction(0)), ("miss", "m", Fraction(23, 40))])
    assert [(s.key, s.x, s.width, s.percent) for s in bar] == [
        ("critical", "0.000", "5.000", "5.0"), ("hit", "5.000", "37.500", "37.5"),
        ("miss", "42.500", "57.500", "57.5")]  # no segment for a 0 chance
    with pytest.raises(ValueError):
        charts.stacked_bar([("hit", "h", Fraction(3, 4)), ("miss", "m", Fraction(1, 2))])


def test_a_histogram_is_scaled_to_its_most_likely_value_and_keeps_gaps():
    chart = charts.histogram({2: Fraction(1, 4), 3: Fraction(1, 2), 5: Fraction(1, 4),
                              9: Fraction(0)})
    assert (chart.low, chart.high) == (2, 5)  # a 0 chance is not a value shown
    assert [(c.value, c.x, c.width, c.y, c.height) for c in chart.columns] == [
        (2, "0.000", "25.000", "20.000", "20.000"), (3, "25.000", "25.000", "0.000", "40.000"),
        (5, "75.000", "25.000", "20.000", "20.000")]  # 4 leaves its gap
    assert charts.histogram({0: Fraction(0)}) is None


def _rects(svg: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', r)) for r in re.findall(r"<rect [^>]*>", svg)]


def _svg(html: str, testid: str) -> list[str]:
    return re.findall(rf'<svg [^>]*data-testid="{testid}".*?</svg>', html, re.S)


def test_the_fragment_draws_the_exact_odds_of_a_known_attack(client, ep):
    e, c = running(ep)
    ctx = SimpleNamespace(encounter=e, combatant=c[ep.ava.pk], user=ep.alice)
    choices = {"weapon_id": ep.w.ava_pistol.pk, "mode": "SS", "range_band": "medium"}
    lines = odds_for(ctx, loaded_of(c[ep.ava.pk]), c[ep.guard.pk], choices)
    html = _logged(client, ep.alice).post(reverse("eclipse_play:odds", args=[e.pk]),
                                          _attack(e, c, ep), **HTMX).content.decode()
    bars = _svg(html, "odds-bar")
    assert len(bars) == len(lines) == 2  # no defence, dodge
    for line, svg in zip(lines, bars):
        o = line.odds
        expected = [(k, p) for k, p in (("critical", o.critical), ("hit", o.hit - o.critical),
                                        ("defended", o.defended), ("miss", o.miss)) if p]
        rects = _rects(svg)
        assert [r["class"] for r in rects] == [f"odds-{k}" for k, _ in expected]
        assert [float(r["width"]) for r in rects] == pytest.approx(
            [float(p) * 100 for _, p in expected], abs=0.0005)
        assert sum(float(r["width"]) for r in rects) == pytest.approx(100, abs=0.002)
        at = 0.0
        for r in rects:  # side by side, in order
            assert float(r["x"]) == pytest.approx(at, abs=0.002)
            at += float(r["width"])
        assert f"missed {charts.percent(o.miss)} %" in svg  # the label says it in words
    assert any(float(r["width"]) > 0 for r in _rects(bars[1]) if r["class"] == "odds-defended")
    for line, svg in zip(lines, _svg(html, "odds-damage-chart")):
        columns = {int(r["data-value"]): float(r["height"]) for r in _rects(svg)}
        through = {d: p for d, p in line.odds.damage.items() if d > 0}
        assert set(columns) == set(through)
        top = max(through.values())
        assert columns == pytest.approx({d: float(p / top) * 40 for d, p in through.items()},
                                        abs=0.0005)
        assert "<title>" in svg and 'role="img"' in svg
    for line, svg in zip(lines, _svg(html, "odds-wounds-chart")):
        assert {int(r["data-value"]) for r in _rects(svg)} == set(line.odds.wounds)
    assert 'style="' not in html  # the Content-Security-Policy allows no style attribute


def test_the_drawings_speak_french(client, ep):
    e, c = running(ep)
    html = _logged(client, ep.alice, "fr").post(reverse("eclipse_play:odds", args=[e.pk]),
                                                _attack(e, c, ep), **HTMX).content.decode()
    assert "critical hit" not in html and "coup critique" in html
    assert "dégâts qui passent" in html and "aucun dégât" in html


def test_the_odds_follow_the_form_as_it_changes(client, ep):
    e, _c = running(ep)
    html = _logged(client, ep.alice).get(reverse("encounters:play", args=[e.pk])).content.decode()
    button = re.search(r'<button [^>]*data-testid="odds-button"[^>]*>', html)[0]
    assert 'hx-trigger="click, change from:closest form delay:250ms"' in button
    assert 'id="ep-odds" data-testid="odds" aria-live="polite"' in html


@pytest.mark.django_db
def test_the_odds_bench_requests_go_through():
    """bench.odds's world and requests (two rounds of each series; no timing asserted)."""
    from django.test.utils import override_settings

    from bench import odds

    with override_settings(ROOT_URLCONF="bench.urls"):
        handler, url, data = odds.build()
        for cold in (False, True):
            timed, bare, ok = odds._series(handler, url, data, 2, cold)
            assert ok and len(timed) == len(bare) == 2
