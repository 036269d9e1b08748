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
