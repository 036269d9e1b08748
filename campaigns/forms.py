"""The game master's campaign form: one validated field per rule parameter."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.models import Campaign
from gamerules.errors import ParameterError
from gamerules.parameters import is_time_zone

PREFIX = "param_"


def _validate_time_zone(value: str) -> None:
    if value and not is_time_zone(value):
        raise ValidationError(_("Not a time zone zoneinfo knows: use an IANA name such as "
                                "Europe/Paris or UTC."), code="invalid_time_zone")


class CampaignAdminForm(forms.ModelForm):
    """Shows every parameter of the campaign's rule system with its default, bounds and meaning,
    and stores only the values that differ from the defaults in ``rule_parameters``."""

    class Meta:
        model = Campaign
        fields = ["name", "description", "rule_system", "game_master", "is_open"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        system = self.instance.rule_system if self.instance.pk else (
            self.data.get("rule_system") or self.initial.get("rule_system")
            or rule_systems.default_code())
        spec = rule_systems.get(system)
        self.parameter_class = spec.parameters if spec else None
        if self.parameter_class is None:
            return
        current = self.instance.rule_parameters or {}
        for row in self.parameter_class.describe():
            default = row["default"]
            if row["kind"] == "zone":
                self.fields[PREFIX + row["name"]] = forms.CharField(
                    label=row["name"], required=False, max_length=64,
                    initial=current.get(row["name"], default),
                    validators=[_validate_time_zone],
                    help_text=_("%(help)s Default: %(default)s.") % {"help": row["help"],
                                                                      "default": default})
                continue
            kind = forms.DecimalField if isinstance(default, Decimal) else forms.IntegerField
            extra = {"decimal_places": 2, "max_digits": 6} if kind is forms.DecimalField else {}
            self.fields[PREFIX + row["name"]] = kind(
                label=row["name"], required=False, min_value=row["low"], max_value=row["high"],
                initial=current.get(row["name"], default),
                help_text=_("%(help)s Default: %(default)s.") % {"help": row["help"],
                                                                  "default": default},
                **extra)

    def parameter_names(self) -> list[str]:
        return [n for n in self.fields if n.startswith(PREFIX)]

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and "rule_system" in self.changed_data and self._has_characters():
            # Their sheets, drafts and every page read the old system's rules.
            self.add_error("rule_system", _("This campaign has characters or drafts: its rule "
                                            "system cannot change."))
        if self.parameter_class is None:
            return cleaned
        defaults = {r["name"]: r["default"] for r in self.parameter_class.describe()}
        overrides = {}
        for field in self.parameter_names():
            name = field[len(PREFIX):]
            value = cleaned.get(field)
            if value not in (None, "") and value != defaults[name]:
                overrides[name] = str(value) if isinstance(value, Decimal) else value
        try:
            rule_systems.parameters_for(cleaned.get("rule_system") or rule_systems.default_code(),
                                        overrides)
        except ParameterError as exc:
            for name, message in exc.errors.items():
                self.add_error(PREFIX + name if PREFIX + name in self.fields else None, message)
        self.instance.rule_parameters = overrides
        return cleaned

    def _has_characters(self) -> bool:
        """Characters, or a system's own data in the making (RuleSystemSpec.in_use: drafts)."""
        if self.instance.characters.exists():
            return True
        spec = rule_systems.get(self.initial.get("rule_system") or self.instance.rule_system)
        return bool(spec and spec.in_use and spec.in_use(self.instance))
