"""The factions' live topics (campaigns.live, issue 17, item 7). Each reader lets in exactly who
may open the page that shows the topic:

* ``faction-<faction id>``: a faction's page (members, size, the viewer's requests and
  invitations) and its leader's page (requests, invitations, members). Who reads it: any
  signed-in user, as for the faction's page (factions.views.faction_detail; the leader's page
  answers only its leader, but an event carries nothing that page shows), while it exists;
* ``factions-<campaign id>``: a campaign's faction list (factions.views.faction_list): any
  signed-in user, while the campaign exists;
* ``user-<user id>``: what concerns one user across pages: the invitations and requests waiting
  for their answer (the Factions page, the navigation's count) and what their characters may
  join (the faction pages and lists they have open). Who reads it: that user only.

An event carries the topic and nothing else: the page refetches what its viewer may see.
:func:`changed` is what the factions services call, inside their transaction.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns import live

FACTION, LIST, USER = "faction", "factions", "user"


def can_read_faction(user, faction_id: int) -> bool:
    """One query."""
    from factions.models import Faction

    return Faction.objects.filter(pk=faction_id).exists()


def can_read_list(user, campaign_id: int) -> bool:
    """One query."""
    from campaigns.models import Campaign

    return Campaign.objects.filter(pk=campaign_id).exists()


def can_read_user(user, user_id: int) -> bool:
    """No query: only the user themself."""
    return user.pk == user_id


def register() -> None:
    """From FactionsConfig.ready."""
    live.register(FACTION, can_read_faction)
    live.register(LIST, can_read_list)
    live.register(USER, can_read_user)


def user_topic(user_id: int) -> str:
    return live.topic(USER, user_id)


def changed(*, campaign_id: int, factions: Iterable[int] = (),
            users: Iterable[int | None] = ()) -> None:
    """Announce, once the transaction commits, the campaign's faction list, the pages of
    ``factions`` (ids) and the user topics of ``users`` (ids; None, a character without a
    player, is skipped)."""
    live.announce_all([live.topic(LIST, campaign_id),
                       *(live.topic(FACTION, pk) for pk in factions),
                       *(user_topic(pk) for pk in users if pk is not None)])
