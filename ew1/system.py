"""Eternal War One II as the registry sees it (campaigns.rule_systems.RuleSystemSpec).

The functions here are the spec's hooks; they import the EW1 modules when called (the spec is
built while the apps load, before the models may be imported).
"""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from ew1.labels import KINDS as LABELS
from gamerules.ew1.game import GAME_RULE
from gamerules.ew1.params import EW1Parameters


def refresh(character, *, params, now: datetime):
    """PA and PV of the loaded sheet brought up to ``now`` in memory (nothing written)."""
    from ew1.regeneration import sheet_refresh
    return sheet_refresh(character.ew1, params=params, now=now)


def new_sheet(character):
    """The default sheet of the character's kind, if it has none (the admin's save)."""
    from ew1.sheets import sheet_ensure
    return sheet_ensure(character=character)


def create_character(*, user, campaign, name: str, rng, now: datetime):
    """One-step creation: rolls FOR 3d6, DEF 3d6, TAI 2d6+6, INT 2d6+6, DEX 3d6, LUK 3d6 (each
    roll journaled), the level-1 skill bases, ``pa_base`` PA and ``pv_base`` PV, then a free
    cell of the board. Call inside a transaction, after ``new_character_name``. Raises BoardFull.
    Source: 000_afeb9d2c9ccd2b72.txt, "Caractéristiques de base des personnages", "Compétences
    de base"."""
    from campaigns.journal import roll_row
    from ew1.services import character_create_from_values
    from gamerules.ew1.characteristics import roll_characteristics
    rolled = roll_characteristics(rng)
    return character_create_from_values(
        user=user, campaign=campaign, name=name, values=rolled.values, rng=rng, now=now,
        summary={}, rolls=[roll_row(label=code, roll=r) for code, r in rolled.rolls.items()])


def in_use(campaign) -> bool:
    """Whether ``campaign`` holds creation drafts (they would be lost with its rule system)."""
    from ew1.models import CharacterDraft
    return CharacterDraft.objects.filter(campaign=campaign).exists()


def begin_creation(*, user, campaign, name: str) -> str:
    """The page's creation: a first steered roll in a draft; the next page is the draft's."""
    from ew1.creation import draft_roll
    draft = draft_roll(user=user, campaign=campaign, name=name)
    return reverse("ew1:draft", kwargs={"draft_id": draft.pk})


def sheet_view(*, character, log, now: datetime):
    """The character page's view (ew1.selectors.SheetView): PA and PV regenerated in
    memory, the level progress, the inventory (one query, equipped items first)."""
    from ew1.regeneration import sheet_refresh
    from ew1.selectors import SheetView
    from gamerules.ew1.progression import level_progress
    sheet = character.ew1
    pa, pv = sheet_refresh(sheet, params=character.campaign.parameters, now=now)
    items = list(character.items.select_related("template").order_by("-equipped", "id"))
    return SheetView(character, level_progress(sheet.xp), pa, pv, log, now, items)


def gm_summary(characters, *, campaign, now: datetime):
    """The GM screen's rows (ew1.gm.gm_summary)."""
    from ew1.gm import gm_summary as rows
    return rows(characters, campaign=campaign, now=now)


# The journal's kinds EW1's services write (campaigns.journal.register_kinds); the board's
# and the magic's are declared by combat and magic; templates/ew1/_log_entry.html renders them.
JOURNAL_KINDS = ("create", "level_up", "item_grant", "use_item")

SPEC = rule_systems.RuleSystemSpec(
    code="ew1",
    name="Eternal War One II",
    parameters=EW1Parameters,
    rules_package="gamerules.ew1",
    play_mode=rule_systems.BOARD,
    sheet_related_name="ew1",
    refresh=refresh,
    new_sheet=new_sheet,
    create_character=create_character,
    begin_creation=begin_creation,
    creation_steps=_("the characteristics are rolled at once; then you may reroll them "
                     "and move a few points"),
    in_use=in_use,
    # The board (combat) and the magic are EW1's apps too: their pages live under characters/.
    urls=(("characters/", "ew1.urls"), ("characters/", "combat.urls"),
          ("characters/", "magic.urls")),
    api_urls=("magic.api", "combat.api_urls", "ew1.api_urls"),
    sheet_view=sheet_view,
    templates=rule_systems.Templates(
        sheet="ew1/_sheet.html",
        gauges="ew1/_gauges.html",
        list_columns="ew1/_list_columns.html",
        list_cells="ew1/_list_cells.html",
        member_columns="ew1/_member_columns.html",
        member_cells="ew1/_member_cells.html",
        log_entry="ew1/_log_entry.html",
    ),
    leaderboard=(
        rule_systems.LeaderboardColumn("level", _("Level"), ("-ew1__level", "-ew1__xp", "name"),
                                       lambda c: c.ew1.level),
    ),
    serializers={
        "sheet": "ew1.serializers.SheetSerializer",
        "summary": "ew1.serializers.SummarySerializer",
        "row": "ew1.serializers.RowSerializer",
        "member": "ew1.serializers.MemberRowSerializer",
    },
    character_admin="ew1.admin.EternalWarCharacterAdmin",
    # The chat's /roll d100 <= N: d100 <= N succeeds, no perfect (the perfect is the attacks').
    free_test_rule=lambda params: GAME_RULE,
    labels=LABELS,
    gm_summary=gm_summary,
    # The spell is the magic's (above EW1): named by its dotted path, imported when called.
    gm_actions=(
        rule_systems.GmAction("item", _("Give"), "ew1/gm/_item.html", "ew1.gm.grant_item",
                              choices="ew1.gm.item_choices"),
        rule_systems.GmAction("spell", _("Teach"), "ew1/gm/_spell.html", "magic.gm.grant_spell",
                              choices="magic.gm.spell_choices"),
    ),
    api_enums={"AttackKindEnum": "gamerules.ew1.attacks.KINDS",
               "ItemKindEnum": "ew1.models.ItemTemplate.Kind"},
)
