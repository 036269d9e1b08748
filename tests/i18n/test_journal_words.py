"""Every journal kind of every rule system reads as words, in English and in French (issue 19,
item 5).

The kinds come from the code: each app declares the kinds it writes
(campaigns.journal.register_kinds; journaling a kind nobody declared raises under the test
settings, and a kind named in the source but not declared fails below). A world per system
(tests/i18n/journal_worlds.py) plays every declared kind of that system through the services
with seeded dice; every page that shows its journal (each character's page, the encounter's
page for the GM and for a player) is read in both languages. Each entry must read as words: no
snake_case identifier, no stored code left raw (a grade, a reaction, a posture...), no entry
the templates could not tell (``log-unknown``), and every declared kind shown at least once."""

from __future__ import annotations

import ast
import os
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings

from campaigns import journal, rule_systems
from campaigns.models import ActionRecord
from gamerules.d100 import Grade
from tests.i18n import journal_worlds

pytestmark = pytest.mark.django_db

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
# Stored codes that are English words: left raw on a French page they show as English.
RAW_IN_FRENCH = {g.value for g in Grade} | {
    "parry", "dodge", "none", "defensive", "physical", "magical", "short", "medium", "long",
    "walk", "run", "quick", "complex", "success", "failure", "damage", "rest",
    "psychosurgery", "hit", "miss", "reaction", "move"}


class _Entries(HTMLParser):
    """The journal entries of a page: each ``<li class="log-<kind>">`` with its html and its
    text (nested lists included)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.entries: list[dict] = []
        self._depth = 0
        self._current: dict | None = None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self._current is None and tag == "li" and any(
                c.startswith("log-") for c in classes):
            kind = next(c[4:] for c in classes if c.startswith("log-"))
            self._current = {"kind": kind, "html": "", "text": ""}
            self._depth = 1
            return
        if self._current is not None:
            self._current["html"] += self.get_starttag_text() or ""
            if tag == "li":
                self._depth += 1

    def handle_endtag(self, tag):
        if self._current is None:
            return
        if tag == "li":
            self._depth -= 1
            if self._depth == 0:
                self.entries.append(self._current)
                self._current = None
                return
        self._current["html"] += f"</{tag}>"
        self._current["text"] += " "

    def handle_data(self, data):
        if self._current is not None:
            self._current["html"] += data
            self._current["text"] += data

    def handle_entityref(self, name):
        self.handle_data(unescape(f"&{name};"))

    def handle_charref(self, name):
        self.handle_data(unescape(f"&#{name};"))


def entries_of(html: str) -> list[dict]:
    parser = _Entries()
    parser.feed(html)
    for e in parser.entries:
        e["text"] = re.sub(r"\s+", " ", e["text"]).strip()
    return parser.entries


def read(client, world, lang: str) -> list[dict]:
    seen = []
    for url, user in world.pages:
        client.force_login(user)
        client.cookies["django_language"] = lang
        response = client.get(url)
        assert response.status_code == 200, url
        seen += [{**e, "url": url} for e in entries_of(response.content.decode())]
    return seen


def problems(entry: dict, lang: str) -> list[str]:
    found = []
    text = entry["text"]
    if "log-unknown" in entry["html"]:
        found.append("not rendered")
    found += [f"code {m!r}" for m in SNAKE.findall(text)]
    if lang == "fr":
        found += [f"raw {w!r}" for w in re.findall(r"[A-Za-z]+", text) if w in RAW_IN_FRENCH]
    return found


@pytest.fixture(autouse=True)
def _whole_journal(monkeypatch):
    """Pages show the latest 20 entries; here every entry of the world."""
    from characters import selectors
    from encounters import selectors as encounter_selectors

    real = selectors.recent_actions
    monkeypatch.setattr(selectors, "recent_actions",
                        lambda character, size=500, **kw: real(character, size, **kw))
    monkeypatch.setattr(encounter_selectors, "LOG_SIZE", 500)


WORLDS = {"ew1": journal_worlds.ew1_world, "homebrew": journal_worlds.homebrew_world,
          "eclipse_phase": journal_worlds.eclipse_world}


@pytest.mark.parametrize("system", sorted(WORLDS))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_kind_reads_as_words(client, alice, bob, system, lang):
    spec = rule_systems.require(system)
    world = journal_worlds.chat_played(WORLDS[system](alice, bob))
    declared = journal.kinds_for(system, spec.play_mode)
    written = set(ActionRecord.objects.filter(campaign=world.campaign)
                  .values_list("kind", flat=True))
    assert declared - written == set(), "declared kinds the world does not play"
    seen = read(client, world, lang)
    if os.environ.get("JOURNAL_DUMP"):  # to read them all: JOURNAL_DUMP=1 pytest -s
        print("\n".join(sorted({f"{e['kind']}: {e['text']}" for e in seen})))
    assert declared - {e["kind"] for e in seen} == set(), "kinds no page shows"
    bad = {f"{e['kind']}: {p} in {e['text']!r}" for e in seen if (p := problems(e, lang))}
    assert not bad, "\n".join(sorted(bad))


def test_every_kind_the_source_names_is_declared():
    """The kinds the apps' code journals (a literal or a KIND_ constant given as ``kind`` to
    record_action or a reaction outcome, or to the small ``_journal`` helpers) are declared."""
    named = set()
    for app in ("campaigns", "characters", "combat", "ew1", "factions", "magic", "encounters",
                "homebrew", "eclipse", "chat"):
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text())
            constants = {t.id: v.value for node in ast.walk(tree)
                         if isinstance(node, ast.Assign)
                         for t, v in _pairs(node) if isinstance(t, ast.Name)
                         and t.id.startswith("KIND_") and isinstance(v, ast.Constant)}
            named |= set(constants.values())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _callee(node) in (
                        "record_action", "ReactionOutcome", "ActionRecord", "_journal", "outcome_write"):
                    args = [k.value for k in node.keywords if k.arg == "kind"]
                    if _callee(node) == "_journal" and len(node.args) > 1:
                        args.append(node.args[1])
                    for arg in args:
                        named |= _strings(arg)
    assert named, "no kind found: the scan is broken"
    assert named - set(journal.declared_kinds()) == set()


def _pairs(node: ast.Assign):
    for target in node.targets:
        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            yield from zip(target.elts, node.value.elts)
        else:
            yield target, node.value


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def _strings(node) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()
