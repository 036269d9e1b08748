"""Faction services: creation, joining (public at once, private by request or invitation),
leadership and membership management.

Source: 000_afeb9d2c9ccd2b72.txt, "Les factions" ("créées par les joueurs", "publiques ou
privées"). Concurrency: every leader operation locks the faction row and checks the leader again
under the lock; requests change state with a conditional UPDATE (only a pending one changes), so
two simultaneous answers, or an answer and a withdrawal, leave exactly one outcome.

Lock order, always: the acting character, then the faction, then requests and memberships. Rows
are locked FOR NO KEY UPDATE, which does not block the foreign-key checks of a membership or
request being inserted by another transaction (a plain FOR UPDATE on the character would, and
an answer inserting that character's membership could then deadlock with it).

Every service that changes what a faction page shows announces it (factions.live.changed, sent
once the transaction commits): the campaign's list, the factions touched, and the users whose
pages change (the character's player, the leader's player, those whose requests lapse).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.errors import Forbidden, InvalidInput, NotFound
from campaigns.journal import record_action
from campaigns.permissions import allowed
from characters.models import Character
from factions import live
from factions.errors import (AlreadyInFaction, FactionNameTaken, LeaderMustHandOver, NotAMember,
                             RequestClosed)
from factions.models import Faction, JoinRequest, Membership
from notifications.services import notify

NAME_MAX = 80


def _own_character(*, user, character_id: int, lock: bool = False) -> Character:
    qs = Character.objects.select_related("campaign")
    if lock:
        qs = qs.select_for_update(of=("self",), no_key=True)
    character = qs.filter(pk=character_id, owner_id=user.pk,
                          kind=Character.Kind.PLAYER).first()
    if character is None:
        raise NotFound("no_such_character")
    return character


def _locked_faction(faction_id: int) -> Faction:
    """The faction row locked, then its leader and campaign read (NotFound when missing).

    The lock is taken without a join: PostgreSQL re-checks a locked row that changed meanwhile
    against the query's conditions, and with the leader joined in, a faction whose leader was
    just handed over would drop out of the result and look missing."""
    faction = Faction.objects.select_for_update(no_key=True).filter(pk=faction_id).first()
    if faction is None:
        raise NotFound("no_such_faction")
    return (Faction.objects.select_related("leader", "campaign").get(pk=faction.pk))


def _led_faction(*, user, faction_id: int) -> Faction:
    """The faction locked, if ``user`` leads it. NotFound when missing, Forbidden otherwise."""
    faction = _locked_faction(faction_id)
    if not allowed(user, "factions.manage_faction", faction):
        raise Forbidden("only_faction_leader")
    return faction


def _join(faction: Faction, character: Character) -> Membership:
    """Make ``character`` a member; its other pending requests and invitations lapse (marked
    withdrawn), since a character belongs to one faction at most."""
    try:
        with transaction.atomic():
            membership = Membership.objects.create(faction=faction, character=character)
    except IntegrityError:
        raise AlreadyInFaction(name=character.name) from None
    lapsing = JoinRequest.objects.filter(character=character,
                                         state=JoinRequest.State.PENDING).exclude(faction=faction)
    lapsed = list(lapsing.values_list("faction_id", "faction__leader__owner_id"))
    if lapsed:
        lapsing.update(state=JoinRequest.State.WITHDRAWN, decided_at=timezone.now())
    live.changed(campaign_id=faction.campaign_id, factions=[faction.pk, *(f for f, _ in lapsed)],
                 users=[character.owner_id, *(u for _, u in lapsed)])
    return membership


# The journal's kinds (declared in factions.apps; templates/campaigns/_log_entry.html).
JOURNAL_KINDS = ("faction_create", "faction_join", "faction_leave", "faction_remove",
                 "faction_leader", "faction_dissolve")


def _journal(faction: Faction, kind: str, *, user, actor=None, target=None, **summary) -> None:
    record_action(campaign=faction.campaign, kind=kind, now=timezone.now(), user=user,
                  actor=actor, target=target, summary={"faction": faction.name, **summary})


@transaction.atomic
def faction_create(*, user, character_id: int, name: str, description: str = "",
                   is_public: bool = True, campaign_id: int | None = None) -> Faction:
    """Create a faction led by one of the user's characters, which becomes its first member.
    ``campaign_id``, when given (the campaign's page or endpoint), must be the character's.
    Raises InvalidInput (name, other campaign), FactionNameTaken, AlreadyInFaction, NotFound."""
    name = (name or "").strip()
    if not name or len(name) > NAME_MAX:
        raise InvalidInput("faction_name_length", name_max=NAME_MAX)
    character = _own_character(user=user, character_id=character_id, lock=True)
    if campaign_id is not None and character.campaign_id != campaign_id:
        raise InvalidInput("character_plays_another")
    if Membership.objects.filter(character=character).exists():
        raise AlreadyInFaction(name=character.name)
    if Faction.objects.filter(campaign=character.campaign, name__iexact=name).exists():
        raise FactionNameTaken(name=name)
    try:
        with transaction.atomic():
            faction = Faction.objects.create(campaign=character.campaign, name=name,
                                             description=(description or "").strip(),
                                             is_public=is_public, leader=character)
    except IntegrityError:
        raise FactionNameTaken(name=name) from None
    _join(faction, character)
    _journal(faction, "faction_create", user=user, actor=character)
    return faction


@transaction.atomic
def faction_join(*, user, character_id: int, faction_id: int) -> Membership | JoinRequest:
    """Join a public faction at once, or ask to join a private one (a pending request the leader
    answers). Raises AlreadyInFaction, InvalidInput (other campaign, request pending), NotFound.
    The faction is locked: a dissolution at the same moment either comes first (NotFound) or
    waits."""
    character = _own_character(user=user, character_id=character_id, lock=True)
    faction = _locked_faction(faction_id)
    if faction.campaign_id != character.campaign_id:
        raise InvalidInput("faction_belongs_another")
    if Membership.objects.filter(character=character).exists():
        raise AlreadyInFaction(name=character.name)
    if faction.is_public:
        membership = _join(faction, character)
        _journal(faction, "faction_join", user=user, actor=character)
        return membership
    try:
        with transaction.atomic():
            request = JoinRequest.objects.create(faction=faction, character=character,
                                                 kind=JoinRequest.Kind.REQUEST)
    except IntegrityError:
        raise InvalidInput("request_invitation_pending") from None
    _requests_changed(request)
    _told(request, code="faction_request", to=faction.leader.owner_id,
          link=reverse("factions:manage", args=[faction.pk]))
    return request


@transaction.atomic
def faction_invite(*, user, faction_id: int, character_id: int) -> JoinRequest:
    """The leader invites a character of the campaign that has no faction. Raises Forbidden,
    AlreadyInFaction, InvalidInput (other campaign, pending), NotFound."""
    faction = _led_faction(user=user, faction_id=faction_id)
    character = Character.objects.filter(pk=character_id, kind=Character.Kind.PLAYER).first()
    if character is None or character.campaign_id != faction.campaign_id:
        raise NotFound("no_such_character_campaign")
    if Membership.objects.filter(character=character).exists():
        raise AlreadyInFaction(name=character.name)
    try:
        with transaction.atomic():
            invitation = JoinRequest.objects.create(faction=faction, character=character,
                                                    kind=JoinRequest.Kind.INVITATION)
    except IntegrityError:
        raise InvalidInput("request_invitation_pending") from None
    _requests_changed(invitation)
    _told(invitation, code="faction_invitation", to=character.owner_id,
          link=reverse("factions:index"))
    return invitation


def _told(request: JoinRequest, *, code: str, to: int | None, link: str) -> None:
    """Notify ``to`` (a user id; None, nobody) of a request or invitation waiting for their
    answer (notifications, once the transaction commits; no query here)."""
    notify(users=[to], code=code, campaign_id=request.faction.campaign_id, link=link,
           params={"character": request.character.name, "faction": request.faction.name})


def _requests_changed(request: JoinRequest) -> None:
    """A request or invitation made or closed: the faction's pages, the campaign's list (its
    invitations), the requesting player's and the leader's pages (what waits for them). No
    query (``request.faction`` comes with its leader)."""
    live.changed(campaign_id=request.faction.campaign_id, factions=[request.faction_id],
                 users=[request.character.owner_id, request.faction.leader.owner_id])


def _close(request: JoinRequest, state: str, now: datetime) -> None:
    """Move a pending request to ``state``, or raise RequestClosed if it is no longer pending
    (conditional UPDATE: the database decides between racing answers)."""
    changed = JoinRequest.objects.filter(pk=request.pk, state=JoinRequest.State.PENDING).update(
        state=state, decided_at=now)
    if not changed:
        raise RequestClosed()
    request.state, request.decided_at = state, now


def _answerer_may(user, request: JoinRequest) -> bool:
    """Requests are answered by the leader, invitations by the invited character's player."""
    return allowed(user, "factions.answer_request", request)


def _request(request_id: int) -> JoinRequest:
    request = (JoinRequest.objects.select_related("faction__leader", "faction__campaign",
                                                  "character").filter(pk=request_id).first())
    if request is None:
        raise NotFound("no_such_request")
    return request


@transaction.atomic
def request_answer(*, user, request_id: int, accept: bool) -> JoinRequest:
    """Accept or refuse a pending request (the leader) or invitation (the invited player).
    Accepting makes the character a member. Raises RequestClosed, AlreadyInFaction, Forbidden,
    NotFound (a stranger is told the request does not exist). The faction is locked first (as
    a leader operation does), so the answer cannot interleave with a dissolution or a hand-over;
    a withdrawal at the same moment is settled by the conditional UPDATE."""
    request = _request(request_id)
    if not _answerer_may(user, request):
        if allowed(user, "factions.take_part", request):
            raise Forbidden("not_yours_answer")
        raise NotFound("no_such_request")
    request.faction = _locked_faction(request.faction_id)
    if not _answerer_may(user, request):  # the leadership changed while we waited
        raise Forbidden("not_yours_answer")
    now = timezone.now()
    _close(request, JoinRequest.State.ACCEPTED if accept else JoinRequest.State.REFUSED, now)
    _requests_changed(request)
    if accept:
        _join(request.faction, request.character)
        _journal(request.faction, "faction_join", user=user, actor=request.character)
    return request


@transaction.atomic
def request_withdraw(*, user, request_id: int) -> JoinRequest:
    """Withdraw one's own pending request (the requesting player) or invitation (the leader).
    Raises RequestClosed, Forbidden, NotFound."""
    request = _request(request_id)
    if not allowed(user, "factions.withdraw_request", request):
        if allowed(user, "factions.take_part", request):
            raise Forbidden("only_who_made")
        raise NotFound("no_such_request")
    _close(request, JoinRequest.State.WITHDRAWN, timezone.now())
    _requests_changed(request)
    return request


@transaction.atomic
def member_remove(*, user, faction_id: int, character_id: int) -> None:
    """The leader removes a member (not themself). Raises NotAMember, InvalidInput, Forbidden."""
    faction = _led_faction(user=user, faction_id=faction_id)
    if character_id == faction.leader_id:
        raise InvalidInput("leader_cannot_remove")
    membership = Membership.objects.filter(faction=faction, character__id=character_id)
    owners = list(membership.values_list("character__owner_id", flat=True))
    deleted, _ = membership.delete()
    if not deleted:
        raise NotAMember("character_not_member")
    live.changed(campaign_id=faction.campaign_id, factions=[faction.pk], users=owners)
    _journal(faction, "faction_remove", user=user, actor=faction.leader, member=character_id)


@transaction.atomic
def leadership_transfer(*, user, faction_id: int, character_id: int) -> Faction:
    """The leader hands the leadership to another member. Raises NotAMember, Forbidden."""
    faction = _led_faction(user=user, faction_id=faction_id)
    member = (Membership.objects.select_related("character")
              .filter(faction=faction, character__id=character_id).first())
    if member is None:
        raise NotAMember("new_leader_member")
    previous = faction.leader
    faction.leader = member.character
    faction.save(update_fields=["leader"])
    live.changed(campaign_id=faction.campaign_id, factions=[faction.pk],
                 users=[previous.owner_id, member.character.owner_id])
    _journal(faction, "faction_leader", user=user, actor=previous, target=member.character)
    return faction


@transaction.atomic
def faction_leave(*, user, character_id: int, faction_id: int | None = None) -> None:
    """A member leaves. A leader with other members must hand over first; a leader alone
    dissolves the faction. ``faction_id``, when given (the page or endpoint of one faction), must
    be the character's faction. The membership is read again under the faction's lock (a removal
    may have come first). Raises LeaderMustHandOver, NotAMember, NotFound."""
    character = _own_character(user=user, character_id=character_id, lock=True)
    membership = Membership.objects.filter(character=character).first()
    if membership is None or (faction_id is not None and membership.faction_id != faction_id):
        raise NotAMember("not_member_faction", name=character.name)
    faction = _locked_faction(membership.faction_id)
    membership = Membership.objects.filter(character=character, faction=faction).first()
    if membership is None:
        raise NotAMember("not_member_faction", name=character.name)
    if faction.leader_id == character.pk:
        if Membership.objects.filter(faction=faction).exclude(character=character).exists():
            raise LeaderMustHandOver()
        _dissolve(faction, user=user)
        return
    membership.delete()
    live.changed(campaign_id=faction.campaign_id, factions=[faction.pk],
                 users=[character.owner_id])
    _journal(faction, "faction_leave", user=user, actor=character)


@transaction.atomic
def faction_dissolve(*, user, faction_id: int) -> None:
    """The leader dissolves the faction: memberships and requests go with it."""
    _dissolve(_led_faction(user=user, faction_id=faction_id), user=user)


def _dissolve(faction: Faction, *, user) -> None:
    """Journal, then delete the faction (its memberships and requests go with it); its pages,
    its members' players and those of the characters it had pending requests with are told
    (two queries)."""
    owners = [*Membership.objects.filter(faction=faction).values_list("character__owner_id",
                                                                       flat=True),
              *JoinRequest.objects.filter(faction=faction, state=JoinRequest.State.PENDING)
              .values_list("character__owner_id", flat=True)]
    live.changed(campaign_id=faction.campaign_id, factions=[faction.pk],
                 users=[faction.leader.owner_id, *owners])
    _journal(faction, "faction_dissolve", user=user, actor=faction.leader)
    faction.delete()
