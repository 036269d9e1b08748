"""TACNet (issue 12, item 10): a squad's tactical network. Characters whose current sleeve has
mesh implants join a network of their campaign; its members see each other's state (wounds,
damage against DUR, the ammunition of their carried weapons) and what any member perceives of
the opponents in an encounter, which the game master marks; a member spots for another's
indirect fire.

Source: 001_e6266c120d4801b4.txt, "TACNet : tous les personnages possédant des implants mesh
[...] basiques peuvent se connecter ensemble en réseau (VPN) tactique", with "Mapping de cibles
[...] partagé entre individus quelque soit leur position et leur perception", "Tir indirects
avec « spotters »" and the members' "États physiques [...] nombre de tirs réalisés [...] Idem
pour leur coéquipiers". The choices are in docs/rules/eclipse-phase.md ("TACNet"):

- a character is in one network at a time; the game master manages the members; a player joins
  and leaves with their own character when the network is open to players
  (``SquadNetwork.open_to_players``, the table's choice, on by default);
- joining needs mesh implants in the current sleeve; resleeving into a body without them later
  does not drop the member (the table decides; the GM removes it);
- the GM marks an opponent perceived by a member, or by the network as a whole, with a note;
- indirect fire by a member needs a fellow member as spotter who perceives the target (the
  GM's mark by that member); an attacker in no network keeps the table's declared spotter.

Every change bumps the version of the encounters it shows in, pushed to their open pages
(issue 17, item 7): a network created, joined or left, every encounter of the campaign not
ended (the GM's page of each lists the networks and their members, a player's the networks it
may join: ``encounters.services.campaign_changed``); a mark set or cleared, its encounter.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Campaign, RuleSystem
from campaigns.permissions import allowed, oversees
from characters.services import _visible
from eclipse.environment import lock_for_gm, require_eclipse
from eclipse.models import CarriedWeapon, EclipseSheet, Perceived, SquadMember, SquadNetwork
from eclipse.play_errors import GameMasterOnly
from encounters.errors import EncounterConflict
from encounters.models import Combatant, Encounter
from encounters.services import campaign_changed, encounter_changed, is_gm
from gamerules.errors import RuleError, gettext_noop

NAME_MAX, NOTE_MAX = 80, 200

MESSAGES: dict[str, str] = {
    "ep_tacnet_refused": gettext_noop("This cannot be done on the TACNet."),
    "ep_tacnet_no_network": gettext_noop("No such TACNet in this campaign."),
    "ep_tacnet_name": gettext_noop("Give the network a name of 1 to %(max)s characters."),
    "ep_tacnet_name_taken": gettext_noop("A TACNet named %(name)s exists already."),
    "ep_tacnet_no_character": gettext_noop("No such Eclipse Phase character in this campaign."),
    "ep_tacnet_no_implants": gettext_noop(
        "%(name)s's sleeve has no mesh implants: it cannot join a TACNet."),
    "ep_tacnet_gm_only": gettext_noop(
        "Only the game master manages the members of %(network)s."),
    "ep_tacnet_not_yours": gettext_noop("You join or leave with your own characters only."),
    "ep_tacnet_already": gettext_noop("%(name)s is in the TACNet %(network)s already."),
    "ep_tacnet_not_member": gettext_noop("%(name)s is not in the TACNet %(network)s."),
    "ep_tacnet_not_opponent": gettext_noop(
        "%(name)s is in the TACNet: mark an opponent of the network."),
    "ep_tacnet_no_mark": gettext_noop("No such mark in this encounter."),
    "ep_tacnet_spotter_needed": gettext_noop(
        "Indirect fire on the TACNet needs a fellow member as spotter."),
    "ep_tacnet_spotter_blind": gettext_noop("%(name)s does not perceive %(target)s."),
}


class TacnetError(RuleError):
    code = "ep_tacnet_refused"
    messages = MESSAGES
    status = 400


class NoNetwork(TacnetError):
    code = "ep_tacnet_no_network"
    status = 404


class BadName(TacnetError):
    code = "ep_tacnet_name"


class NameTaken(TacnetError):
    code = "ep_tacnet_name_taken"
    status = 409


class NoCharacter(TacnetError):
    code = "ep_tacnet_no_character"
    status = 404


class NoImplants(TacnetError):
    code = "ep_tacnet_no_implants"
    status = 409


class ManagedByGm(TacnetError):
    code = "ep_tacnet_gm_only"
    status = 403


class NotYours(TacnetError):
    code = "ep_tacnet_not_yours"
    status = 403


class AlreadyMember(TacnetError):
    code = "ep_tacnet_already"
    status = 409


class NotMember(TacnetError):
    code = "ep_tacnet_not_member"
    status = 409


class NotOpponent(TacnetError):
    code = "ep_tacnet_not_opponent"


class NoMark(TacnetError):
    code = "ep_tacnet_no_mark"
    status = 404


class SpotterNeeded(TacnetError):
    code = "ep_tacnet_spotter_needed"


class SpotterBlind(TacnetError):
    code = "ep_tacnet_spotter_blind"
    status = 409


# --- checks ---------------------------------------------------------------------------------

def _plays_in(user, campaign: Campaign) -> bool:
    return user is not None and campaign.characters.filter(owner_id=user.pk).exists()


def _network(user, network_id: int, *, lock: bool = False) -> SquadNetwork:
    """The network with its campaign, for its GM or a player of its campaign. Raises
    NoNetwork (a stranger is not told it exists)."""
    qs = SquadNetwork.objects.select_related("campaign")
    if lock:
        qs = qs.select_for_update(of=("self",))
    network = qs.filter(pk=network_id).first()
    if network is None or not (user is None or oversees(user, network.campaign)
                               or _plays_in(user, network.campaign)):
        raise NoNetwork()
    return network


def network_for(*, user, network_id: int) -> SquadNetwork:
    """The network for its GM or a player of its campaign. Raises NoNetwork."""
    return _network(user, network_id)


def _may_manage(user, network: SquadNetwork, character) -> None:
    """The GM manages every member; a player their own characters when the network is open.
    Raises ManagedByGm, NotYours."""
    if user is None or oversees(user, network.campaign):
        return
    if not network.open_to_players:
        raise ManagedByGm(network=network.name)
    if not allowed(user, "characters.act", character):
        raise NotYours()


def _sheet(network: SquadNetwork, character_id: int) -> EclipseSheet:
    """The character's sheet, locked, with its character and current sleeve. Raises
    NoCharacter outside the network's campaign."""
    sheet = (EclipseSheet.objects.select_for_update(of=("self",))
             .select_related("character", "sleeve").filter(pk=character_id).first())
    if sheet is None or sheet.character.campaign_id != network.campaign_id:
        raise NoCharacter()
    return sheet


# --- services -------------------------------------------------------------------------------

def tacnet_create(*, user, campaign_id: int, name: str,
                  open_to_players: bool = True) -> SquadNetwork:
    """A new TACNet in an Eclipse Phase campaign (its GM). Raises NoNetwork (no such
    campaign, or another system's), GameMasterOnly, BadName, NameTaken."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or campaign.rule_system != RuleSystem.ECLIPSE_PHASE or not (
            user is None or oversees(user, campaign) or _plays_in(user, campaign)):
        raise NoNetwork()
    if user is not None and not oversees(user, campaign):
        raise GameMasterOnly()
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise BadName(max=NAME_MAX)
    try:
        with transaction.atomic():
            campaign_changed(campaign.pk)  # the GM's pages list it, the players' may join it
            return SquadNetwork.objects.create(campaign=campaign, name=name,
                                               open_to_players=open_to_players)
    except IntegrityError:
        raise NameTaken(name=name) from None


def tacnet_join(*, user, network_id: int, character_id: int,
                now: datetime | None = None) -> SquadMember:
    """``character_id`` joins the network: refused without mesh implants in its current sleeve
    (or without a sleeve), while it is in a network (leave it first), and for another's
    character or a network closed to players (the GM manages). Raises NoNetwork, NoCharacter,
    ManagedByGm, NotYours, NoImplants, AlreadyMember."""
    with transaction.atomic():
        network = _network(user, network_id, lock=True)
        campaign_changed(network.campaign_id)  # the encounters before the sheet, as a step
        sheet = _sheet(network, character_id)
        _may_manage(user, network, sheet.character)
        if sheet.sleeve is None or not sheet.sleeve.mesh_implants:
            raise NoImplants(name=sheet.character.name)
        existing = SquadMember.objects.filter(sheet=sheet).select_related("network").first()
        if existing is not None:
            raise AlreadyMember(name=sheet.character.name, network=existing.network.name)
        return SquadMember.objects.create(network=network, sheet=sheet,
                                          joined_at=now or timezone.now())


def tacnet_leave(*, user, network_id: int, character_id: int) -> None:
    """``character_id`` leaves the network; the marks of what it perceived go with it. Raises
    NoNetwork, NoCharacter, ManagedByGm, NotYours, NotMember."""
    with transaction.atomic():
        network = _network(user, network_id, lock=True)
        campaign_changed(network.campaign_id)  # the encounters before the sheet, as a step
        sheet = _sheet(network, character_id)
        _may_manage(user, network, sheet.character)
        member = SquadMember.objects.filter(sheet=sheet, network=network).first()
        if member is None:
            raise NotMember(name=sheet.character.name, network=network.name)
        member.delete()


def _gm_encounter(user, encounter_id: int) -> Encounter:
    """The encounter locked, for its GM, not ended. Raises EncounterNotFound,
    GameMasterOnly, EncounterConflict."""
    encounter = lock_for_gm(user, encounter_id, GameMasterOnly)
    if encounter.state == Encounter.State.ENDED:
        raise EncounterConflict(code="encounter_ended")
    return encounter


def _in_encounter(encounter: Encounter, combatant_id: int) -> Combatant:
    c = (Combatant.objects.select_related("character").filter(encounter=encounter,
                                                              pk=combatant_id).first())
    if c is None:
        raise NoCharacter()
    return c


def tacnet_perceive(*, user, encounter_id: int, network_id: int, opponent_id: int,
                    by_id: int | None = None, note: str = "",
                    now: datetime | None = None) -> Perceived:
    """The GM marks the combatant ``opponent_id`` as perceived by the member fighting as
    ``by_id`` (a combatant; None: by the network as a whole), with a note; marking it again
    replaces the note. Raises EncounterNotFound, GameMasterOnly, EncounterConflict, NoNetwork,
    NoCharacter, NotOpponent, NotMember."""
    with transaction.atomic():
        encounter = _gm_encounter(user, encounter_id)
        network = _network(user, network_id)
        if network.campaign_id != encounter.campaign_id:
            raise NoNetwork()
        opponent = _in_encounter(encounter, opponent_id)
        if SquadMember.objects.filter(network=network,
                                      sheet_id=opponent.character_id or 0).exists():
            raise NotOpponent(name=opponent.name)
        by = None
        if by_id is not None:
            spotter = _in_encounter(encounter, by_id)
            by = SquadMember.objects.filter(network=network,
                                            sheet_id=spotter.character_id or 0).first()
            if by is None:
                raise NotMember(name=spotter.name, network=network.name)
        mark, _created = Perceived.objects.update_or_create(
            network=network, encounter=encounter, opponent=opponent, by=by,
            defaults={"note": (note or "").strip()[:NOTE_MAX],
                      "created_at": now or timezone.now()})
        encounter_changed(encounter)
        return mark


def tacnet_clear(*, user, encounter_id: int, mark_id: int) -> None:
    """The GM clears a mark of the encounter. Raises EncounterNotFound, GameMasterOnly,
    EncounterConflict, NoMark."""
    with transaction.atomic():
        encounter = _gm_encounter(user, encounter_id)
        deleted, _rows = Perceived.objects.filter(encounter=encounter, pk=mark_id).delete()
        if not deleted:
            raise NoMark()
        encounter_changed(encounter)


# --- spotting -------------------------------------------------------------------------------

def spotting(ctx, target: Combatant, *, spotter: bool, spotter_id: int | None
             ) -> tuple[bool, str]:
    """Whether an indirect fire at ``target`` has its spotter, and the spotter's name. An
    attacker in a TACNet needs ``spotter_id``: a fellow member fighting in the encounter whose
    mark says it perceives the target (a mark by the whole network does not name a spotter);
    an attacker in none keeps the table's declared ``spotter`` (``spotter_id`` then names
    it). Two queries (three with a TACNet). Raises SpotterNeeded, NotMember, SpotterBlind."""
    me = (SquadMember.objects.select_related("network")
          .filter(sheet_id=ctx.combatant.character_id or 0).first())
    named = (Combatant.objects.filter(encounter=ctx.encounter, pk=spotter_id, removed=False)
             .exclude(pk=ctx.combatant.pk).first() if spotter_id else None)
    if named is not None and named.hidden and not is_gm(getattr(ctx, "user", None),
                                                          ctx.encounter):
        named = None  # a hidden combatant does not exist for the players: as a wrong id
    if me is None:
        return spotter or named is not None, named.name if named is not None else ""
    if named is None:
        raise SpotterNeeded()
    fellow = SquadMember.objects.filter(network_id=me.network_id,
                                        sheet_id=named.character_id or 0).first()
    if fellow is None:
        raise NotMember(name=named.name, network=me.network.name)
    if not Perceived.objects.filter(network_id=me.network_id, encounter=ctx.encounter,
                                    opponent=target, by=fellow).exists():
        raise SpotterBlind(name=named.name, target=target.name)
    return True, named.name


# --- what the panel shows -------------------------------------------------------------------

@dataclass(frozen=True)
class Ammo:
    name: str
    loaded: int
    capacity: int
    spares: int
    state: str


@dataclass
class MemberState:
    character_id: int
    name: str
    combatant_id: int | None
    wounds: int
    damage: int
    durability: int
    weapons: list[Ammo] = field(default_factory=list)
    mine: bool = False


@dataclass(frozen=True)
class Sighting:
    id: int
    opponent_id: int
    opponent: str
    by: str  # empty: the network
    note: str


@dataclass
class NetworkPanel:
    network: SquadNetwork
    members: list[MemberState] = field(default_factory=list)
    sightings: list[Sighting] = field(default_factory=list)
    opponents: list[Combatant] = field(default_factory=list)  # the GM's choices to mark

    @property
    def fighting(self) -> list[MemberState]:
        return [m for m in self.members if m.combatant_id is not None]


@dataclass
class Panel:
    """``networks``: those the user sees (the GM: all of the campaign; a player: those where
    a character they play here is a member); ``joinable``: for a player with a combatant in no
    network, the networks open to players; ``free``: the combatants with a sheet in no network
    (the GM's: all of them; a player's: their own)."""

    gm: bool
    networks: list[NetworkPanel] = field(default_factory=list)
    joinable: list[SquadNetwork] = field(default_factory=list)
    free: list[Combatant] = field(default_factory=list)


def panel(*, view, user) -> Panel:
    """The TACNet panel of ``view`` (encounters.selectors.EncounterView) for ``user``: one query
    without networks; then the members (with sheets and sleeves), and, when the user sees a
    network, the members' weapons and the encounter's marks: four, whatever the number of
    members, weapons and marks. For a player, what the GM hides in the encounter
    (``view.seen``, encounters.visibility) is not on it: no member fighting hidden, no mark of
    a hidden opponent, a mark by a hidden member reads "by someone". Raises NotEclipse for an
    encounter of another rule system (``view`` was built for a user who sees it: only they
    learn its system)."""
    encounter = view.encounter
    require_eclipse(encounter)
    networks = list(SquadNetwork.objects.filter(campaign_id=encounter.campaign_id))
    if not networks:
        return Panel(view.gm)
    rows = list(SquadMember.objects.filter(network__campaign_id=encounter.campaign_id)
                .select_related("sheet__character", "sheet__sleeve"))
    fighting = {c.character_id: c for c in view.combatants
                if c.character_id is not None and not c.removed}
    mine = {c.character_id for c in view.combatants if c.pk in view.mine and c.character_id}
    in_network = {r.sheet_id: r.network_id for r in rows}
    seen = {n.pk for n in networks} if view.gm else {
        r.network_id for r in rows if r.sheet_id in mine}
    out = _unnetworked(view, networks, fighting, mine, in_network)
    if not seen:
        return out
    by_network = {n.pk: NetworkPanel(n) for n in networks if n.pk in seen}
    _add_members(by_network, rows, view=view, fighting=fighting, mine=mine)
    _add_sightings(by_network, rows, view=view)
    if view.gm:
        for n in by_network.values():
            n.opponents = [c for c in view.combatants if not c.removed
                           and in_network.get(c.character_id or 0) != n.network.pk]
    out.networks = list(by_network.values())
    return out


def _unnetworked(view, networks: list[SquadNetwork], fighting: dict[int, Combatant],
                 mine: set[int], in_network: dict[int, int]) -> Panel:
    """The panel without its networks: the combatants with a sheet in no network (the GM's:
    all of them; a player's: their own) and, for a player with one, the networks open to
    players."""
    out = Panel(view.gm)
    free_mine = [c for cid, c in fighting.items() if cid in mine and cid not in in_network
                 and getattr(c.character, "eclipse", None) is not None]
    if view.gm:
        out.free = [c for cid, c in fighting.items() if cid not in in_network
                    and getattr(c.character, "eclipse", None) is not None]
    elif free_mine:
        out.free = free_mine
        out.joinable = [n for n in networks if n.open_to_players]
    return out


def _add_members(by_network: dict[int, NetworkPanel], rows: list[SquadMember], *, view,
                 fighting: dict[int, Combatant], mine: set[int]) -> None:
    """Each member of the networks of ``by_network`` on its panel with its gauges and weapons
    (one query), those hidden in the encounter left off a player's."""
    weapons: dict[int, list[Ammo]] = {}
    for w in (CarriedWeapon.objects.filter(sheet_id__in=[r.sheet_id for r in rows
                                                         if r.network_id in by_network])
              .select_related("template")):
        weapons.setdefault(w.sheet_id, []).append(
            Ammo(w.template.name, w.loaded, w.template.magazine, w.spares, w.state))
    for r in rows:
        if r.network_id not in by_network or r.sheet_id in view.seen.characters:
            continue  # a member hidden in this encounter: not on a player's panel
        sleeve = r.sheet.sleeve
        c = fighting.get(r.sheet_id)
        by_network[r.network_id].members.append(MemberState(
            r.sheet_id, r.sheet.character.name, c.pk if c is not None else None,
            sleeve.wounds if sleeve else 0, sleeve.damage if sleeve else 0,
            sleeve.durability if sleeve else 0, weapons.get(r.sheet_id, []),
            r.sheet_id in mine))


def _add_sightings(by_network: dict[int, NetworkPanel], rows: list[SquadMember], *,
                   view) -> None:
    """The encounter's marks of the networks of ``by_network`` (one query), without those of
    a hidden opponent; a mark by a member hidden in the encounter reads "by someone"."""
    marks = list(Perceived.objects.filter(encounter=view.encounter,
                                          network_id__in=list(by_network))
                 .select_related("opponent"))
    names = {r.pk: r.sheet.character.name for r in rows}
    by_sheet = {r.pk: r.sheet_id for r in rows}
    hidden = view.seen  # what the viewer may not see of the encounter (encounters.visibility)
    for m in marks:
        if m.opponent_id in hidden.hidden:
            continue  # a mark of a hidden opponent: none for a player
        by = ""
        if m.by_id:
            by = names.get(m.by_id, "")
            if by and by_sheet.get(m.by_id) in hidden.characters:
                by = gettext("someone")  # a member hidden in this encounter perceived it
        by_network[m.network_id].sightings.append(Sighting(
            m.pk, m.opponent_id, m.opponent.name, by, m.note))


def panel_data(p: Panel) -> dict[str, Any]:
    """The panel as plain data (the API's answer)."""
    return {"networks": [
        {"id": n.network.pk, "name": n.network.name,
         "open_to_players": n.network.open_to_players,
         "members": [{"character": m.character_id, "name": m.name, "combatant": m.combatant_id,
                      "wounds": m.wounds, "damage": m.damage, "durability": m.durability,
                      "weapons": [asdict(a) for a in m.weapons]}
                     for m in n.members],
         "perceived": [{"id": s.id, "opponent": s.opponent_id, "name": s.opponent,
                        "by": s.by, "note": s.note} for s in n.sightings]}
        for n in p.networks],
        "joinable": [{"id": n.pk, "name": n.name, "open_to_players": n.open_to_players}
                     for n in p.joinable]}
