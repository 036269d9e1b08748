"""Forms of the faction pages: they only check the shape of what is posted; the services check
everything else (ownership, campaign, state)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from factions.services import NAME_MAX


class FactionCreateForm(forms.Form):
    character = forms.IntegerField(label=_("Leader"), min_value=1)
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    description = forms.CharField(label=_("Description"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    is_public = forms.TypedChoiceField(
        label=_("Access"), coerce=lambda v: v == "public", initial="public",
        choices=[("public", _("Public: anyone joins")),
                 ("private", _("Private: on request or invitation"))])


class CharacterForm(forms.Form):
    """One character chosen (join, leave, invite, remove, hand over)."""

    character = forms.IntegerField(label=_("Character"), min_value=1)


class AnswerForm(forms.Form):
    accept = forms.TypedChoiceField(label=_("Answer"), coerce=lambda v: v == "accept",
                                    choices=[("accept", _("Accept")), ("refuse", _("Refuse"))])
