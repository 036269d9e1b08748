"""What a campaign document holds: every model that reaches the campaign through its foreign
keys, found from the model graph (:func:`discovered`), each either exported (``EXPORTED``) or left
out with its reason (``EXCLUDED``). ``tests/transfer/test_registry.py`` fails while a model that
reaches a campaign is in neither: a new model (an app's invitations, notifications) is classified
on purpose, never exported or dropped by accident.

How each model is exported (docs/export.md):
- every concrete field by its name, values as JSON (datetimes ISO 8601 with microseconds, decimals
  as strings, dates ISO);
- a foreign key to an exported model as the referenced row's id *in the document* (the importer
  remaps every one); a foreign key to a user as the username (ids differ between servers);
- a many-to-many field as the list of the referenced rows' document ids;
- a file (a portrait, an encounter's background) as ``{"name", "content"}``, the content in
  base64, or ``null`` when exported without files;
- the JSON columns that hold ids are remapped through ``JSON_IDS`` (the campaign's co-GMs by
  username; the ids of combatants and characters in journal summaries and prompts' payloads).

Users are referenced, never exported: the accounts (passwords, e-mails) belong to the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.apps import apps
from django.conf import settings
from django.db import models

ROOT = "campaigns.Campaign"

# Exported, in no particular order (the importer sorts them by their foreign keys).
EXPORTED: tuple[str, ...] = (
    "campaigns.Campaign",
    "campaigns.CampaignMaster",
    "campaigns.Board",
    "campaigns.ActionRecord",
    "campaigns.RollRecord",
    "characters.Character",
    "ew1.EternalWarSheet",
    "ew1.ItemTemplate",
    "ew1.ItemModifier",
    "ew1.ItemInstance",
    "ew1.CharacterDraft",
    "magic.Spell",
    "magic.KnownSpell",
    "magic.SpellOffer",
    "magic.ActiveEffect",
    "magic.Scroll",
    "homebrew.WeaponTemplate",
    "homebrew.HomebrewSheet",
    "homebrew.PermanentInjury",
    "homebrew.DeclaredAttack",
    "eclipse.MorphTemplate",
    "eclipse.WeaponTemplate",
    "eclipse.ArmourTemplate",
    "eclipse.EclipseSheet",
    "eclipse.Sleeve",
    "eclipse.CarriedWeapon",
    "eclipse.WornArmour",
    "eclipse.SquadNetwork",
    "eclipse.SquadMember",
    "eclipse.Perceived",
    "eclipse.EncounterSetting",
    "factions.Faction",
    "factions.Membership",
    "factions.JoinRequest",
    "encounters.Encounter",
    "encounters.Combatant",
    "encounters.EncounterEffect",
    "encounters.PendingReaction",
    "chat.Message",
)

# Reaching a campaign but left out, with why (the report and docs/export.md list them).
EXCLUDED: dict[str, str] = {
    "campaigns.CampaignInvitation": "invitation links and codes are secrets of this server",
    "campaigns.CampaignJoinRequest": "a request to join is answered on the server it was "
                                     "made on",
    # A player who owns a character stays one (characters travel); a member without a
    # character is invited again on the new server.
    "campaigns.CampaignMember": "memberships name invitations and requests, which stay on "
                                "this server; players keep their characters",
    # Helpers' apps in flight (issue 22): classified here when they land.
    "notifications.Notification": "a user's inbox belongs to the server, not to the campaign",
}

# The catalogue of a campaign, merged by name into an existing campaign (``into=`` of the
# importer): model -> its natural key (with the campaign) and its child rows compared with it.
CATALOGUE: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "ew1.ItemTemplate": (("name",), {"ew1.ItemModifier": "item"}),
    "magic.Spell": (("name",), {}),
    "homebrew.WeaponTemplate": (("name",), {}),
    "eclipse.MorphTemplate": (("name",), {}),
    "eclipse.WeaponTemplate": (("name",), {}),
    "eclipse.ArmourTemplate": (("name",), {}),
}

# JSON columns that hold ids: (model, field) -> what the ids are (see remap_json).
#   "users": a list of user ids (exported as usernames);
#   "encounter": ids of combatants under encounters.visibility's keys, characters' under "by".
JSON_IDS: dict[tuple[str, str], str] = {
    ("campaigns.Campaign", "co_master_ids"): "users",
    ("campaigns.ActionRecord", "summary"): "encounter",
    ("encounters.PendingReaction", "payload"): "encounter",
}


@dataclass(frozen=True)
class Exported:
    """One exported model: ``path`` filters its rows of a campaign (``{path: campaign}``)."""

    label: str
    model: type[models.Model]
    path: str


def user_model() -> type[models.Model]:
    return apps.get_model(settings.AUTH_USER_MODEL)


def _links(model) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.is_relation]


def discovered() -> dict[str, str]:
    """Every installed model that reaches a campaign through foreign keys (users not followed):
    label -> the ORM path from it to its campaign (shortest, non-null links first)."""
    paths: dict[str, str] = {ROOT: "pk"}
    found = True
    while found:
        found = False
        for model in apps.get_models():
            label = model._meta.label
            if label in paths:
                continue
            best = None
            for f in _links(model):
                target = f.related_model._meta.label
                if target not in paths:
                    continue
                rest = paths[target]
                path = f.name if rest == "pk" else f"{f.name}__{rest}"
                rank = (f.null, path.count("__"))
                if best is None or rank < best[0]:
                    best = (rank, path)
            if best is not None:
                paths[label] = best[1]
                found = True
    return paths


@cache
def exported() -> tuple[Exported, ...]:
    """The exported models installed here, parents before children (each model after every
    model it names by a non-null foreign key), with their paths to the campaign."""
    paths = discovered()
    chosen = {label: apps.get_model(label) for label in EXPORTED if label in paths}
    order: list[str] = []
    seen: set[str] = set()

    def visit(label: str, stack: tuple[str, ...] = ()) -> None:
        if label in seen:
            return
        if label in stack:
            raise RuntimeError(f"foreign keys in a circle without a null link: {stack}")
        for f in _links(chosen[label]):
            target = f.related_model._meta.label
            if target in chosen and target != label and not f.null:
                visit(target, (*stack, label))
        seen.add(label)
        order.append(label)

    for label in sorted(chosen):
        visit(label)
    return tuple(Exported(label, chosen[label], paths[label]) for label in order)


def unclassified() -> list[str]:
    """Models that reach a campaign and are neither exported nor excluded (should be none)."""
    return sorted(set(discovered()) - set(EXPORTED) - set(EXCLUDED))
