"""Every change to an encounter: one keyword-only service per step, called by the pages, the API
and the rule systems' actions alike. This module is the façade: it names every public service
of the encounter's modules, each of which does one job (issue 20, item 3; the layers in
``.importlinter``, contract "encounter-layers"):

- ``access``: the opening every step shares (``opened``: lock, who may, state, turn) and the
  version bump (``save``, ``encounter_changed``); the bottom, it imports none of the others.
- ``changes``: changes made outside a step that the pages show (``characters_changed``,
  ``campaign_changed``, ``encounter_touch``, ``enemy_state_set``: the GM's choice of what the
  players read of their enemies' state).
- ``effects``: lasting effects (``effect_add``) and what the clock reads of them.
- ``positions``: where the combatants stand (``combatant_place``, ``positions_clear``,
  ``set_position``).
- ``turn_order``: the clock between rows and rules, the initiative, the GM's order
  (``encounter_set_order``).
- ``reactions``: prompts, answers, timeouts (``request_reaction``, ``answer_reaction``,
  ``reactions_default_due``).
- ``roster``: who fights (``combatants_add``, ``combatant_remove``, ``combatant_readd``,
  ``combatant_update``; a player's own character joining, ``encounter_join``, when the GM
  lets players join, ``encounter_joining_set``).
- ``turns``: the encounter's life and turns (``encounter_create``, ``encounter_start``,
  ``encounter_next_turn``, ``encounter_spend_action``, ``encounter_delay``, ``encounter_end``,
  ``encounter_act``).

Locking precondition, refusals and the push: encounters.access. Stale and concurrent steps:
encounters.turns. Timeouts: encounters.reactions. A caller may import from this module or from
the module doing the job; a test that replaces a function patches it where it is looked up (the
module doing the job).
"""

from __future__ import annotations

from encounters.access import (can_see, combatants_of, controls, encounter_changed, is_gm,
                               lock_encounter, lock_with_combatants)
from encounters.changes import (campaign_changed, characters_changed, encounter_touch,
                                enemy_state_set)
from encounters.effects import effect_add
from encounters.pictures import combatant_portrait_set, encounter_background_set
from encounters.positions import combatant_place, positions_clear, set_position
from encounters.reactions import (Ask, answer_reaction, reactions_default_due, request_reaction,
                                  request_reactions)
from encounters.roster import (COPY_TRIES, MOST_AT_ONCE, CombatantEntry, combatant_readd,
                               combatant_remove, combatant_update, combatants_add,
                               encounter_join, encounter_joining_set, plays_in)
from encounters.turn_order import KIND_INITIATIVE, MOST_TURNS, encounter_set_order
from encounters.turns import (JOURNAL_KINDS, KIND_ACTION_SPENT, TurnContext, encounter_act,
                              encounter_create, encounter_delay, encounter_end,
                              encounter_next_turn, encounter_spend_action, encounter_start)

__all__ = ["COPY_TRIES", "JOURNAL_KINDS", "KIND_ACTION_SPENT", "KIND_INITIATIVE", "MOST_AT_ONCE",
           "MOST_TURNS", "Ask", "CombatantEntry", "TurnContext", "answer_reaction", "campaign_changed",
           "can_see", "characters_changed", "combatant_place", "combatant_portrait_set", "combatant_readd",
           "combatant_remove", "combatant_update", "combatants_add", "combatants_of", "controls",
           "effect_add", "encounter_act", "encounter_background_set", "encounter_changed",
           "encounter_create", "encounter_delay", "encounter_end", "encounter_join", "encounter_joining_set",
           "encounter_next_turn", "encounter_set_order", "encounter_spend_action", "encounter_start",
           "encounter_touch", "enemy_state_set", "is_gm", "lock_encounter", "lock_with_combatants",
           "plays_in", "positions_clear", "reactions_default_due", "request_reaction", "request_reactions",
           "set_position"]
