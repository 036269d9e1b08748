"""Errors of export, import, backup and restore, with their English messages (campaigns.errors
explains the model: a code, params, a status; the pages and commands render them)."""

from campaigns.errors import CoreError
from gamerules.errors import gettext_noop

MESSAGES: dict[str, str] = {
    "transfer_refused": gettext_noop("This document cannot be imported."),
    "document_malformed": gettext_noop(
        "This is not a campaign document this site can read: %(problems)s"),
    "document_unknown_format": gettext_noop(
        "This is not a Percentile campaign document (format %(found)s)."),
    "document_unknown_version": gettext_noop(
        "This campaign document is of version %(found)s: this site reads version %(known)s."),
    "users_missing": gettext_noop(
        "These accounts do not exist on this site: %(names)s. Create them first, or import "
        "with missing accounts created inactive."),
    "import_conflicts": gettext_noop(
        "Nothing was imported: %(count)s rows of the document differ from rows of the same name "
        "in this campaign (%(names)s)."),
    "import_wrong_system": gettext_noop(
        "The document's campaign plays %(found)s, this campaign plays %(expected)s."),
    "import_name_taken": gettext_noop(
        "A campaign named %(name)s exists already: choose another name for the imported one."),
    "import_file_unreadable": gettext_noop("That file cannot be read: %(details)s"),
    "backup_refused": gettext_noop("Backup or restore refused: %(details)s"),
}


class TransferError(CoreError):
    """A document refused before anything is written. ``params["problems"]`` (a list of
    strings) or ``params["conflicts"]`` (a list of dicts: model, name, fields) say why."""

    messages = MESSAGES
    code = "transfer_refused"
    status = 400


class DocumentMalformed(TransferError):
    code = "document_malformed"


class DocumentUnknownVersion(TransferError):
    code = "document_unknown_version"


class UsersMissing(TransferError):
    code = "users_missing"


class ImportConflicts(TransferError):
    code = "import_conflicts"
    status = 409


class BackupRefused(TransferError):
    code = "backup_refused"
