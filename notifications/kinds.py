"""What a notification says, in the reader's language (issue 22, item 4).

A notification is stored with its ``kind`` (what a user may mute: :data:`KINDS`), its ``code``
(which sentence: :data:`TEXTS`) and the ``params`` that fill the sentence (names as they were
when it happened, a deadline as an ISO 8601 text). The sentence is the msgid of the French
catalogue: :func:`render` translates it when it is read, so the reader's language, not the
writer's, is the one shown. A kind's ``_hidden`` code is the sentence without the actor: what
the game master hides (a hidden combatant) is never stored, so never shown.
"""

from __future__ import annotations

from collections.abc import Mapping

from typing import Any

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy as _, gettext_noop

TURN, REACTION, ATTACKED, HEALED, KILLED = "turn", "reaction", "attacked", "healed", "killed"
LEVEL_UP, FACTION, MENTION, WHISPER = "level_up", "faction", "mention", "whisper"

# kind -> its name on the settings page (the order shown)
KINDS: dict[str, Any] = {  # lazy translated names
    TURN: _("Your turn"),
    REACTION: _("A reaction waiting"),
    ATTACKED: _("Attacked"),
    HEALED: _("Healed"),
    KILLED: _("Killed"),
    LEVEL_UP: _("A level-up offer waiting"),
    FACTION: _("Faction requests and invitations"),
    MENTION: _("Mentioned in a chat"),
    WHISPER: _("Whispers"),
}

# code -> (its kind, its English sentence with %(name)s params)
TEXTS: dict[str, tuple[str, str]] = {
    "turn": (TURN, gettext_noop("It is %(character)s's turn in %(encounter)s.")),
    "reaction": (REACTION, gettext_noop(
        "%(actor)s attacks %(character)s: choose a reaction before %(deadline)s.")),
    "reaction_hidden": (REACTION, gettext_noop(
        "%(character)s is attacked: choose a reaction before %(deadline)s.")),
    "attacked": (ATTACKED, gettext_noop("%(actor)s attacked %(character)s.")),
    "attacked_hidden": (ATTACKED, gettext_noop("%(character)s was attacked.")),
    "healed": (HEALED, gettext_noop("%(actor)s healed %(character)s.")),
    "healed_hidden": (HEALED, gettext_noop("%(character)s was healed.")),
    "killed": (KILLED, gettext_noop("%(actor)s killed %(character)s.")),
    "killed_hidden": (KILLED, gettext_noop("%(character)s was killed.")),
    "level_up": (LEVEL_UP, gettext_noop("%(character)s has a level-up offer waiting.")),
    "faction_request": (FACTION, gettext_noop("%(character)s asks to join %(faction)s.")),
    "faction_invitation": (FACTION, gettext_noop("%(faction)s invites %(character)s to join.")),
    "mention": (MENTION, gettext_noop("%(author)s mentioned you in the chat of %(campaign)s.")),
    "whisper": (WHISPER, gettext_noop("%(author)s whispered to you in the chat of %(campaign)s.")),
}

# params shown as a time of day in the reader's time zone (stored as ISO 8601 texts)
TIMES = frozenset({"deadline"})


def kind_of(code: str) -> str:
    """The kind of sentence ``code``. Raises KeyError for an unknown code."""
    return TEXTS[code][0]


def _shown(name: str, value) -> str:
    if name in TIMES and isinstance(value, str):
        moment = parse_datetime(value)
        if moment is not None:
            return formats.time_format(timezone.localtime(moment), "H:i:s")
    return str(value)


def render(code: str, params: Mapping) -> str:
    """The sentence ``code`` in the active language, filled with ``params``; a code or param
    this version does not know shows the kind's name, never an error."""
    entry = TEXTS.get(code)
    if entry is None:
        return gettext("A notification.")
    values = {name: _shown(name, value) for name, value in (params or {}).items()}
    try:
        return gettext(entry[1]) % values
    except (KeyError, TypeError, ValueError):
        return str(KINDS[entry[0]])
