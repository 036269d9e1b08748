"""Forms of the homebrew pages: their shape only; the budgets are the rules'
(gamerules.homebrew.characteristics) and the service's."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.services import NAME_MAX
from gamerules.homebrew.characteristics import CODES
from homebrew.labels import CHARACTERISTICS as LABELS

REST_KINDS = [("short", _("Short rest (about 2 h)")), ("medium", _("Medium rest (about 4 h)")),
              ("long", _("Long rest (about 8 h)"))]


class CreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    mp_label = forms.CharField(label=_("MP gauge label"), max_length=30, required=False,
                               help_text=_("Leave empty for MP (e.g. \"Cartridges\")."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for code in CODES:
            self.fields[code] = forms.IntegerField(label=LABELS[code], min_value=0,
                                                   max_value=1000)

    def values(self) -> dict[str, int]:
        return {code: self.cleaned_data[code] for code in CODES}


class TestForm(forms.Form):
    code = forms.ChoiceField(label=_("Characteristic"),
                             choices=[(c, LABELS[c]) for c in CODES])


class RestForm(forms.Form):
    kind = forms.ChoiceField(label=_("Rest"), choices=REST_KINDS)
    characters = forms.TypedMultipleChoiceField(label=_("Characters"), coerce=int,
                                                required=False,
                                                help_text=_("None chosen: all of them."))
    hp_amount = forms.IntegerField(label=_("HP restored (empty: the campaign's amount)"),
                                   required=False, min_value=0, max_value=100000)
    mp_amount = forms.IntegerField(label=_("MP restored (empty: the campaign's amount)"),
                                   required=False, min_value=0, max_value=100000)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedMultipleChoiceField, self.fields["characters"])
        field.choices = [(c.pk, c.name) for c in characters]
