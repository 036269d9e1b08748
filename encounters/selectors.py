"""Reading an encounter: what the GM's page, the player's page and the API show, in a fixed
number of queries whatever the number of combatants (pinned in tests/encounters)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q

from campaigns import rule_systems
from campaigns.models import ActionRecord, Campaign
from characters.models import Character
from characters.rules import owns_by_id
from characters.selectors import JournalRead, journal_entries
from campaigns.permissions import (allowed, oversees, oversees_campaign_of,
                                   oversees_every_campaign)
from encounters import ground as ground_map
from encounters import glance, hooks, visibility
from encounters.errors import EncounterNotFound
from encounters.models import Combatant, Encounter, EncounterEffect, PendingReaction
from encounters.access import can_see, controls, is_gm
from gamerules.encounter.reactions import Status

LOG_SIZE = 20


@dataclass
class EncounterView:
    """``combatants``: in play order, then those out of it (hidden ones for the GM only);
    ``mine``: ids of the combatants the user plays; ``reactions``: the pending prompts the user
    may answer (all of them for the GM); ``log``: the latest journal entries of the encounter,
    rolls prefetched; ``spec``: the campaign's rule system (None when not registered). What
    is derived from them is computed once (a page reads it for every row): build a new view
    rather than change one."""

    encounter: Encounter
    gm: bool
    combatants: list[Combatant]
    effects: list[EncounterEffect]
    reactions: list[PendingReaction]
    log: list[ActionRecord]
    mine: set[int] = field(default_factory=set)
    spec: Any = None
    seen: visibility.Visibility = field(default_factory=lambda: visibility.Visibility(gm=True))
    # The combatants whose state is computed (``states``), None: all of them. A step's answer
    # showing a few rows and no map reads only theirs (encounters.pages._changes).
    states_only: frozenset[int] | None = None

    @cached_property
    def current_id(self) -> int | None:
        """Whose turn it is as this viewer may know it: None while a hidden one acts."""
        return visibility.current_id(self.encounter, self.seen)

    @property
    def someone_acts(self) -> bool:
        """A combatant hidden from this viewer has the turn."""
        return self.encounter.current_id is not None and self.current_id is None

    @cached_property
    def current(self) -> Combatant | None:
        return next((c for c in self.combatants if c.pk == self.current_id), None)

    @cached_property
    def in_order(self) -> list[Combatant]:
        return [c for c in self.combatants if c.rank is not None and not c.removed]

    @cached_property
    def out_of_order(self) -> list[Combatant]:
        return [c for c in self.combatants if c.rank is None or c.removed]

    @property
    def my_turn(self) -> bool:
        return self.current_id in self.mine

    @cached_property
    def states(self) -> dict[int, glance.State]:
        """Each combatant's whole state by id, as its rule system gives it
        (``hooks.register_combatant_state``; none without one): the combatants this view
        holds with a character (of ``states_only`` when set), one call for all of them (the
        system's fixed queries). What a viewer may read of it: ``glances``."""
        fn = hooks.combatant_state_for(self.encounter.campaign.rule_system)
        if fn is None:
            return {}
        with_character = [c for c in self.combatants if c.character is not None
                          and (self.states_only is None or c.pk in self.states_only)]
        return fn(with_character, encounter=self.encounter) if with_character else {}

    @property
    def has_states(self) -> bool:
        """The campaign's system gives its combatants' state (the roster shows it)."""
        return hooks.combatant_state_for(self.encounter.campaign.rule_system) is not None

    @cached_property
    def sides(self) -> glance.Sides:
        """The viewer's sides (encounters.glance): the GM's, or those of the combatants the
        player plays."""
        if self.gm:
            return glance.Sides(gm=True)
        return glance.Sides(gm=False, own=frozenset(
            glance.side_of(c) for c in self.combatants if c.pk in self.mine),
            mine=frozenset(self.mine))

    @cached_property
    def glances(self) -> dict[int, glance.Glance]:
        """What this viewer reads of each combatant's state, by id (encounters.glance.shown:
        exact for the GM and the viewer's side, the campaign's ``enemy_state`` for an enemy);
        a combatant absent reads nothing. The roster, the map and the API read it here."""
        setting = getattr(self.encounter.campaign, "enemy_state", glance.DESCRIBED)
        out: dict[int, glance.Glance] = {}
        states = self.states
        for c in self.combatants:
            seen = glance.shown(states.get(c.pk), combatant=c, sides=self.sides,
                                setting=setting)
            if seen is not None:
                out[c.pk] = seen
        return out

    @cached_property
    def ground(self) -> ground_map.Ground | None:
        """The map of the combatants in play this viewer sees (encounters.ground; None when
        none has a position): a token for each, a bar where the roster shows the viewer its
        gauges (the system's token gauge from the sheet already read), the effects the
        viewer sees on their bearers, the current combatant's moves as circles."""
        system = self.encounter.campaign.rule_system
        gauge_of = hooks.token_gauge_for(system)
        gauges: dict[int, ground_map.Gauge] = {}
        if hooks.combatant_state_for(system) is not None:  # the state at a glance's bar
            for pk, seen in self.glances.items():
                if seen.bar is not None:
                    gauges[pk] = ground_map.Gauge(value=seen.bar.left,
                                                  maximum=seen.bar.maximum or 0,
                                                  label=str(seen.bar.label))
        elif gauge_of is not None and getattr(self.spec, "templates", None) is not None \
                and self.spec.templates.gauges:
            name = self.spec.sheet_related_name
            for c in self.combatants:
                if c.character is not None and (self.gm or c.pk in self.mine):
                    sheet = getattr(c.character, name, None) if name else None
                    bar = gauge_of(sheet) if sheet is not None else None
                    if bar is not None:
                        gauges[c.pk] = bar
        effects: dict[int, list[str]] = {}
        for f in self.effects:
            effects.setdefault(f.bearer_id or f.anchor_id, []).append(f.name)
        return ground_map.build(self.combatants, current_id=self.current_id, mine=self.mine,
                                gauges=gauges, effects=effects, glances=self.glances,
                                reach=[(p.metres, p.label) for p in self.current_move.paces]
                                if self.current_move else (),
                                backdrop=_backdrop(self.encounter))

    @property
    def drawn(self) -> bool:
        """Whether the map draws anything (``ground`` is not None: someone in play placed, or a
        background), known without computing it."""
        return _backdrop(self.encounter) is not None or any(
            c.x is not None and c.y is not None and not c.removed for c in self.combatants)

    @cached_property
    def current_move(self) -> hooks.MapMove | None:
        """The system's map move for the combatant whose turn it is (as this viewer knows
        it), None without one."""
        move = hooks.map_move_for(self.encounter.campaign.rule_system)
        return move(self, self.current) if move is not None and self.current else None

    @cached_property
    def prompts(self) -> dict[int, hooks.PromptDetails]:
        """What each pending prompt says of its attack, by reaction id (the system's
        ``hooks.register_prompt``, per resolver kind; a prompt of a kind without one: absent).
        Computed when a page shows the prompts, from what this view loaded and the
        prompts' payloads as this viewer reads them."""
        by_kind: dict[str, list[PendingReaction]] = {}
        for r in self.reactions:
            by_kind.setdefault(r.resolver, []).append(r)
        out: dict[int, hooks.PromptDetails] = {}
        for kind, rows in by_kind.items():
            fn = hooks.prompt_for(kind)
            if fn is not None:
                out.update(fn(self, rows))
        return out

    @cached_property
    def waiting(self) -> list[PendingReaction]:
        """The prompts waiting for this viewer's answer (the page's alert): a player's own;
        for the GM, those of the combatants no player plays (a player's prompt is theirs to
        answer, the GM answers it only for an absent player)."""
        if not self.gm:
            return list(self.reactions)
        return [r for r in self.reactions if not _played(getattr(r, "target_cached", None))]

    @property
    def alert_turn(self) -> str:
        """The key of the turn the page announces ("<encounter>-<turn serial>"), "" when it
        is not this viewer's: a player's combatant in turn; for the GM, one no player
        plays."""
        e = self.encounter
        if e.state != Encounter.State.RUNNING or not self.my_turn or (
                self.gm and _played(self.current)):
            return ""
        return f"{e.pk}-{e.turn_serial}"

    @property
    def reaction_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).reaction

    @property
    def panel_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).panel

    @property
    def actions_template(self) -> str:
        return hooks.templates_for(self.encounter.campaign.rule_system).actions

    def label(self, key: str) -> Any:
        """The system's label of ``key``; "<key>:<character id>" (a parry for that ally)
        reads "<label> (<combatant's name>)". A label naming the campaign's parameters
        ("Aimed (+%(aim_quick_bonus)s)") reads their values."""
        labels = getattr(self.spec, "action_labels", {}) or {}
        if key in labels:
            return self._with_parameters(labels[key])
        base, _sep, ref = key.partition(":")
        if ref and base in labels:
            name = next((c.name for c in self.combatants if str(c.character_id) == ref), ref)
            return f"{self._with_parameters(labels[base])} ({name})"
        return key

    def _with_parameters(self, label: Any) -> Any:
        text = str(label)
        if "%(" not in text:
            return label
        params = self.encounter.campaign.parameters
        values = {f.name: getattr(params, f.name) for f in fields(params)} if params else {}
        try:
            return text % values
        except (KeyError, TypeError, ValueError):
            return text


def _backdrop(encounter: Encounter) -> ground_map.Backdrop | None:
    """The encounter's background and its metres (encounters.pictures), None without one."""
    if not encounter.background or not encounter.background_width_m \
            or not encounter.background_height_m:
        return None
    return ground_map.Backdrop(url=encounter.background.url,
                               width_m=float(encounter.background_width_m),
                               height_m=float(encounter.background_height_m))


def _played(combatant: Combatant | None) -> bool:
    """Whether a player plays ``combatant`` (a player's character with its owner)."""
    character = getattr(combatant, "character", None)
    return bool(character is not None and character.is_player and character.owner_id)


def encounter_version(*, user, encounter_id: int) -> tuple[int, datetime | None] | None:
    """(version, pending reaction's deadline) of an encounter ``user`` may see, else None: one
    query (the polls' cost)."""
    row = (Encounter.objects.filter(pk=encounter_id)
           .annotate(mine=Exists(Combatant.objects.filter(
               encounter=OuterRef("pk"), character__owner_id=user.pk, removed=False)))
           .values_list("version", "reaction_deadline", "campaign__game_master_id",
                        "campaign__co_master_ids", "mine")
           .first())
    if row is None:
        return None
    version, deadline, gm_id, co_ids, mine = row
    if not (mine or oversees_campaign_of(user, gm_id, co_ids)):
        return None
    return version, deadline


@dataclass(frozen=True)
class Viewer:
    """What decides what an encounter page shows one user, read in one query
    (:func:`encounter_viewer`): the version, whether the user oversees the campaign (``gm``)
    and ``mine``, the combatants they play as a player (their own player characters; for
    someone who does not oversee it, the ones not hidden). Everything else the page shows is
    the same for every user with the same ``(gm, mine)`` at the same version
    (``EncounterView.mine`` of the GM adds the combatants nobody plays, which the version
    decides): the key of the fragment's cache (encounters.pages)."""

    encounter_id: int
    version: int
    reaction_deadline: datetime | None
    gm: bool
    mine: tuple[int, ...]

    @property
    def pk(self) -> int:  # the fragment's wrapper reads ``e.pk`` of an encounter or a viewer
        return self.encounter_id


@dataclass(frozen=True)
class Roster:
    """Who an encounter shows what, for every user at once (:func:`roster`): its version, the
    pending reaction's deadline, its campaign's game master and co-game masters
    (``co_master_ids``) and each combatant's ``(pk,
    hidden, removed, character kind, owner id)`` (``None`` kind and owner for a combatant
    without a character). The pushed fragment (encounters.streamed) reads it once per web
    process and version, and derives each open stream's :class:`Viewer` from it in memory."""

    encounter_id: int
    version: int
    reaction_deadline: datetime | None
    game_master_id: int | None
    combatants: tuple[tuple[int, bool, bool, str | None, int | None], ...]
    co_master_ids: tuple[int, ...] = ()

    def viewer_for(self, user) -> Viewer | None:
        """The :class:`Viewer` of ``user``, None when they may not see the encounter (neither
        overseeing its campaign nor playing a combatant still in it)."""
        gm = oversees_campaign_of(user, self.game_master_id, self.co_master_ids)
        owned = [c for c in self.combatants if owns_by_id(user, c[4])]
        if not (gm or any(not removed for _pk, _hidden, removed, _kind, _owner in owned)):
            return None
        mine = tuple(sorted(pk for pk, hidden, _removed, kind, _owner in owned
                            if kind == Character.Kind.PLAYER and (gm or not hidden)))
        return Viewer(encounter_id=self.encounter_id, version=self.version,
                      reaction_deadline=self.reaction_deadline, gm=gm, mine=mine)


def roster(encounter_id: int) -> Roster | None:
    """The encounter's :class:`Roster`, None for no such encounter: one query (the encounter
    with its combatants' few columns joined). Reads no permission: :meth:`Roster.viewer_for`
    does."""
    rows = list(Encounter.objects.filter(pk=encounter_id)
                .values_list("version", "reaction_deadline", "campaign__game_master_id",
                             "campaign__co_master_ids", "combatants__pk", "combatants__hidden",
                             "combatants__removed",
                             "combatants__character__kind", "combatants__character__owner_id"))
    if not rows:
        return None
    version, deadline, gm_id, co_ids = rows[0][:4]
    return Roster(encounter_id=encounter_id, version=version, reaction_deadline=deadline,
                  game_master_id=gm_id, co_master_ids=tuple(co_ids or ()),
                  combatants=tuple(r[4:9] for r in rows if r[4] is not None))


def encounter_viewer(*, user, encounter_id: int) -> Viewer | None:
    """The :class:`Viewer` of an encounter ``user`` may see, else None: one query
    (:func:`roster`), what a cached refetch costs."""
    read = roster(encounter_id)
    return read.viewer_for(user) if read is not None else None


def viewer_of(view: EncounterView, user) -> Viewer:
    """The :class:`Viewer` an :class:`EncounterView` was built for (no query)."""
    e = view.encounter
    mine = tuple(sorted(c.pk for c in view.combatants if c.pk in view.mine
                        and c.character is not None and c.character.is_player
                        and allowed(user, "characters.act", c.character)))
    return Viewer(encounter_id=e.pk, version=e.version, reaction_deadline=e.reaction_deadline,
                  gm=view.gm, mine=mine)




def encounter_view(*, user, encounter_id: int, log_since: datetime | None = None,
                   with_log: bool = True, encounter: Encounter | None = None,
                   effects: list[EncounterEffect] | None = None) -> EncounterView:
    """Everything a page shows. Raises EncounterNotFound for an encounter the user may not
    see (the GM's, or one where the user plays a combatant). Queries: encounter and campaign,
    combatants with characters (and their sheets), effects, pending reactions (none while the
    encounter waits for no reaction: a prompt always sets its ``reaction_deadline``, see
    services.request_reaction), the log and its rolls: 4 to 6. ``log_since``: only the log's
    entries journaled since then; ``with_log=False``: no log (a step's answer when the step
    journaled nothing). ``encounter``: the object a step just locked and saved, with its
    campaign (encounters.handoff): not read again when the combatants' read finds its stored
    columns unchanged (read again otherwise, or without combatants); ``effects``: its effects
    not expired as that step read them under its lock and left them (encounters.handoff): not
    read again either, under the same condition."""
    handed = encounter is not None and encounter.pk == encounter_id
    if not handed:
        encounter = (Encounter.objects.select_related("campaign").filter(pk=encounter_id)
                     .first())
        if encounter is None:
            raise EncounterNotFound()
    assert encounter is not None
    spec = rule_systems.get(encounter.campaign.rule_system)
    combatants = list(_combatants_query(encounter, spec, with_encounter=handed))
    if handed and (not combatants or any(
            getattr(combatants[0].encounter, f.attname) != getattr(encounter, f.attname)
            for f in Encounter._meta.concrete_fields)):
        return encounter_view(user=user, encounter_id=encounter_id, log_since=log_since,
                              with_log=with_log)
    for c in combatants:  # the encounter they belong to, read above (their rows or the step's)
        c.encounter = encounter
    if not can_see(user, encounter, combatants):
        raise EncounterNotFound()
    everyone = {c.pk: c for c in combatants}
    gm = is_gm(user, encounter)
    seen = visibility.visibility(encounter, combatants, gm)
    if not gm:
        combatants = [c for c in combatants if not c.hidden]
    combatants.sort(key=lambda c: (c.rank is None or c.removed, c.rank or 0, c.position, c.pk))
    visibility.renumber([c for c in combatants if c.rank is not None and not c.removed], seen)
    by_id = {c.pk: c for c in combatants}
    mine = {c.pk for c in combatants if controls(user, encounter, c) and
            (gm or c.character is not None)}
    effects = _effects(encounter, everyone, by_id, gm, effects if handed else None)
    reactions = _reactions(encounter, by_id, mine, gm, seen)
    view = EncounterView(encounter=encounter, gm=gm, combatants=combatants, effects=effects,
                         reactions=reactions, log=[], mine=mine, spec=spec, seen=seen)
    if with_log:  # what the log says of the enemies' state, as the campaign's setting says
        view.log = glance.log_for(
            _log(encounter, log_since, seen), combatants=combatants, sides=view.sides,
            setting=getattr(encounter.campaign, "enemy_state", glance.DESCRIBED),
            keys=hooks.log_state_keys(encounter.campaign.rule_system))
    return view


def _combatants_query(encounter: Encounter, spec, *, with_encounter: bool = False):
    """The encounter's combatants with their characters, sheets and what the system's state
    reads past the sheet (hooks.register_view_related), unsorted; ``with_encounter``: each
    with the encounter's stored columns too (a handed encounter, checked unchanged: joined,
    which costs less to build than one annotation per column)."""
    combatants_qs = (Combatant.objects.filter(encounter_id=encounter.pk)
                     .select_related("character").order_by())  # sorted by encounter_view
    if spec is not None and spec.sheet_related_name:
        combatants_qs = combatants_qs.select_related(f"character__{spec.sheet_related_name}")
    related = hooks.view_related(encounter.campaign.rule_system)
    if related:  # what the system's state reads past the sheet (hooks.register_view_related)
        combatants_qs = combatants_qs.select_related(*(f"character__{p}" for p in related))
    if with_encounter:
        combatants_qs = combatants_qs.select_related("encounter")
    return combatants_qs


def _effects(encounter: Encounter, everyone: dict[int, Combatant], by_id: dict[int, Combatant],
             gm: bool, handed: list[EncounterEffect] | None = None) -> list[EncounterEffect]:
    """The lasting effects (one query; none with ``handed``, those a step read and left:
    encounters.handoff), their combatants the ones read (``everyone``); for a player, only
    those on combatants they see (``by_id``)."""
    effects = (list(encounter.effects.filter(expired_round__isnull=True)) if handed is None
               else handed)
    for f in effects:  # their combatants are the encounter's, read above
        if f.anchor_id in everyone:
            f.anchor = everyone[f.anchor_id]
        if f.bearer_id in everyone:
            f.bearer = everyone[f.bearer_id]
    if not gm:
        effects = [e for e in effects if e.anchor_id in by_id and
                   (e.bearer_id is None or e.bearer_id in by_id)]
    return effects


def _reactions(encounter: Encounter, by_id: dict[int, Combatant], mine: set[int], gm: bool,
               seen: visibility.Visibility) -> list[PendingReaction]:
    """The pending prompts the viewer answers (the GM: all; no query while the encounter waits
    for none), each saying nothing of what is hidden from the viewer."""
    pending = (encounter.reactions.filter(status=Status.PENDING)
               if encounter.reaction_deadline is not None else [])
    reactions = [r for r in pending if gm or r.target_id in mine]
    for r in reactions:
        r.actor_cached, r.target_cached = by_id.get(r.actor_id), by_id.get(r.target_id)  # type: ignore[attr-defined]
        if not seen.everything:  # the prompt says nothing of a hidden combatant (its actor, a
            # volley's other target, a spotter, an ally to parry for)
            r.payload = visibility.redact(r.payload, seen)
            if r.actor_id in seen.hidden:  # nor how far the unseen attacker stands
                r.payload = visibility.unseen_actor(r.payload)
            r.options = visibility.options(r.options, seen)
    return reactions


def _log(encounter: Encounter, log_since: datetime | None,
         seen: visibility.Visibility) -> list[ActionRecord]:
    """The encounter's last LOG_SIZE journal entries with their rolls, as the viewer may see
    them (two queries); ``log_since``: only those journaled since then."""
    log_qs = ActionRecord.objects.filter(campaign=encounter.campaign)
    if log_since is not None:  # a step's answer: only what it journaled (encounters.pages)
        log_qs = log_qs.filter(created_at__gte=log_since)
    log_qs = visibility.log_queryset(log_qs.filter(Q(summary__encounter=encounter.pk)), seen)
    return visibility.apply_to_log(
        list(log_qs.select_related("actor", "target").prefetch_related("rolls")[:LOG_SIZE]),
        seen)


def encounter_journal(*, user, encounter_id: int) -> JournalRead:
    """The encounter's journal as ``user`` may read it, the way its page's log reads it
    (``_log``): the entries of a hidden combatant left out for a player, the others through
    encounters.visibility and what ``enemy_state`` lets them read of the enemies. Raises
    EncounterNotFound for an encounter the user may not see. Queries: encounter_view's
    without its log (3 or 4), then the page and its rolls."""
    view = encounter_view(user=user, encounter_id=encounter_id, with_log=False)
    encounter, seen = view.encounter, view.seen
    qs = ActionRecord.objects.filter(campaign_id=encounter.campaign_id,
                                     summary__encounter=encounter.pk)
    setting = getattr(encounter.campaign, "enemy_state", glance.DESCRIBED)
    keys = hooks.log_state_keys(encounter.campaign.rule_system)

    def shown(page: list) -> list:
        return glance.log_for(visibility.apply_to_log(page, seen), combatants=view.combatants,
                              sides=view.sides, setting=setting, keys=keys)

    return JournalRead(entries=journal_entries(visibility.log_queryset(qs, seen)), shown=shown,
                       unseen_characters=seen.characters)


def encounters_of(*, user, campaign_id: int) -> tuple[bool, list[Encounter]]:
    """(whether the user oversees the campaign, the campaign's encounters the user may see:
    all for its GM, else those where the user plays a combatant, and those open to joining
    (``players_may_join``, not ended) for a player with a character of their own in the
    campaign, newest first). Raises EncounterNotFound for a missing campaign, or one where the
    user is neither the GM nor owns a character (a player of the campaign in no encounter
    sees an empty list)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise EncounterNotFound()
    qs = Encounter.objects.filter(campaign=campaign).select_related("campaign")
    if oversees(user, campaign):
        return True, list(qs)
    playing = Q(combatants__character__owner_id=user.pk, combatants__removed=False)
    own = Exists(Character.objects.filter(campaign_id=OuterRef("campaign_id"), owner_id=user.pk,
                                          kind=Character.Kind.PLAYER))
    open_to_me = Q(players_may_join=True) & ~Q(state=Encounter.State.ENDED) & Q(own)
    rows = list(qs.filter(playing | open_to_me).distinct())
    if not rows and not campaign.characters.filter(owner_id=user.pk).exists():
        raise EncounterNotFound()
    return False, rows


@dataclass(frozen=True)
class JoinOffer:
    """What the page offering to join an encounter shows a player not in it: the encounter
    (name, state, round: nothing of its combatants) and the player's own characters of its
    campaign that may join (:func:`join_offer`)."""

    encounter: Encounter
    characters: list[Character]


def join_offer(*, user, encounter_id: int) -> JoinOffer | None:
    """The offer to join ``encounter_id`` for ``user``: None unless its GM lets players join
    (``players_may_join``), it is not over, and ``user`` has a player's character of their own
    in its campaign and none in it (removed ones included: a player joins once). Three
    queries."""
    encounter = (Encounter.objects.select_related("campaign")
                 .filter(pk=encounter_id, players_may_join=True)
                 .exclude(state=Encounter.State.ENDED).first())
    if encounter is None or not user.is_authenticated:
        return None
    if Combatant.objects.filter(encounter=encounter, character__owner_id=user.pk,
                                character__kind=Character.Kind.PLAYER).exists():
        return None
    mine = [c for c in Character.objects.filter(campaign=encounter.campaign_id,
                                                kind=Character.Kind.PLAYER,
                                                owner_id=user.pk).order_by("name", "pk")
            if allowed(user, "characters.act", c)]
    return JoinOffer(encounter=encounter, characters=mine) if mine else None


def campaigns_with_encounters(*, user) -> list[Campaign]:
    """The campaigns of a turn-based rule system (RuleSystemSpec.play_mode ENCOUNTER) that
    ``user`` runs as game master or co-game master or plays a character in, by name: one
    query. Staff see every such campaign (they oversee all)."""
    codes = [s.code for s in rule_systems.registered() if s.play_mode == rule_systems.ENCOUNTER]
    qs = Campaign.objects.filter(rule_system__in=codes)
    if not oversees_every_campaign(user):
        qs = qs.filter(Q(game_master_id=user.pk) | Q(masters__user_id=user.pk)
                       | Q(characters__owner_id=user.pk))
    return list(qs.distinct().order_by("name"))


def can_read_topic(user, encounter_id: int) -> bool:
    """Whether ``user`` may read the encounter's live topic (encounters.push): its GM, the
    campaign's overseers, a player with a combatant in it (one query, encounter_version)."""
    return encounter_version(user=user, encounter_id=encounter_id) is not None
