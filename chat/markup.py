"""A message's text to HTML: markdown (markdown-it, raw HTML off: a tag written in a message
shows as text), then nh3 (an allow-list of tags and attributes, links made ``rel="noopener
noreferrer nofollow"``). Rendered once when the message is written and stored beside the text."""

from __future__ import annotations

from functools import lru_cache

import nh3
from django.utils.html import escape
from markdown_it import MarkdownIt

TAGS = frozenset({"p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li",
                  "a", "s", "del"})
ATTRIBUTES = {"a": {"href", "title"}}
SCHEMES = frozenset({"http", "https", "mailto"})


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # commonmark without raw HTML, with strikethrough; no images (nothing loaded from elsewhere)
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("strikethrough") \
        .disable("image")


def render(text: str) -> str:
    """Safe HTML of ``text`` (markdown); the text itself, escaped, when the markdown renders to
    nothing (a thematic break ``---``, a lone link definition): never an empty message."""
    html = _markdown().render(text)
    html = nh3.clean(html, tags=set(TAGS), attributes={k: set(v) for k, v in ATTRIBUTES.items()},
                     url_schemes=set(SCHEMES), link_rel="noopener noreferrer nofollow").strip()
    return html or f"<p>{escape(text)}</p>"
