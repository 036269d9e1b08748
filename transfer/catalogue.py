"""Spreadsheets of a campaign's catalogue (items, spells, templates) in through each system's
django-import-export resource (campaigns.resources; docs/export.md, "Spreadsheets")."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from import_export.formats.base_formats import CSV, XLSX

from campaigns.models import RuleSystem
from eclipse import resources as eclipse_resources
from ew1 import resources as ew1_resources
from homebrew import resources as homebrew_resources
from magic import resources as magic_resources
from transfer.errors import TransferError

MAX_ROWS = 2000


@dataclass(frozen=True)
class Kind:
    slug: str
    label: object
    rule_system: str
    resource: type


KINDS: tuple[Kind, ...] = (
    Kind("items", _("Items"), RuleSystem.ETERNAL_WAR, ew1_resources.ItemTemplateResource),
    Kind("spells", _("Spells"), RuleSystem.ETERNAL_WAR, magic_resources.SpellResource),
    Kind("weapons", _("Weapons"), RuleSystem.HOMEBREW, homebrew_resources.WeaponTemplateResource),
    Kind("morphs", _("Morphs"), RuleSystem.ECLIPSE_PHASE, eclipse_resources.MorphTemplateResource),
    Kind("ep-weapons", _("Weapons"), RuleSystem.ECLIPSE_PHASE,
         eclipse_resources.WeaponTemplateResource),
    Kind("armour", _("Armour"), RuleSystem.ECLIPSE_PHASE, eclipse_resources.ArmourTemplateResource),
)


def kinds_for(campaign) -> list[Kind]:
    return [k for k in KINDS if k.rule_system == campaign.rule_system]


def kind_of(campaign, slug: str) -> Kind | None:
    return next((k for k in kinds_for(campaign) if k.slug == slug), None)


def catalogue_import(*, campaign, kind: Kind, upload) -> dict:
    """Import the rows of ``upload`` (a CSV or XLSX file, by its name's ending) into
    ``campaign``'s ``kind``: every row's campaign is this one; a row of an existing name updates
    it, a new name adds one. Returns ``{"new", "updated", "unchanged"}`` counts. Raises
    TransferError (key ``import_file_unreadable``: not a CSV/XLSX, too many rows; key
    ``transfer_refused`` with ``items``: the rows refused, nothing saved)."""
    name = (upload.name or "").lower()
    fmt = XLSX() if name.endswith(".xlsx") else CSV() if name.endswith(".csv") else None
    if fmt is None:
        raise TransferError("import_file_unreadable", code="import_file_unreadable",
                            details=str(_("send a .csv or .xlsx file")))
    content = upload.read()
    try:
        dataset = fmt.create_dataset(content if fmt.is_binary() else content.decode("utf-8-sig"))
    except Exception as error:  # tablib and openpyxl raise many kinds
        raise TransferError("import_file_unreadable", code="import_file_unreadable",
                            details=str(error)[:200]) from error
    if len(dataset) > MAX_ROWS:
        raise TransferError("import_file_unreadable", code="import_file_unreadable",
                            details=str(_("more than %(n)s rows")) % {"n": MAX_ROWS})
    # Every row is this campaign's: its column (if any) replaced by the campaign's name.
    if dataset.headers and "campaign" in dataset.headers:
        del dataset["campaign"]
    dataset.append_col([campaign.name] * len(dataset), header="campaign")
    resource = kind.resource(campaign=campaign)
    with transaction.atomic():
        try:
            result = resource.import_data(dataset, dry_run=False, raise_errors=False,
                                          use_transactions=True)
        except Exception as error:  # a sheet of another shape: tablib's errors
            raise TransferError("import_file_unreadable", code="import_file_unreadable",
                                details=str(error)[:200] or type(error).__name__) from error
        if result.has_errors() or result.has_validation_errors():
            transaction.set_rollback(True)
            problems = [str(error.error) for error in result.base_errors]
            problems += [f"row {line}: {error.error}" for line, errors in result.row_errors()
                         for error in errors]
            for invalid in result.invalid_rows:
                problems.append(f"row {invalid.number}: " + "; ".join(
                    f"{field}: {' '.join(map(str, messages))}"
                    for field, messages in invalid.error_dict.items()))
            raise TransferError(count=len(problems), items=problems[:50])
    totals = result.totals
    return {"new": totals.get("new", 0), "updated": totals.get("update", 0),
            "unchanged": totals.get("skip", 0)}
