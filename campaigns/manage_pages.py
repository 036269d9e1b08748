"""The game master's back office pages (campaigns.catalogue; docs/campaigns.md): under
``/campaigns/<id>/manage/``, for whoever oversees the campaign (its game master, co-game
masters, staff), 404 for anyone else and for a row of another campaign.

A form refused answers 422 with the form again and the refusals in words (htmx swaps it; the
page without JavaScript shows the same), nothing saved; a row saved or deleted goes back to
the list (htmx: ``HX-Redirect``) with a message. The forms are the admin's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns import catalogue, rule_systems
from campaigns.errors import NotFound
from campaigns.forms import CampaignParametersForm
from campaigns.messages import error_message

REFUSED = 422


def _kind(request, campaign_id: int, kind: str):
    try:
        return catalogue.managed_kind(user=request.user, campaign_id=campaign_id, slug=kind)
    except NotFound:
        raise Http404(_("No such page.")) from None


def _entry(kind, campaign, entry_id: int):
    try:
        return catalogue.catalogue_entry(kind=kind, campaign=campaign, entry_id=entry_id)
    except NotFound:
        raise Http404(_("No such row.")) from None


def _back(request, url: str, done: str):
    messages.success(request, done)
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": url})
    return redirect(url)


@login_required
@require_GET
def manage_home(request, campaign_id: int):
    """The back office's landing: the campaign's rule parameters and each kind of catalogue row
    of its system, with how many the campaign has (one query per kind)."""
    try:
        campaign = catalogue.managed_campaign(user=request.user, campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    kinds = [(kind, kind.model._default_manager.filter(campaign=campaign).count())
             for kind in catalogue.kinds_of(campaign.rule_system)]
    return render(request, "campaigns/manage/home.html", {
        "campaign": campaign, "kinds": kinds, "spec": rule_systems.get(campaign.rule_system)})


@login_required
@require_http_methods(["GET", "POST"])
def parameters_page(request, campaign_id: int):
    """The campaign's rule parameters, each with its default and bounds, checked by the
    admin's code (campaigns.forms.CampaignAdminForm); POST stores them."""
    try:
        campaign = catalogue.managed_campaign(user=request.user, campaign_id=campaign_id)
    except NotFound:
        raise Http404(_("No such campaign.")) from None
    data = request.POST if request.method == "POST" else None
    form = CampaignParametersForm(data=data, instance=campaign)
    if data is not None and form.parameter_class is not None and form.is_valid():
        catalogue.campaign_parameters_save(user=request.user, campaign=campaign, form=form)
        return _back(request, reverse("campaigns:manage_parameters", args=[campaign.pk]),
                     _("The rule parameters are saved."))
    context = {"campaign": campaign, "form": form}
    status = REFUSED if data is not None else 200
    if request.htmx and data is not None:
        return render(request, "campaigns/manage/_parameters_form.html", context, status=status)
    return render(request, "campaigns/manage/parameters.html", context, status=status)


@login_required
@require_GET
def entry_list(request, campaign_id: int, kind: str):
    """The campaign's rows of one kind, paged (``?page=``), each linked to its form."""
    campaign, found = _kind(request, campaign_id, kind)
    page = catalogue.catalogue_page(kind=found, campaign=campaign, number=request.GET.get("page"))
    rows = [(entry, catalogue.entry_cells(found, entry)) for entry in page.object_list]
    return render(request, "campaigns/manage/list.html", {
        "campaign": campaign, "kind": found, "page": page, "rows": rows})


def _form_page(request, campaign, kind, entry):
    data = request.POST if request.method == "POST" else None
    form = catalogue.catalogue_form(kind=kind, campaign=campaign, entry=entry, data=data)
    formset = catalogue.catalogue_formset(
        kind=kind, entry=entry if entry is not None else form.instance, data=data)
    if data is not None and form.is_valid() and (formset is None or formset.is_valid()):
        try:
            saved = catalogue.catalogue_entry_save(user=request.user, campaign=campaign,
                                                   form=form, formset=formset)
        except IntegrityError:  # a row of that name saved meanwhile: the check passed before
            form.add_error(None, _("Another change was saved meanwhile: nothing was saved, "
                                   "check the values and try again."))
            return _form_answer(request, campaign=campaign, kind=kind, form=form,
                                formset=formset, entry=entry)
        done = (_("%(name)s is saved.") if entry is not None else _("%(name)s is added.")) % {
            "name": saved}
        return _back(request, reverse("campaigns:manage_list", args=[campaign.pk, kind.slug]),
                     done)
    return _form_answer(request, campaign=campaign, kind=kind, form=form, formset=formset,
                        entry=entry)


def _form_answer(request, *, campaign, kind, form, formset, entry):
    context = {"campaign": campaign, "kind": kind, "form": form, "formset": formset,
               "entry": entry}
    status = REFUSED if form.is_bound else 200
    if request.htmx and form.is_bound:
        return render(request, "campaigns/manage/_form.html", context, status=status)
    return render(request, "campaigns/manage/form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def entry_new(request, campaign_id: int, kind: str):
    """A new row of the kind (the admin's form, the campaign fixed)."""
    campaign, found = _kind(request, campaign_id, kind)
    return _form_page(request, campaign, found, None)


@login_required
@require_http_methods(["GET", "POST"])
def entry_edit(request, campaign_id: int, kind: str, row_id: int):
    """One row of the campaign's kind, changed with the admin's form."""
    campaign, found = _kind(request, campaign_id, kind)
    return _form_page(request, campaign, found, _entry(found, campaign, row_id))


@login_required
@require_http_methods(["GET", "POST"])
def entry_delete(request, campaign_id: int, kind: str, row_id: int):
    """GET: the confirmation, saying what uses the row (then it cannot be deleted) or what
    deleting it does; POST: delete it, or the refusal in words (409; htmx: 422 and the part
    alone), nothing deleted."""
    campaign, found = _kind(request, campaign_id, kind)
    entry = _entry(found, campaign, row_id)
    error = ""
    if request.method == "POST":
        try:
            name = catalogue.catalogue_entry_delete(user=request.user, kind=found,
                                                    campaign=campaign, entry_id=entry.pk)
        except NotFound:
            raise Http404(_("No such row.")) from None
        except catalogue.CatalogueEntryInUse as exc:
            error = error_message(exc)
        else:
            return _back(request, reverse("campaigns:manage_list",
                                          args=[campaign.pk, found.slug]),
                         _("%(name)s is deleted.") % {"name": name})
    context = {"campaign": campaign, "kind": found, "entry": entry,
               "uses": found.in_use(entry), "error": error}
    if request.htmx and error:
        return render(request, "campaigns/manage/_delete.html", context, status=REFUSED)
    return render(request, "campaigns/manage/delete.html", context, status=409 if error else 200)
