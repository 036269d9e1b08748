"""Prompts and reactions: an action in turn asks a target to react (:func:`request_reaction`,
several targets of one action joined to the first prompt), the target's player or the GM answers
(:func:`answer_reaction`), a prompt whose deadline passed is defaulted ("no reaction") by the
next step that locks its encounter (:func:`require_no_reaction`), by a poll or by the periodic
task (:func:`reactions_default_due`); once none of an action's prompts is pending, its system's
resolver (encounters.hooks.register_resolver) resolves it once, in ONE journal entry.

Stale answers: a reaction answered or defaulted already refuses a later answer
(``reaction_not_pending``); one whose deadline passed refuses it too (``reaction_expired``).

Rule sources: gamerules/encounter/reactions.py (a prompt's options, default, deadline, answer),
the resolvers registered in encounters.hooks. Imports the opening (encounters.access) and the
order of play (encounters.turn_order: an action that ends its turn) among the encounter's
modules.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaigns.journal import record_action
from encounters import handoff, hooks, notices
from encounters.access import (ANYONE, SEEN, can_see, combatants_of, controls, is_gm, opened,
                               save, seen_version, storable)
from encounters.errors import (EncounterConflict, EncounterForbidden, EncounterInvalid,
                               EncounterNotFound)
from encounters.models import Combatant, Encounter, PendingReaction
from encounters.turn_order import next_turn
from gamerules.dice import RandomSource
from gamerules.encounter import reactions as prompts


def require_no_reaction(encounter: Encounter, combatants: dict[int, Combatant], now: datetime,
                        rng: RandomSource, user=None) -> None:
    """Default a due reaction first; raise ``reaction_pending`` while one still waits (naming
    whom it waits for, unless that one is hidden from ``user``)."""
    if encounter.reaction_deadline is None:
        return
    if now >= encounter.reaction_deadline:
        default_pending(encounter, combatants, now, rng)
        return
    pending = encounter.reactions.filter(status=prompts.Status.PENDING).first()
    target = combatants.get(pending.target_id) if pending else None
    if target is None or (target.hidden and not is_gm(user, encounter)):
        raise EncounterConflict("reaction_pending_someone", code="reaction_pending")
    raise EncounterConflict(code="reaction_pending", name=target.name)


def request_reaction(*, encounter: Encounter, actor: Combatant, ask: Ask, resolver: str = "",
                     rolls: Iterable[dict] = (), user=None, now: datetime | None = None,
                     joins: PendingReaction | None = None) -> PendingReaction:
    """Make the encounter wait for ``ask.target``'s answer (call it from an ``encounter_act``
    action: the encounter must be locked). ``ask.options``: the reaction keys the target may
    pick (the default, "none", is always one); ``resolver``: the kind registered with
    encounters.hooks.register_resolver; ``rolls``: the action's rolls so far (journal.roll_row
    dicts), journaled with the answer's; ``ask.action_payload``: what the resolver needs
    (JSON). The prompt defaults after the encounter's ``reaction_timeout_seconds``.

    Several targets of one action: prompt the first, then each other one with ``joins=`` the
    first prompt (its own ``options``, ``default`` and ``action_payload``; the lead's resolver
    and deadline). All are pending at once, answered in any order; the action is resolved
    once, when none is pending any more (encounters.hooks.ReactionContext.others), in ONE
    journal entry. Raises EncounterInvalid ("unknown_resolver", "already_prompted"),
    EncounterConflict(code="reaction_pending")."""
    now = now or timezone.now()
    target = ask.target
    if joins is not None:
        if (joins.encounter_id != encounter.pk or joins.lead_id is not None
                or joins.status != prompts.Status.PENDING):
            raise EncounterConflict(code="reaction_pending", name=target.name)
        if target.pk == joins.target_id or joins.joined.filter(target=target).exists():
            raise EncounterInvalid(code="already_prompted", name=target.name)
        reaction = _joined(encounter, actor, ask, lead=joins, user=user, now=now)
        reaction.save(force_insert=True)
        notices.reaction_asked(encounter, actor, [target], joins.deadline)
        return reaction
    if hooks.resolver_for(resolver) is None:
        raise EncounterInvalid(code="unknown_resolver", kind=resolver)
    if encounter.reaction_deadline is not None:
        raise EncounterConflict(code="reaction_pending", name=target.name)
    p = prompts.prompt(options=tuple(ask.options), now=now,
                       timeout_seconds=encounter.reaction_timeout_seconds, default=ask.default)
    reaction = PendingReaction.objects.create(
        encounter=encounter, actor=actor, target=target, resolver=resolver,
        payload=ask.action_payload, options=list(p.options), default=p.default,
        rolls=[storable(r) for r in rolls], round=encounter.round, requested_by=user,
        requested_at=now, deadline=p.deadline)
    encounter.reaction_deadline = p.deadline
    notices.reaction_asked(encounter, actor, [target], p.deadline)
    return reaction


@dataclass(frozen=True)
class Ask:
    """One target's prompt of an action prompting several at once (:func:`request_reactions`):
    its reaction keys (``options``), what the resolver needs of it (``action_payload``, JSON),
    its ``default``."""

    target: Combatant
    options: list[str]
    action_payload: dict = field(default_factory=dict)
    default: str = prompts.NO_REACTION


def request_reactions(*, encounter: Encounter, actor: Combatant, asks: Sequence[Ask],
                      resolver: str, rolls: Iterable[dict] = (), user=None,
                      now: datetime | None = None) -> list[PendingReaction]:
    """:func:`request_reaction` for several targets of one action at once: the first ask
    leads (``resolver``, ``rolls``, the deadline), the others join it (as with ``joins=``),
    in two INSERTs whatever their number (issue 20, item 2). Returns the prompts, the lead
    first. Raises EncounterInvalid ("unknown_resolver", "already_prompted": a target asked
    twice), EncounterConflict(code="reaction_pending")."""
    now = now or timezone.now()
    first, rest = asks[0], asks[1:]
    asked = {first.target.pk}
    for ask in rest:
        if ask.target.pk in asked:
            raise EncounterInvalid(code="already_prompted", name=ask.target.name)
        asked.add(ask.target.pk)
    lead = request_reaction(encounter=encounter, actor=actor, ask=first, resolver=resolver,
                            rolls=rolls, user=user, now=now)
    joined = [_joined(encounter, actor, ask, lead=lead, user=user, now=now) for ask in rest]
    if joined:
        PendingReaction.objects.bulk_create(joined)
        notices.reaction_asked(encounter, actor, [ask.target for ask in rest], lead.deadline)
    return [lead, *joined]


def _joined(encounter: Encounter, actor: Combatant, ask: Ask, *, lead: PendingReaction, user,
            now: datetime) -> PendingReaction:
    """The prompt (not saved) of ``ask`` joined to ``lead``: its own options, default and
    payload; the lead's resolver and deadline."""
    p = prompts.prompt(options=tuple(ask.options), now=now,
                       timeout_seconds=encounter.reaction_timeout_seconds, default=ask.default)
    return PendingReaction(
        encounter=encounter, actor=actor, target=ask.target, resolver=lead.resolver,
        payload=ask.action_payload, options=list(p.options), default=p.default, rolls=[],
        round=encounter.round, requested_by=user, requested_at=now, deadline=lead.deadline,
        lead=lead)


def answer_reaction(*, user, reaction_id: int, choice: str, now: datetime | None = None,
                    rng: RandomSource | None = None) -> PendingReaction:
    """Answer a pending reaction (the target's player; the GM for anyone, an absent player
    included), resolve it with its system's resolver and journal prompt, answer and result as
    one ActionRecord. Raises ReactionNotPending (answered or defaulted already), ReactionExpired
    (the deadline passed: the default stands), UnknownReactionOption, EncounterForbidden
    ("not_yours_to_answer"), EncounterNotFound(code="no_such_reaction").

    The one step not opened with encounters.access.opened: it knows the prompt, not the
    encounter, and locks the prompt's encounter in one statement reading the prompt's group,
    its actor and targets (:func:`_lock_group`; no lookup before the lock)."""
    now, rng = now or timezone.now(), rng or random.SystemRandom()
    with transaction.atomic():
        encounter, group, combatants = _lock_group(reaction_id)
        reaction = next((r for r in group if r.pk == reaction_id), None)
        if reaction is None:  # deleted with its encounter meanwhile
            raise EncounterNotFound(code="no_such_reaction")
        target = combatants[reaction.target_id]
        if not (is_gm(user, encounter) or controls(user, encounter, target)):
            everyone = combatants_of(encounter).values()
            if not can_see(user, encounter, everyone) or target.hidden:
                raise EncounterNotFound(code="no_such_reaction")  # a hidden target's: none
            raise EncounterForbidden(code="not_yours_to_answer")
        answered = prompts.answer(_prompt(reaction), choice, now)
        _mark(reaction, answered, user, now)
        if any(r.status == prompts.Status.PENDING for r in group):
            # the action waits for its other targets: this answer is kept, the page moves on
            reaction.save(update_fields=["status", "choice", "answered_by", "answered_at"])
            save(encounter)
        else:
            _resolve(encounter, combatants, group, user=user, now=now, rng=rng, complete=False)
        return reaction


def _lock_group(reaction_id: int
                ) -> tuple[Encounter, list[PendingReaction], dict[int, Combatant]]:
    """The encounter of prompt ``reaction_id`` locked and, in the same statement, the prompt's
    group (its lead, or it, and the prompts joined to it; the lead first) with who asked it
    (the journal's user), its actor and targets with their characters (the combatants the
    answer needs, by id; every combatant is read only by a step that needs them: the next
    turn). No lookup before the lock. Raises EncounterNotFound(code="no_such_reaction").

    The prompts are read in the statement that locks (``FOR UPDATE OF`` the encounter): on
    PostgreSQL, when the lock waited for a step that changed them (another answer), they
    would be the ones from before it. Every step that writes a prompt bumps the encounter's
    version under its lock, so each row carries the version the snapshot saw too: when it
    is not the locked row's, the group is read again, after the lock (one more query, only
    then; encounters.access.lock_with_combatants does the same)."""
    prompt = PendingReaction.objects.filter(pk=reaction_id)
    key = Subquery(prompt.annotate(key=Coalesce("lead_id", "pk")).values("key")[:1])
    group = (PendingReaction.objects.filter(Q(pk=key) | Q(lead_id=key))
             .select_related("requested_by", "actor__character", "target__character"))
    rows: list[PendingReaction] = list(
        group.select_related("encounter__campaign").select_for_update(of=("encounter",))
        .annotate(**{SEEN: seen_version("encounter_id")}))
    if not rows:
        raise EncounterNotFound(code="no_such_reaction")
    encounter = rows[0].encounter
    handoff.locked(encounter)
    if any(getattr(r, SEEN) != r.encounter.version  # changed while it waited
           for r in rows):
        rows = list(group.filter(encounter_id=encounter.pk))
    combatants: dict[int, Combatant] = {}
    for r in rows:
        r.encounter = encounter
        r.actor = combatants.setdefault(r.actor_id, r.actor)
        r.target = combatants.setdefault(r.target_id, r.target)
    for c in combatants.values():
        c.encounter = encounter
    handoff.read(encounter, combatants.values(), partial=True)
    return encounter, _ordered(rows), combatants


def reactions_default_due(*, now: datetime | None = None, encounter_id: int | None = None,
                          rng: RandomSource | None = None) -> int:
    """Default every pending reaction whose deadline passed (of ``encounter_id``, or all):
    each under its encounter's lock, re-checked there (running it twice changes nothing).
    Returns how many were defaulted."""
    now, rng = now or timezone.now(), rng or random.SystemRandom()
    due = Encounter.objects.filter(reaction_deadline__lte=now)
    if encounter_id is not None:
        due = due.filter(pk=encounter_id)
    done = 0
    for eid in list(due.values_list("pk", flat=True)):
        with opened(eid, None, who=ANYONE, state=None, related=None, now=now, rng=rng) as step:
            encounter = step.encounter
            if encounter.reaction_deadline is None or now < encounter.reaction_deadline:
                continue
            done += default_pending(encounter, step.combatants, now, rng)
    return done


def default_pending(encounter: Encounter, combatants: dict[int, Combatant], now: datetime,
                    rng: RandomSource) -> int:
    """Default the due prompts of the waiting action (its group: pending or answered, not yet
    resolved) and resolve it once none is pending. Returns how many were defaulted."""
    rows = encounter.reactions.filter(action__isnull=True, status__in=[
        prompts.Status.PENDING, prompts.Status.ANSWERED])
    groups: dict[int, list[PendingReaction]] = {}
    for r in rows:
        groups.setdefault(r.lead_id or r.pk, []).append(r)
    count = 0
    for group in groups.values():
        group = _ordered(group)
        due = [(r, d) for r in group if (d := prompts.default_if_due(_prompt(r), now))]
        for r, defaulted in due:
            _mark(r, defaulted, None, now)
        count += len(due)
        if not due:
            continue
        if any(r.status == prompts.Status.PENDING for r in group):  # not all due (later ones)
            PendingReaction.objects.bulk_update([r for r, _d in due], [
                "status", "choice", "answered_by", "answered_at"])
            save(encounter)
        else:
            _resolve(encounter, combatants, group, user=None, now=now, rng=rng)
    return count


def _ordered(reactions: Iterable[PendingReaction]) -> list[PendingReaction]:
    """An action's prompts, the lead first, then the others as they were asked."""
    return sorted(reactions, key=lambda r: (r.lead_id is not None, r.pk))


def _mark(reaction: PendingReaction, answered: prompts.Prompt, user, now: datetime) -> None:
    """Write an answer or a default on the row (not saved)."""
    reaction.status, reaction.choice = answered.status.value, answered.choice
    reaction.answered_by, reaction.answered_at = user, now


def _prompt(reaction: PendingReaction) -> prompts.Prompt:
    return prompts.Prompt(options=tuple(reaction.options), deadline=reaction.deadline,
                          default=reaction.default, status=prompts.Status(reaction.status),
                          choice=reaction.choice)


def _resolve(encounter: Encounter, combatants: dict[int, Combatant],
             group: list[PendingReaction], *, user, now: datetime, rng: RandomSource,
             complete: bool = True) -> None:
    """Resolve an action whose prompts (``group``, the lead first) are all answered or
    defaulted: its system's resolver once, ONE ActionRecord (the lead's prompt and answer, the
    others' answers), every prompt linked to it; then the next turn if the action ended it
    (every combatant read then unless ``complete``: ``combatants`` holds them all)."""
    reaction, rest = group[0], group[1:]
    resolver = hooks.resolver_for(reaction.resolver)
    if resolver is None:
        raise EncounterInvalid(code="unknown_resolver", kind=reaction.resolver)
    actor, target = combatants[reaction.actor_id], combatants[reaction.target_id]
    defaulted = reaction.status == prompts.Status.DEFAULTED
    others = tuple(hooks.ReactionAnswer(
        reaction=r, target=combatants[r.target_id], choice=r.choice,
        defaulted=r.status == prompts.Status.DEFAULTED, answered_by_id=r.answered_by_id)
        for r in rest)
    outcome = resolver(hooks.ReactionContext(
        encounter=encounter, reaction=reaction, actor=actor, target=target,
        choice=reaction.choice, defaulted=defaulted, answered_by=reaction.answered_by,
        now=now, rng=rng, others=others))
    summary = {
        "encounter": encounter.pk, "round": reaction.round,
        "prompt": {"actor": actor.name, "target": target.name, "payload": reaction.payload,
                   "options": reaction.options, "default": reaction.default,
                   "requested_at": reaction.requested_at.isoformat(),
                   "deadline": reaction.deadline.isoformat()},
        "answer": {"choice": reaction.choice, "defaulted": defaulted,
                   "by": reaction.answered_by_id},
        "result": outcome.summary,
    }
    if outcome.roll_about:  # a volley: whom each roll is about (encounters.visibility)
        summary["roll_about"] = [target.pk] * len(reaction.rolls) + list(outcome.roll_about)
    if others:
        summary["answers"] = [
            {"target": o.target.name, "target_id": o.target.pk, "options": o.reaction.options,
             "default": o.reaction.default, "choice": o.choice, "defaulted": o.defaulted,
             "by": o.answered_by_id} for o in others]
    action = record_action(
        campaign=encounter.campaign, kind=outcome.kind, now=now, user=reaction.requested_by,
        actor=actor.character, target=target.character, summary=summary,
        rolls=[*reaction.rolls, *(storable(r) for r in outcome.rolls)])
    notices.harmed(encounter, actor, combatants.values(), outcome.hits)
    fields = ["status", "choice", "answered_by", "answered_at", "action"]
    for r in group:
        r.action = action
    if rest:
        PendingReaction.objects.bulk_update(group, fields)
    else:
        reaction.save(update_fields=fields)
    encounter.reaction_deadline = None
    if reaction.end_turn:
        everyone = combatants if complete else combatants_of(encounter)
        next_turn(encounter, everyone, user=user, now=now, rng=rng)
    else:
        save(encounter)
