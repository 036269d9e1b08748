"""Spell pages: the spellbook with the level-up offer, and casting from the board."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.errors import Forbidden, NotFound, RuleSystemNotPlayable
from campaigns.messages import error_message
from combat.pages import respond_with_board
from characters.selectors import character_get
from ew1.actors import require_eternal_war
from gamerules.errors import RuleError
from magic.casting import spell_cast
from magic.selectors import active_effects, spellbook
from magic.spellbook import spell_offer_answer, spell_offer_pending


class CastForm(forms.Form):
    spell = forms.IntegerField(min_value=1)
    x = forms.IntegerField(min_value=0)
    y = forms.IntegerField(min_value=0)


class OfferForm(forms.Form):
    offer = forms.IntegerField(min_value=1, required=False)
    spell = forms.IntegerField(min_value=1, required=False)  # empty: decline
    replace = forms.IntegerField(min_value=1, required=False)


@login_required
@require_http_methods(["GET", "POST"])
def spells_page(request, character_id: int):
    """The spellbook, active effects, and the pending level-up offer (drawn once, stored)."""
    try:
        character = character_get(user=request.user, character_id=character_id,
                                  perm="characters.act")
        require_eternal_war(character.campaign)  # the spellbook is Eternal War One II's
    except (NotFound, RuleSystemNotPlayable):
        raise Http404(_("No such character.")) from None
    error = None
    if request.method == "POST":
        form = OfferForm(request.POST)
        if form.is_valid():
            try:
                spell_offer_answer(user=request.user, character_id=character_id,
                                   offer_id=form.cleaned_data["offer"] or 0,
                                   spell_id=form.cleaned_data["spell"],
                                   replace_spell_id=form.cleaned_data["replace"])
            except (NotFound, Forbidden):
                raise Http404(_("No such offer.")) from None
            except RuleError as exc:
                error = error_message(exc)
            else:
                messages.success(request, _("Spellbook updated."))
                return redirect("magic:spells", character_id=character_id)
        else:
            error = _("Choose a spell from the offer.")
    offer = spell_offer_pending(character=character)
    return render(request, "magic/spells.html", {
        "character": character, "book": spellbook(character), "offer": offer,
        "offered": list(offer.spells.all()) if offer else [],
        "effects": active_effects(character, timezone.now()), "error": error,
        "size": character.campaign.parameters.spellbook_size})


@login_required
@require_POST
def cast(request, character_id: int):
    form = CastForm(request.POST)
    if not form.is_valid():
        return respond_with_board(request, character_id, error=_("Choose a spell and a target."))
    try:
        result = spell_cast(user=request.user, character_id=character_id,
                            spell_id=form.cleaned_data["spell"], x=form.cleaned_data["x"],
                            y=form.cleaned_data["y"])
    except (NotFound, Forbidden):
        raise Http404(_("No such character.")) from None
    except RuleError as exc:
        return respond_with_board(request, character_id, error=error_message(exc))
    return respond_with_board(request, character_id, result=result.action)
