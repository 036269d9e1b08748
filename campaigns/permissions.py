"""The one question every surface asks before showing or doing something on a character or a
faction: ``allowed(user, "characters.act", character)``.

The answers are the rules of ``characters/rules.py`` and ``factions/rules.py``, and nothing else.
``user.has_perm`` is not used for them because Django lets an active superuser through every
permission before any rule is read, which let a superuser play other people's characters. Game
masters (the campaign's, staff, superusers) see everything read-only; they change the game only
through the admin (README, "Game masters").

Who is who, defined here once: **the game master** of a campaign (``Campaign.game_master``),
its **co-game masters** (``CampaignMaster``, their ids kept on ``Campaign.co_master_ids``) and
**overseers** (staff, superusers) all *oversee* it (:func:`oversees`); only the game master and
overseers *own* it (:func:`owns`: add and remove co-GMs, docs/campaigns.md); **a player** owns
characters of it, and **a member** (``CampaignMember``) was admitted to a closed one by an
invitation or an accepted request (:func:`admits`: who may make a character in it); **a
stranger** has none of these. What each may do with a
character is the table of ``characters/rules.py`` (view_sheet, act, play, manage), which every
system's actions and the encounter read (``tests/permissions/test_role_matrix.py`` runs the same
matrix of roles through each); a campaign's GM-only steps ask :func:`oversees`."""

from __future__ import annotations

from collections.abc import Iterable

import rules


def oversees(user, campaign) -> bool:
    """The game master's power, defined once: whether ``user`` oversees ``campaign`` (sees every
    sheet and member list of it, read-only): its own game master, its co-game masters, staff,
    superusers. The rules of characters and factions read it for the campaign of their
    object. No query: the co-GMs' ids are a column of the campaign."""
    return campaign is not None and oversees_campaign_of(user, campaign.game_master_id,
                                                         campaign.co_master_ids)


def oversees_campaign_of(user, game_master_id: int | None,
                         co_master_ids: Iterable[int] | None) -> bool:
    """``oversees`` for a campaign known only by its game master's id and its co-game masters'
    (``Campaign.co_master_ids``: a ``values()`` read names both)."""
    if user is None or not user.is_authenticated:
        return False
    return (game_master_id == user.pk or user.pk in (co_master_ids or ())
            or oversees_every_campaign(user))


def owns(user, campaign) -> bool:
    """The powers of the game master alone, not of a co-GM: add and remove co-game masters
    (docs/campaigns.md). The game master, staff, superusers."""
    if campaign is None or user is None or not user.is_authenticated:
        return False
    return campaign.game_master_id == user.pk or oversees_every_campaign(user)


def oversees_every_campaign(user) -> bool:
    """Staff and superusers oversee every campaign; anyone else only those they master."""
    return bool(user is not None and user.is_authenticated
                and (user.is_staff or user.is_superuser))


def admits(user, campaign) -> bool:
    """Whether ``user`` may make a character in ``campaign`` (docs/campaigns.md, "Players"):
    anyone signed up and active when it is open (``Campaign.is_open``), else its members
    (``CampaignMember``: by an invitation or an accepted request) and whoever oversees it.
    Every system's character-creation path reads it (drafts and one-step creation alike) and
    the lists of campaigns to create in (campaigns.selectors.campaigns_admitting). Queries:
    none for an open campaign or an overseer, else one."""
    if campaign is None or user is None or not user.is_authenticated or not user.is_active:
        return False
    if campaign.is_open or oversees(user, campaign):
        return True
    from campaigns.models import CampaignMember
    return CampaignMember.objects.filter(campaign_id=campaign.pk, user_id=user.pk).exists()


def master_role(user, campaign) -> str | None:
    """What ``user`` is among the campaign's masters by name: "game_master", "co_master", or
    None (staff and superusers oversee without being named)."""
    if user.pk == campaign.game_master_id:
        return "game_master"
    return "co_master" if user.pk in campaign.co_master_ids else None


def may_remove_co_master(user, campaign, master_id: int) -> bool:
    """Who removes the co-game master ``master_id``: whoever :func:`owns` the campaign, or
    that co-GM themself (stepping down)."""
    return owns(user, campaign) or (
        user is not None and user.is_authenticated and user.pk == master_id
        and master_id in campaign.co_master_ids)


def allowed(user, perm: str, obj=None) -> bool:
    """Whether ``user`` (anonymous or inactive: never) has the object permission ``perm`` on
    ``obj``, by its rule alone (no superuser short-cut)."""
    if user is None or not user.is_active:
        return False
    return rules.has_perm(perm, user, obj)


# --- the admin (campaigns.admin_scope; docs/campaigns.md, "The admin for game masters") ---------

def mastered_campaign_ids(user) -> frozenset[int]:
    """The ids of the campaigns ``user`` masters (their game master, or a co-GM; not the
    campaigns staff oversee): one query, kept on the user object for the request. Empty for
    anonymous or inactive users."""
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, "_mastered_campaign_ids", None)
    if cached is None:
        from django.db.models import Q

        from campaigns.models import Campaign

        cached = frozenset(Campaign.objects.filter(
            Q(game_master_id=user.pk) | Q(masters__user_id=user.pk)).values_list("pk", flat=True))
        user._mastered_campaign_ids = cached
    return cached


def masters_any_campaign(user) -> bool:
    return bool(mastered_campaign_ids(user))


def may_use_admin(user) -> bool:
    """Who opens the Django admin: active staff, and any active user who masters a campaign
    (without ``is_staff``, which would make them oversee every campaign)."""
    return bool(user is not None and user.is_authenticated and user.is_active
                and (user.is_staff or masters_any_campaign(user)))


def sees_every_row(user, model) -> bool:
    """Whether the admin shows ``user`` every row of ``model``, unscoped: an active superuser,
    or staff whom Django's own permissions (``ModelBackend``: the user's and their groups')
    let view or change it, as before the game masters' scoping."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    if not user.is_staff:
        return False
    from django.contrib.auth.backends import ModelBackend

    backend, opts = ModelBackend(), model._meta
    return any(backend.has_perm(user, f"{opts.app_label}.{action}_{opts.model_name}")
               for action in ("view", "change"))


def is_active_superuser(user) -> bool:
    """Whether ``user`` is an active superuser: what the admin's spreadsheet buttons ask (a
    spreadsheet names its rows' campaigns, beyond any game master's scope)."""
    return bool(getattr(user, "is_active", False) and getattr(user, "is_superuser", False))
