"""Object permissions (django-rules): who may see and act with a character."""

import rules

from campaigns.permissions import oversees


@rules.predicate
def is_owner(user, character) -> bool:
    return character is not None and character.owner_id == user.pk


@rules.predicate
def is_overseer(user, character) -> bool:
    """Game masters (campaigns.permissions.oversees: the campaign's own, staff, superusers) see
    every sheet; only the player acts (campaigns.permissions.allowed reads these rules without
    Django's superuser short-cut)."""
    return character is not None and oversees(user, character.campaign)

can_view_sheet = is_owner | is_overseer
can_act = is_owner

rules.add_perm("characters.view_sheet", rules.is_authenticated & can_view_sheet)
rules.add_perm("characters.act", rules.is_authenticated & can_act)


def require_owner(user, character, reason: str = "not_your_character") -> None:
    """Let only the character's player through. Someone who may not even see the character
    is told it does not exist (NotFound, like a missing one); someone who may see it (the
    campaign's game master, staff) is told it is not theirs to play (Forbidden)."""
    from campaigns.errors import Forbidden, NotFound
    from campaigns.permissions import allowed

    if allowed(user, "characters.act", character):
        return
    if not allowed(user, "characters.view_sheet", character):
        raise NotFound("no_such_character")
    raise Forbidden(reason)
