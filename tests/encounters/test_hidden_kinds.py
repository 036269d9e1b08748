"""Nothing hidden reaches a player, by any road (issue 17, item 3): every kind of journal entry
each system writes in an encounter (encounters.hooks.journal_kinds), played with several
combatants in it (tests/encounters/hidden_worlds.py), read as a player with each of them hidden
in turn through the page, its htmx fragment, the API (the encounter's, and Eclipse Phase's
TACNet panel): neither its name, its id, its place in the order, its rolls nor its position
appear; the GM sees it all; once revealed the player reads its past entries. Then the roads
that are not the journal: the event stream's payloads, the odds, the steps that name a
combatant (a hidden one answers as a wrong id), a player's own step answer.

The list of kinds is the registry's, and the registry is checked against the code: every
``KIND_*`` constant and literal journal kind of the encounter-playing apps is either a
registered encounter kind (and then played in a world here) or one journaled outside any
encounter's log (``OUTSIDE``)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from campaigns.models import ActionRecord, RollRecord
from encounters import hooks
from encounters import services as enc
from tests.encounters.hidden_worlds import eclipse_world, homebrew_world
from tests.encounters.test_api import client_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("homebrew", "eclipse_phase")
# Kinds journaled outside any encounter's log (no summary["encounter"]): a character's
# creation, tests, rests, gear, healing, stress... shown on the character's page.
OUTSIDE = frozenset({
    "homebrew_create", "homebrew_test", "homebrew_reaction", "homebrew_rest", "homebrew_fumble",
    "eclipse_create", "eclipse_resleeve", "eclipse_equip", "eclipse_unequip", "eclipse_heal",
    "eclipse_recover", "eclipse_moxie", "eclipse_stress"})
CASES = [(system, kind) for system in SYSTEMS for kind in sorted(hooks.journal_kinds(system))]
ID_KEYS = ("target_id", "combatant_id", "centre_combatant", "opponent")
ID_LISTS = ("order", "others", "roll_about", "mine")


def _world(system, alice, bob):
    if system == "homebrew":
        from tests.homebrew.conftest import build_world

        return homebrew_world(build_world(alice, bob))
    from tests.eclipse_play.conftest import build_world

    return eclipse_world(build_world(alice, bob))


# --- the registry against the code --------------------------------------------------------

def _written_kinds() -> set[str]:
    """Every journal kind the encounter-playing apps name: ``KIND_*`` constants and literal
    ``kind=`` arguments of record_action and ReactionOutcome."""
    kinds: set[str] = set()
    for app in ("encounters", "homebrew", "eclipse"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Assign):
                    names = [t for target in node.targets for t in (
                        target.elts if isinstance(target, ast.Tuple) else [target])]
                    values = node.value.elts if isinstance(node.value, ast.Tuple) \
                        else [node.value]
                    for name, value in zip(names, values):
                        if isinstance(name, ast.Name) and re.match(r"KIND_[A-Z_]+$", name.id) \
                                and isinstance(value, ast.Constant) \
                                and isinstance(value.value, str):
                            kinds.add(value.value)
                elif isinstance(node, ast.Call):
                    called = getattr(node.func, "id", getattr(node.func, "attr", ""))
                    if called in ("record_action", "ReactionOutcome"):
                        kinds |= {k.value.value for k in node.keywords if k.arg == "kind"
                                  and isinstance(k.value, ast.Constant)}
    return kinds


def test_every_kind_written_is_registered_or_journaled_outside_encounters():
    registered = set().union(*(hooks.journal_kinds(s) for s in SYSTEMS))
    assert not registered & OUTSIDE
    assert _written_kinds() == registered | OUTSIDE


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_world_journals_every_registered_kind_and_only_them(system, alice, bob):
    w = _world(system, alice, bob)
    kinds = set(ActionRecord.objects.filter(summary__encounter=w.e.pk)
                .values_list("kind", flat=True))
    assert kinds == hooks.journal_kinds(system)
    assert ActionRecord.objects.filter(summary__encounter=w.e.pk).count() <= 20  # one page


# --- reading it ---------------------------------------------------------------------------

def _api(user, w) -> dict:
    r = client_for(user).get(f"/api/encounters/{w.e.pk}/")
    assert r.status_code == 200
    return r.json()


def _pages(client, user, w, page="play") -> list[str]:
    client.force_login(user)
    url = f"/encounters/{w.e.pk}/" if page == "play" else f"/encounters/{w.e.pk}/control/"
    out = []
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        r = client.get(url, **headers)
        assert r.status_code == 200
        out.append(r.content.decode())
    return out


def _tacnet(user, w) -> dict:
    r = client_for(user).get(f"/api/eclipse/encounters/{w.e.pk}/tacnet/")
    assert r.status_code == 200
    return r.json()


def _named(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _walk(value, key=None):
    """(key, value) of every leaf and list in ``value``."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from _walk(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, key)


def _mentions(entry: dict, x) -> bool:
    """Whether an API log entry (as the GM reads it) has combatant ``x`` in it."""
    refs = [entry.get("actor") or {}, entry.get("target") or {}]
    return _named(_dump(entry["summary"]), x.name) or any(
        r.get("id") == x.character_id and x.character_id for r in refs) or any(
        k in ID_LISTS and isinstance(v, list) and x.pk in v for k, v in _walk(entry["summary"]))


def _acts(entry: dict, x) -> bool:
    """Whether ``x`` is the actor of an API log entry."""
    actor = entry.get("actor") or {}
    return (bool(x.character_id) and actor.get("id") == x.character_id) or \
        entry["summary"].get("combatant") == x.name


def _expected_rolls(entry: dict, x) -> int:
    """How many of a journal entry's rolls a player may read with ``x`` hidden: none made by
    it, none about it (the summary's roll_about), none of an entry whose target it is when
    the summary does not say whom each roll is about."""
    action = ActionRecord.objects.get(pk=entry["id"])
    rolls = list(RollRecord.objects.filter(action=action).order_by("id"))
    about = action.summary.get("roll_about")
    if about is None:
        if action.target_id and action.target_id == x.character_id:
            return 0
        about = [None] * len(rolls)
    return sum(1 for r, who in zip(rolls, about)
               if who != x.pk and (r.actor_id is None or r.actor_id != x.character_id))


def _check_player(client, w, x, kind, gm_entries) -> None:
    reader = w.readers.get(x.name, w.reader)
    body = _api(reader, w)
    text = _dump(body)
    assert not _named(text, x.name), x.name
    assert x.pk not in [c["id"] for c in body["combatants"]]
    assert body["current"] != x.pk or body["current"] is None
    assert all(x.pk not in (f["bearer"], f["anchor"]) for f in body["effects"])
    where = [float(x.x), float(x.y)] if x.x is not None else None
    for k, v in _walk(body["log"]):
        assert not (k in ID_KEYS and v == x.pk), (k, v)
        assert not (k in ID_LISTS and isinstance(v, list) and x.pk in v), (k, v)
        assert not (where is not None and isinstance(v, list) and v == where), (k, v)
        assert not (isinstance(v, str) and x.character_id and v.endswith(f":{x.character_id}"))
    mine = [a for a in body["log"] if a["kind"] == kind]
    # its own entries are left out, the others are read without it
    assert [a["id"] for a in mine] == [a["id"] for a in gm_entries if not _acts(a, x)]
    for a in mine:
        assert len(a["rolls"]) == _expected_rolls(a, x), (kind, a["summary"])
        prompt = a["summary"].get("prompt") or {}
        if prompt.get("target") == "someone":  # what the attacker measured to it: out
            assert not {"distance_m", "range_from"} & set(prompt.get("payload") or {})
            assert a["summary"]["result"].get("hidden") and "answer" not in a["summary"]
        if a["summary"].get("centre_combatant", 0) is None:  # a blast centred on it
            assert "centre" not in a["summary"] and "thrown_m" not in a["summary"]
    if kind == "encounter_initiative":
        for a in mine:
            assert len(a["rolls"]) == len(a["summary"]["order"])  # one roll each, shown
    for html in _pages(client, reader, w):
        assert not _named(html, x.name), x.name
        if where is not None:
            assert f"({where[0]:.1f}, {where[1]:.1f})" not in html
    if w.system == "eclipse_phase":
        panel = _tacnet(reader, w)
        assert not _named(_dump(panel), x.name)
        assert all(p["opponent"] != x.pk for n in panel["networks"] for p in n["perceived"])


def _check_gm(client, w, x, kind, gm_entries) -> None:
    body = _api(w.gm, w)
    assert x.pk in [c["id"] for c in body["combatants"]]
    mine = [a for a in body["log"] if a["kind"] == kind]
    assert [a["summary"] for a in mine] == [a["summary"] for a in gm_entries]
    assert [len(a["rolls"]) for a in mine] == [len(a["rolls"]) for a in gm_entries]
    client.force_login(w.gm)
    assert _named(client.get(f"/encounters/{w.e.pk}/control/").content.decode(), x.name)


def _check_revealed(client, w, x, kind, gm_entries) -> None:
    reader = w.readers.get(x.name, w.reader)
    body = _api(reader, w)
    assert x.pk in [c["id"] for c in body["combatants"]]
    mine = [a for a in body["log"] if a["kind"] == kind]
    assert [a["id"] for a in mine] == [a["id"] for a in gm_entries]
    assert [len(a["rolls"]) for a in mine] == [len(a["rolls"]) for a in gm_entries]
    assert any(_named(_dump(a), x.name) or _mentions(a, x) for a in mine)
    client.force_login(reader)
    assert _named(client.get(f"/encounters/{w.e.pk}/").content.decode(), x.name)


@pytest.mark.parametrize("system,kind", CASES)
def test_a_hidden_combatant_in_each_kind_reaches_no_player(client, alice, bob, system, kind):
    w = _world(system, alice, bob)
    gm_entries = [a for a in _api(w.gm, w)["log"] if a["kind"] == kind]
    assert gm_entries, f"the world journals no {kind}"
    inside = [x for x in w.c.values() if any(_mentions(a, x) for a in gm_entries)]
    if kind == "eclipse_gravity":  # no combatant in it: read as it is with one hidden
        assert not inside
        enc.combatant_update(user=w.gm, encounter_id=w.e.pk, combatant_id=w.c["Guard"].pk,
                             hidden=True)
        mine = [a for a in _api(w.reader, w)["log"] if a["kind"] == kind]
        assert [a["summary"] for a in mine] == [a["summary"] for a in gm_entries]
        return
    assert inside, kind  # its actor, its targets, the lines of the others
    for x in inside:
        x.refresh_from_db()
        enc.combatant_update(user=w.gm, encounter_id=w.e.pk, combatant_id=x.pk, hidden=True)
        _check_player(client, w, x, kind, gm_entries)
        _check_gm(client, w, x, kind, gm_entries)
        enc.combatant_update(user=w.gm, encounter_id=w.e.pk, combatant_id=x.pk, hidden=False)
        _check_revealed(client, w, x, kind, gm_entries)


# --- the other roads ----------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_the_event_stream_carries_versions_only(system, alice, bob, monkeypatch,
                                                django_capture_on_commit_callbacks):
    """Every event the play and the GM's hiding send is a topic and a version: nothing of a
    combatant rides on the stream; each page fetches what its reader may see."""
    from campaigns import live

    sent = []
    monkeypatch.setattr(live, "send_event", lambda name, event, data: sent.append(data))
    with django_capture_on_commit_callbacks(execute=True):
        w = _world(system, alice, bob)
        for x in w.c.values():
            enc.combatant_update(user=w.gm, encounter_id=w.e.pk, combatant_id=x.pk,
                                 hidden=True)
    topics = [data["topic"] for data in sent]  # one event per topic: one outer transaction
    assert f"encounter-{w.e.pk}" in topics and len(topics) == len(set(topics)) >= 3
    assert all(set(data) <= {"topic", "version"} for data in sent), sent
    assert all(isinstance(data.get("version", 0), int) for data in sent)


def _odds(client, w, **fields) -> str:
    from eclipse.models import CarriedWeapon

    pistol = CarriedWeapon.objects.get(sheet_id=w.c["Ava"].character_id,
                                       template__name="Pistol")
    r = client.post(f"/eclipse/encounters/{w.e.pk}/odds/",
                    {"combatant": w.c["Ava"].pk, "weapon": pistol.pk, **fields})
    assert r.status_code == 200
    return r.content.decode()


def test_the_odds_answer_a_hidden_target_or_spotter_as_a_missing_one(client, alice, bob):
    w = _world("eclipse_phase", alice, bob)
    guard = w.c["Guard"]
    enc.combatant_update(user=w.gm, encounter_id=w.e.pk, combatant_id=guard.pk, hidden=True)
    client.force_login(alice)
    hidden, missing = _odds(client, w, target=guard.pk), _odds(client, w, target=999_999)
    assert hidden == missing and 'data-testid' in hidden and "Guard" not in hidden
    assert "%" in _odds(client, w, target=w.c["Bo"].pk)  # a visible one has its odds
    spotted, unknown = (_odds(client, w, target=w.c["Bo"].pk, indirect="1",
                              spotter_combatant=who) for who in (guard.pk, 999_999))
    assert spotted == unknown and "Guard" not in spotted


def _ep_running(alice, bob):
    """Ava, Bo and the Guard (the GM's order: Ava's turn), placed: Ava (0, 0), Bo (10, 0),
    the Guard (11, 0), the Guard hidden."""
    from tests.eclipse_play.conftest import build_world, running

    ep = build_world(alice, bob)
    e, c = running(ep)
    for who, x in ((ep.ava, 0), (ep.bo, 10), (ep.guard, 11)):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=0)
    enc.combatant_update(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                         hidden=True)
    return ep, e, c


def test_a_players_own_step_answer_names_no_hidden_combatant(client, alice, bob):
    """Ava's grenade centred on Bo reaches the hidden Guard a metre away: her htmx answer
    (what the step changed) and her page say nothing of it; the GM's journal has its line. A
    blast centred on the hidden Guard is refused as one centred on no one."""
    ep, e, c = _ep_running(alice, bob)
    client.force_login(alice)
    url = f"/eclipse/encounters/{e.pk}/explode/"
    form = {"page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk,
            "weapon": ep.w.ava_grenade.pk}

    def error(centre):
        html = client.post(url, {**form, "centre": centre}, HTTP_HX_REQUEST="true") \
            .content.decode()
        return html.split('data-testid="error">')[1].split("</")[0]

    assert error(c[ep.guard.pk].pk) == error(999_999)
    answer = client.post(url, {**form, "centre": c[ep.bo.pk].pk}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "ep-log-eclipse_explosion" in answer.content.decode()
    assert not _named(answer.content.decode(), "Guard")
    assert not _named(client.get(f"/encounters/{e.pk}/").content.decode(), "Guard")
    entry = ActionRecord.objects.get(kind="eclipse_explosion")
    assert "Guard" in [t["target"] for t in entry.summary["targets"]]


def test_steps_naming_a_hidden_combatant_answer_as_a_wrong_id(alice, bob):
    """A player naming the hidden Guard (as a target, as the combatant acting, as the one a
    prompt waits for) is answered as for an id that does not exist."""
    from eclipse.attack import encounter_attack

    ep, e, c = _ep_running(alice, bob)
    ava = client_for(alice)
    base = f"/api/eclipse/encounters/{e.pk}/"

    def refusal(path, **data):
        r = ava.post(base + path, {"turn": e.turn_serial, **data}, format="json")
        return r.status_code, r.json()["code"], r.json()["detail"]

    for path, field, extra in (
            ("attack/", "target", {"combatant": c[ep.ava.pk].pk,
                                   "weapon": ep.w.ava_pistol.pk}),
            ("actions/", "combatant", {"name": "Wave", "kind": "quick"})):
        assert refusal(path, **extra, **{field: c[ep.guard.pk].pk}) == \
            refusal(path, **extra, **{field: 999_999})
    # The GM's Guard attacks Bo: while Bo's defence waits, Ava's step names no one.
    e.refresh_from_db()
    for _ in range(2):
        enc.encounter_next_turn(user=ep.gm, encounter_id=e.pk, turn=e.turn_serial)
        e.refresh_from_db()
    enc.combatant_update(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.bo.pk].pk,
                         hidden=True)
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", now=ep.now)
    status, code, detail = refusal("actions/", combatant=c[ep.ava.pk].pk, name="Wave",
                                   kind="quick")
    assert (status, code) == (409, "reaction_pending") and "Bo" not in detail
    answer = client_for(alice).post(f"/api/reactions/{step.reaction.pk}/answer/",
                                    {"choice": "dodge"}, format="json")
    missing = client_for(alice).post("/api/reactions/999999/answer/", {"choice": "dodge"},
                                     format="json")
    assert (answer.status_code, answer.json()["code"]) == \
        (missing.status_code, missing.json()["code"]) == (404, "no_such_reaction")


def test_a_parry_for_a_hidden_ally_is_not_offered_to_the_player(client, alice, bob):
    """Bran hidden, in defensive posture: the Goblin's claws at Aria prompt her without the
    parry for Bran the GM's prompt holds; once Bran is revealed she may pick it."""
    from homebrew import play
    from homebrew.models import HomebrewSheet
    from tests.gamerules.fakes import FakeRandom
    from tests.homebrew.conftest import build_world
    from tests.homebrew.test_play import running

    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk__in=[hb.aria.pk, hb.bran.pk]).update(posture="defensive")
    e, c = running(hb)
    enc.combatant_update(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.bran.pk].pk,
                         hidden=True)
    for _ in range(2):
        e.refresh_from_db()
        enc.encounter_next_turn(user=hb.gm, encounter_id=e.pk, turn=e.turn_serial)
    step = play.encounter_attack(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                                 target_id=c[hb.aria.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.claws.pk),
                                 rng=FakeRandom(20, 2), now=hb.now)
    ally = f"parry:{hb.bran.pk}"
    assert ally in step.reaction.options
    [prompt] = _api(alice, SimpleNamespace(e=e))["reactions"]
    assert ally not in prompt["options"] and "parry" in prompt["options"]
    client.force_login(alice)
    html = client.get(f"/encounters/{e.pk}/").content.decode()
    assert f'data-testid="answer-{ally}"' not in html and not _named(html, "Bran")
    assert ally in _api(hb.gm, SimpleNamespace(e=e))["reactions"][0]["options"]
    enc.combatant_update(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.bran.pk].pk,
                         hidden=False)
    assert ally in _api(alice, SimpleNamespace(e=e))["reactions"][0]["options"]
