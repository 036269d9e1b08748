"""The chat's refusals, each with its code, status and English template (gamerules.errors)."""

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "chat_invalid": gettext_noop("This message cannot be sent."),
    "not_found": gettext_noop("No such chat."),
    "chat_refused": gettext_noop("You are not allowed to do that in this chat."),
    "rate_limited": gettext_noop("You are sending messages too fast. Wait a moment."),
    "chat_not_found": gettext_noop("No such chat."),
    "chat_empty": gettext_noop("Write a message first."),
    "chat_too_long": gettext_noop(
        "This message is %(length)s characters long: at most %(max_length)s."),
    "chat_bad_characters": gettext_noop(
        "This message holds characters that cannot be sent (a NUL byte or control codes)."),
    "chat_no_recipient": gettext_noop("Choose whom to whisper to among the room's players."),
    "chat_bad_to": gettext_noop("A message goes to everyone, to the game master or to one player."),
    "chat_rate_limited": gettext_noop(
        "You are sending messages too fast: at most %(rate)s. Wait a moment."),
    "chat_no_such_message": gettext_noop("No such message."),
    "chat_delete_gm_only": gettext_noop("Only the game master may delete a message."),
    "chat_no_such_entry": gettext_noop("No such journal entry in this campaign."),
    "chat_share_gm_only": gettext_noop("Only the game master may show a journal entry in the chat."),
}


class ChatError(RuleError):
    code = "chat_invalid"
    messages = MESSAGES


class ChatNotFound(ChatError):
    """The room does not exist or the user may not read it (the two are not told apart)."""

    code = "not_found"
    status = 404


class ChatRefused(ChatError):
    code = "chat_refused"
    status = 403


class ChatRateLimited(ChatError):
    code = "rate_limited"
    status = 429
