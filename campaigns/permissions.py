"""The one question every surface asks before showing or doing something on a character or a
faction: ``allowed(user, "characters.act", character)``.

The answers are the rules of ``characters/rules.py`` and ``factions/rules.py``, and nothing else.
``user.has_perm`` is not used for them because Django lets an active superuser through every
permission before any rule is read, which let a superuser play other people's characters. Game
masters (the campaign's, staff, superusers) see everything read-only; they change the game only
through the admin (README, "Game masters").

Who is who, defined here once: **the game master** of a campaign (``Campaign.game_master``) and
**overseers** (staff, superusers) both *oversee* it (:func:`oversees`; a co-GM would be added
there); **a player** owns characters of it; **a stranger** has neither. What each may do with a
character is the table of ``characters/rules.py`` (view_sheet, act, play, manage), which every
system's actions and the encounter read (``tests/permissions/test_role_matrix.py`` runs the same
matrix of roles through each); a campaign's GM-only steps ask :func:`oversees`."""

from __future__ import annotations

import rules


def oversees(user, campaign) -> bool:
    """The game master's power, defined once: whether ``user`` oversees ``campaign`` (sees every
    sheet and member list of it, read-only): its own game master, staff, superusers. The rules
    of characters and factions read it for the campaign of their object."""
    return campaign is not None and oversees_campaign_of(user, campaign.game_master_id)


def oversees_campaign_of(user, game_master_id: int | None) -> bool:
    """``oversees`` for a campaign known only by its game master's id (a ``values()`` read)."""
    if user is None or not user.is_authenticated:
        return False
    return game_master_id == user.pk or oversees_every_campaign(user)


def oversees_every_campaign(user) -> bool:
    """Staff and superusers oversee every campaign; anyone else only those they master."""
    return bool(user is not None and user.is_authenticated
                and (user.is_staff or user.is_superuser))


def allowed(user, perm: str, obj=None) -> bool:
    """Whether ``user`` (anonymous or inactive: never) has the object permission ``perm`` on
    ``obj``, by its rule alone (no superuser short-cut)."""
    if user is None or not user.is_active:
        return False
    return rules.has_perm(perm, user, obj)
