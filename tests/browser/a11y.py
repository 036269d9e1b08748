"""What the accessibility and narrow-screen checks share: axe-core injected into the page under
test (never served by the app: static/vendor/axe-core/VERSION.md) and a word-break probe.

``axe_violations(page)`` -> [{"id", "impact", "help", "targets"}] of the critical and serious
violations axe-core finds on the page as it is. The page's context needs ``bypass_csp=True``: the
script is injected inline, which the app's Content-Security-Policy refuses (as it should).

``broken_words(page)`` -> ["<tag>: <word>"] of each word of a header, label, button or heading
whose letters the layout put on two lines ("Initia / tive"): a word's Range has client rects on
more than one line."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings

AXE = Path(settings.BASE_DIR) / "static" / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"  # 4.14.1
BLOCKING = ("critical", "serious")

_RUN_AXE = """async (impacts) => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.filter(v => impacts.includes(v.impact)).map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 5).map(n => n.target.join(" "))}));
}"""

_BROKEN_WORDS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;  // not displayed
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(el.tagName.toLowerCase() + ": " + m[0]);
      }
    }
  }
  return out;
}"""
WORDS_IN = "th, td, label, summary, button, legend, caption, dt, h1, h2, h3, h4, nav a, abbr"


def axe_violations(page) -> list[dict]:
    """The page's critical and serious axe-core violations (axe-core injected first)."""
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256, "axe.min.js changed"
    if not page.evaluate("() => window.axe !== undefined"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN_AXE, list(BLOCKING))


def broken_words(page) -> list[str]:
    """Each word of a header, label, button or heading broken across two lines."""
    return page.evaluate(_BROKEN_WORDS, WORDS_IN)
