from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy as _, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts import deletion, tokens
from accounts.forms import AccountDeleteForm
from accounts.tokens import TokenRefused


EXPIRY_CHOICES = [("", _("Never")), ("7", _("7 days")), ("30", _("30 days")),
                  ("90", _("90 days")), ("365", _("1 year"))]


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=tokens.NAME_MAX,
                           help_text=_("What uses it: a script, a bot..."))
    expires_in_days = forms.TypedChoiceField(label=_("Expires"), choices=EXPIRY_CHOICES,
                                             coerce=int, empty_value=None, required=False)


def _tokens_page(request, form: ApiTokenForm, *, secret: str | None = None, status: int = 200):
    return render(request, "accounts/api_tokens.html",
                  {"form": form, "secret": secret,
                   "tokens": tokens.api_tokens_of(user=request.user)}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_tokens(request):
    """The user's API tokens; a POST makes one and shows its secret, this once."""
    form = ApiTokenForm(request.POST or None)
    if request.method != "POST":
        return _tokens_page(request, form)
    if not form.is_valid():
        return _tokens_page(request, form, status=400)
    try:
        _token, secret = tokens.api_token_create(user=request.user, **form.cleaned_data)
    except TokenRefused as exc:
        form.add_error(None, exc.render(gettext))
        return _tokens_page(request, form, status=400)
    return _tokens_page(request, ApiTokenForm(), secret=secret, status=201)


@login_required
@require_POST
def api_token_revoke(request, token_id: int):
    """Revoke one of the user's tokens (another's: 404), back to the list."""
    try:
        tokens.api_token_revoke(user=request.user, token_id=token_id)
    except tokens.TokenNotFound:
        return _tokens_page(request, ApiTokenForm(), status=404)
    return redirect("api-tokens")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_delete(request):
    """The account's deletion (accounts.deletion): what it does, the campaigns that stop it,
    and a form confirming with the password; done, the user is logged out, to the login page."""
    refused = deletion.campaigns_mastered_by(user=request.user)
    form = AccountDeleteForm(request.POST or None, request=request)
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        else:
            try:
                done = deletion.account_delete(user=request.user)
            except deletion.AccountDeleteRefused as exc:
                form.add_error(None, exc.render(gettext))
                status = 409
            else:
                logout(request)
                kept = done["characters_kept"]
                messages.success(request, ngettext(
                    "Your account is deleted. Its character stays in its campaign, without a "
                    "player.", "Your account is deleted. Its %(count)d characters stay in their "
                    "campaigns, without a player.", kept) % {"count": kept}
                    if kept else gettext("Your account is deleted."))
                return redirect("login")
    return render(request, "account/delete.html",
                  {"form": form, "refused": refused, "characters": request.user.characters
                   .select_related("campaign").order_by("campaign__name", "name")},
                  status=status)
