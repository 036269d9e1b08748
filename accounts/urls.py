from allauth.account import views as account_views
from allauth import urls as allauth_urls
from allauth.socialaccount.providers.discord import views as discord_views
from csp.decorators import csp_update
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.http import require_http_methods

from accounts import views

# allauth's views take any method their class defines (PUT as POST, DELETE...): its pages
# take GET, HEAD and POST here, anything else is 405 (tests/breaker/test_url_sweep.py).
form_methods = require_http_methods(["GET", "HEAD", "POST"])


def _form_methods_only(patterns):
    """``patterns`` (allauth's URL tree) with every view behind ``form_methods``."""
    out: list[URLPattern | URLResolver] = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            out.append(URLResolver(entry.pattern, _form_methods_only(entry.url_patterns),
                                   entry.default_kwargs, entry.app_name, entry.namespace))
        else:
            out.append(URLPattern(entry.pattern, form_methods(entry.callback),
                                  entry.default_args, entry.name))
    return out


# Discord's authorization page: the provider's confirmation form (POST, then a redirect there)
# may go to it under the Content-Security-Policy's form-action (docs/deploy.md).
DISCORD_AUTHORIZE_ORIGIN = "https://discord.com"

urlpatterns = [
    # allauth's pages (accounts, docs/deploy.md "Accounts") under the project's older URL names
    # too, at allauth's paths: {% url 'login' %}, LOGIN_URL and the password-reset rate limit
    # (accounts.middleware) go by them.
    path("login/", form_methods(account_views.login), name="login"),
    path("logout/", form_methods(account_views.logout), name="logout"),
    path("signup/", form_methods(account_views.signup), name="signup"),
    path("password/reset/", form_methods(account_views.password_reset), name="password_reset"),
    path("delete/", views.account_delete, name="account-delete"),
    # Personal API tokens for scripts and bots (accounts.tokens).
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api-token-revoke"),
    path("discord/login/", form_methods(
        csp_update({"form-action": [DISCORD_AUTHORIZE_ORIGIN]})(discord_views.oauth2_login)),
         name="discord_login"),
    path("", include(_form_methods_only(allauth_urls.urlpatterns))),
]
