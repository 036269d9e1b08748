"""The game master's campaign form: one validated field per rule parameter of the campaign's
rule system, and only that system's.

The add page asks for the rule system and shows no parameter: a new campaign stores none (its
system's defaults) and the admin goes on to its change page, which shows the parameters of the
campaign's system (``system_shown``). A change of rule system saves the new system's defaults,
whatever the old system's fields carried, and the change page then shows the new ones.

Each parameter is drawn from ``RuleParameters.describe()``: a checkbox for a yes/no, a number
box with its bounds (checked by the field: translated messages), or a time-zone name; its label
is the system's words for it, translated, and so is its help text; the admin shows them by rule
chapter (``parameter_groups``). What the fields accept is then read as the system
reads it (``from_overrides``), and parameters that read each other are checked together
(``conflicts``: e.g. a creation budget no characteristics within their caps can spend), each
conflict shown on the first parameter it names. Only the values that differ from the defaults
are stored in ``Campaign.rule_parameters``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from collections.abc import Mapping

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.messages import error_message
from campaigns.models import Campaign
from gamerules.errors import ParameterError
from gamerules.parameters import is_time_zone

PREFIX = "param_"
MAIN_FIELDS = ["name", "description", "rule_system", "game_master", "is_open", "accepts_requests",
               "enemy_state"]


def _validate_time_zone(value: str) -> None:
    if value and not is_time_zone(value):
        raise ValidationError(_("Not a time zone zoneinfo knows: use an IANA name such as "
                                "Europe/Paris or UTC."), code="invalid_time_zone")


def system_shown(instance: Campaign | None, data: Mapping[str, Any] | None) -> str | None:
    """The rule system whose parameters the form shows: none on the add page (``instance``
    None or unsaved), the campaign's on its change page, none when the posted ``data`` change
    the system (its defaults are saved; the change page shows them next). The admin's
    fieldsets and the form both ask here, so they always agree."""
    if instance is None or instance.pk is None:
        return None
    if data is not None and "rule_system" in data and data["rule_system"] != instance.rule_system:
        return None
    return instance.rule_system if rule_systems.get(instance.rule_system) else None


def parameter_groups(system: str | None) -> list[tuple[str, list[str]]]:
    """``system``'s parameters by rule chapter (``RuleParameters.grouped``): each group's title
    in the reader's language and its form field names; none without a system."""
    spec = rule_systems.get(system) if system else None
    if spec is None:
        return []
    return [(gettext(title), [PREFIX + name for name in names])
            for title, names in spec.parameters.grouped()]


def _shown_default(row: dict[str, Any]) -> str:
    if row["kind"] == "bool":
        return gettext("yes") if row["default"] else gettext("no")
    return str(row["default"])


def parameter_field(row: dict[str, Any], current: Any) -> forms.Field:
    """The form field of one ``describe()`` row, its initial value ``current``."""
    help_text = gettext("%(help)s Default: %(default)s. In the rules: %(name)s.") % {
        "help": gettext(row["help"]), "default": _shown_default(row), "name": row["name"]}
    common = {"label": gettext(row["label"]), "required": False, "initial": current,
              "help_text": help_text}
    if row["kind"] == "bool":
        return forms.BooleanField(**common)
    if row["kind"] == "zone":
        return forms.CharField(max_length=64, validators=[_validate_time_zone], **common)
    if isinstance(row["default"], Decimal):
        return forms.DecimalField(min_value=row["low"], max_value=row["high"], decimal_places=2,
                                  max_digits=6, **common)
    return forms.IntegerField(min_value=row["low"], max_value=row["high"], **common)


def _stored(value: Any) -> Any:
    """A parameter's value as JSON keeps it (a Decimal as its string: "0.5")."""
    return str(value) if isinstance(value, Decimal) else value


class CampaignAdminForm(forms.ModelForm):
    """The campaign with the parameters of ``system_shown`` (see the module's docstring)."""

    class Meta:
        model = Campaign
        fields = MAIN_FIELDS

    def __init__(self, *args, **kwargs):
        asked = (kwargs.get("initial") or {}).get("rule_system")  # the add page's ?rule_system=
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            # Asked first, on purpose: a blank choice, unless the add page's URL names one
            # (not the model's default, which would pick a system for whoever did not look).
            self.fields["rule_system"].choices = [("", "---------"), *rule_systems.choices()]
            self.fields["rule_system"].help_text = _(
                "Its rule parameters are shown once the campaign is saved.")
            if not asked:
                self.initial.pop("rule_system", None)
                self.fields["rule_system"].initial = None
        self.system = self.shown_system()
        spec = rule_systems.get(self.system) if self.system else None
        self.parameter_class = spec.parameters if spec else None
        self.rows = self.parameter_class.describe() if spec else []
        current = self.instance.rule_parameters or {}
        for row in self.rows:
            value = current.get(row["name"], row["default"])
            self.fields[PREFIX + row["name"]] = parameter_field(row, value)

    def shown_system(self) -> str | None:
        """The rule system whose parameter fields the form has (``system_shown``)."""
        return system_shown(self.instance, self.data if self.is_bound else None)

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and "rule_system" in self.changed_data and self._has_characters():
            # Their sheets, drafts and every page read the old system's rules.
            self.add_error("rule_system", _("This campaign has characters or drafts: its rule "
                                            "system cannot change."))
        if self.parameter_class is None:
            # The add page, or a change of system: the (new) system's defaults.
            self.instance.rule_parameters = {}
            return cleaned
        if any(PREFIX + row["name"] in self.errors for row in self.rows):
            return cleaned  # each refused field says why; nothing is read together
        overrides = {}
        for row in self.rows:
            value = cleaned.get(PREFIX + row["name"])
            if value is None or value == "":
                continue  # an empty box: the default
            if value != row["default"]:
                overrides[row["name"]] = _stored(value)
        try:
            params = self.parameter_class.from_overrides(overrides)
        except ParameterError as exc:  # what a field let through and the rules do not take
            for name, message in exc.errors.items():
                field = PREFIX + name
                self.add_error(field if field in self.fields else None, message)
            return cleaned
        for conflict in params.conflicts():
            self.add_error(PREFIX + conflict.names[0], error_message(conflict))
        if not self.errors:
            self.instance.rule_parameters = overrides
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        """The model's own check of ``rule_parameters`` has no field here: with the parameters
        shown, their fields already said it (it is dropped); otherwise (a value stored before
        it was checked) it shows above the form."""
        if hasattr(errors, "error_dict") and "rule_parameters" in errors.error_dict:
            moved = errors.error_dict.pop("rule_parameters")
            if self.parameter_class is None:
                errors.error_dict.setdefault(NON_FIELD_ERRORS, []).extend(moved)
            if not errors.error_dict:
                return
        super()._update_errors(errors)  # type: ignore[misc]  # Django's, not in the stubs

    def _has_characters(self) -> bool:
        """Characters, or a system's own data in the making (RuleSystemSpec.in_use: drafts)."""
        if self.instance.characters.exists():
            return True
        spec = rule_systems.get(self.initial.get("rule_system") or self.instance.rule_system)
        return bool(spec and spec.in_use and spec.in_use(self.instance))


class CampaignCreateForm(CampaignAdminForm):
    """The page where anyone signed up makes a campaign (campaigns.pages.campaign_new): the
    admin's form without its game master (who makes it), in one step: the parameters of the
    chosen system are shown at once, with their defaults, and checked by the admin's code.

    ``parameters_of`` (a hidden field) names the system whose parameters the reader saw; a
    posted system that differs from it is not saved: the page shows that system's parameters
    first (``parameters_unseen``)."""

    class Meta(CampaignAdminForm.Meta):
        fields = [f for f in MAIN_FIELDS if f != "game_master"]  # noqa: RUF012  # as its base

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rule_system"].help_text = _("Its rule parameters are shown below.")
        self.unseen = False  # set by the page that shows parameters not seen yet

    def shown_system(self) -> str | None:
        asked = (self.data if self.is_bound else self.initial).get("rule_system")
        return asked if isinstance(asked, str) and rule_systems.get(asked) else None

    def parameters_unseen(self) -> bool:
        """Whether the posted rule system is not the one whose parameters the reader saw."""
        return self.is_bound and self.data.get("parameters_of", "") != (self.system or "")

    def main(self) -> list[forms.BoundField]:
        """The campaign's own fields, before its parameters."""
        return [self[name] for name in self.Meta.fields]

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The parameter fields by rule chapter, as the admin shows them."""
        return [(title, [self[name] for name in names])
                for title, names in parameter_groups(self.system)]


class CampaignParametersForm(CampaignAdminForm):
    """The campaign's rule parameters alone, for its game masters' page
    (campaigns.manage_pages.parameters_page): the admin's parameter fields, defaults and
    checks (``from_overrides``, ``conflicts``) on the campaign's own system, which this form
    cannot change."""

    class Meta(CampaignAdminForm.Meta):
        fields = []  # noqa: RUF012  # as its base

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The parameter fields by rule chapter, as the admin shows them."""
        return [(title, [self[name] for name in names])
                for title, names in parameter_groups(self.system)]
