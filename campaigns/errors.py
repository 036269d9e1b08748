"""Errors of the core services (not tied to one rule system), with their English messages.

``MESSAGES`` maps each key to its template (``%(name)s`` placeholders filled from the raise's
params); ``CoreError`` gives the table to every class here (gamerules.errors explains the model).
"""

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "not_found": gettext_noop("Not found."),
    "sheet_missing": gettext_noop(
        "This character has no sheet yet: the game master must save it in the admin."),
    "forbidden": gettext_noop("You are not allowed to do that."),
    "rule_system_not_playable": gettext_noop("This rule system cannot be played here yet."),
    "rule_system_not_built": gettext_noop(
        "%(system)s is not built yet: its characters cannot be made nor played here."),
    "campaign_closed": gettext_noop("This campaign takes no new characters."),
    "invalid_input": gettext_noop("Invalid input."),
    "board_full": gettext_noop("The board has no free cell."),
    "no_such_campaign": gettext_noop("No such campaign."),
    "no_such_character": gettext_noop("No such character."),
    "no_such_item": gettext_noop("No such item."),
    "cell_off_board": gettext_noop("That cell is off the board or occupied."),
    "piece_creature_door": gettext_noop("A piece is a creature, a door or an object."),
    "name_taken": gettext_noop("A character named %(name)r already exists in this campaign."),
    "name_length": gettext_noop("A character needs a name of 1 to %(name_max)s characters."),
    "no_such_draft": gettext_noop("No such draft."),
    "not_your_character": gettext_noop("You can only act with your own characters."),
    "not_yours_to_level_up": gettext_noop("You can only level up your own characters."),
    "no_board_actions": gettext_noop("This character's rule system has no board actions yet."),
    "no_such_offer": gettext_noop("No such offer."),
    "leader_cannot_remove": gettext_noop(
        "The leader cannot remove themself: hand the leadership over first."),
    "no_such_request": gettext_noop("No such request."),
    "only_who_made": gettext_noop("Only who made it can withdraw it."),
    "not_yours_answer": gettext_noop("It is not yours to answer."),
    "request_invitation_pending": gettext_noop("A request or invitation is pending already."),
    "no_such_character_campaign": gettext_noop("No such character in this campaign."),
    "faction_belongs_another": gettext_noop("That faction belongs to another campaign."),
    "character_plays_another": gettext_noop("That character plays in another campaign."),
    "faction_name_length": gettext_noop("A faction needs a name of 1 to %(name_max)s characters."),
    "only_faction_leader": gettext_noop("Only the faction's leader can do that."),
    "no_such_faction": gettext_noop("No such faction."),
    # The admin's refusals of a row of another campaign or system (campaigns.validation).
    "wrong_campaign": gettext_noop("This belongs to another campaign."),
    "campaign_wrong_system": gettext_noop(
        "%(name)s plays %(system)s: choose a campaign of %(expected)s."),
    "character_wrong_system": gettext_noop(
        "%(name)s plays %(system)s: choose a character of %(expected)s."),
    "other_campaign": gettext_noop("%(name)s belongs to another campaign (%(campaign)s)."),
    "no_encounters": gettext_noop(
        "%(name)s plays %(system)s on its board: encounters are for the turn-based systems."),
    "not_in_encounter": gettext_noop("%(name)s does not fight in this encounter."),
    "board_too_small": gettext_noop(
        "%(names)s would stand off a board of %(width)s x %(height)s: move them first."),
    # Uploaded pictures (campaigns.images): a portrait, an encounter's background.
    "image_refused": gettext_noop("That picture cannot be used."),
    "image_too_big": gettext_noop("The picture is too big: %(size)s KB, at most %(limit)s KB."),
    "image_unreadable": gettext_noop("That file is not a picture this site can read."),
    "image_type": gettext_noop("Send a PNG, JPEG, GIF or WebP picture (not %(kind)s)."),
    "image_missing": gettext_noop("Choose a picture to send."),
    "image_too_many_pixels": gettext_noop(
        "The picture is %(width)s x %(height)s pixels: at most %(most)s million pixels (a JPEG "
        "photo may be larger)."),
    "portrait_needs_character": gettext_noop(
        "%(name)s has no character to hold a portrait."),
    # Self-service campaigns (campaigns.services).
    "campaign_name_taken": gettext_noop("A campaign named %(name)s exists already."),
    "not_campaign_owner": gettext_noop(
        "Only the campaign's game master adds or removes co-game masters."),
    "co_master_refused": gettext_noop("That co-game master cannot be added or removed."),
    "no_such_user": gettext_noop("No active account is named %(name)s."),
    "already_game_master": gettext_noop("%(name)s is this campaign's game master."),
    "already_co_master": gettext_noop("%(name)s is a co-game master of this campaign already."),
    "no_such_co_master": gettext_noop("That user is not a co-game master of this campaign."),
    # Members: invitations and requests to join (campaigns.membership).
    "no_such_invitation": gettext_noop("No such invitation: check the link or the code."),
    "invitation_refused": gettext_noop("This invitation admits no one any more."),
    "invitation_used_up": gettext_noop(
        "This invitation has been used as many times as it may be: ask the game master for "
        "another."),
    "invitation_expired": gettext_noop(
        "This invitation has expired: ask the game master for another."),
    "invitation_revoked": gettext_noop(
        "This invitation was withdrawn by the game master."),
    "already_member": gettext_noop("You are a member of %(name)s already."),
    "already_runs_campaign": gettext_noop("You run %(name)s already: no need to join it."),
    "campaign_is_open": gettext_noop(
        "%(name)s is open: anyone signed up makes a character in it, no need to ask."),
    "join_request_pending": gettext_noop(
        "You have asked to join %(name)s already: its game master has not answered yet."),
    "join_request_answered": gettext_noop("This request has been answered already."),
    "invitation_days": gettext_noop(
        "An invitation lasts 1 to %(most)s days, or leave it empty for no end."),
    "invitation_uses": gettext_noop(
        "An invitation is used 1 to %(most)s times, or leave it empty for no limit."),
    "join_message_length": gettext_noop(
        "A message of at most %(most)s characters, without control characters."),
    "service_unavailable": gettext_noop(
        "The database cannot be reached for a moment: nothing was changed, try again shortly."),
}


class CoreError(RuleError):
    messages = MESSAGES


class ServiceUnavailable(CoreError):
    """The database went away during the request (its transaction rolled back): 503."""

    code = "service_unavailable"
    status = 503


class NotFound(CoreError):
    """The object does not exist or the user may not see it (the two are not told apart)."""

    code = "not_found"
    status = 404


class SheetMissing(NotFound):
    """The character has no rule-system sheet (data saved around the admin, which always makes
    one): it cannot be shown nor played until the game master saves it in the admin."""

    code = "sheet_missing"


class Forbidden(CoreError):
    code = "forbidden"
    status = 403


class RuleSystemNotPlayable(CoreError):
    """A campaign's rule system that is not built yet (``campaigns.rule_systems.require``, key
    ``rule_system_not_built``), or that has no such play (key ``no_board_actions``)."""

    code = "rule_system_not_playable"


class CampaignClosed(CoreError):
    code = "campaign_closed"


class CampaignNameTaken(CoreError):
    """A campaign made under a name another took meanwhile (the page's form checks it first;
    this is the race between two)."""

    code = "campaign_name_taken"
    status = 409


class NotCampaignOwner(Forbidden):
    """A co-game master asking what only the game master does (campaigns.permissions.owns)."""

    code = "not_campaign_owner"


class CoMasterRefused(CoreError):
    """A co-game master who cannot be added (key ``no_such_user``, ``already_game_master``,
    ``already_co_master``, each with ``name``) or removed (``no_such_co_master``)."""

    code = "co_master_refused"


class InvalidInput(CoreError):
    code = "invalid_input"


class BoardFull(CoreError):
    code = "board_full"


class WrongCampaign(CoreError):
    """A row the game master links to a campaign, character or template of another campaign
    or rule system (the admin's checks, campaigns.validation)."""

    code = "wrong_campaign"


class BoardTooSmall(CoreError):
    """A board resized under its pieces or scrolls (``names``, ``width``, ``height``)."""

    code = "board_too_small"


class ImageRefused(CoreError):
    """An uploaded picture refused (campaigns.images): too big (``size``, ``limit`` in KB),
    unreadable, of another type (``kind``), or none sent."""

    code = "image_refused"
    status = 400


class InvitationRefused(CoreError):
    """An invitation that admits no one any more: ``invitation_used_up`` (its maximum of uses
    reached, perhaps by a user who raced for its last use), ``invitation_expired``,
    ``invitation_revoked``; each its own code (the API returns it). 409 (the statuses the
    project answers: tests/i18n/test_i18n.py)."""

    code = "invitation_refused"
    status = 409


class AlreadyAdmitted(CoreError):
    """Joining a campaign one is a member of already (``already_member``), runs
    (``already_runs_campaign``), or that is open (``campaign_is_open``), each with ``name``;
    asking twice (``join_request_pending``); answering a request answered
    (``join_request_answered``). 409."""

    code = "already_member"
    status = 409
