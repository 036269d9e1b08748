from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign
from campaigns.selectors import campaigns_admitting
from characters.services import NAME_MAX


class CharacterCreateForm(forms.Form):
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=Campaign.objects.none())
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["campaign"])
        # The campaigns the user may make a character in (campaigns.permissions.admits).
        field.queryset = campaigns_admitting(user=user)
        field.choices = self._campaign_choices  # read when rendered: one query, as before

    def _campaign_choices(self):
        """The open campaigns; with a single one there is nothing to choose, so no empty
        "---------" first option."""
        field = cast(forms.ModelChoiceField, self.fields["campaign"])
        campaigns = list(field.queryset) if field.queryset is not None else []  # set in __init__
        empty = [] if len(campaigns) == 1 else [("", field.empty_label)]
        return empty + [(c.pk, str(c)) for c in campaigns]
