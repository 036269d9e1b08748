from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign
from characters.services import NAME_MAX


class CharacterCreateForm(forms.Form):
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=Campaign.objects.none())
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = Campaign.objects.filter(is_open=True).order_by("name")
