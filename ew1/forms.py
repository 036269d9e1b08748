"""Eternal War One II forms: moving points at creation, spending them at a level-up."""

from django import forms

from campaigns.labels import label
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.skills import SKILLS


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
