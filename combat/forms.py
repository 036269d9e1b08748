from django import forms


class MoveForm(forms.Form):
    dx = forms.IntegerField(min_value=-1, max_value=1)
    dy = forms.IntegerField(min_value=-1, max_value=1)


class AttackForm(forms.Form):
    target = forms.IntegerField(min_value=1)
