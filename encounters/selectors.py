"""Reading an encounter: what the GM's page, the player's page and the API show, in a fixed
number of queries whatever the number of combatants (pinned in tests/encounters)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q

from campaigns import rule_systems
from campaigns.models import ActionRecord, Campaign
from campaigns.permissions import oversees, oversees_campaign_of, oversees_every_campaign
from encounters import hooks
from encounters.errors import EncounterNotFound
from encounters.models import Combatant, Encounter, EncounterEffect, PendingReaction
from encounters.services import can_see, controls, is_gm
from gamerules.encounter.reactions import Status

LOG_SIZE = 20
GROUND_PX, GROUND_MARGIN, GROUND_MIN_M = 320, 30, 10.0  # the map: pixels, margin, metres


@dataclass
class EncounterView:
    """``combatants``: in play order, then those out of it (hidden ones for the GM only);
    ``mine``: ids of the combatants the user plays; ``reactions``: the pending prompts the user
    may answer (all of them for the GM); ``log``: the latest journal entries of the encounter,
    rolls prefetched; ``spec``: the campaign's rule system (None when not registered)."""

    encounter: Encounter
    gm: bool
    combatants: list[Combatant]
    effects: list[EncounterEffect]
    reactions: list[PendingReaction]
    log: list[ActionRecord]
    mine: set[int] = field(default_factory=set)
    spec: Any = None

    @property
    def current(self) -> Combatant | None:
        return next((c for c in self.combatants if c.pk == self.encounter.current_id), None)

    @property
    def in_order(self) -> list[Combatant]:
        return [c for c in self.combatants if c.rank is not None and not c.removed]

    @property
    def out_of_order(self) -> list[Combatant]:
        return [c for c in self.combatants if c.rank is None or c.removed]

    @property
    def my_turn(self) -> bool:
        return self.encounter.current_id in self.mine

    @property
    def ground(self) -> dict[str, Any] | None:
        """The small map of the combatants in play that have a position (None when none has):
        metres to pixels, north up (y grows upwards), the whole fitted in GROUND_PX with a
        margin, at least GROUND_MIN_M across."""
        placed = [(c, c.point.as_floats()) for c in self.combatants
                  if c.point is not None and not c.removed]
        if not placed:
            return None
        xs, ys = [p[0] for _c, p in placed], [p[1] for _c, p in placed]
        span = max(max(xs) - min(xs), max(ys) - min(ys), GROUND_MIN_M)
        scale = (GROUND_PX - 2 * GROUND_MARGIN) / span
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        half = GROUND_PX / 2
        dots = [{"name": c.name, "current": c.pk == self.encounter.current_id,
                 "cx": round(half + (x - cx) * scale), "cy": round(half - (y - cy) * scale)}
                for c, (x, y) in placed]
        return {"width": GROUND_PX, "height": GROUND_PX, "dots": dots,
                "metres": round(span, 1)}

    @property
    def reaction_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).reaction

    @property
    def panel_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).panel

    @property
    def actions_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).actions

    def label(self, key: str) -> Any:
        """The system's label of ``key``; "<key>:<character id>" (a parry for that ally)
        reads "<label> (<combatant's name>)"."""
        labels = getattr(self.spec, "action_labels", {}) or {}
        if key in labels:
            return labels[key]
        base, _sep, ref = key.partition(":")
        if ref and base in labels:
            name = next((c.name for c in self.combatants if str(c.character_id) == ref), ref)
            return f"{labels[base]} ({name})"
        return key


def encounter_version(*, user, encounter_id: int) -> tuple[int, datetime | None] | None:
    """(version, pending reaction's deadline) of an encounter ``user`` may see, else None: one
    query (the polls' cost)."""
    row = (Encounter.objects.filter(pk=encounter_id)
           .annotate(mine=Exists(Combatant.objects.filter(
               encounter=OuterRef("pk"), character__owner_id=user.pk, removed=False)))
           .values_list("version", "reaction_deadline", "campaign__game_master_id", "mine")
           .first())
    if row is None:
        return None
    version, deadline, gm_id, mine = row
    if not (mine or oversees_campaign_of(user, gm_id)):
        return None
    return version, deadline


def encounter_view(*, user, encounter_id: int) -> EncounterView:
    """Everything a page shows. Raises EncounterNotFound for an encounter the user may not
    see (the GM's, or one where the user plays a combatant). Queries: encounter and campaign,
    combatants with characters (and their sheets), effects, pending reactions, the log and its
    rolls: 6."""
    encounter = (Encounter.objects.select_related("campaign").filter(pk=encounter_id).first())
    if encounter is None:
        raise EncounterNotFound()
    spec = rule_systems.get(encounter.campaign.rule_system)
    combatants_qs = encounter.combatants.select_related("character")
    if spec is not None and spec.sheet_related_name:
        combatants_qs = combatants_qs.select_related(f"character__{spec.sheet_related_name}")
    combatants = list(combatants_qs)
    if not can_see(user, encounter, combatants):
        raise EncounterNotFound()
    gm = is_gm(user, encounter)
    if not gm:
        combatants = [c for c in combatants if not c.hidden]
    combatants.sort(key=lambda c: (c.rank is None or c.removed, c.rank or 0, c.position, c.pk))
    by_id = {c.pk: c for c in combatants}
    mine = {c.pk for c in combatants if controls(user, encounter, c) and
            (gm or c.character is not None)}
    effects = list(encounter.effects.filter(expired_round__isnull=True)
                   .select_related("anchor", "bearer"))
    if not gm:
        effects = [e for e in effects if e.anchor_id in by_id and
                   (e.bearer_id is None or e.bearer_id in by_id)]
    reactions = [r for r in encounter.reactions.filter(status=Status.PENDING)
                 if gm or r.target_id in mine]
    for r in reactions:
        r.actor_cached, r.target_cached = by_id.get(r.actor_id), by_id.get(r.target_id)  # type: ignore[attr-defined]
    log = list(ActionRecord.objects.filter(campaign=encounter.campaign)
               .filter(Q(summary__encounter=encounter.pk))
               .select_related("actor", "target").prefetch_related("rolls")[:LOG_SIZE])
    return EncounterView(encounter=encounter, gm=gm, combatants=combatants, effects=effects,
                         reactions=reactions, log=log, mine=mine, spec=spec)


def encounters_of(*, user, campaign_id: int) -> tuple[bool, list[Encounter]]:
    """(whether the user oversees the campaign, the campaign's encounters the user may see:
    all for its GM, else those where the user plays a combatant). Raises EncounterNotFound for
    a missing campaign, or one where the user is neither the GM nor owns a character (a player
    of the campaign in no encounter sees an empty list)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise EncounterNotFound()
    qs = Encounter.objects.filter(campaign=campaign).select_related("campaign")
    if oversees(user, campaign):
        return True, list(qs)
    rows = list(qs.filter(combatants__character__owner_id=user.pk,
                          combatants__removed=False).distinct())
    if not rows and not campaign.characters.filter(owner_id=user.pk).exists():
        raise EncounterNotFound()
    return False, rows


def campaigns_with_encounters(*, user) -> list[Campaign]:
    """The campaigns of a turn-based rule system (RuleSystemSpec.play_mode ENCOUNTER) that
    ``user`` runs as game master or plays a character in, by name: one query. Staff see every
    such campaign (they oversee all)."""
    codes = [s.code for s in rule_systems.registered() if s.play_mode == rule_systems.ENCOUNTER]
    qs = Campaign.objects.filter(rule_system__in=codes)
    if not oversees_every_campaign(user):
        qs = qs.filter(Q(game_master_id=user.pk) | Q(characters__owner_id=user.pk))
    return list(qs.distinct().order_by("name"))
