"""Player-facing text for rule errors, in the active language.

``gamerules`` (no Django there) and ``campaigns.errors`` raise errors with a stable ``code`` and
an English ``message``. ``error_message(exc)`` turns one into text for the player:

1. a message known word for word (``KNOWN_MESSAGES``) is translated as it is;
2. a message that carries values (names, PA counts...) and matches one of ``PATTERNS`` is
   translated with the same values;
3. otherwise the generic message of its ``code`` (``BY_CODE``) is used, if the active language
   translates it;
4. otherwise (English, or a language without that entry) the original English message is kept,
   so English always shows the precise text the service wrote.

The services keep their English text: when one changes, add or update its entry here and in
``locale/fr/LC_MESSAGES/django.po`` (``make messages``-style: makemessages, translate,
compilemessages). An entry that no longer matches only falls back to step 3 or 4.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

# Messages raised without values, translated one for one (the English text is the msgid).
KNOWN_MESSAGES: tuple[str, ...] = (
    # campaigns / characters / combat services
    gettext_noop("No such character."),
    gettext_noop("No such target."),
    gettext_noop("This character has no sheet yet: the game master must save it in the admin."),
    gettext_noop("You can only act with your own characters."),
    gettext_noop("This character's rule system has no board actions yet."),
    gettext_noop("This campaign takes no new characters."),
    gettext_noop("The board has no free cell."),
    # Eternal War One II actions
    gettext_noop("This character is not on the board."),
    gettext_noop("At 0 PV a character cannot act until healed."),
    gettext_noop("Move one cell in one of the eight directions."),
    gettext_noop("That cell is off the board."),
    gettext_noop("That cell is occupied."),
    gettext_noop("A character cannot attack itself."),
    gettext_noop("The target is not on your board."),
    gettext_noop("The target must stand on an adjacent cell."),
    gettext_noop("A level 0 character is protected until its first action."),
    gettext_noop("This character is already on the board."),
    gettext_noop("Friendly fire is off in this campaign: allies cannot be attacked."),
    # progression, creation, equipment
    gettext_noop("You can only level up your own characters."),
    gettext_noop("Choose at least one point to spend."),
    gettext_noop("Points are whole numbers."),
    gettext_noop("Points are positive whole numbers."),
    gettext_noop("A characteristic cannot fall below 1."),
    gettext_noop("No such draft."),
    gettext_noop("No such item."),
    gettext_noop("This item belongs to another campaign."),
    gettext_noop("A consumable is used, not equipped."),
    gettext_noop("This item cannot be used."),
    gettext_noop("A disincarnated character cannot use items."),
    # factions
    gettext_noop("No such faction."),
    gettext_noop("No such request."),
    gettext_noop("No such character in this campaign."),
    gettext_noop("That faction belongs to another campaign."),
    gettext_noop("That character plays in another campaign."),
    gettext_noop("A request or invitation is pending already."),
    gettext_noop("Only the faction's leader can do that."),
    gettext_noop("This request was answered or withdrawn already."),
    gettext_noop("It is not yours to answer."),
    gettext_noop("Only who made it can withdraw it."),
    gettext_noop("The leader cannot remove themself: hand the leadership over first."),
    gettext_noop("That character is not a member."),
    gettext_noop("The new leader must be a member."),
    gettext_noop("Hand the leadership to another member before leaving."),
)

# Messages with values: (English regular expression, translated message using its groups).
PATTERNS: tuple[tuple[re.Pattern, object], ...] = (
    (re.compile(r"This needs (?P<cost>\S+) PA; you have (?P<pa>\S+)\."),
     _("This needs %(cost)s PA; you have %(pa)s.")),
    (re.compile(r"A character needs a name of 1 to (?P<max>\d+) characters\."),
     _("A character needs a name of 1 to %(max)s characters.")),
    (re.compile(r"A character named (?P<name>.+) already exists in this campaign\."),
     _("A character named %(name)s already exists in this campaign.")),
    (re.compile(r"Characters of (?P<system>.+) cannot be created yet\."),
     _("Characters of %(system)s cannot be created yet.")),
    (re.compile(r"The target is (?P<cells>\d+) cells away; the reach is (?P<reach>\d+)\."),
     _("The target is %(cells)s cells away; the reach is %(reach)s.")),
    (re.compile(r"Nobody in range \((?P<cells>\d+) cells\)\."),
     _("Nobody in range (%(cells)s cells).")),
    (re.compile(r"Reincarnation possible in (?P<hours>\d+) h (?P<minutes>\d+) min\."),
     _("Reincarnation possible in %(hours)s h %(minutes)s min.")),
    (re.compile(r"Daily PA cap reached: (?P<spent>\S+) of (?P<cap>\d+) PA spent today, "
                r"this needs (?P<cost>\S+)\."),
     _("Daily PA cap reached: %(spent)s of %(cap)s PA spent today, this needs %(cost)s.")),
    (re.compile(r"No reroll left this minute: wait (?P<seconds>\d+) s\."),
     _("No reroll left this minute: wait %(seconds)s s.")),
    (re.compile(r"A faction needs a name of 1 to (?P<max>\d+) characters\."),
     _("A faction needs a name of 1 to %(max)s characters.")),
    (re.compile(r"A faction named (?P<name>.+) exists already\."),
     _("A faction named %(name)s exists already.")),
    (re.compile(r"(?P<name>.+) already belongs to a faction\."),
     _("%(name)s already belongs to a faction.")),
    (re.compile(r"(?P<name>.+) is not a member of this faction\."),
     _("%(name)s is not a member of this faction.")),
)

# One generic message per stable code: every ``code = "..."`` of a RuleError subclass
# (gamerules, campaigns.errors, characters.creation, characters.equipment...).
BY_CODE: dict[str, str] = {
    "rule_error": gettext_noop("This action is not allowed by the rules."),
    "invalid_parameter": gettext_noop("A rule parameter is unknown or out of range."),
    "not_found": gettext_noop("Not found."),
    "sheet_missing": gettext_noop("This character has no sheet yet: the game master must save "
                                  "it in the admin."),
    "forbidden": gettext_noop("You are not allowed to do that."),
    "rule_system_not_playable": gettext_noop("This rule system cannot be played here yet."),
    "campaign_closed": gettext_noop("This campaign takes no new characters."),
    "invalid_input": gettext_noop("Invalid input."),
    "board_full": gettext_noop("The board has no free cell."),
    "action_refused": gettext_noop("This action is refused."),
    "not_enough_pa": gettext_noop("Not enough PA for this action."),
    "off_board": gettext_noop("That cell is off the board."),
    "cell_occupied": gettext_noop("That cell is occupied."),
    "not_adjacent": gettext_noop("The target must stand on an adjacent cell."),
    "cannot_act": gettext_noop("This character cannot act now."),
    "invalid_target": gettext_noop("Invalid target."),
    "target_protected": gettext_noop("A level 0 character is protected until its first action."),
    "invalid_direction": gettext_noop("Move one cell in one of the eight directions."),
    "out_of_range": gettext_noop("The target is out of reach."),
    "item_missing": gettext_noop("Equip a suitable weapon first."),
    "reincarnation_blocked": gettext_noop("Reincarnation is not possible yet."),
    "daily_pa_cap_reached": gettext_noop("This character has spent today's PA allowance."),
    "invalid_item": gettext_noop("This item cannot be used that way."),
    "reroll_limited": gettext_noop("No reroll left for now: wait a little."),
    "invalid_redistribution": gettext_noop("This redistribution of points is not allowed."),
    "invalid_level_up": gettext_noop("This level-up choice is not allowed."),
    "faction_error": gettext_noop("This faction action is not allowed."),
    "already_in_faction": gettext_noop("This character already belongs to a faction."),
    "faction_name_taken": gettext_noop("A faction of this campaign has that name already."),
    "request_closed": gettext_noop("This request was answered or withdrawn already."),
    "leader_must_hand_over": gettext_noop("Hand the leadership to another member first."),
    "not_a_member": gettext_noop("That character is not a member of the faction."),
    "spell_unknown": gettext_noop("This character does not know that spell."),
    "spellbook_full": gettext_noop("The spellbook is full: replace a spell."),
    "spell_already_known": gettext_noop("This spell is in the spellbook already."),
    "invalid_offer": gettext_noop("This spell offer cannot be answered that way."),
    # homebrew d100 (gamerules.homebrew): class codes, then the codes raised with code=...
    "homebrew_refused": gettext_noop("This action is not allowed by the homebrew rules."),
    "invalid_characteristics": gettext_noop("These characteristics do not fit the creation budgets."),
    "reaction_refused": gettext_noop("This reaction is not allowed now."),
    "invalid_weapon": gettext_noop("A damage die is one die, 1d2 to 1d100."),
    "invalid_amount": gettext_noop("This amount is not allowed."),
    "invalid_fumble_effect": gettext_noop("Pick a critical failure effect from the list or describe one."),
    "posture_locked": gettext_noop("The posture can be changed only at the start of one's turn."),
    "action_used": gettext_noop("One action per turn: this turn's action is already spent."),
    "turn_over": gettext_noop("This turn is over."),
    "attack_missed": gettext_noop("There is nothing to react to: the attack missed."),
    "surprised": gettext_noop("A surprised character cannot react in its first turn."),
    "needs_defensive_posture": gettext_noop("Parry and dodge need the defensive posture."),
    "parry_against_magic": gettext_noop("A magical attack cannot be parried."),
    "dodge_for_ally": gettext_noop("One dodges only attacks aimed at oneself."),
    "no_more_dodges": gettext_noop("After a failed dodge, no more dodges this round."),
    "fumble_bonus": gettext_noop("A critical failure's malus cannot be a bonus."),
    "unknown_fumble_effect": gettext_noop("Unknown critical failure effect."),
    "fumble_effect_required": gettext_noop("Pick an effect from the list or describe one."),
    "friendly_fire": gettext_noop("Friendly fire is off in this campaign: allies cannot be "
                                  "attacked."),
    "invalid_dice": gettext_noop("This is not dice notation (e.g. 2d6+1)."),
    # Eclipse Phase (gamerules.eclipse_phase): class codes
    "eclipse_refused": gettext_noop("This action is not allowed by the Eclipse Phase rules."),
    "ep_invalid_sheet": gettext_noop("A value of this sheet, morph, weapon or armour is out of range."),
    "ep_invalid_modifier": gettext_noop("This modifier is unknown, out of range or not for this attack."),
    "ep_no_moxie": gettext_noop("No Moxie point can be spent on this test."),
    "ep_actions_spent": gettext_noop("No such action left in this action phase."),
    "ep_defence_refused": gettext_noop("This defence is not allowed here."),
    "ep_firing_refused": gettext_noop("This weapon cannot fire that way now."),
    "ep_out_of_ammo": gettext_noop("Not enough ammunition."),
    "ep_manoeuvre_refused": gettext_noop("This manoeuvre is not allowed here."),
    "ep_recovery_refused": gettext_noop("This recovery is not possible."),
}


def _translated(msgid: str) -> str | None:
    """The active language's translation of ``msgid``, or None if it has none."""
    text = gettext(msgid)
    return text if text != msgid else None


def code_message(code: str) -> str | None:
    """The translated generic message of ``code``, or None (unknown code, or not translated)."""
    msgid = BY_CODE.get(code)
    return _translated(msgid) if msgid else None


def error_message(exc: BaseException) -> str:
    """What to show the player for ``exc`` (a RuleError or anything with ``message``/``code``)."""
    message = str(getattr(exc, "message", None) or exc)
    if message in KNOWN_MESSAGES:
        return gettext(message)
    for pattern, template in PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            return str(template) % match.groupdict()
    return code_message(getattr(exc, "code", "")) or message
