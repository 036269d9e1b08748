"""Object permissions (django-rules): who may see and act with a character."""

import rules

from campaigns.permissions import oversees


def owns_by_id(user, owner_id: int | None) -> bool:
    """``is_owner`` for a character known only by its owner's id (a ``values()`` read)."""
    return owner_id is not None and owner_id == user.pk


@rules.predicate
def is_owner(user, character) -> bool:
    return character is not None and character.owner_id == user.pk


@rules.predicate
def is_overseer(user, character) -> bool:
    """Game masters (campaigns.permissions.oversees: the campaign's own, staff, superusers) see
    every sheet; only the player acts (campaigns.permissions.allowed reads these rules without
    Django's superuser short-cut)."""
    return character is not None and oversees(user, character.campaign)

@rules.predicate
def is_players_character(user, character) -> bool:
    """A player's character: of the player kind and owned (a creature, a door, an extra or a
    player-kind character nobody owns is the game master's to play)."""
    return character is not None and character.owner_id is not None and character.is_player


def plays(user, character, campaign=None) -> bool:
    """``characters.play``: whether ``user`` takes ``character``'s actions in a game: its
    player for a player's character, whoever oversees the campaign for the others.
    ``campaign``: the character's, when the caller has it loaded already (no query)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if is_players_character(user, character):
        return character.owner_id == user.pk
    return oversees(user, campaign if campaign is not None else character.campaign)


can_view_sheet = is_owner | is_overseer
can_act = is_owner
can_play = rules.predicate(lambda user, character: plays(user, character), name="plays")
can_manage = is_owner | is_overseer

# The one table of who may do what with a character (campaigns.permissions says who is who):
# view_sheet  its player and whoever oversees the campaign (read-only for the overseers);
# act         its player only: what a player does from their own pages;
# play        who takes its actions in a game: its player, or the GM for every character that
#             is not a player's (creatures, extras, unowned characters);
# manage      its player and the GM: what the GM hands out or corrects on any sheet (an Eclipse
#             Phase body, gear).
rules.add_perm("characters.view_sheet", rules.is_authenticated & can_view_sheet)
rules.add_perm("characters.act", rules.is_authenticated & can_act)
rules.add_perm("characters.play", rules.is_authenticated & can_play)
rules.add_perm("characters.manage", rules.is_authenticated & can_manage)


def require_owner(user, character, reason: str = "not_your_character") -> None:
    """Let only the character's player through. Someone who may not even see the character
    is told it does not exist (NotFound, like a missing one); someone who may see it (the
    campaign's game master, staff) is told it is not theirs to play (Forbidden)."""
    require(user, "characters.act", character, reason, trusted_none=False)


def require(user, perm: str, character, reason: str = "not_your_character", *,
            trusted_none: bool = True) -> None:
    """Let through whoever has ``perm`` ("characters.act", "play", "manage") on ``character``;
    ``user`` None is a trusted caller (a beat task, the demo) unless ``trusted_none`` is off.
    Raises NotFound for someone who may not even see it (as for a missing one),
    Forbidden(``reason``) for someone who may."""
    from campaigns.errors import Forbidden, NotFound
    from campaigns.permissions import allowed

    if allowed(user, perm, character) or (user is None and trusted_none):
        return
    if not allowed(user, "characters.view_sheet", character):
        raise NotFound("no_such_character")
    raise Forbidden(reason)
