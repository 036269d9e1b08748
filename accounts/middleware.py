"""A rate limit on the password-reset form, per address and per e-mail address: asking for
reset mails is not a login (django-axes does not count it), yet it can be used to flood an
inbox or to probe which addresses have accounts."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

# The password-reset form's URL names (allauth's, and the project's own name for it,
# accounts.urls): the limit applies to whichever path the view is mounted at.
RESET_URL_NAMES = frozenset({"password_reset", "account_reset_password"})


class PasswordResetRateLimitMiddleware:
    """Refuse a POST to the password-reset view past ``PASSWORD_RESET_RATE`` (default 5/h) from
    one address (axes' client address, so the same proxy settings), or for one e-mail address:
    429 with a page that says so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if request.method != "POST" or match is None or match.url_name not in RESET_URL_NAMES:
            return None
        counted = {"accounts.reset.ip": get_client_ip_address(request) or "",
                   "accounts.reset.email": (request.POST.get("email") or "").strip().lower()}
        limited = False
        for group, value in counted.items():
            if value:  # both are counted, so a refused request still counts for each
                usage = get_usage(request, group=group, rate=settings.PASSWORD_RESET_RATE,
                                  key=lambda g, r, v=value: v, increment=True)
                limited |= usage is not None and usage["should_limit"]
        if not limited:
            return None
        return render(request, "registration/locked_out.html", {"message": _(
            "Too many password reset requests from this address or for this e-mail address. "
            "Try again later.")}, status=429)
