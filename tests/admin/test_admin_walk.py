"""Issue 19, item 2: every admin add and change form of each rule system refuses what the rules
refuse, in words, and saves what they allow.

The pages come from ``admin.site._registry``: a registered model without its pages here (or a
reason in ``NOT_WALKED``) fails ``test_every_registered_admin_is_walked``. Each page lists, for
every field it shows (its inlines' too), the values the rules refuse, or says the field takes
any value (``free``); a field of the page that is neither fails. Each refused value is posted
over the page's own values (as a browser sends them): the page answers 200 with a readable
message (no constraint name, no parser internals) and no row of the database changed; then the
page's valid values are posted and saved (302).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from collections.abc import Callable

import pytest
from django import forms
from django.contrib import admin
from django.template import engines
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import ActionRecord
from characters.models import Character
from tests.admin import walk_world

# Registered models that the walk leaves out, and why.
NOT_WALKED = {
    "auth.User": "Django's own, no game data",
    "auth.Group": "Django's own, no game data",
    "axes.AccessAttempt": "django-axes' lockout records",
    "axes.AccessLog": "django-axes' lockout records",
    "axes.AccessFailureLog": "django-axes' lockout records",
    "account.EmailAddress": "django-allauth's own (tests/accounts: the address pages)",
    "socialaccount.SocialAccount": "django-allauth's own OAuth links, no game data",
    "socialaccount.SocialApp": "django-allauth's own OAuth providers, no game data",
    "socialaccount.SocialToken": "django-allauth's own OAuth tokens, no game data",
    "campaigns.Campaign": "its form is the rule parameters' (tests/admin: the parameter round "
                          "trip); its board's size is walked by test_a_board_never_shrinks_"
                          "under_its_pieces",
    "campaigns.ActionRecord": "read only: the journal, written by the actions",
    "magic.SpellOffer": "read only: drawn at a level-up",
    "encounters.PendingReaction": "read only: made by a system's action",
}

# What no readable refusal shows: a constraint's name, Django's default "not a valid choice"
# of a model instance, the dice parser's own words, a crash.
UNREADABLE = re.compile(r"Constraint “|Constraint \"|is violated|instance with|Traceback|"
                        r"Token\(|line 1, col|has no attribute|RollSyntaxError|\$END")


@dataclass
class Page:
    """One admin page: its address, the values that make a valid post (over the page's own),
    the refused values of each field (a value, or a dict of several fields' values; None
    removes a field from the post, as an unticked box), and the fields any value of which is
    fine. ``saved(w)`` checks what the valid post stored."""

    url: Callable[[Any], str]
    valid: Callable[[Any], dict] = lambda w: {}
    invalid: Callable[[Any], dict[str, list]] = lambda w: {}
    free: frozenset[str] = frozenset()
    saved: Callable[[Any], bool] = lambda w: True
    model: str = ""


def add(model: str, query: Callable[[Any], str] | None = None):
    app, name = model.lower().split(".")
    return lambda w: reverse(f"admin:{app}_{name}_add") + (f"?{query(w)}" if query else "")


def change(model: str, obj: Callable[[Any], Any]):
    app, name = model.lower().split(".")
    return lambda w: reverse(f"admin:{app}_{name}_change", args=[obj(w).pk])


def split(name: str, date: str, time: str = "10:00") -> dict:
    """A date and time field (the admin's two boxes)."""
    return {f"{name}_0": date, f"{name}_1": time}


def later(w, days: int = 1) -> dict:
    moment = timezone.localtime(w.now + timedelta(days=days))
    return {"_0": moment.strftime("%Y-%m-%d"), "_1": moment.strftime("%H:%M:%S")}


# --- the Eternal War One II sheet inline, refused values shared by the add and change pages ----

def ew1_sheet_invalid(prefix: str = "ew1-0-") -> dict[str, list]:
    skills = {"brawl": 101, "melee": 96, "ranged": 96, "magic": 96, "dodge": 91, "throw": 96,
              "game": 96}  # past each skill's maximum (seed: 100, 95, 90)
    return {
        **{f"{prefix}{c}": [41] for c in ("FOR", "DEF", "TAI", "INT", "DEX")},  # max 40
        f"{prefix}FOR": [41, -1],
        f"{prefix}level": [101, "one"],
        f"{prefix}xp": [-1],
        f"{prefix}skill_points": [-1],
        f"{prefix}characteristic_points": [-1],
        **{f"{prefix}skill_{k}": [v] for k, v in skills.items()},
        f"{prefix}pa_now": [{f"{prefix}pa_now": 15, f"{prefix}pa_max": 12}, -1],
        f"{prefix}pa_max": [{f"{prefix}pa_now": 5, f"{prefix}pa_max": 4}],
        f"{prefix}pv_now": [{f"{prefix}pv_now": 100, f"{prefix}pv_max": 80}],
        f"{prefix}pv_max": [0, -1],
    }


def ew1_character_invalid(w, *, player: bool) -> dict[str, list]:
    luck = [41] if player else [10]  # a creature has no LUK
    reduction = [3] if player else [-1]  # a player rolls DEF, a piece has a fixed reduction
    return {
        "campaign": [w.hb.pk, w.ew_other.pk],
        "kind": ["dragon"],
        "owner": [999999],
        "name": ["", "villain"],  # taken whatever its case
        "board": [w.ew_other.board.pk, {"board": None, "x": 3, "y": 3}],
        "x": [99, -1, {"x": 8, "y": 8}, {"x": None}],  # off the board; Villain's cell; no x
        "y": [99, "abc"],
        "first_action_at": [split("first_action_at", "soon")],
        "suicided_at": [split("suicided_at", "2026-13-45")],
        "cooldown_notice": ["bogus"],
        "cooldown_notice_at": [split("cooldown_notice_at", "never", "x")],
        "ew1-0-LUK": luck,
        "ew1-0-fixed_reduction": reduction,
        **ew1_sheet_invalid(),
    }


def hb_sheet_invalid(prefix: str, *, player: bool, w) -> dict[str, list]:
    mains = {f"{prefix}{m}": [101] for m in ("physique", "perception", "mental")}
    if player:  # 170 points to spend, subs within the main's tens
        mains[f"{prefix}physique"].append(61)
    subs = {f"{prefix}{s}": [7] for s in ("force", "dexterite", "sens", "ether", "esprit",
                                          "intelligence")}  # sub_max 6
    return {
        **mains, **subs,
        f"{prefix}physique": mains[f"{prefix}physique"] + [150, -1],
        f"{prefix}force": [9] if not player else [7, {f"{prefix}force": 4,
                                                      f"{prefix}dexterite": 3}],
        f"{prefix}hp": [{f"{prefix}hp": 30, f"{prefix}hp_max": 20}],
        f"{prefix}hp_max": [-1],
        f"{prefix}mp": [{f"{prefix}mp": 20, f"{prefix}mp_max": 10}],
        f"{prefix}mp_max": [-1],
        f"{prefix}mp_label": ["x" * 31],
        f"{prefix}posture": ["sideways"],
        f"{prefix}health": ["zombie"],
        f"{prefix}dodge_lost_round": ["x" * 41],
        f"{prefix}weapons": [[w.hb_far.pk]],
    }


HB_SHEET_FREE = frozenset({"spared"})


def ep_ego_invalid(prefix: str, w) -> dict[str, list]:
    return {
        **{f"{prefix}{a}": [100] for a in ("coordination", "intuition", "reflexes", "savvy",
                                            "somatics", "willpower")},
        f"{prefix}cognition": [0, 100],
        f"{prefix}skills": ['{"fray": 20, "kinetik_weapons": 30}', '{"fray": 120}', "not json",
                            '["fray"]'],
        f"{prefix}skill_aptitudes": ['{"pilot_groundcraft": "STR"}', "[1]"],
        f"{prefix}moxie": [{f"{prefix}moxie": 5, f"{prefix}moxie_max": 3}],
        f"{prefix}moxie_max": [-1],
        f"{prefix}lucidity": [0],
        f"{prefix}trauma_threshold": [0],
        f"{prefix}insanity_rating": [0],
        f"{prefix}stress": [-1],
        f"{prefix}traumas": [-1],
        f"{prefix}derangements": ['"fear of heights"', '[""]'],
        f"{prefix}disorders": ["[3]"],
        f"{prefix}sleeve": [w.brick_sleeve.pk],  # another ego's
    }


EP_EGO_FREE = ("insane", "mental_notes")


def morph_invalid(prefix: str = "") -> dict[str, list]:
    return {
        f"{prefix}name": [""],
        f"{prefix}kind": ["cyborg"],
        f"{prefix}durability": [0],
        f"{prefix}wound_threshold": [0],
        f"{prefix}death_rating": [0],
        f"{prefix}armour_energy": [-1],
        f"{prefix}armour_kinetic": [-1],
        f"{prefix}speed": [0, 9],
        f"{prefix}aptitude_bonus": ['{"STR": 5}', '{"SOM": "five"}', "[1]"],
        f"{prefix}limbs": [-1],
        f"{prefix}initiative_bonus": ["fast"],
        f"{prefix}traits": ['["laser_eyes"]', '"pain_filter"'],
        f"{prefix}aptitude_max": [0, 100],
    }


def sleeve_invalid(prefix: str, w) -> dict[str, list]:
    return {**morph_invalid(prefix),
            f"{prefix}template": [w.far_morph.pk],
            f"{prefix}damage": [-1], f"{prefix}wounds": [-1], f"{prefix}stunned": [-1],
            f"{prefix}created_at": [split(f"{prefix}created_at", "someday")],
            f"{prefix}implants": ['["third_arm"]']}


SLEEVE_FREE = ("mesh_implants", "knocked_down")


def prefixed(prefix: str, names) -> frozenset[str]:
    return frozenset(prefix + n for n in names)


PAGES: dict[str, list[Page]] = {
    "characters.Character": [
        Page(add("characters.Character", lambda w: f"campaign={w.ew.pk}"),
             valid=lambda w: {"name": "Newcomer", "kind": "creature", "board": w.ew.board.pk,
                              "x": 10, "y": 10, "ew1-0-pv_now": 60, "ew1-0-pv_max": 80},
             invalid=lambda w: ew1_character_invalid(w, player=False),
             free=frozenset({"reincarnate_asap"}),
             saved=lambda w: Character.objects.get(name="Newcomer").ew1.pv_max == 80),
        Page(change("characters.Character", lambda w: w.hero),
             valid=lambda w: {"x": 4, "y": 4, "ew1-0-FOR": 12},
             invalid=lambda w: ew1_character_invalid(w, player=True),
             free=frozenset({"reincarnate_asap", "items-0-equipped"}),
             saved=lambda w: Character.objects.get(name="Hero").ew1.FOR == 12),
        Page(add("characters.Character", lambda w: f"campaign={w.hb.pk}"),
             valid=lambda w: {"name": "Newcomer", "kind": "creature",
                              "homebrew-0-physique": 90, "homebrew-0-force": 6},
             invalid=lambda w: {"campaign": [w.ep.pk], "kind": ["door"], "owner": [999999],
                                "name": ["", "ARIA"],
                                **hb_sheet_invalid("homebrew-0-", player=False, w=w)},
             free=prefixed("homebrew-0-", HB_SHEET_FREE),
             saved=lambda w: Character.objects.get(name="Newcomer").homebrew.physique == 90),
        Page(change("characters.Character", lambda w: w.aria),
             valid=lambda w: {"name": "Aria the Bold", "homebrew-0-mp_label": "Cartridges"},
             invalid=lambda w: {"campaign": [w.hb_other.pk], "kind": ["object"],
                                "owner": [999999], "name": [""],
                                **hb_sheet_invalid("homebrew-0-", player=True, w=w)},
             free=prefixed("homebrew-0-", HB_SHEET_FREE),
             saved=lambda w: Character.objects.get(name="Aria the Bold").homebrew.mp_label
             == "Cartridges"),
        Page(add("characters.Character", lambda w: f"campaign={w.ep.pk}"),
             valid=lambda w: {"name": "Newcomer", "kind": "creature", "eclipse-0-cognition": 20},
             invalid=lambda w: {"campaign": [w.hb.pk], "kind": ["door"], "owner": [999999],
                                "name": [""], **ep_ego_invalid("eclipse-0-", w)},
             free=prefixed("eclipse-0-", EP_EGO_FREE),
             saved=lambda w: Character.objects.get(name="Newcomer").eclipse.cognition == 20),
        Page(change("characters.Character", lambda w: w.ash),
             valid=lambda w: {"eclipse-0-skills": '{"fray": 30, "blades": 10}'},
             invalid=lambda w: {"campaign": [w.ep_other.pk], "kind": ["object"],
                                "owner": [999999], "name": ["", "BRICK"],
                                **ep_ego_invalid("eclipse-0-", w)},
             free=prefixed("eclipse-0-", EP_EGO_FREE),
             saved=lambda w: w.ash_sheet.__class__.objects.get(pk=w.ash.pk).skills
             == {"fray": 30, "blades": 10}),
    ],
    "ew1.ItemTemplate": [
        Page(add("ew1.ItemTemplate"),
             valid=lambda w: {"campaign": w.ew.pk, "name": "Mace", "kind": "melee",
                              "damage_dice": "2d6+1"},
             invalid=lambda w: {
                 "campaign": [w.hb.pk], "name": ["", "Sword"], "kind": ["laser"],
                 "category": ["epic"],
                 "damage_dice": ["2d6++", "4d6kh3", "1d20 5", "d", "(1d6", "1d6,2",
                                 {"kind": "armour", "damage_dice": "1d6"}],
                 "weapon_skill": ["many"], "range_cells": [-1], "armour": [-1],
                 "heal_dice": ["1d", "1d6"],  # a melee weapon does not heal
                 "modifiers-0-stat": ["STR"], "modifiers-0-dice": ["1d3 DEF", "x"]},
             free=frozenset({"description"}),
             saved=lambda w: w.sword.__class__.objects.filter(name="Mace").exists()),
        Page(change("ew1.ItemTemplate", lambda w: w.sword),
             valid=lambda w: {"damage_dice": "1d10"},
             invalid=lambda w: {
                 "campaign": [w.ep.pk], "name": [""], "kind": ["laser"], "category": ["epic"],
                 "damage_dice": ["", "1d6!"], "weapon_skill": ["many"], "range_cells": [-1],
                 "armour": [-1], "heal_dice": ["1d6"], "modifiers-0-stat": ["STR"],
                 "modifiers-0-dice": ["+1d3 FOR"]},
             free=frozenset({"description"}),
             saved=lambda w: w.sword.__class__.objects.get(pk=w.sword.pk).damage_dice == "1d10"),
    ],
    "ew1.ItemInstance": [
        Page(add("ew1.ItemInstance"),
             valid=lambda w: {"owner": w.villain.pk, "template": w.sword.pk},
             invalid=lambda w: {"owner": [w.aria.pk, 999999], "template": [w.axe.pk, 999999]},
             free=frozenset({"equipped"}),
             saved=lambda w: w.villain.items.exists()),
        Page(change("ew1.ItemInstance", lambda w: w.item),
             valid=lambda w: {"equipped": "on"},
             invalid=lambda w: {"owner": [w.ash.pk, w.stranger.pk], "template": [w.axe.pk]},
             free=frozenset({"equipped"}),
             saved=lambda w: w.item.__class__.objects.get(pk=w.item.pk).equipped),
    ],
    "magic.Spell": [
        Page(add("magic.Spell"),
             valid=lambda w: {"campaign": w.ew.pk, "name": "Heal", "effect": "heal",
                              "dice": "1d6"},
             invalid=lambda w: {
                 "campaign": [w.hb.pk], "name": ["", "Fireball"], "tier": ["legendary"],
                 "effect": ["curse"], "dice": ["6d", "1d6!", ""], "range_cells": [-1],
                 "zone_radius": [-1], "reach": ["nobody"], "duration_hours": [-1]},
             free=frozenset({"learnable"}),
             saved=lambda w: w.spell.__class__.objects.filter(name="Heal").exists()),
        Page(change("magic.Spell", lambda w: w.spell),
             valid=lambda w: {"dice": "2d6"},
             invalid=lambda w: {
                 "campaign": [w.ep.pk], "name": [""], "tier": ["legendary"], "effect": ["curse"],
                 "dice": ["2d6 +"], "range_cells": [-1], "zone_radius": [-1],
                 "reach": ["nobody"], "duration_hours": [-1]},
             free=frozenset({"learnable"}),
             saved=lambda w: w.spell.__class__.objects.get(pk=w.spell.pk).dice == "2d6"),
    ],
    "magic.KnownSpell": [
        Page(add("magic.KnownSpell"),
             valid=lambda w: {"character": w.villain.pk, "spell": w.spell.pk},
             invalid=lambda w: {"character": [w.aria.pk, 999999, {"character": w.hero.pk}],
                                "spell": [w.frost.pk]},
             saved=lambda w: w.known.__class__.objects.filter(character=w.villain).exists()),
        Page(change("magic.KnownSpell", lambda w: w.known)),  # read only once granted
    ],
    "magic.ActiveEffect": [
        Page(add("magic.ActiveEffect"),
             valid=lambda w: {"target": w.villain.pk, "caster": w.hero.pk, "spell": w.spell.pk,
                              "amount": 3, **{f"expires_at{k}": v for k, v in later(w).items()}},
             invalid=lambda w: {"target": [w.aria.pk, w.stranger.pk],
                                "caster": [w.aria.pk, w.stranger.pk], "spell": [w.frost.pk],
                                "amount": [-1],
                                "expires_at": [split("expires_at", "tomorrow")]},
             saved=lambda w: w.effect.__class__.objects.filter(target=w.villain).exists()),
        Page(change("magic.ActiveEffect", lambda w: w.effect),
             valid=lambda w: {"amount": 4},
             invalid=lambda w: {"target": [w.aria.pk], "caster": [w.stranger.pk],
                                "spell": [w.frost.pk], "amount": [-1],
                                "expires_at": [split("expires_at", "tomorrow")]},
             saved=lambda w: w.effect.__class__.objects.get(pk=w.effect.pk).amount == 4),
    ],
    "magic.Scroll": [
        Page(add("magic.Scroll"),
             valid=lambda w: {"board": w.ew.board.pk, "x": 2, "y": 2, "spell": w.spell.pk},
             invalid=lambda w: {"board": [w.hb_board.pk, 999999], "x": [15, -1, ""],
                                "y": [15], "spell": [w.frost.pk]},
             saved=lambda w: w.scroll.__class__.objects.filter(x=2, y=2).exists()),
        Page(change("magic.Scroll", lambda w: w.scroll),
             valid=lambda w: {"x": 3},
             invalid=lambda w: {"board": [w.hb_board.pk, w.ew_other.board.pk],
                                "x": [15], "y": [-1], "spell": [w.frost.pk]},
             saved=lambda w: w.scroll.__class__.objects.get(pk=w.scroll.pk).x == 3),
    ],
    "factions.Faction": [
        Page(add("factions.Faction"),
             valid=lambda w: {"campaign": w.ew.pk, "name": "Ravens", "leader": w.villain.pk},
             invalid=lambda w: {"campaign": [999999], "name": ["", "Wolves"],
                                "leader": [w.stranger.pk, w.hero.pk, 999999]},
             free=frozenset({"description", "is_public"}),
             saved=lambda w: w.faction.__class__.objects.filter(name="Ravens").exists()),
        Page(change("factions.Faction", lambda w: w.faction),
             valid=lambda w: {"description": "The pack."},
             invalid=lambda w: {"campaign": [w.hb.pk], "name": [""],
                                "leader": [w.stranger.pk],
                                "memberships-0-character": [w.stranger.pk],
                                "requests-0-character": [w.stranger.pk],
                                "requests-0-kind": ["bogus"], "requests-0-state": ["bogus"]},
             free=frozenset({"description", "is_public"}),
             saved=lambda w: w.faction.__class__.objects.get(pk=w.faction.pk).description
             == "The pack."),
    ],
    "factions.JoinRequest": [
        Page(add("factions.JoinRequest"),
             valid=lambda w: {"faction": w.faction.pk, "character": w.ogre.pk,
                              "kind": "invitation"},
             invalid=lambda w: {"faction": [999999],
                                "character": [w.stranger.pk, w.villain.pk],  # pending already
                                "kind": ["bogus"], "state": ["bogus"]},
             saved=lambda w: w.request.__class__.objects.filter(character=w.ogre).exists()),
        Page(change("factions.JoinRequest", lambda w: w.request),
             valid=lambda w: {"state": "refused"},
             invalid=lambda w: {"faction": [999999], "character": [w.stranger.pk, w.aria.pk],
                                "kind": ["bogus"], "state": ["bogus"]},
             saved=lambda w: w.request.__class__.objects.get(pk=w.request.pk).state
             == "refused"),
    ],
    "encounters.Encounter": [
        Page(add("encounters.Encounter"),
             valid=lambda w: {"campaign": w.hb.pk, "name": "Camp"},
             invalid=lambda w: {"campaign": [w.ew.pk, 999999], "name": [""],
                                "actions_per_turn": [0, 21],
                                "reaction_timeout_seconds": [0, 3601]},
             free=frozenset({"skip_defeated", "players_may_join"}),
             saved=lambda w: w.encounter.__class__.objects.filter(name="Camp").exists()),
        Page(change("encounters.Encounter", lambda w: w.encounter),
             valid=lambda w: {"name": "Ford at dusk"},
             invalid=lambda w: {"campaign": [w.ew.pk], "name": [""], "actions_per_turn": [0],
                                "reaction_timeout_seconds": [3601],
                                "combatants-0-name": ["", "x" * 81],
                                "combatants-0-character": [w.stranger.pk, 999999],
                                "combatants-0-initiative": ["high"],
                                "combatants-0-tiebreak": ["x"],
                                "combatants-0-turns_per_round": [0, 11]},
             free=frozenset({"skip_defeated", "players_may_join", "combatants-0-surprised",
                             "combatants-0-hidden", "combatants-0-defeated",
                             "combatants-0-removed"}),
             saved=lambda w: w.encounter.__class__.objects.get(pk=w.encounter.pk).name
             == "Ford at dusk"),
    ],
    "encounters.EncounterEffect": [
        Page(add("encounters.EncounterEffect"),
             valid=lambda w: {"encounter": w.encounter.pk, "name": "Haste",
                              "anchor": w.fighters[1].pk, "edge": "start", "rounds": 1,
                              "created_round": 0, "expires_round": 1},
             invalid=lambda w: {"encounter": [999999], "name": [""],
                                "bearer": [w.elsewhere.pk], "anchor": [w.elsewhere.pk, ""],
                                "edge": ["middle"], "rounds": [-1], "created_round": [-1],
                                "expires_round": [-1], "expired_round": [-1]},
             saved=lambda w: w.encounter_effect.__class__.objects.filter(name="Haste").exists()),
        Page(change("encounters.EncounterEffect", lambda w: w.encounter_effect),
             valid=lambda w: {"rounds": 3},
             invalid=lambda w: {"encounter": [w.other_encounter.pk], "name": [""],
                                "bearer": [w.elsewhere.pk], "anchor": [w.elsewhere.pk],
                                "edge": ["middle"], "rounds": [-1], "created_round": [-1],
                                "expires_round": [-1], "expired_round": [-1]},
             saved=lambda w: w.encounter_effect.__class__.objects.get(
                 pk=w.encounter_effect.pk).rounds == 3),
    ],
    "homebrew.WeaponTemplate": [
        Page(add("homebrew.WeaponTemplate"),
             valid=lambda w: {"campaign": w.hb.pk, "name": "Axe", "die": "1d8"},
             invalid=lambda w: {"campaign": [w.ew.pk], "name": ["", "Sword"],
                                "die": ["2d6", "1d101", "d", "1d6+1"], "kind": ["psychic"],
                                "mp_cost": [-1]},
             free=frozenset({"description", "offered_at_creation"}),
             saved=lambda w: w.hb_sword.__class__.objects.filter(name="Axe").exists()),
        Page(change("homebrew.WeaponTemplate", lambda w: w.hb_sword),
             valid=lambda w: {"die": "1d10"},
             invalid=lambda w: {"campaign": [w.ep.pk], "name": [""], "die": ["1d1", ""],
                                "kind": ["psychic"], "mp_cost": [-1]},
             free=frozenset({"description", "offered_at_creation"}),
             saved=lambda w: w.hb_sword.__class__.objects.get(pk=w.hb_sword.pk).die == "1d10"),
    ],
    "homebrew.HomebrewSheet": [
        Page(add("homebrew.HomebrewSheet"),
             valid=lambda w: {"character": w.hb_bare.pk, "physique": 80},
             invalid=lambda w: {"character": [w.aria.pk, w.ash.pk],  # has one; another system
                                **hb_sheet_invalid("", player=False, w=w)},
             free=HB_SHEET_FREE,
             saved=lambda w: w.hb_bare.__class__.objects.get(pk=w.hb_bare.pk).homebrew.physique
             == 80),
        Page(change("homebrew.HomebrewSheet", lambda w: w.aria),
             valid=lambda w: {"hp": 5},
             invalid=lambda w: hb_sheet_invalid("", player=True, w=w),
             free=HB_SHEET_FREE,
             saved=lambda w: w.aria.__class__.objects.get(pk=w.aria.pk).homebrew.hp == 5),
    ],
    "eclipse.MorphTemplate": [
        Page(add("eclipse.MorphTemplate"),
             valid=lambda w: {"campaign": w.ep.pk, "name": "Splicer",
                              "aptitude_bonus": '{"COO": 5}', "traits": '["pain_filter"]'},
             invalid=lambda w: {**morph_invalid(), "name": ["", "Fury"],
                                "campaign": [w.hb.pk]},
             free=frozenset({"mesh_implants", "description"}),
             saved=lambda w: w.fury.__class__.objects.filter(name="Splicer").exists()),
        Page(change("eclipse.MorphTemplate", lambda w: w.fury),
             valid=lambda w: {"durability": 55},
             invalid=lambda w: {**morph_invalid(), "campaign": [w.ew.pk]},
             free=frozenset({"mesh_implants", "description"}),
             saved=lambda w: w.fury.__class__.objects.get(pk=w.fury.pk).durability == 55),
    ],
    "eclipse.WeaponTemplate": [
        Page(add("eclipse.WeaponTemplate"),
             valid=lambda w: {"campaign": w.ep.pk, "name": "Knife", "skill": "blades",
                              "dv": "1d10", "melee": "on"},
             invalid=lambda w: {
                 "campaign": [w.hb.pk], "name": ["", "Pistol"],
                 "skill": ["blade", "kinetik_weapons", "fray"],
                 "dv": ["2d10++", "abc", ""], "ap": ["x", -1], "damage_type": ["sonic"],
                 "melee": [{"melee": None}],  # then a ranged weapon without a firing mode
                 **{f"mode_{m}": ["on"] for m in ("ss", "sa", "bf", "fa")},  # melee: no mode
                 "magazine": [-1],
                 "range_short": [{"melee": None, "mode_ss": "on", "range_short": 50,
                                  "range_medium": 10}, -1],
                 "range_medium": [{"melee": None, "mode_sa": "on", "range_medium": 60,
                                   "range_long": 10}],
                 "range_long": [{"melee": None, "mode_bf": "on", "range_long": 70,
                                 "range_extreme": 10}],
                 "range_extreme": [-1],
                 "blast": ["nuke"], "blast_radius_m": [-1], "trigger": ["laser"]},
             free=frozenset({"beam", "homing", "two_handed", "touch", "reach", "description"}),
             saved=lambda w: w.pistol.__class__.objects.filter(name="Knife").exists()),
        Page(change("eclipse.WeaponTemplate", lambda w: w.pistol),
             valid=lambda w: {"mode_fa": "on", "magazine": 20},
             invalid=lambda w: {
                 "campaign": [w.ew.pk], "name": [""], "skill": ["pistols"], "dv": ["1d"],
                 "ap": ["x"], "damage_type": ["sonic"], "melee": ["on"],
                 **{f"mode_{m}": [{"mode_ss": None, "mode_sa": None, "mode_bf": None,
                                   "mode_fa": None}] for m in ("ss", "sa", "bf", "fa")},
                 "magazine": [-1], "range_short": [31], "range_medium": [51],
                 "range_long": [101], "range_extreme": [49], "blast": ["nuke"],
                 "blast_radius_m": [-1], "trigger": ["laser"]},
             free=frozenset({"beam", "homing", "two_handed", "touch", "reach", "description"}),
             saved=lambda w: w.pistol.__class__.objects.get(pk=w.pistol.pk).mode_fa),
    ],
    "eclipse.ArmourTemplate": [
        Page(add("eclipse.ArmourTemplate"),
             valid=lambda w: {"campaign": w.ep.pk, "name": "Coat", "energy": 2},
             invalid=lambda w: {"campaign": [w.hb.pk], "name": ["", "Vest"], "energy": [-1],
                                "kinetic": [-1, "x"]},
             free=frozenset({"description"}),
             saved=lambda w: w.vest.__class__.objects.filter(name="Coat").exists()),
        Page(change("eclipse.ArmourTemplate", lambda w: w.vest),
             valid=lambda w: {"kinetic": 8},
             invalid=lambda w: {"campaign": [w.ew.pk], "name": [""], "energy": [-1],
                                "kinetic": [-1]},
             free=frozenset({"description"}),
             saved=lambda w: w.vest.__class__.objects.get(pk=w.vest.pk).kinetic == 8),
    ],
    "eclipse.Sleeve": [
        Page(add("eclipse.Sleeve"),
             valid=lambda w: {"owner": w.brick_sheet.pk, "template": w.fury.pk, "name": "Spare",
                              **{f"created_at{k}": v for k, v in later(w, 0).items()}},
             invalid=lambda w: {**sleeve_invalid("", w), "owner": [999999, w.aria.pk]},
             free=frozenset(SLEEVE_FREE),
             saved=lambda w: w.ash_sleeve.__class__.objects.filter(name="Spare").exists()),
        Page(change("eclipse.Sleeve", lambda w: w.ash_sleeve),
             valid=lambda w: {"damage": 5},
             invalid=lambda w: {**sleeve_invalid("", w), "owner": [999999],
                                "armour-0-template": [w.far_armour.pk]},
             free=frozenset(SLEEVE_FREE),
             saved=lambda w: w.ash_sleeve.__class__.objects.get(pk=w.ash_sleeve.pk).damage
             == 5),
    ],
    "eclipse.EclipseSheet": [
        Page(add("eclipse.EclipseSheet"),
             valid=lambda w: {"character": w.ep_bare.pk, "savvy": 25},
             invalid=lambda w: {**ep_ego_invalid("", w),
                                "character": [w.aria.pk, w.ash.pk]},  # another system; has one
             free=frozenset(EP_EGO_FREE),
             saved=lambda w: w.ash_sheet.__class__.objects.get(pk=w.ep_bare.pk).savvy == 25),
        Page(change("eclipse.EclipseSheet", lambda w: w.ash_sheet),
             valid=lambda w: {"stress": 5, "weapons-0-loaded": 6},
             invalid=lambda w: {**ep_ego_invalid("", w),
                                **sleeve_invalid("sleeves-0-", w),
                                "weapons-0-template": [w.far_weapon.pk, ""],
                                "weapons-0-loaded": [13],  # the magazine holds 12
                                "weapons-0-spares": [-1],
                                "weapons-0-state": ["melted"]},
             free=frozenset(EP_EGO_FREE) | prefixed("sleeves-0-", SLEEVE_FREE),
             saved=lambda w: w.ash_sheet.__class__.objects.get(pk=w.ash.pk).stress == 5),
    ],
    "eclipse.SquadNetwork": [
        Page(add("eclipse.SquadNetwork"),
             valid=lambda w: {"campaign": w.ep.pk, "name": "Wing"},
             invalid=lambda w: {"campaign": [w.hb.pk], "name": ["", "Squad"]},
             free=frozenset({"open_to_players"}),
             saved=lambda w: w.tacnet.__class__.objects.filter(name="Wing").exists()),
        Page(change("eclipse.SquadNetwork", lambda w: w.tacnet),
             valid=lambda w: {"name": "Squad Two"},
             invalid=lambda w: {"campaign": [w.ew.pk], "name": [""]},
             free=frozenset({"open_to_players"}),
             saved=lambda w: w.tacnet.__class__.objects.get(pk=w.tacnet.pk).name
             == "Squad Two"),
    ],
}

CASES = [(label, i) for label, pages in PAGES.items() for i in range(len(pages))]


# --- the browser's post ------------------------------------------------------------------------

def _forms(response) -> list:
    found = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        found += [inline.formset.management_form, *inline.formset.forms]
    return found


def page_post(response) -> dict:
    """What a browser posts from the page untouched: every field's shown value (a date and time
    as its two boxes), the hidden copies of the values shown, the inlines' management forms."""
    data: dict[str, Any] = {}
    for form in _forms(response):
        for bound in form:
            value = bound.value()
            widget = bound.field.widget
            if isinstance(widget, forms.MultiWidget):
                parts = widget.decompress(value) if value else [None] * len(widget.widgets)
                for i, (sub, part) in enumerate(zip(widget.widgets, parts)):
                    if part is not None:
                        data[f"{bound.html_name}_{i}"] = sub.format_value(part)
                continue
            if value is None or value is False:
                continue
            if value is True:
                value = "on"
            data[bound.html_name] = [str(v) for v in value] if isinstance(value, list) else (
                str(value))
            if bound.field.show_hidden_initial:
                data[bound.html_initial_name] = data[bound.html_name]
    return data


def shown_fields(response) -> set[str]:
    """The html names of the fields the game master fills in (not the hidden ones)."""
    names = set()
    for form in _forms(response):
        if isinstance(form, forms.formsets.ManagementForm):
            continue
        for bound in form:
            if not bound.is_hidden and not bound.html_name.endswith("-DELETE"):
                names.add(re.sub(r"-\d+-", "-0-", bound.html_name))  # an inline's rows alike
    return names


def with_overrides(base: dict, overrides: dict) -> dict:
    data = dict(base)
    for name, value in overrides.items():
        if value is None:
            data.pop(name, None)
        elif isinstance(value, list):
            data[name] = [str(v) for v in value]
        else:
            data[name] = str(value)
    return data


def refusals(response) -> list[str]:
    """Every error message the page shows: the form's, each inline form's, the inlines'."""
    found = [str(m) for errors in response.context["adminform"].form.errors.values()
             for m in errors]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        found += [str(m) for m in formset.non_form_errors()]
        for form in formset.forms:
            found += [str(m) for errors in form.errors.values() for m in errors]
    return found


def written_models(response) -> list:
    """The models a page can write: its own, its inlines', their many-to-many links, and the
    journal (an admin grant is journaled)."""
    found = [response.context["adminform"].form._meta.model, ActionRecord]
    found += [inline.formset.model for inline in response.context["inline_admin_formsets"]]
    found += [f.remote_field.through for model in list(found)
              for f in model._meta.many_to_many]
    return list(dict.fromkeys(found))


def snapshot(models) -> dict:
    """Every row of ``models``."""
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in models}


# --- the tests ---------------------------------------------------------------------------------

def test_every_registered_admin_is_walked():
    registered = {model._meta.label for model in admin.site._registry}
    missing = registered - set(PAGES) - set(NOT_WALKED)
    assert not missing, f"add their pages to PAGES (or a reason to NOT_WALKED): {missing}"
    assert not (set(PAGES) | set(NOT_WALKED)) - registered


@pytest.fixture
def world(db):
    return walk_world.build()


# The refused posts after a page's first are drawn by a page that shows only the errors: the
# whole admin page takes ten times as long to draw, and it is drawn (errors included) by the
# first refused post, the page itself and the valid post.
ERRORS_ONLY = engines["django"].from_string(
    "{{ adminform.form.errors }}{% for inline in inline_admin_formsets %}"
    "{{ inline.formset.non_form_errors }}{% for f in inline.formset %}{{ f.errors }}{% endfor %}"
    "{% endfor %}")


@pytest.fixture
def drawn(monkeypatch):
    """``drawn.full = False``: the admin's refusals are drawn by ERRORS_ONLY."""
    state = SimpleNamespace(full=True)
    real = admin.ModelAdmin.render_change_form

    def render(self, request, context, *args, **kwargs):
        response = real(self, request, context, *args, **kwargs)
        if not state.full and request.method == "POST":
            response.template_name = ERRORS_ONLY
        return response

    monkeypatch.setattr(admin.ModelAdmin, "render_change_form", render)
    return state


@pytest.mark.parametrize("label,index", CASES, ids=[f"{label}-{i}" for label, i in CASES])
def test_each_field_refuses_what_the_rules_refuse_and_the_valid_values_are_saved(
        world, drawn, label, index):
    page = PAGES[label][index]
    client = Client()
    client.force_login(world.gm)
    url = page.url(world)
    shown = client.get(url)
    assert shown.status_code == 200, url
    if "adminform" not in shown.context:
        pytest.fail(f"{url} is no form")
    good = with_overrides(page_post(shown), page.valid(world))  # each refusal's only fault
    models = written_models(shown)
    invalid = page.invalid(world)
    unnamed = shown_fields(shown) - set(invalid) - page.free
    assert not unnamed, f"{url}: say what each field refuses (or that it is free): {unnamed}"

    for name, values in invalid.items():
        for value in values:
            overrides = value if isinstance(value, dict) else {name: value}
            before = snapshot(models)
            response = client.post(url, with_overrides(good, overrides))
            where = f"{url} {overrides}"
            assert response.status_code == 200, f"{where}: saved ({response.status_code})"
            if os.environ.get("WALK_SHOW"):  # WALK_SHOW=1 pytest -s: each refusal's words
                print(url, overrides, refusals(response))
            messages = refusals(response)
            assert messages, f"{where}: refused without a message"
            unreadable = [m for m in messages if UNREADABLE.search(m)]
            assert not unreadable, f"{where}: {unreadable}"
            assert snapshot(models) == before, f"{where}: something was saved"
            drawn.full = False

    drawn.full = True

    response = client.post(url, good)
    assert response.status_code == 302, (url, response.context and refusals(response))
    assert page.saved(world), url


def test_a_board_never_shrinks_under_its_pieces(world):
    client = Client()
    client.force_login(world.gm)
    url = reverse("admin:campaigns_campaign_change", args=[world.ew.pk])
    shown = client.get(url)
    base, models = page_post(shown), written_models(shown)
    before = snapshot(models)
    response = client.post(url, with_overrides(base, {"board-0-width": 8}))  # Villain at x=8
    assert response.status_code == 200
    assert any("Villain" in m and "8 x 15" in m for m in refusals(response)), refusals(response)
    assert snapshot(models) == before
    response = client.post(url, with_overrides(base, {"board-0-width": 9, "board-0-height": 9}))
    assert response.status_code == 302
    world.ew.board.refresh_from_db()
    assert (world.ew.board.width, world.ew.board.height) == (9, 9)
