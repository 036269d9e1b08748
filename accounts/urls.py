from allauth.account import views as account_views
from allauth.socialaccount.providers.discord import views as discord_views
from csp.decorators import csp_update
from django.urls import include, path

from accounts import views

# Discord's authorization page: the provider's confirmation form (POST, then a redirect there)
# may go to it under the Content-Security-Policy's form-action (docs/deploy.md).
DISCORD_AUTHORIZE_ORIGIN = "https://discord.com"

urlpatterns = [
    # allauth's pages (accounts, docs/deploy.md "Accounts") under the project's older URL names
    # too, at allauth's paths: {% url 'login' %}, LOGIN_URL and the password-reset rate limit
    # (accounts.middleware) go by them.
    path("login/", account_views.login, name="login"),
    path("logout/", account_views.logout, name="logout"),
    path("signup/", account_views.signup, name="signup"),
    path("password/reset/", account_views.password_reset, name="password_reset"),
    path("delete/", views.account_delete, name="account-delete"),
    # Personal API tokens for scripts and bots (accounts.tokens).
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api-token-revoke"),
    path("discord/login/",
         csp_update({"form-action": [DISCORD_AUTHORIZE_ORIGIN]})(discord_views.oauth2_login),
         name="discord_login"),
    path("", include("allauth.urls")),
]
