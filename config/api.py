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
handler500), never Django's HTML page.
"""

import logging
import re
from collections.abc import Mapping

from drf_spectacular.views import SpectacularSwaggerView
from django.core import signals
from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns.errors import InvalidInput, SheetMissing
from campaigns.messages import error_message
from ew1.models import EternalWarSheet
from gamerules.errors import ParameterError, RuleError
from gamerules.ew1.errors import ReincarnationBlocked


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
        body = {"code": exc.code, "detail": error_message(exc)}
        if exc.params:
            body["params"] = {k: _json_param(v) for k, v in exc.params.items()}
        if isinstance(exc, ParameterError):
            body["errors"] = exc.errors
        if isinstance(exc, ReincarnationBlocked) and exc.until is not None:
            body["until"] = serializers.DateTimeField().to_representation(exc.until)
        headers = None
        retry_after = getattr(exc, "retry_after", None)  # set by the view that raised it
        if retry_after is not None:
            headers = {"Retry-After": str(max(1, int(retry_after)))}
        return Response(body, status=status_for(exc), headers=headers)
    if isinstance(exc, EternalWarSheet.DoesNotExist):  # a character saved without its sheet
        return Response({"code": SheetMissing.code,
                         "detail": "A character here has no sheet yet: the game master must "
                                   "save it in the admin."}, status=status.HTTP_404_NOT_FOUND)
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



# An integer as the API takes it: a JSON number without a fraction, or a string of ASCII digits
# with an optional minus sign. DRF alone reads " 1 ", "1.0", 1.0 and "\u0663" (Arabic-Indic 3) as
# numbers, and a related field reads 1.5 and true as id 1.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")
NOT_WHOLE = "A whole number is required (digits only)."
INTEGER_FIELDS = (serializers.IntegerField, serializers.PrimaryKeyRelatedField)


def _is_whole(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and WHOLE_NUMBER.fullmatch(value) is not None


def _not_whole(field, value) -> list[str] | dict | None:
    """The error for ``value`` read by ``field`` if it holds a number that is not written as a
    whole number (in a dict's or list's children too), else None."""
    if value is None:
        return None  # allow_null decides
    if isinstance(field, INTEGER_FIELDS):
        return None if _is_whole(value) else [NOT_WHOLE]
    child = getattr(field, "child", None)
    if isinstance(child, INTEGER_FIELDS):
        if isinstance(field, serializers.DictField) and isinstance(value, Mapping):
            bad = {k: [NOT_WHOLE] for k, v in value.items() if v is not None and not _is_whole(v)}
            return bad or None
        if isinstance(field, serializers.ListField) and isinstance(value, list):
            return [NOT_WHOLE] if any(v is not None and not _is_whole(v) for v in value) else None
    return None


class StrictSerializer(serializers.Serializer):
    """An input serializer (body or query string) that refuses fields it does not know (a typo,
    or an ``ordering`` the endpoint does not take, must not pass silently) and numbers that are
    not written as whole numbers."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            errors = {name: error for name, field in self.fields.items()
                      if name in data and (error := _not_whole(field, data.get(name)))}
            if errors:
                raise serializers.ValidationError(errors)
        value = super().to_internal_value(data)
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return value


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer (for the OpenAPI schema)."""

    code = serializers.CharField(help_text="Stable: not_found, sheet_missing, forbidden, "
                                           "invalid_input, off_board, not_enough_pa, "
                                           "not_authenticated, server_error...")
    detail = serializers.CharField(help_text="A message for the player, in the request's language.")
    params = serializers.DictField(required=False,
                                   help_text="The values of the message (names, PA...), by name.")
    # A field named like Serializer.errors: DRF collects it as a field (stubs see the property).
    errors = serializers.DictField(required=False,  # type: ignore[assignment]
                                   help_text="Per-field messages, for invalid_input.")
    until = serializers.DateTimeField(
        required=False, help_text="reincarnation_blocked: when reincarnation becomes possible.")


ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
READ_ERRORS = {403: ErrorSerializer, 404: ErrorSerializer}


class ApiDocsView(SpectacularSwaggerView):
    """The Swagger UI page (/api/docs/), its files from drf-spectacular-sidecar (no CDN).

    Only the page itself is HTML: OPTIONS and errors (a POST is 405) answer JSON like every
    other endpoint (drf-spectacular's HTML renderer has no template for them and would 500)."""

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.template_name is None:
            request.accepted_renderer, request.accepted_media_type = (JSONRenderer(),
                                                                      "application/json")
        return super().finalize_response(request, response, *args, **kwargs)


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """handler404: JSON under /api/ (a URL no endpoint has), Django's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"code": "not_found", "detail": "No such endpoint."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: JSON under /api/ (a failure outside the API views), Django's page
    elsewhere."""
    if _is_api(request):
        return JsonResponse(SERVER_ERROR, status=500)
    return defaults.server_error(request)
