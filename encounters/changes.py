"""Changes made outside an encounter step that its pages show (issue 17, item 7): the encounters
concerned locked and their versions bumped, pushed once the caller's transaction commits.

What an encounter page shows is not all the encounter's: the sheets' gauges (HP and MP,
damage, wounds, stress, Moxie, conditions), the gear and its ammunition, a system's panel
(Eclipse Phase's TACNet). A service that changes one of them outside an encounter step (a
GM's rest or healing, stress inflicted, a network created) calls one of these in its
transaction, so every open page that shows it refreshes (pushed on commit, nothing on
rollback). Locking order: like a step, they lock the encounters (in id order) before the
caller locks its sheets, so call them first, before the sheets' lock: a step locks its
encounter, then the sheets; the other order could deadlock with it.

Imports only the opening (encounters.access) among the encounter's modules.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from campaigns.errors import NotFound
from campaigns.models import Campaign, EnemyState
from campaigns.permissions import oversees
from encounters import push
from encounters.access import encounter_changed, lock_encounter
from encounters.errors import EncounterInvalid
from encounters.models import Combatant, Encounter


def encounter_touch(*, encounter_id: int) -> Encounter:
    """Something a rule system keeps about this encounter changed (its pages show it): the
    encounter is locked and its version bumped, so the pages refresh (pushed once the
    transaction commits). The caller checked who may; call inside its transaction. Raises
    EncounterNotFound."""
    encounter = lock_encounter(encounter_id)
    encounter_changed(encounter)
    return encounter


def characters_changed(character_ids: Iterable[int]) -> list[int]:
    """The characters ``character_ids`` changed in what an encounter page shows of them: every
    encounter not ended where one of them fights (not removed) gets its version bumped, pushed
    once the transaction commits. Call it first in the caller's transaction (see above). Two
    queries whatever the numbers of characters and encounters (none for no character): the
    encounters locked in id order, one UPDATE. Returns the encounters' ids."""
    ids = sorted({int(i) for i in character_ids})
    if not ids:
        return []
    return _bump(Encounter.objects.filter(pk__in=Combatant.objects.filter(
        character_id__in=ids, removed=False).values("encounter_id")))


def campaign_changed(campaign_id: int) -> list[int]:
    """Something every encounter page of the campaign shows changed (Eclipse Phase: a TACNet
    created, a member joining or leaving, shown on the GM's page of each encounter): the
    version of each of its encounters not ended bumped, pushed on commit. Two queries; call it
    first in the caller's transaction (see above). Returns the encounters' ids."""
    return _bump(Encounter.objects.filter(campaign_id=campaign_id))


def _bump(encounters) -> list[int]:
    rows = list(encounters.exclude(state=Encounter.State.ENDED).select_for_update()
                .order_by("pk").values_list("pk", "version"))
    if not rows:
        return []
    Encounter.objects.filter(pk__in=[pk for pk, _v in rows]).update(version=F("version") + 1)
    for pk, version in rows:  # locked: nothing else moved them meanwhile
        push.announce(pk, version + 1)
    return [pk for pk, _v in rows]


def enemy_state_set(*, user, campaign_id: int, value: str) -> Campaign:
    """The game master's choice of what the campaign's players read of their enemies' state
    in its encounters (``Campaign.enemy_state``: "exact", "described" or "hidden";
    encounters.glance): saved, and every encounter of the campaign not ended refreshed (its
    version bumped, pushed on commit: the pages' cached bodies are per version). Four queries:
    the campaign locked, the encounters locked, their UPDATE, the campaign's. Raises NotFound
    ("no_such_campaign": missing, or not overseen by ``user``), EncounterInvalid
    ("unknown_enemy_state")."""
    from django.db import transaction

    if value not in EnemyState.values:
        raise EncounterInvalid(code="unknown_enemy_state", value=str(value)[:40])
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        if campaign is None or not oversees(user, campaign):
            raise NotFound("no_such_campaign")
        if campaign.enemy_state != value:
            _bump(Encounter.objects.filter(campaign_id=campaign_id))
            campaign.enemy_state = value
            campaign.save(update_fields=["enemy_state"])
    return campaign
