"""The shared foundations of every app's REST API: the strict input serializer, the error body
and the error maps the endpoints' schemas declare. Low in the layers (campaigns, the shared core)
so that every app's api.py can read them; config.api (the exception handler, the docs page) sits on
top and imports them from here."""

import re
from collections.abc import Mapping

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers


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


class StrictSchema(OpenApiSerializerExtension):
    """The schema of a StrictSerializer says what it does: no property but its fields
    (``additionalProperties: false``), so that a client, or a fuzzer, sends none."""

    target_class = StrictSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


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
