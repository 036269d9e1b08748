from django import forms
from django.utils.translation import gettext_lazy as _


class MoveForm(forms.Form):
    dx = forms.IntegerField(label=_("Horizontal step"), min_value=-1, max_value=1)
    dy = forms.IntegerField(label=_("Vertical step"), min_value=-1, max_value=1)


class AttackForm(forms.Form):
    target = forms.IntegerField(label=_("Target"), min_value=1)
