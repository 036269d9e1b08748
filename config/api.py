"""REST API plumbing: every error is a JSON body ``{"code", "detail"}`` with a stable code.

Rule errors (``gamerules.errors.RuleError``) answer their class's ``status`` (404 NotFound, 403
Forbidden, 429 RerollLimited with ``Retry-After`` when the view could tell, else 400) with
``{"code", "detail"}``: the detail in the request's language, plus ``params`` (the values that
fill it) when it has any; a blocked reincarnation adds ``until``. DRF's own errors keep their
status and get the same shape: a malformed payload is 400 ``invalid_input`` with the per-field
messages in ``errors``. A sheet missing where one was read is 404 ``sheet_missing``; any other
failure is 500 ``server_error`` (logged with its traceback, and Django's
``got_request_exception`` is sent as for any 500). Outside the views, anything under ``/api/``
that Django cannot route (a negative id, ``1.5``, an unknown path) and a 500 raised in a
middleware answer JSON too (``not_found``, ``api_server_error``: config.urls' handler404 and
 handler500; with DEBUG on, config.api.ApiNotFoundMiddleware for the 404), never Django's
 HTML page. The database failing, in a view or outside (a middleware, the session's save:
 handler500 and handler400), answers 503 ``service_unavailable`` with ``Retry-After``
 (config.middleware.outage_response).
"""

import json
import logging
import sys
from typing import Any

from drf_spectacular.views import SpectacularSwaggerView
from django.core import signals
from django.http import JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns import rule_systems
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer  # noqa: F401
from campaigns.errors import InvalidInput, SheetMissing
from campaigns.messages import error_message
from gamerules.errors import ParameterError, RuleError


logger = logging.getLogger("django.request")
SERVER_ERROR = {"code": "server_error", "detail": "Something went wrong on our side; it has been "
                                                  "logged."}


def status_for(error: RuleError) -> int:
    """The HTTP status of a rule error: its class's ``status`` (400 unless it says otherwise)."""
    return error.status


def _json_param(value):
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def exception_handler(exc, context):
    if isinstance(exc, RuleError):
        body: dict[str, Any] = {"code": exc.code, "detail": error_message(exc)}
        if exc.params:
            body["params"] = {k: _json_param(v) for k, v in exc.params.items()}
        if isinstance(exc, ParameterError):
            body["errors"] = exc.errors
        until = getattr(exc, "until", None)  # a refusal that ends at a time (a cooldown)
        if until is not None:
            body["until"] = serializers.DateTimeField().to_representation(until)
        headers = None
        retry_after = getattr(exc, "retry_after", None)  # set by the view that raised it
        if retry_after is not None:
            headers = {"Retry-After": str(max(1, int(retry_after)))}
        return Response(body, status=status_for(exc), headers=headers)
    if isinstance(exc, rule_systems.sheet_missing_errors()):  # a character saved without its sheet
        return Response({"code": SheetMissing.code,
                         "detail": "A character here has no sheet yet: the game master must "
                                   "save it in the admin."}, status=status.HTTP_404_NOT_FOUND)
    from config.middleware import database_unavailable, is_database_down

    if is_database_down(exc):  # the database went away: 503
        request = getattr(context.get("request"), "_request", None)
        logger.error("database unavailable during %s", getattr(request, "path", "?"),
                     exc_info=exc)
        unavailable = database_unavailable(request)
        return Response(json.loads(unavailable.content), status=503,
                        headers={"Retry-After": unavailable["Retry-After"]})
    response = drf_exception_handler(exc, context)
    if response is None:  # not an API error: a bug, answered as JSON all the same
        request = getattr(context.get("request"), "_request", None)
        logger.error("Internal Server Error: %s", getattr(request, "path", "?"), exc_info=exc,
                     extra={"status_code": 500, "request": request})
        signals.got_request_exception.send(sender=None, request=request)
        return Response(SERVER_ERROR, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    if isinstance(exc, exceptions.ValidationError):
        errors = response.data if isinstance(response.data, dict) else {
            "non_field_errors": response.data}
        response.data = {"code": InvalidInput.code, "detail": "The request is malformed.",
                         "errors": errors}
    elif isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        response.data = {"code": getattr(detail, "code", None) or exc.default_code,
                         "detail": str(detail)}
    return response



class ApiDocsView(SpectacularSwaggerView):
    """The Swagger UI page (/api/docs/), its files from drf-spectacular-sidecar (no CDN).

    Only the page itself is HTML: OPTIONS and errors (a POST is 405) answer JSON like every
    other endpoint (drf-spectacular's HTML renderer has no template for them and would 500).
    Its template gives drf-spectacular's inline style and script the request's CSP nonce."""

    template_name = "api/swagger_ui.html"

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.template_name is None:
            request.accepted_renderer, request.accepted_media_type = (JSONRenderer(),
                                                                      "application/json")
        return super().finalize_response(request, response, *args, **kwargs)


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """handler404: JSON under /api/ (a URL no endpoint has), Django's page elsewhere. With
    DEBUG on Django draws its debug page instead of calling this: config.middleware.
    ApiNotFoundMiddleware then answers it."""
    if _is_api(request):
        return JsonResponse({"code": "not_found", "detail": gettext("No such endpoint.")},
                            status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception):
    """handler400: Django's page; but a session that could not be saved because the database
    failed (SessionMiddleware raises SessionInterrupted, a 400, from the failed save) answers
    the 503 with ``Retry-After`` (config.middleware.outage_response)."""
    from config.middleware import outage_response

    outage = outage_response(request, exception)
    if outage is not None:
        return outage
    return defaults.bad_request(request, exception)


def server_error(request):
    """handler500: JSON under /api/ (a failure outside the API views), Django's page
    elsewhere; but the database connection failing (OperationalError, InterfaceError) answers
    the same 503 with ``Retry-After`` as in a view (config.middleware.outage_response).

    Django calls it for every exception no view caught, while that exception is being
    handled (under ASGI too: asgiref raises it again in the thread it runs in), so it covers
    what the views' ``process_exception`` does not see: a middleware's session or user lookup,
    a ``process_view``, the session saved at the end of the request. With ``DEBUG`` Django
    shows its traceback page instead."""
    from config.middleware import outage_response

    outage = outage_response(request, sys.exc_info()[1])
    if outage is not None:
        return outage
    if _is_api(request):
        return JsonResponse(SERVER_ERROR, status=500)
    return defaults.server_error(request)


class ApiNotFoundMiddleware:
    """Under ``/api/``, a 404 drawn as an HTML page answers the API's JSON 404 instead
    (:func:`not_found`).

    Django calls ``handler404`` for a URL nothing routes only with DEBUG off; with it on (``make
    run``) it draws its debug page. Placed above CommonMiddleware, whose redirect to the URL with
    its slash comes first, and below LocaleMiddleware, so the detail is in the reader's
    language. A view's own JSON 404 (a rule error, DRF's) is left as it is.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == status.HTTP_404_NOT_FOUND and request.path.startswith("/api/") and \
                not response.get("Content-Type", "").startswith("application/json"):
            return not_found(request)
        return response
