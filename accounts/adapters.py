"""allauth's adapters (settings ACCOUNT_ADAPTER, SOCIALACCOUNT_ADAPTER): an OAuth provider
without its client id and secret answers 404 rather than a 500, and an OAuth login into an
account that django-axes locked out is refused as a password login would be."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.http import Http404


class AccountAdapter(DefaultAccountAdapter):
    """allauth's, unchanged for now: the place for the project's account rules."""


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def get_app(self, request, provider, client_id=None):
        """The provider's application (settings SOCIALACCOUNT_PROVIDERS, from the environment);
        none configured: 404 (allauth raised SocialApp.DoesNotExist, a 500)."""
        from allauth.socialaccount.models import SocialApp

        try:
            return super().get_app(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist:
            raise Http404("No such login provider.") from None

    def pre_social_login(self, request, sociallogin) -> None:
        """An OAuth login cannot be guessed (the provider checks who it is), so it is not
        counted; but it does not open an account, or come from an address, that axes has
        locked out (429, the lockout page, as on the login page)."""
        from axes.handlers.proxy import AxesProxyHandler

        from accounts.lockout import lockout_response

        credentials = ({"username": sociallogin.user.get_username()}
                       if sociallogin.is_existing else None)
        AxesProxyHandler.update_request(request)
        if AxesProxyHandler.is_locked(request, credentials):
            raise ImmediateHttpResponse(lockout_response(request))
