"""Issue 17, item 4: the API fuzzed against its own OpenAPI schema, with the demo's real ids.

schemathesis loads the schema from the application (``/api/schema/``, drf-spectacular) and
calls the WSGI application in process (no server). Every operation is called as a player
(alice) and as the game master of the demo (config.demo, the three campaigns), signed in by
session, its path parameters and the id fields of its body (``BODY_IDS``) drawn from the ids
of the demo's objects (of every system: a character of one system on another's endpoint is
part of the draw), the rest generated from the schema, positive (what the schema allows) and,
where a body or query can break the schema, negative. No answer is a 5xx; a positive call's
answer conforms to the schema (status code, content type, body). The throttles are off here
(rate limits are tested elsewhere).

Deterministic: Hypothesis is derandomized and the dice of every service come from one seeded
random source; the examples per operation are few (``EXAMPLES``), for CI's time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import hypothesis
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               response_schema_conformance,
                                               status_code_conformance)

from tests.robust.conftest import MISSING
from tests.robust.conftest import demo as demo

# Calls per operation and user (negative: only where a body or query can break the schema):
# about 500 positive and 280 negative calls in all.
EXAMPLES = {GenerationMode.POSITIVE: 3, GenerationMode.NEGATIVE: 2}
CSRF = "f" * 32  # the CSRF cookie's secret, sent back in X-CSRFToken (session auth's check)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


PAIRS = (("character_id", "item_id"), ("encounter_id", "combatant_id"))
# The body fields that name an object, and the kind of ids drawn for them (a list field: each
# element). A combatant is drawn from the encounter of the path when it has one.
BODY_IDS = {"combatant": "combatant", "target": "target", "opponent": "combatant",
            "by": "combatant", "others": "combatant", "bearer": "combatant",
            "anchor": "combatant", "centre": "combatant", "character": "character",
            "characters": "character", "campaign": "campaign", "network": "network",
            "weapon": "weapon", "second_weapon": "weapon", "morph": "morph",
            "spell": "spell", "replace": "spell", "offer": "offer"}


@dataclass(frozen=True)
class RealIds:
    """The ids a path parameter or a body field is drawn from: each kind's, and the pairs that
    belong together."""

    single: dict[str, list[int]]  # by path parameter name
    body: dict[str, list[int]]  # by BODY_IDS kind
    items: list[tuple[int, int]]  # (character_id, item_id)
    combatants: list[tuple[int, int]]  # (encounter_id, combatant_id)

    def path(self, names: set[str]):
        """Path parameters for an operation that names ``names``: pairs that belong together
        (an item and its owner, a combatant and its encounter), any real id of each other
        kind (MISSING for a kind the demo has none of)."""
        parts, left = [], set(names)
        for pair, rows in (PAIRS[0], self.items), (PAIRS[1], self.combatants):
            if set(pair) <= left and rows:
                parts.append(st.sampled_from(rows).map(lambda row, p=pair: dict(zip(p, row))))
                left -= set(pair)
        parts.append(st.fixed_dictionaries({n: st.sampled_from(self.single.get(n) or [MISSING])
                                            for n in sorted(left)}))
        return st.tuples(*parts).map(lambda dicts: {k: v for d in dicts for k, v in d.items()})

    def _ids_for(self, kind: str, encounter_id: int | None) -> list[int]:
        if kind == "combatant" and encounter_id is not None:
            return [c for e, c in self.combatants if e == encounter_id] or [MISSING]
        return self.body.get(kind) or [MISSING]

    def body_of(self, case):
        """``case`` with the integers of its body's id fields (BODY_IDS) replaced by real ids."""
        body = case.body
        if not isinstance(body, dict):
            return st.just(case)
        encounter_id = case.path_parameters.get("encounter_id")
        draws = {}
        for name, value in body.items():
            kind = BODY_IDS.get(name)
            if kind is None:
                continue
            ids = st.sampled_from(self._ids_for(kind, encounter_id))
            if isinstance(value, int) and not isinstance(value, bool):
                draws[name] = ids
            elif isinstance(value, list) and value and all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value):
                draws[name] = st.lists(ids, min_size=len(value), max_size=len(value))
        if not draws:
            return st.just(case)

        def with_ids(values):
            case.body = {**body, **values}
            return case

        return st.fixed_dictionaries(draws).map(with_ids)


def _real_ids(demo) -> RealIds:
    from campaigns.models import Campaign
    from characters.models import Character
    from eclipse.models import CarriedWeapon, MorphTemplate, SquadNetwork
    from eclipse.models import WeaponTemplate as EclipseWeapon
    from encounters.models import Combatant, Encounter, PendingReaction
    from ew1.models import CharacterDraft, ItemInstance
    from factions.models import Faction, JoinRequest
    from homebrew.models import WeaponTemplate as HomebrewWeapon
    from magic.models import Spell, SpellOffer

    def pks(*models) -> list[int]:
        return sorted({pk for model in models for pk in model.objects.values_list("pk", flat=True)})

    characters, combatants = pks(Character), pks(Combatant)
    return RealIds(
        single={"campaign_id": pks(Campaign), "character_id": characters,
                "draft_id": pks(CharacterDraft), "encounter_id": pks(Encounter),
                "faction_id": pks(Faction), "request_id": pks(JoinRequest),
                "network_id": pks(SquadNetwork), "reaction_id": pks(PendingReaction),
                "item_id": pks(ItemInstance), "combatant_id": combatants},
        body={"combatant": combatants, "character": characters,
              "target": sorted({*combatants, *characters}), "campaign": pks(Campaign),
              "network": pks(SquadNetwork), "morph": pks(MorphTemplate),
              "weapon": pks(CarriedWeapon, EclipseWeapon, HomebrewWeapon),
              "spell": pks(Spell), "offer": pks(SpellOffer)},
        items=list(ItemInstance.objects.order_by("pk").values_list("owner_id", "pk")),
        combatants=list(Combatant.objects.order_by("pk").values_list("encounter_id", "pk")))


def _factions(demo) -> None:
    """A faction led by alice's Eternal War One II character, and bob's request to join it:
    the demo has none, and the faction endpoints get real ids too."""
    from campaigns.models import RuleSystem
    from characters.models import Character
    from factions.models import Faction, JoinRequest

    ew1 = {c.owner.username: c for c in Character.objects.select_related("owner").filter(
        campaign__rule_system=RuleSystem.ETERNAL_WAR, owner__isnull=False)
        .exclude(owner=demo.gm)}
    faction = Faction.objects.create(campaign=ew1["alice"].campaign, name="Fuzzers",
                                     leader=ew1["alice"])
    JoinRequest.objects.create(faction=faction, character=ew1["bob"], kind="request")


@pytest.fixture(scope="module")
def app():
    """The WSGI application, run in the test's thread and transaction: Django's
    close_old_connections would close the connection (hence the transaction) at each request's
    start and end; it is disconnected meanwhile, as the test client does."""
    from config.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield application
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(app, demo, django_db_blocker):
    """The schema as the application serves it, and the demo's real ids (a faction added)."""
    with django_db_blocker.unblock():
        _factions(demo)
        ids = _real_ids(demo)
        # Signed in by session: no generated Authorization header (HTTP Basic is tested apart).
        config = schemathesis.Config.from_dict({"generation": {
            "with-security-parameters": False, "deterministic": True}})
        schema = schemathesis.openapi.from_wsgi("/api/schema/", app, config=config)
    return schema, ids


@pytest.fixture
def seeded(monkeypatch, settings):
    """The services' dice from one seeded source; the throttles off."""
    settings.RATELIMIT_ENABLE = False
    dice = random.Random(17)
    monkeypatch.setattr(random, "SystemRandom", lambda: dice)


def _session_cookies(user) -> dict[str, str]:
    from django.conf import settings as django_settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {django_settings.SESSION_COOKIE_NAME:
            client.cookies[django_settings.SESSION_COOKIE_NAME].value,
            django_settings.CSRF_COOKIE_NAME: CSRF}


def _order(operation) -> int:
    """Encounters started first and ended last, a faction dissolved and a character's suicide
    last: the operations in between find something going on (schema order otherwise)."""
    if operation.path.endswith("/start/"):
        return 0
    return 2 if operation.path.endswith(("/end/", "/dissolve/", "/suicide/")) else 1


def _fuzz(operation, ids: RealIds, cookies: dict[str, str], mode: GenerationMode) -> None:
    """``EXAMPLES[mode]`` calls of ``operation``, each with real path ids: a positive one
    (as the schema says) must answer as the schema says, a negative one (a body or query the
    schema refuses) must be refused without a 5xx."""
    names = {p.name for p in operation.path_parameters}
    strategy = (ids.path(names).flatmap(
        lambda pp: operation.as_strategy(mode, path_parameters=pp))
        if names else operation.as_strategy(mode))
    if mode.is_positive:  # a negative body keeps what was drawn to break the schema
        strategy = strategy.flatmap(ids.body_of)
    checks = CHECKS if mode.is_positive else [not_a_server_error]

    @hypothesis.settings(max_examples=EXAMPLES[mode], derandomize=True, database=None,
                         deadline=None, phases=[Phase.explicit, Phase.generate],
                         suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def call(case):
        case.call_and_validate(cookies=cookies, headers={"X-CSRFToken": CSRF}, checks=checks)

    call()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["alice", "gm"])
def test_the_api_fuzzed_with_the_demos_ids(world, demo, seeded, who):
    """Every operation of the schema, as a player and as the GM: no 5xx, answers as the schema
    says. The failures of every operation are reported together."""
    schema, ids = world
    cookies = _session_cookies(getattr(demo, who))
    failures = []
    operations = sorted((result.ok() for result in schema.get_all_operations()), key=_order)
    assert len(operations) > 80
    for operation in operations:
        modes = [GenerationMode.POSITIVE]
        if operation.body or operation.query:  # something the schema can refuse
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            try:
                _fuzz(operation, ids, cookies, mode)
            except (Exception, schemathesis.errors.FailureGroup) as exc:  # reported below
                failures.append(f"{operation.label} ({mode.value}): {exc}")
    assert not failures, "\n\n".join(failures)
