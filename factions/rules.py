"""Object permissions on factions (django-rules): who manages, who sees the member list."""

import rules

from factions.models import Membership


@rules.predicate
def is_faction_leader(user, faction) -> bool:
    return faction is not None and faction.leader.owner_id == user.pk


@rules.predicate
def is_faction_member(user, faction) -> bool:
    return faction is not None and Membership.objects.filter(
        faction=faction, character__owner_id=user.pk).exists()


@rules.predicate
def is_campaign_game_master(user, faction) -> bool:
    return faction is not None and faction.campaign.game_master_id == user.pk


@rules.predicate
def is_public_faction(user, faction) -> bool:
    return faction is not None and faction.is_public


rules.add_perm("factions.manage_faction", rules.is_authenticated & is_faction_leader)
rules.add_perm("factions.view_members",
               rules.is_authenticated & (is_public_faction | is_faction_leader | is_faction_member
                                         | is_campaign_game_master | rules.is_staff
                                         | rules.is_superuser))
