from django import forms
from django.utils.translation import gettext_lazy as _


class MoveForm(forms.Form):
    dx = forms.IntegerField(label=_("Horizontal step"), min_value=-1, max_value=1)
    dy = forms.IntegerField(label=_("Vertical step"), min_value=-1, max_value=1)


class AttackForm(forms.Form):
    KINDS = (("brawl", _("Brawl")), ("melee", _("Melee weapon")), ("ranged", _("Ranged weapon")),
             ("throw", _("Throw")))

    target = forms.IntegerField(label=_("Target"), min_value=1)
    kind = forms.ChoiceField(label=_("Attack"), choices=KINDS, required=False)

    def clean_kind(self):
        return self.cleaned_data.get("kind") or "brawl"


class MoveToForm(forms.Form):
    """A cell to walk to, as "x,y" (the board's cell buttons send it)."""

    to = forms.RegexField(label=_("Cell"), regex=r"^\s*-?\d{1,6}\s*,\s*-?\d{1,6}\s*$",
                          error_messages={"invalid": _("A cell is written x,y (two whole numbers).")})

    def clean_to(self) -> tuple[int, int]:
        x, y = self.cleaned_data["to"].split(",")
        return int(x), int(y)


class PieceForm(forms.Form):
    """The piece whose action menu is asked for."""

    target = forms.IntegerField(label=_("Target"), min_value=1, max_value=2**31 - 1)
