"""The game master's back office (docs/campaigns.md, "The campaign's catalogue"): the kinds of
rows a campaign keeps for its rule system (each system registers its own: items, spells,
weapons, morph and armour templates...), which its game master and co-game
masters list, add, change and delete from ``/campaigns/<id>/manage/<kind>/``.

Each rule system registers its kinds from its ``AppConfig.ready()`` (:func:`register_kind`),
each with **the admin's own form class** (the page binds it with the campaign fixed: the same
fields, the same ``clean()``, the same model validation and constraints, so the page and the
admin cannot drift), the columns its list shows, and what deleting a row would break
(``in_use``: a row in use is not deleted, :class:`CatalogueEntryInUse` says by what) or do
(``deletes``: shown on the confirmation).

Who: :func:`campaigns.permissions.oversees`; anyone else, and a row of another campaign (or
shared by every campaign: ``campaign`` empty, staff edit those in the admin), is NotFound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.paginator import Page, Paginator
from django.db import models, transaction

from campaigns.errors import CoreError, NotFound
from campaigns.models import Campaign
from campaigns.permissions import oversees
from gamerules.errors import gettext_noop

PAGE_SIZE = 25


class CatalogueEntryInUse(CoreError):
    """A row of the catalogue that characters or the game still use (``name``; ``uses``: what
    uses it, in the reader's words): it is not deleted."""

    code = "catalogue_in_use"
    status = 409
    messages = {  # noqa: RUF012  # the class table, as CoreError's
        "catalogue_in_use": gettext_noop("%(name)s is in use (%(uses)s): it was not deleted."),
        "catalogue_protected": gettext_noop("%(name)s is in use: it was not deleted."),
    }


@dataclass(frozen=True)
class CatalogueKind:
    """One kind of catalogue row of ``system``.

    ``slug`` names it in the URL (``/campaigns/<id>/manage/<slug>/``); ``label`` is its plural
    name (lazy translated); ``model`` its model (a ``campaign`` foreign key); ``form`` the
    admin's ModelForm class (or a callable returning it, read at the first use, so that the
    registering app need not import its admin in ``ready()``); ``columns`` the model fields
    the list shows after the name; ``in_use(entry)`` what uses the row (a list of phrases in
    the reader's language, empty when nothing does: a fixed number of queries); ``deletes``
    what deleting it does besides (shown on the confirmation, lazy translated);
    ``formset(instance=, data=)`` an optional inline formset the page saves with the row
    (as the admin's inline does, e.g. an item's modifiers)."""

    slug: str
    system: str
    label: Any
    model: type[models.Model]
    form: Callable[[], type[forms.ModelForm]]
    columns: Sequence[str] = ()
    in_use: Callable[[Any], list[str]] = field(default=lambda entry: [])
    deletes: Any = ""
    formset: Callable[..., forms.BaseFormSet] | None = None

    def form_class(self) -> type[forms.ModelForm]:
        return self.form()

    def column_labels(self) -> list[str]:
        return [str(getattr(self.model._meta.get_field(name), "verbose_name", name))
                for name in self.columns]


_KINDS: dict[tuple[str, str], CatalogueKind] = {}


def register_kind(kind: CatalogueKind) -> None:
    """Register ``kind`` (again: replaces it), listed in the order registered."""
    _KINDS[(kind.system, kind.slug)] = kind


def kinds_of(system: str) -> list[CatalogueKind]:
    """The kinds of catalogue rows ``system`` keeps, in the order registered."""
    return [kind for (code, _slug), kind in _KINDS.items() if code == system]


# --- selectors -------------------------------------------------------------------------------

def managed_campaign(*, user, campaign_id: int) -> Campaign:
    """The campaign ``user`` oversees, else NotFound (one query)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    return campaign


def managed_kind(*, user, campaign_id: int, slug: str) -> tuple[Campaign, CatalogueKind]:
    """The campaign and its system's kind ``slug``, else NotFound (one query)."""
    campaign = managed_campaign(user=user, campaign_id=campaign_id)
    kind = _KINDS.get((campaign.rule_system, slug))
    if kind is None:
        raise NotFound("not_found")
    return campaign, kind


def catalogue_page(*, kind: CatalogueKind, campaign: Campaign, number: Any) -> Page:
    """Page ``number`` (anything: a bad one gives the first or last page) of the campaign's rows
    of ``kind``, in the model's order: two queries (the count, the rows)."""
    rows = kind.model._default_manager.filter(campaign=campaign)
    if not kind.model._meta.ordering:
        rows = rows.order_by("pk")
    return Paginator(rows, PAGE_SIZE).get_page(number)


def catalogue_entry(*, kind: CatalogueKind, campaign: Campaign, entry_id: int):
    """The row ``entry_id`` of ``kind`` of this campaign, else NotFound (one query): a row of
    another campaign, or shared by all, is not the campaign's game master's to change."""
    entry = kind.model._default_manager.filter(campaign=campaign, pk=entry_id).first()
    if entry is None:
        raise NotFound("not_found")
    entry.campaign = campaign  # type: ignore[attr-defined]  # read already (a form's help texts read its parameters)
    return entry


def catalogue_form(*, kind: CatalogueKind, campaign: Campaign, entry=None, data=None):
    """The admin's form of ``kind`` for ``entry`` (None: a new row of ``campaign``), bound to
    ``data`` if given: the campaign is fixed (its field disabled, so a posted campaign is
    ignored) and not shown; everything else is the admin's."""
    instance = entry if entry is not None else kind.model(campaign=campaign)
    form = kind.form_class()(data=data, instance=instance)
    if "campaign" in form.fields:
        form.fields["campaign"].disabled = True
        form.fields["campaign"].widget = forms.HiddenInput()
    return form


def catalogue_formset(*, kind: CatalogueKind, entry, data=None):
    """The kind's inline formset (None without one) for ``entry``, bound to ``data``."""
    if kind.formset is None:
        return None
    return kind.formset(instance=entry, data=data)


# --- services --------------------------------------------------------------------------------

def catalogue_entry_save(*, user, campaign: Campaign, form: forms.ModelForm,
                         formset: forms.BaseFormSet | None = None):
    """Save the valid ``form`` (and ``formset``) of a row of ``campaign``: in one transaction,
    after checking again that ``user`` oversees the campaign and that the row is the
    campaign's. Raises NotFound otherwise; ValueError for a form not validated (a caller's
    mistake). Returns the row."""
    if not oversees(user, campaign) or form.instance.campaign_id != campaign.pk:
        raise NotFound("not_found")
    if not form.is_valid() or (formset is not None and not formset.is_valid()):
        raise ValueError("save a valid form only")
    with transaction.atomic():
        entry = form.save()
        if formset is not None:
            formset.instance = entry  # type: ignore[attr-defined]  # an inline formset
            formset.save()  # type: ignore[attr-defined]
    return entry


def catalogue_entry_delete(*, user, kind: CatalogueKind, campaign: Campaign, entry_id: int) -> str:
    """Delete the row ``entry_id`` of ``kind`` of ``campaign`` unless something uses it
    (``kind.in_use``: CatalogueEntryInUse, nothing deleted); NotFound for whoever does not
    oversee the campaign and for a row not of it. Locks the row first, so that a character
    taking it meanwhile is seen. Returns the row's name."""
    if not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    with transaction.atomic():
        entry = (kind.model._default_manager.select_for_update()
                 .filter(campaign=campaign, pk=entry_id).first())
        if entry is None:
            raise NotFound("not_found")
        uses = kind.in_use(entry)
        if uses:
            raise CatalogueEntryInUse(name=str(entry), uses="; ".join(uses))
        name = str(entry)
        try:
            with transaction.atomic():
                entry.delete()
        except models.ProtectedError:  # a use in_use did not name: still refused in words
            raise CatalogueEntryInUse("catalogue_protected", name=name) from None
    return name


def campaign_parameters_save(*, user, campaign: Campaign, form) -> Campaign:
    """Store the valid parameters ``form`` (campaigns.forms.CampaignParametersForm) read: only
    the values that differ from the defaults, the campaign's other columns untouched. NotFound
    for whoever does not oversee the campaign; ValueError for a form not validated."""
    if not oversees(user, campaign) or form.instance.pk != campaign.pk:
        raise NotFound("no_such_campaign")
    if not form.is_valid():
        raise ValueError("save a valid form only")
    Campaign.objects.filter(pk=campaign.pk).update(
        rule_parameters=form.instance.rule_parameters)
    campaign.rule_parameters = form.instance.rule_parameters
    return campaign


def entry_cells(kind: CatalogueKind, entry) -> list[Any]:
    """The list's cells of ``entry`` after its name: each column's value as the reader reads
    it (a choice's label; no query)."""
    cells = []
    for name in kind.columns:
        model_field = kind.model._meta.get_field(name)
        if getattr(model_field, "choices", None):
            cells.append(getattr(entry, f"get_{name}_display")())
        else:
            cells.append(getattr(entry, name))
    return cells


def kind_get(system: str, slug: str) -> CatalogueKind | None:
    """The kind ``slug`` of ``system``, or None."""
    return _KINDS.get((system, slug))
