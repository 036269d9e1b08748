"""REST API plumbing: every error is a JSON body ``{"code", "detail"}`` with a stable code.

Rule errors (``gamerules.errors.RuleError``) become 404 (NotFound), 403 (Forbidden), 429
(RerollLimited, with ``Retry-After`` when the view could tell) or 400; a blocked reincarnation
adds ``until``. DRF's own errors keep their status and get the same shape: a malformed payload is
400 ``invalid_input`` with the per-field messages in ``errors``. Anything else under ``/api/``
that Django cannot route (a negative id, ``1.5``, an unknown path) is the same JSON 404
(``not_found``), never Django's HTML page.
"""

import re
from collections.abc import Mapping

from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns.errors import Forbidden, InvalidInput, NotFound
from characters.creation import RerollLimited
from gamerules.errors import ParameterError, RuleError
from gamerules.ew1.errors import ReincarnationBlocked


def status_for(error: RuleError) -> int:
    if isinstance(error, NotFound):
        return status.HTTP_404_NOT_FOUND
    if isinstance(error, Forbidden):
        return status.HTTP_403_FORBIDDEN
    if isinstance(error, RerollLimited):
        return status.HTTP_429_TOO_MANY_REQUESTS
    return status.HTTP_400_BAD_REQUEST


def exception_handler(exc, context):
    if isinstance(exc, RuleError):
        body = {"code": exc.code, "detail": exc.message}
        if isinstance(exc, ParameterError):
            body["errors"] = exc.errors
        if isinstance(exc, ReincarnationBlocked) and exc.until is not None:
            body["until"] = serializers.DateTimeField().to_representation(exc.until)
        headers = None
        retry_after = getattr(exc, "retry_after", None)  # set by the view that raised it
        if retry_after is not None:
            headers = {"Retry-After": str(max(1, int(retry_after)))}
        return Response(body, status=status_for(exc), headers=headers)
    response = drf_exception_handler(exc, context)
    if response is None:  # not an API error: let Django answer 500
        return None
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


def page_not_found(request, exception):
    """Django's ``handler404``: the API's JSON 404 under ``/api/``, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": NotFound.code, "detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


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

    code = serializers.CharField(help_text="Stable: not_found, forbidden, invalid_input, "
                                           "off_board, not_enough_pa, not_authenticated...")
    detail = serializers.CharField(help_text="A message for the player.")
    errors = serializers.DictField(required=False,
                                   help_text="Per-field messages, for invalid_input.")
    until = serializers.DateTimeField(
        required=False, help_text="reincarnation_blocked: when reincarnation becomes possible.")


ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
READ_ERRORS = {403: ErrorSerializer, 404: ErrorSerializer}
