from django import forms
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import tokens
from accounts.tokens import TokenRefused


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign up, then to ``next`` (a path of this site, e.g. an invitation's link a signed-out
    visitor followed: docs/campaigns.md) or to the characters."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "characters:list")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "characters:list")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _safe_next(request) -> str:
    """The ``next`` of the request if it is a path of this site, else ""."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if "\x00" in target or not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return ""
    return target


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
