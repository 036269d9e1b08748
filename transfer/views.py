"""The game master's export and import pages of a campaign (docs/export.md): the JSON document
to download, a document's catalogue merged in, a spreadsheet of items, spells or templates.
The campaign's game master and co-GMs (and staff) only: 404 for anyone else."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.messages import error_message
from campaigns.models import Campaign
from campaigns.permissions import oversees
from transfer import catalogue
from transfer.errors import TransferError
from transfer.exporter import campaign_export
from transfer.importer import campaign_import

MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def _overseen(request, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not oversees(request.user, campaign):
        raise Http404(_("No such campaign."))
    return campaign


@login_required
@require_GET
def export_download(request, campaign_id: int):
    """The campaign's document as a JSON file to download (``?files=0``: without pictures)."""
    campaign = _overseen(request, campaign_id)
    document = campaign_export(campaign=campaign, include_files=request.GET.get("files") != "0")
    response = HttpResponse(json.dumps(document, ensure_ascii=False),
                            content_type="application/json; charset=utf-8")
    name = slugify(campaign.name) or f"campaign-{campaign.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.percentile.json"'
    return response


def _upload(request):
    upload = request.FILES.get("document")
    if upload is None:
        raise TransferError("import_file_unreadable", code="import_file_unreadable",
                            details=_("choose a file"))
    if upload.size > MAX_UPLOAD_BYTES:
        raise TransferError("import_file_unreadable", code="import_file_unreadable",
                            details=_("larger than %(mb)s MB") % {"mb": MAX_UPLOAD_BYTES >> 20})
    return upload


@login_required
@require_http_methods(["GET", "POST"])
def import_page(request, campaign_id: int):
    """GET: the page (export link, the two imports). POST ``document`` (a campaign document):
    its items, spells and templates merged into this campaign by name; a conflict refuses the
    whole file with the list of the rows that differ (nothing changed). Refusals: 400/409 with
    the page and the reason."""
    campaign = _overseen(request, campaign_id)
    context = {"campaign": campaign, "kinds": catalogue.kinds_for(campaign)}
    status = 200
    if request.method == "POST":
        try:
            upload = _upload(request)
            try:
                document = json.loads(upload.read().decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as error:
                raise TransferError("import_file_unreadable", code="import_file_unreadable",
                                    details=str(error)[:200]) from error
            result = campaign_import(document=document, into=campaign)
            context["result"] = result
        except TransferError as error:
            context["error"] = error_message(error)
            context["code"] = error.code
            context["conflicts"] = error.params.get("conflicts") or []
            context["problems"] = error.params.get("items") or []
            status = error.status
    return render(request, "transfer/import.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def catalogue_import_page(request, campaign_id: int, kind: str):
    """A spreadsheet (CSV or XLSX) of one kind of the campaign's catalogue (``kind``: one of
    transfer.catalogue.KINDS of the campaign's rule system; another: 404). Each row is
    checked by the model's full_clean; any row refused refuses the file (nothing saved), its
    errors listed by row."""
    campaign = _overseen(request, campaign_id)
    spec = catalogue.kind_of(campaign, kind)
    if spec is None:
        raise Http404(_("No such kind of row."))
    context = {"campaign": campaign, "kind": spec, "kinds": catalogue.kinds_for(campaign)}
    status = 200
    if request.method == "POST":
        try:
            upload = _upload(request)
            context["report"] = catalogue.catalogue_import(campaign=campaign, kind=spec,
                                                           upload=upload)
        except TransferError as error:
            context["error"] = error_message(error)
            context["problems"] = error.params.get("items") or []
            status = error.status
    return render(request, "transfer/catalogue_import.html", context, status=status)
