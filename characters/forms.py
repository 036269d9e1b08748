from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.labels import label
from campaigns.models import Campaign
from characters.services import NAME_MAX
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.skills import SKILLS


class CharacterCreateForm(forms.Form):
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=Campaign.objects.none())
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["campaign"]
        field.queryset = Campaign.objects.filter(is_open=True).order_by("name")
        field.choices = self._campaign_choices  # read when rendered: one query, as before

    def _campaign_choices(self):
        """The open campaigns; with a single one there is nothing to choose, so no empty
        "---------" first option."""
        field = self.fields["campaign"]
        campaigns = list(field.queryset)
        empty = [] if len(campaigns) == 1 else [("", field.empty_label)]
        return empty + [(c.pk, str(c)) for c in campaigns]


class RedistributeForm(forms.Form):
    """Signed points moved per characteristic; the rules check the limits."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for code in CODES:
            self.fields[code] = forms.IntegerField(label=code, initial=0, min_value=-20,
                                                   max_value=20)


class LevelUpForm(forms.Form):
    """Points to add per skill and per characteristic (0 or more). ``rooms`` (code ->
    gamerules.ew1.levelup.Room) sets each input's ``max`` to the most points it may take now;
    the service checks again."""

    def __init__(self, *args, rooms=None, **kwargs):
        super().__init__(*args, **kwargs)
        rooms = rooms or {}
        for skill in SKILLS:
            self.fields[f"skill_{skill.code}"] = forms.IntegerField(
                label=label("skill", skill.code), initial=0, min_value=0, max_value=100,
                required=False)
        for code in CODES:
            self.fields[f"char_{code}"] = forms.IntegerField(label=code, initial=0, min_value=0,
                                                             max_value=100, required=False)
        for prefix, code_rooms in (("skill_", rooms.get("skills", ())),
                                   ("char_", rooms.get("characteristics", ()))):
            for room in code_rooms:
                self.fields[prefix + room.code].widget.attrs["max"] = room.most

    def allocation(self) -> tuple[dict[str, int], dict[str, int]]:
        data = self.cleaned_data
        skills = {s.code: data[f"skill_{s.code}"] for s in SKILLS if data.get(f"skill_{s.code}")}
        chars = {c: data[f"char_{c}"] for c in CODES if data.get(f"char_{c}")}
        return skills, chars
