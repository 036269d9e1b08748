"""Game masters see everything read-only and act only through the admin: the campaign's game
master, staff and superusers alike (a superuser is no longer let through the "act as this
character" checks by Django's superuser short-cut). One rule set: campaigns.permissions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaigns.errors import Forbidden
from campaigns.models import Campaign
from campaigns.permissions import allowed
from characters.models import Character
from characters.rules import require_owner
from factions.services import faction_create
from tests import factories
from tests.breaker.conftest import api_logged_in, logged_in

ROLES = ["superuser", "superuser-not-staff", "staff", "campaign-gm"]


@pytest.fixture
def reader(world, request):
    role = request.param
    user = factories.user("overseer", is_staff=role in ("superuser", "staff"),
                          is_superuser=role.startswith("superuser"))
    if role == "campaign-gm":
        Campaign.objects.filter(pk=world.campaign.pk).update(game_master=user)
        world.a = Character.objects.select_related("campaign").get(pk=world.a.pk)
    return user


@pytest.fixture
def wolves(world):
    """A private faction led by alice's Aline."""
    return faction_create(user=world.alice, character_id=world.a.pk, name="Wolves",
                          is_public=False)


@pytest.mark.parametrize("reader", ROLES, indirect=True)
def test_a_game_master_reads_every_sheet_board_and_faction(world, reader, wolves):
    client = logged_in(reader)
    assert client.get(reverse("characters:detail", args=[world.a.pk])).status_code == 200
    assert client.get(reverse("combat:board", args=[world.a.pk])).status_code == 200
    html = client.get(reverse("factions:detail", args=[wolves.pk])).content.decode()
    assert 'data-testid="member-Aline"' in html
    api = api_logged_in(reader)
    assert api.get(f"/api/characters/{world.a.pk}/").status_code == 200
    assert allowed(reader, "characters.view_sheet", world.a)
    assert allowed(reader, "factions.view_members", wolves)


@pytest.mark.parametrize("reader", ROLES, indirect=True)
def test_a_game_master_gets_no_page_that_acts_as_the_character(world, reader, wolves, unchanged):
    client = logged_in(reader)
    with unchanged():
        for url in (reverse("magic:spells", args=[world.a.pk]),
                    reverse("ew1:level-up", args=[world.a.pk]),
                    reverse("factions:manage", args=[wolves.pk])):
            assert client.get(url).status_code == 404, url
    assert not allowed(reader, "characters.act", world.a)
    assert not allowed(reader, "factions.manage_faction", wolves)


@pytest.mark.parametrize("reader", ROLES, indirect=True)
@pytest.mark.parametrize("method, path, payload", [
    ("get", "/api/characters/{a}/spells/", None),
    ("post", "/api/characters/{a}/move/", {"dx": 1, "dy": 0}),
    ("post", "/api/characters/{a}/level-up/", {"skills": {"brawl": 1}}),
    ("post", "/api/characters/{a}/cast/", {"spell": "{spell}", "x": 3, "y": 2}),
    ("post", "/api/factions/{f}/invite/", {"character": "{b}"}),
])
def test_a_game_master_may_not_act_through_the_api(world, reader, wolves, unchanged, method,
                                                   path, payload):
    ids = {"a": world.a.pk, "b": world.b.pk, "f": wolves.pk, "spell": world.a_spell.pk}
    body = {k: int(v.format(**ids)) if isinstance(v, str) else v
            for k, v in (payload or {}).items()}
    with unchanged():
        response = getattr(api_logged_in(reader), method)(path.format(**ids), body or None,
                                                           format="json")
    assert response.status_code == 403, response.content
    assert response.json()["code"] == "forbidden"


@pytest.mark.parametrize("reader", ROLES, indirect=True)
def test_the_services_refuse_a_game_master_too(world, reader):
    with pytest.raises(Forbidden):
        require_owner(reader, world.a)


def test_the_player_still_acts_and_the_game_master_edits_in_the_admin(world, wolves):
    client = logged_in(world.alice)
    assert client.get(reverse("magic:spells", args=[world.a.pk])).status_code == 200
    assert client.get(reverse("ew1:level-up", args=[world.a.pk])).status_code == 200
    assert client.get(reverse("factions:manage", args=[wolves.pk])).status_code == 200
    root = factories.user("root", is_staff=True, is_superuser=True)
    admin = logged_in(root).get(reverse("admin:characters_character_change", args=[world.a.pk]))
    assert admin.status_code == 200


def test_object_permissions_are_asked_in_one_place():
    """``user.has_perm`` would let a superuser through every rule: app code asks
    campaigns.permissions.allowed instead."""
    root = Path(__file__).resolve().parents[2]
    offenders = [str(p.relative_to(root)) for app in ("accounts", "campaigns", "characters", "ew1",
                                                      "combat", "factions", "magic", "config")
                 for p in (root / app).rglob("*.py") if "user.has_perm(" in p.read_text()]
    assert offenders == []


# A hand-written "is this user the owner / the game master / staff" check: comparing an owner or
# a game master with a user, or reading is_staff / is_superuser. Only the rules may do that.
HAND_WRITTEN_CHECK = re.compile(
    r"owner(_id)?\s*[!=]=\s*[\w.]*user\b"          # character.owner_id == user.pk
    r"|\buser(\.pk|\.id)?\s*[!=]=\s*[\w.]*owner"   # user.pk == character.owner_id
    r"|[!=]=\s*(request\.)?user\.(pk|id)\b"        # ... == request.user.pk
    r"|game_master(_id)?\s*[!=]=|[!=]=\s*[\w.]*game_master"  # campaign.game_master_id == ...
    r"|\.is_staff\b|\.is_superuser\b|rules\.is_staff|rules\.is_superuser")
# The one place: the predicates and the game master's power (campaigns.permissions.oversees).
RULE_MODULES = {"campaigns/permissions.py", "characters/rules.py", "factions/rules.py"}


def _hand_written_checks(root: Path) -> list[str]:
    found = []
    for app in ("accounts", "campaigns", "characters", "combat", "ew1", "factions", "magic",
                "config", "encounters", "homebrew"):
        for path in (root / app).rglob("*.py"):
            name = str(path.relative_to(root))
            if "migrations" in path.parts or name in RULE_MODULES:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if HAND_WRITTEN_CHECK.search(line):
                    found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_ownership_and_game_master_checks_go_through_the_rules():
    """No view, endpoint or service compares an owner or a game master with the user, nor reads
    is_staff / is_superuser: each asks campaigns.permissions.allowed (characters/rules.py,
    factions/rules.py), where the game master's powers are defined once (``oversees``)."""
    assert _hand_written_checks(Path(__file__).resolve().parents[2]) == []


def test_the_hand_written_check_detector_finds_one(tmp_path):
    app = tmp_path / "characters"
    app.mkdir()
    (app / "views.py").write_text("if character.owner_id != request.user.pk:\n    raise X\n"
                                  "ok = request.user.is_superuser\n"
                                  "gm = campaign.game_master_id == user.pk\n"
                                  "Campaign.objects.create(game_master=user)\n")
    assert len(_hand_written_checks(tmp_path)) == 3
