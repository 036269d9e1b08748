"""Items owned by characters: granting (modifier dice rolled once), equipping, using, and the
loadout that attacks read.

Source: 000_afeb9d2c9ccd2b72.txt, "Objets" (one melee and one ranged weapon at most, several
armours and misc items; standard items modify skill tests and damage-reduction rolls, legendary
ones go straight to damage or armour) and "Calcule de la réductions de dégâts" (the examples of
the épée à deux mains and the armure lourde).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotFound
from campaigns.journal import record_action, roll_row
from campaigns.permissions import allowed
from campaigns.versions import version_bump_pieces
from characters.models import Character
from ew1.actors import lock_sheets, spend_pa
from ew1.errors import MESSAGES
from ew1.models import ItemInstance, ItemTemplate
from ew1.regeneration import sheet_refresh
from gamerules.dice import RandomSource, roll
from gamerules.errors import RuleError
from gamerules.ew1 import errors
from gamerules.ew1.attacks import Weapon
from gamerules.ew1.healing import HealOutcome, resolve_heal

WEAPON_KINDS = (ItemTemplate.Kind.MELEE, ItemTemplate.Kind.RANGED)


class ItemError(RuleError):
    code = "invalid_item"
    messages = MESSAGES


@dataclass(frozen=True)
class Loadout:
    """What a character's equipped items add up to."""

    modifiers: dict[str, int] = field(default_factory=dict)  # standard items, by code
    armour: int = 0  # armour points + legendary armours' modifiers
    melee: Weapon | None = None
    ranged: Weapon | None = None


def loadout_of(items: Iterable[ItemInstance]) -> Loadout:
    """The loadout of ``items`` (instances with their template loaded); unequipped ones are
    ignored. Standard items' modifiers go to ``modifiers``; a legendary weapon's to its damage,
    a legendary armour's to ``armour``; a legendary misc item's modifiers have no effect (seed
    000, "Modificateurs": "pour les armes" / "pour les protections" only). No query."""
    modifiers: dict[str, int] = defaultdict(int)
    armour = 0
    weapons: dict[str, Weapon] = {}
    for item in items:
        if not item.equipped:
            continue
        t = item.template
        bonus = sum(item.modifier_values.values())
        legendary = t.category == ItemTemplate.Category.LEGENDARY
        if not legendary:
            for code, value in item.modifier_values.items():
                modifiers[code] += value
        armour += t.armour
        if t.kind in WEAPON_KINDS:
            weapons[t.kind] = Weapon(name=t.name, damage_dice=t.damage_dice,
                                     weapon_skill=t.weapon_skill, range_cells=t.range_cells,
                                     legendary_damage=bonus if legendary else 0)
        elif legendary and t.kind == ItemTemplate.Kind.ARMOUR:
            armour += bonus
        # A legendary misc item's modifiers go nowhere: the seed sends legendary bonuses to
        # damage (weapons) or armour (protections) only (docs/rules, "Legendary misc items").
    return Loadout(dict(modifiers), armour, weapons.get("melee"), weapons.get("ranged"))


@transaction.atomic
def item_grant(*, character: Character, template: ItemTemplate, rng: RandomSource | None = None,
               user=None, now: datetime | None = None) -> ItemInstance:
    """Give ``character`` an instance of ``template``; its modifier dice are rolled now, once,
    and journaled. Raises ItemError when the template belongs to another campaign."""
    if template.campaign_id not in (None, character.campaign_id):
        raise ItemError("item_belongs_another")
    rng = rng or random.SystemRandom()
    rolls: list[dict[str, Any]] = []
    values: dict[str, int] = {}
    for modifier in template.modifiers.order_by("pk"):  # a seed replays the same values
        r = roll(modifier.dice, rng)
        values[modifier.stat] = values.get(modifier.stat, 0) + r.total
        rolls.append(roll_row(label=f"item {modifier.stat}", roll=r, actor=character))
    item = ItemInstance.objects.create(template=template, owner=character,
                                       modifier_values=values)
    record_action(campaign=character.campaign, kind="item_grant", now=now or timezone.now(),
                  user=user, actor=character, summary={"item": template.name,
                                                       "modifiers": values}, rolls=rolls)
    return item


def _owned_item(*, user, character_id: int, item_id: int, lock: bool = True) -> ItemInstance:
    qs = ItemInstance.objects.select_related("template", "owner__campaign")
    if lock:
        qs = qs.select_for_update(of=("self",))
    # owner__id, not owner_id: an id past the database's range then matches nothing (a
    # foreign key's own lookup overflows SQLite's integers).
    item = qs.filter(pk=item_id, owner__id=character_id).first()
    if item is None:
        raise NotFound("no_such_item")
    if not allowed(user, "characters.act", item.owner):
        raise NotFound("no_such_item")
    return item


@transaction.atomic
def item_equip(*, user, character_id: int, item_id: int) -> ItemInstance:
    """Equip an item. A weapon replaces the equipped weapon of its kind (one melee, one ranged).
    Consumables are used, not equipped. Raises ItemError, NotFound."""
    item = _owned_item(user=user, character_id=character_id, item_id=item_id)
    if item.template.is_consumable:
        raise ItemError("consumable_not_equipped")
    if item.template.kind in WEAPON_KINDS:
        ItemInstance.objects.filter(owner_id=character_id, equipped=True,
                                    template__kind=item.template.kind).exclude(pk=item.pk).update(
            equipped=False)
    item.equipped = True
    item.save(update_fields=["equipped"])
    # Not journaled, but the owner's board shows the attacks it allows.
    version_bump_pieces(campaign_id=item.owner.campaign_id, actor=item.owner)
    return item


@transaction.atomic
def item_unequip(*, user, character_id: int, item_id: int) -> ItemInstance:
    item = _owned_item(user=user, character_id=character_id, item_id=item_id)
    item.equipped = False
    item.save(update_fields=["equipped"])
    version_bump_pieces(campaign_id=item.owner.campaign_id, actor=item.owner)
    return item


@transaction.atomic
def item_use(*, user, character_id: int, item_id: int, rng: RandomSource | None = None,
             now: datetime | None = None) -> HealOutcome:
    """Drink a healing consumable: ``use_item_cost_pa`` PA, heal its dice (capped at max PV), the
    item is gone. Works at 0 PV (the seed lets a downed character heal), not once disincarnated.
    Spending the PA is the character's first action if it had none: a level 0 character is no
    longer protected (seed 000, "Niveaux": "protégé jusqu'à sa première action").
    Raises ItemError, NotEnoughPA, DailyPACapReached, CannotAct, NotFound."""
    now = now or timezone.now()
    # The sheet first, as every action locks (then the item): see ew1.actors.lock_sheet_set.
    # Ownership is the item's check below (a stranger and the GM are both told "no such item").
    try:
        sheet, _ = lock_sheets(user=user, character_id=character_id, check_owner=False,
                               items=False)
    except NotFound:
        raise NotFound("no_such_item") from None
    item = _owned_item(user=user, character_id=character_id, item_id=item_id)
    if not item.template.is_consumable:
        raise ItemError("item_not_usable")
    character = sheet.character
    params = character.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    if not character.on_board or sheet.pv < 0:
        raise errors.CannotAct("disincarnated_no_items")
    protected = character.first_action_at is None
    spend_pa(sheet, params.use_item_cost_pa, now)
    outcome = resolve_heal(dice=item.template.heal_dice, pv=sheet.pv, pv_max=sheet.pv_max,
                           rng=rng or random.SystemRandom())
    sheet.pv = outcome.pv_after
    sheet.save()
    if protected:  # spending PA is an action: a level 0 character's protection ends here
        character.save(update_fields=["first_action_at", "last_action_at"])
    record_action(campaign=character.campaign, kind="use_item", now=now, user=user,
                  actor=character, cost=params.use_item_cost_pa,
                  summary={"item": item.template.name, "healed": outcome.healed,
                           "pv": outcome.pv_after},
                  rolls=[roll_row(label="heal", roll=outcome.roll, actor=character)])
    item.delete()
    return outcome
