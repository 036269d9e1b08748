"""Why an encounter service refuses a step (the rules' own refusals are
gamerules.encounter.errors). ``MESSAGES`` holds the English templates; French in the .po."""

from gamerules.encounter.errors import EncounterError
from gamerules.errors import gettext_noop

MESSAGES: dict[str, str] = {
    "no_such_encounter": gettext_noop("No such encounter."),
    "no_such_combatant": gettext_noop("No such combatant in this encounter."),
    "no_such_reaction": gettext_noop("No such reaction."),
    "not_game_master": gettext_noop("Only the campaign's game master can do that."),
    "not_your_combatant": gettext_noop("You do not play this combatant."),
    "not_yours_to_answer": gettext_noop(
        "Only the target's player or the game master can answer this reaction."),
    "encounter_not_running": gettext_noop("The encounter is not running."),
    "encounter_already_started": gettext_noop("The encounter has started already."),
    "encounter_ended": gettext_noop("The encounter is over."),
    "not_your_turn": gettext_noop("It is not %(name)s's turn."),
    "turn_already_advanced": gettext_noop(
        "The turn has moved on already (someone else pressed first): nothing was changed."),
    "action_already_taken": gettext_noop(
        "This turn's action is spent already: nothing was changed."),
    "reaction_pending": gettext_noop("The encounter waits for %(name)s's reaction."),
    "reaction_pending_someone": gettext_noop("The encounter waits for a reaction."),
    "delay_after_acting": gettext_noop("A combatant that has acted cannot delay its turn."),
    "not_in_campaign": gettext_noop("That character plays in another campaign."),
    "combatant_needs_name": gettext_noop("A combatant needs a character or a name."),
    "too_many_combatants": gettext_noop("At most %(most)s combatants at once."),
    "count_at_least_one": gettext_noop("Add at least 1 combatant."),
    "turns_per_round_range": gettext_noop(
        "A combatant plays 1 to %(most)s turns a round."),
    "unknown_order_mode": gettext_noop("%(mode)r is not a way to set the order."),
    "copies_of_player": gettext_noop("%(name)s is a player's character: only creatures and "
                                     "non-player characters are copied."),
    "character_once": gettext_noop("%(name)s fights once: to add several, add copies of it."),
    "no_copies": gettext_noop("%(system)s cannot copy a character's sheet: add them one by one."),
    "no_initiative": gettext_noop("%(system)s gives no initiative roll: set the order instead."),
    "order_mismatch": gettext_noop("The order must list every combatant in it, once each."),
    "already_prompted": gettext_noop("%(name)s is asked already about this action."),
    "unknown_resolver": gettext_noop("No rule system answers reactions of kind %(kind)r."),
    "joining_closed": gettext_noop("The game master does not let players join this encounter."),
    "already_joined": gettext_noop("%(name)s is in this encounter already: a player joins once."),
    "left_encounter": gettext_noop("%(name)s was taken out of this encounter: only the game "
                                   "master brings it back."),
    "join_player_character": gettext_noop("Only a player's own character joins an encounter."),
    "background_width": gettext_noop(
        "A background is 1 to %(most)s metres wide on the ground (a whole number)."),
    "unknown_enemy_state": gettext_noop(
        "%(value)r is not a way to show enemies: exact, described or hidden."),
}


class EncounterServiceError(EncounterError):
    messages = MESSAGES


class EncounterNotFound(EncounterServiceError):
    """A missing encounter, or one the user may not see (not told apart)."""

    code = "no_such_encounter"
    status = 404


class EncounterForbidden(EncounterServiceError):
    code = "not_game_master"
    status = 403


class EncounterConflict(EncounterServiceError):
    """The step came too late or out of turn; nothing was changed."""

    code = "not_your_turn"
    status = 409


class EncounterInvalid(EncounterServiceError):
    code = "combatant_needs_name"
