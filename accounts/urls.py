from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods

from accounts import views

form_methods = require_http_methods(["GET", "HEAD", "POST"])

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Personal API tokens for scripts and bots (accounts.tokens).
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api-token-revoke"),
    # Django's password reset: a link by e-mail (the console backend unless EMAIL_URL is set).
    # Forms take GET and POST, notices GET; any other method is 405 (Django's confirm view
    # would answer it with its "invalid link" page).
    path("password-reset/", form_methods(auth_views.PasswordResetView.as_view()),
         name="password_reset"),
    path("password-reset/sent/", require_GET(auth_views.PasswordResetDoneView.as_view()),
         name="password_reset_done"),
    path("reset/<uidb64>/<token>/", form_methods(auth_views.PasswordResetConfirmView.as_view()),
         name="password_reset_confirm"),
    path("reset/done/", require_GET(auth_views.PasswordResetCompleteView.as_view()),
         name="password_reset_complete"),
]
