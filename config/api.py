"""REST API plumbing: rule errors become 4xx responses with a stable code."""

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns.errors import Forbidden, NotFound
from gamerules.errors import ParameterError, RuleError


def status_for(error: RuleError) -> int:
    if isinstance(error, NotFound):
        return status.HTTP_404_NOT_FOUND
    if isinstance(error, Forbidden):
        return status.HTTP_403_FORBIDDEN
    return status.HTTP_400_BAD_REQUEST


def exception_handler(exc, context):
    if isinstance(exc, RuleError):
        body = {"code": exc.code, "detail": exc.message}
        if isinstance(exc, ParameterError):
            body["errors"] = exc.errors
        return Response(body, status=status_for(exc))
    return drf_exception_handler(exc, context)
