"""The notifications' refusals, each with its code, status and English template."""

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "notification_invalid": gettext_noop("That cannot be done with notifications."),
    "no_such_notification": gettext_noop("No such notification."),
    "unknown_notification_kind": gettext_noop("No such kind of notification: %(kind)s."),
}


class NotificationError(RuleError):
    code = "notification_invalid"
    messages = MESSAGES


class NotificationNotFound(NotificationError):
    """Missing, or another user's (the two are not told apart)."""

    code = "no_such_notification"
    status = 404
