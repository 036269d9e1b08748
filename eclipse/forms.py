"""Forms of the Eclipse Phase pages: their shape only; the budgets are the rules'
(gamerules.eclipse_phase.creation) and the services'."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.services import NAME_MAX
from eclipse.models import APTITUDE_FIELDS
from gamerules.eclipse_phase.sheet import NO_DEFAULT_SKILLS, SKILL_APTITUDES

APTITUDE_LABELS = {"COG": _("Cognition"), "COO": _("Coordination"), "INT": _("Intuition"),
                   "REF": _("Reflexes"), "SAV": _("Savvy"), "SOM": _("Somatics"),
                   "WIL": _("Willpower")}


class CreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    morph = forms.TypedChoiceField(label=_("Morph"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, morphs=(), **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["morph"]).choices = (
            [("", _("none yet"))] + [(m.pk, str(m)) for m in morphs])
        for aptitude in APTITUDE_FIELDS:
            self.fields[aptitude.value] = forms.IntegerField(
                label=f"{aptitude.value} · {APTITUDE_LABELS[aptitude.value]}", min_value=0,
                max_value=1000, initial=15)
        for skill in SKILL_APTITUDES:
            self.fields[f"skill_{skill}"] = forms.IntegerField(
                label=skill.replace("_", " "), min_value=0, max_value=1000, required=False)

    def aptitudes(self) -> dict[str, int]:
        return {a.value: self.cleaned_data[a.value] for a in APTITUDE_FIELDS}

    def skills(self) -> dict[str, int]:
        return {skill: self.cleaned_data[f"skill_{skill}"] for skill in SKILL_APTITUDES
                if self.cleaned_data.get(f"skill_{skill}")}

    def aptitude_fields(self):
        return [self[a.value] for a in APTITUDE_FIELDS]

    def skill_fields(self):
        return [self[f"skill_{s}"] for s in SKILL_APTITUDES]

    def skill_rows(self, default_any_skill: bool = False) -> list[dict]:
        """Each skill of the rules' list, in order, as the creation page shows it: its
        ``field`` (the ranks learnt), its ``name`` (code), the linked ``aptitude`` (code and
        ``aptitude_label``), the ``default`` an untrained skill rolls (the aptitude's value as
        the form holds it, before the morph's bonus; None when unreadable) and ``defaults``
        (False for the psi and technical skills, which cannot be used untrained, unless the
        campaign's ``default_any_skill``). Source: gamerules.eclipse_phase.sheet
        (SKILL_APTITUDES, NO_DEFAULT_SKILLS)."""
        rows = []
        for skill, aptitude in SKILL_APTITUDES.items():
            raw = self[aptitude.value].value()
            try:
                default = int(raw) if raw not in (None, "") else None
            except (TypeError, ValueError):
                default = None
            rows.append({"field": self[f"skill_{skill}"], "name": skill,
                         "aptitude": aptitude.value,
                         "aptitude_label": APTITUDE_LABELS[aptitude.value],
                         "default": default,
                         "defaults": default_any_skill or skill not in NO_DEFAULT_SKILLS})
        return rows
