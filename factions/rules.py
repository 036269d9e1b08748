"""Object permissions on factions (django-rules): who manages, who sees the member list."""

import rules

from campaigns.permissions import oversees

from factions.models import JoinRequest, Membership


@rules.predicate
def is_faction_leader(user, faction) -> bool:
    return faction is not None and faction.leader.owner_id == user.pk


@rules.predicate
def is_faction_member(user, faction) -> bool:
    return faction is not None and Membership.objects.filter(
        faction=faction, character__owner_id=user.pk).exists()


@rules.predicate
def is_overseer(user, faction) -> bool:
    """The campaign's game masters (campaigns.permissions.oversees) see every member list."""
    return faction is not None and oversees(user, faction.campaign)


@rules.predicate
def is_public_faction(user, faction) -> bool:
    return faction is not None and faction.is_public


# Join requests and invitations: a request is made by the character's player and answered by
# the faction's leader; an invitation the other way round. The game master only watches.
@rules.predicate
def is_requesting_player(user, request) -> bool:
    return request is not None and request.character.owner_id == user.pk


@rules.predicate
def is_requested_leader(user, request) -> bool:
    return request is not None and request.faction.leader.owner_id == user.pk


@rules.predicate
def is_invitation(user, request) -> bool:
    return request is not None and request.kind == JoinRequest.Kind.INVITATION


rules.add_perm("factions.answer_request", rules.is_authenticated & (
    (~is_invitation & is_requested_leader) | (is_invitation & is_requesting_player)))
rules.add_perm("factions.withdraw_request", rules.is_authenticated & (
    (~is_invitation & is_requesting_player) | (is_invitation & is_requested_leader)))
rules.add_perm("factions.take_part", rules.is_authenticated & (is_requesting_player
                                                               | is_requested_leader))
rules.add_perm("factions.manage_faction", rules.is_authenticated & is_faction_leader)
rules.add_perm("factions.view_members",
               rules.is_authenticated & (is_public_faction | is_faction_leader | is_faction_member
                                         | is_overseer))
