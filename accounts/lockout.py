"""Password guessing (issue 9, item 3): django-axes counts failed logins in the database and
locks out a username, or an address, after ``LOGIN_FAILURE_LIMIT`` failures, for
``LOGIN_LOCKOUT_MINUTES`` after the last one. Every way in is covered: the login page and the
admin's (Django's ``authenticate`` with the request), the API's HTTP Basic
(accounts.authentication), and the password-reset form (accounts.middleware, a rate limit: a
reset is not a login). Staff unlock an account or an address by deleting its row under
"Axes > Access attempts" in the admin (or ``manage.py axes_reset_username NAME``)."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

LOCKED_OUT_CODE = "locked_out"


class LoginLockoutBackend(AxesStandaloneBackend):
    """axes' backend (refuses a locked-out username or address before any password is read),
    for HTTP logins only: a call of ``authenticate`` without a request (code, a shell, the test
    client's ``login``) is not a guess over the network, and axes would raise on it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_minutes(request=None) -> int:
    cool_off = get_cool_off(request)
    return max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0


def locked_out_message(request=None) -> str:
    minutes = lockout_minutes(request)
    return ngettext("Too many failed logins for this account or from this address. Try again "
                    "in %(minutes)d minute, or ask a game master to unlock it.",
                    "Too many failed logins for this account or from this address. Try again "
                    "in %(minutes)d minutes, or ask a game master to unlock it.",
                    minutes) % {"minutes": minutes}


def lockout_response(request, original_response=None, credentials=None):
    """axes' ``AXES_LOCKOUT_CALLABLE``: 429 with ``Retry-After``; the API's JSON error
    ``{"code": "locked_out", "detail"}`` under /api/, the login page with the message
    elsewhere."""
    seconds = lockout_minutes(request) * 60
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": LOCKED_OUT_CODE, "detail": locked_out_message(request)},
                                status=429)
    else:
        response = render(request, "registration/locked_out.html",
                          {"message": locked_out_message(request)}, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


# Each one alone: a username is locked out, and an address, after LOGIN_FAILURE_LIMIT failures.
LOCKOUT_PARAMETERS = ["username", "ip_address"]


def lockout_parameters(request_or_attempt, credentials=None) -> list[str]:
    """What axes counts failures under (settings AXES_LOCKOUT_PARAMETERS): the username and the
    address each alone; for an API token (accounts.authentication, no username) the address
    only, or every wrong token anywhere would count under one empty username and lock out
    every token user."""
    from axes.models import AccessBase

    if isinstance(request_or_attempt, AccessBase):
        token = request_or_attempt.username is None
    else:
        token = bool(credentials) and "api_token" in credentials
    return ["ip_address"] if token else LOCKOUT_PARAMETERS


USERNAME_MAX = 150  # Django's username max_length; axes' AccessAttempt.username holds 255


def lockout_username(request, credentials=None) -> str | None:
    """The username axes counts failures under (settings AXES_USERNAME_CALLABLE): the submitted
    one, cut to USERNAME_MAX characters. AuthenticationForm does not apply its username's
    max_length before authenticating, and axes stored the raw name in its varchar(255): a
    5,000-character name was a 500 on PostgreSQL. No account has a longer name, so the login
    fails all the same and is counted under the cut name.

    An e-mail address (the login form takes one: allauth's credentials then carry ``email``)
    counts under the username of the one account that has it (one query), so that trying the
    address and the name of an account adds up to one count; an address no account has (or
    several have) counts as typed, lower-cased."""
    from axes.conf import settings as axes_settings

    field = axes_settings.AXES_USERNAME_FORM_FIELD
    username = (credentials or {}).get(field) if credentials else request.POST.get(field, None)
    if username is None:
        return None
    username = str(username)[:USERNAME_MAX]
    email = (credentials or {}).get("email") if credentials else (
        username if "@" in username else None)
    if email is not None:
        return _username_of_email(str(email)[:USERNAME_MAX]) or username.lower()
    return username


def _username_of_email(email: str) -> str | None:
    """The username of the one account with ``email`` (its Django address or one of its
    allauth addresses, any case), else None."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    names = list(get_user_model().objects
                 .filter(Q(email__iexact=email) | Q(emailaddress__email__iexact=email))
                 .values_list("username", flat=True).distinct()[:2])
    return names[0] if len(names) == 1 else None
