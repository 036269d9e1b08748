"""The API's JSON parser (settings REST_FRAMEWORK's DEFAULT_PARSER_CLASSES): DRF's, refusing
what no UTF-8 text holds. Apart from config.api, which DRF's settings cannot import early."""

from rest_framework import exceptions, parsers


def _has_lone_surrogate(value) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


class JSONParser(parsers.JSONParser):
    """DRF's, refusing (400 ``parse_error``, as malformed JSON) a body whose strings hold
    half of a UTF-16 pair (``"\\ud800"``): valid JSON, yet no UTF-8 text holds it, so the
    database, nh3 and the JSON renderer (an error message that echoes the value) would raise:
    a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        if _has_lone_surrogate(data):
            raise exceptions.ParseError()  # DRF's "Malformed request.", translated
        return data
