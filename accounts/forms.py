"""The account forms: allauth's login form under the login page's old field name, and the
account deletion's confirmation."""

from __future__ import annotations

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.contrib.auth import authenticate
from django.utils.translation import gettext_lazy as _

# The login field's name in the page (and in a script's POST): ``username``, as Django's login
# form named it, though it takes an e-mail address too. axes reads it there
# (AXES_USERNAME_FORM_FIELD's default) when no credentials are given.
LOGIN_FIELD_NAME = "username"


class LoginForm(AllauthLoginForm):
    """allauth's login (a username or an e-mail address, and the password), its ``login``
    field sent as ``username``: the scripts, bots and tests that post to /accounts/login/ keep
    working."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or e-mail address")
        # allauth's "Forgot your password?" beside the field: the page has its own link.
        self.fields["password"].help_text = ""

    def add_prefix(self, field_name: str) -> str:
        if field_name == "login":
            field_name = LOGIN_FIELD_NAME
        return super().add_prefix(field_name)


class AccountDeleteForm(forms.Form):
    """The confirmation of an account's deletion: its password, checked through Django's
    ``authenticate`` with the request (so django-axes counts a wrong one as a failed login and
    refuses a locked-out account); an account without a password (made by an OAuth login) types
    its username instead."""

    password = forms.CharField(label=_("Your password"), strip=False, required=False,
                               widget=forms.PasswordInput(
                                   attrs={"autocomplete": "current-password"}))
    username = forms.CharField(label=_("Your username"), required=False)

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request
        self.user = request.user
        del self.fields["password" if not self.user.has_usable_password() else "username"]

    def clean(self):
        data = super().clean() or {}
        if "password" in self.fields:
            user = authenticate(self.request, username=self.user.get_username(),
                                password=data.get("password") or "")
            if user is None or user.pk != self.user.pk:
                self.add_error("password", forms.ValidationError(
                    _("This is not your password."), code="wrong_password"))
        elif data.get("username") != self.user.get_username():
            self.add_error("username", forms.ValidationError(
                _("This is not your username."), code="wrong_username"))
        return data
