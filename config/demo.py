"""The demo campaigns, loaded by ``manage.py load_demo`` (config, on top, loads every system's):
one of Eternal War One II (a GM, two players with characters side by side, the seed's items and
spells: 000_afeb9d2c9ccd2b72.txt, "Objets" and "La magie"), then every other registered system's
(RuleSystemSpec.demo: homebrew.demo, eclipse.demo)."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns import rule_systems
from campaigns.models import Board, Campaign, RuleSystem
from characters.models import Character
from characters.services import character_create
from ew1.equipment import item_grant
from ew1.models import ItemInstance, ItemModifier, ItemTemplate
from ew1.services import piece_create
from magic.models import KnownSpell, Scroll, Spell
from magic.spellbook import spell_grant

DEMO_CAMPAIGN = "Eternal War: demo"
DEMO_PASSWORD = "percentile-demo"
GM = "gm"
PLAYERS = (("alice", "Aldric", (5, 5)), ("bob", "Brenna", (6, 5)))

ITEMS = [
    # name, kind, category, damage dice, weapon skill (ca), range, armour, modifiers
    ("Masse à deux mains", "melee", "legendary", "2d6+1", 10, 1, 0, []),
    ("Épée à deux mains", "melee", "standard", "1d8+2", 5, 1, 0, [("DEF", "-1d3"), ("FOR", "+1d3")]),
    ("Arc court", "ranged", "standard", "1d6", 5, 6, 0, [("DEX", "+1d2")]),
    ("Armure lourde", "armour", "standard", "", 0, 1, 2, [("FOR", "-1d3"), ("DEF", "+1d3+1")]),
    ("Potion de soin", "misc", "standard", "", 0, 1, 0, []),
]
HEALING = {"Potion de soin": "1d6+1"}
# Who starts with what (item name, equipped).
STARTING_ITEMS = {
    "Aldric": [("Masse à deux mains", True), ("Potion de soin", False)],
    "Brenna": [("Arc court", True), ("Armure lourde", True), ("Potion de soin", False)],
}
STARTING_SPELLS = {"Aldric": ["Boule de feu", "Soin"], "Brenna": ["Bouclier"]}
SCROLLS = [("Météore", (3, 8))]
PIECES = [  # kind, name, (x, y), PV, fixed damage reduction
    ("creature", "Loup des cendres", (9, 9), 30, 1),
    ("door", "Porte de la citadelle", (0, 6), 50, 3),
]

SPELLS = [
    # name, tier, effect, dice, range, zone radius, reach, duration hours
    ("Boule de feu", "base", "damage", "1d6+1", 5, 0, "everyone", 0),
    ("Soin", "base", "heal", "1d6+1", 3, 0, "everyone", 0),
    ("Bouclier", "base", "shield", "1d4+1", 0, 0, "everyone", 24),
    ("Météore", "advanced", "damage", "2d6+2", 6, 0, "everyone", 0),
    ("Régénération", "advanced", "heal", "2d6+2", 3, 0, "everyone", 0),
    # No "/ 24h" in the seed: it lasts the campaign's shield_duration_hours.
    ("Protection", "advanced", "shield", "2d4+2", 3, 0, "everyone", 0),
    ("Explosion", "zone", "damage", "1d6+1", 5, 2, "everyone", 0),
    ("Guérison de groupe", "zone", "heal", "1d6+1", 3, 2, "allies", 0),
    ("Barrière", "zone", "shield", "1d4+1", 0, 2, "allies", 24),
]


@transaction.atomic
def load_demo(*, seed: int = 100) -> Campaign | None:
    """Create the demo campaign unless a campaign exists already. Returns it, or None."""
    if Campaign.objects.exists():
        return None
    rng = random.Random(seed)
    users = get_user_model().objects
    gm = users.create_superuser(GM, "gm@example.invalid", DEMO_PASSWORD)
    campaign = Campaign.objects.create(
        name=DEMO_CAMPAIGN, rule_system=RuleSystem.ETERNAL_WAR, game_master=gm,
        description="Demo campaign of Eternal War One II.")
    board = Board.objects.create(campaign=campaign, width=12, height=12)
    now = timezone.now()
    players = {}
    for username, name, (x, y) in PLAYERS:
        player = players[username] = users.create_user(username, f"{username}@example.invalid",
                                                       DEMO_PASSWORD)
        character = character_create(user=player, campaign=campaign, name=name, rng=rng, now=now)
        # Side by side, and past their first action so that they can be attacked at once.
        Character.objects.filter(pk=character.pk).update(board=None, x=None, y=None)
        Character.objects.filter(pk=character.pk).update(board=board, x=x, y=y,
                                                         first_action_at=now)
    templates = {}
    for name, kind, category, dice_, ca, rng_cells, armour, modifiers in ITEMS:
        item = ItemTemplate.objects.create(
            campaign=campaign, name=name, kind=kind, category=category, damage_dice=dice_,
            weapon_skill=ca, range_cells=rng_cells, armour=armour, heal_dice=HEALING.get(name, ""))
        ItemModifier.objects.bulk_create(
            [ItemModifier(item=item, stat=stat, dice=d) for stat, d in modifiers])
        templates[name] = item
    for character in Character.objects.filter(campaign=campaign, name__in=STARTING_ITEMS):
        for item_name, equipped in STARTING_ITEMS[character.name]:
            instance = item_grant(character=character, template=templates[item_name], rng=rng,
                                  now=now)
            if equipped:
                ItemInstance.objects.filter(pk=instance.pk).update(equipped=True)
    for kind, name, (x, y), pv, reduction in PIECES:
        piece_create(campaign=campaign, kind=kind, name=name, x=x, y=y, pv=pv,
                     fixed_reduction=reduction, now=now)
    spells = {s.name: s for s in Spell.objects.bulk_create([
        Spell(campaign=campaign, name=n, tier=t, effect=e, dice=d, range_cells=r, zone_radius=z,
              reach=reach, duration_hours=h)
        for n, t, e, d, r, z, reach, h in SPELLS])}
    for character in Character.objects.filter(campaign=campaign, name__in=STARTING_SPELLS):
        for spell_name in STARTING_SPELLS[character.name]:
            spell_grant(character=character, spell=spells[spell_name],
                        source=KnownSpell.Source.GRANTED, now=now)
    for spell_name, (x, y) in SCROLLS:
        Scroll.objects.create(board=board, x=x, y=y, spell=spells[spell_name])
    demo_emails_verified([gm, *players.values()])
    load_system_demos(gm=gm, players=players, now=now)
    return campaign


def demo_emails_verified(users) -> None:
    """Each demo user's e-mail address as allauth's verified, primary address (accounts), so
    that they log in when ACCOUNT_EMAIL_VERIFICATION is mandatory; an address recorded
    already is left as it is."""
    from allauth.account.models import EmailAddress

    known = set(EmailAddress.objects.filter(user__in=users).values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create([
        EmailAddress(user=user, email=user.email, verified=True, primary=True)
        for user in users if user.pk not in known and user.email])


def load_system_demos(*, gm, players: dict, now) -> list[Campaign]:
    """Every registered rule system's demo (RuleSystemSpec.demo) whose campaign
    (``demo_campaign``) does not exist yet, with ``gm`` and ``players`` (username -> user).
    Returns the campaigns made. EW1's demo is this module's own (load_demo): it spans ew1, the
    board and the magic, and only config sits above all three."""
    made = []
    for spec in rule_systems.registered():
        if spec.demo is None or Campaign.objects.filter(name=spec.demo_campaign).exists():
            continue
        made.append(spec.demo(gm=gm, players=players, now=now))
    return made
