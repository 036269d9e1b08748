"""magic.spellbook: the 10-spell cap, the stored level-up offers, scrolls.

Seed, "Obtention des sorts": "A chaque évolution de niveau, 5 sorts parmis un panel de sorts vous
sont proposés, vous pouvez en choisir un"; "Découverte : Les sorts peuvent être découverts en
explorant le monde"; "Vous pourrez disposez de 10 sorts maximum."
"""

import random

import pytest

from campaigns.errors import NotFound
from campaigns.models import ActionRecord
from combat.services import action_move
from ew1.models import EternalWarSheet
from magic.errors import OfferInvalid, SpellAlreadyKnown, SpellbookFull, SpellUnknown
from magic.models import KnownSpell, Scroll, SpellOffer
from magic.spellbook import spell_grant, spell_grant_check, spell_offer_answer, spell_offer_pending
from tests.magic.conftest import NOW, character, set_parameters, teach

RUNES = [f"Rune {i}" for i in range(1, 7)]
TEN = ["Boule de feu", "Soin", "Bouclier", "Météore", "Régénération", "Protection", "Explosion",
       "Guérison de groupe", "Barrière", "Rune 1"]


def known(c) -> set[str]:
    return set(KnownSpell.objects.filter(character=c).values_list("spell__name", flat=True))


@pytest.fixture
def full(mage, spells):
    teach(mage, *(spells[n] for n in TEN))
    return mage


# --- the cap -------------------------------------------------------------------------------------

def test_a_spellbook_holds_ten_spells_and_refuses_the_eleventh(full, spells):
    assert len(known(full)) == 10

    with pytest.raises(SpellbookFull) as refused:
        spell_grant(character=full, spell=spells["Rune 2"], source="granted", now=NOW)

    assert refused.value.code == "spellbook_full"
    assert len(known(full)) == 10 and "Rune 2" not in known(full)


def test_a_full_spellbook_learns_by_replacing_a_spell(full, spells):
    spell_grant(character=full, spell=spells["Rune 2"], source="granted", now=NOW,
                replace=spells["Soin"])

    assert known(full) == set(TEN) - {"Soin"} | {"Rune 2"}


def test_the_cap_is_the_campaign_parameter(mage, spells):
    set_parameters(mage, spellbook_size=2)
    teach(mage, spells["Soin"], spells["Bouclier"])

    with pytest.raises(SpellbookFull):
        spell_grant_check(character=mage, spell=spells["Météore"])


def test_replacing_a_spell_that_is_not_known_is_refused(full, spells):
    with pytest.raises(SpellUnknown):
        spell_grant(character=full, spell=spells["Rune 2"], source="granted", now=NOW,
                    replace=spells["Rune 3"])
    assert "Rune 2" not in known(full)


def test_a_spell_is_known_once(mage, spells):
    teach(mage, spells["Soin"])
    with pytest.raises(SpellAlreadyKnown):
        teach(mage, spells["Soin"])


def test_another_campaigns_spell_cannot_be_learned(mage, spells):
    with pytest.raises(SpellUnknown):
        teach(mage, spells["Foreign"])


# --- the stored offer ----------------------------------------------------------------------------

@pytest.fixture
def leveled(mage, spells):
    """A level 2 mage who already knows two spells: two offers to answer."""
    EternalWarSheet.objects.filter(pk=mage.pk).update(level=2, xp=101)
    teach(mage, spells["Soin"], spells["Rune 1"])
    mage.ew1.refresh_from_db()
    return mage


def offered(offer) -> set[str]:
    return set(offer.spells.values_list("name", flat=True))


def test_a_level_0_character_has_no_offer(mage, spells):
    assert spell_offer_pending(character=mage, rng=random.Random(1), now=NOW) is None


def test_the_offer_is_drawn_once_and_stored(leveled):
    first = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    again = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    other_dice = spell_offer_pending(character=leveled, rng=random.Random(99), now=NOW)

    assert first.level == 1
    assert again.pk == other_dice.pk == first.pk
    assert len(offered(first)) == 5
    assert offered(again) == offered(other_dice) == offered(first)
    assert SpellOffer.objects.count() == 1


def test_offered_spells_are_learnable_unknown_and_of_this_campaign(leveled, spells):
    for seed in range(10):
        SpellOffer.objects.all().delete()
        names = offered(spell_offer_pending(character=leveled, rng=random.Random(seed), now=NOW))
        assert len(names) == 5
        assert not names & {"Soin", "Rune 1", "Secret", "Foreign"}


def test_a_small_pool_offers_what_is_left(leveled, spells):
    set_parameters(leveled, spellbook_size=20)
    teach(leveled, spells["Boule de feu"], *(spells[n] for n in TEN[2:9]), spells["Rune 2"])

    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)

    assert offered(offer) == {"Rune 3", "Rune 4", "Rune 5", "Rune 6"}


def test_answering_learns_the_spell_and_opens_the_next_level(alice, leveled):
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    chosen = offer.spells.order_by("name").first()

    answered = spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk,
                                  spell_id=chosen.pk, now=NOW)

    assert (answered.chosen, answered.resolved_at) == (chosen, NOW)
    learned = KnownSpell.objects.get(character=leveled, spell=chosen)
    assert (learned.source, learned.learned_at) == ("level_up", NOW)
    action = ActionRecord.objects.get(kind="learn")
    assert action.summary == {"level": 1, "spell": chosen.name}
    following = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    assert following.level == 2
    assert chosen.name not in offered(following)

    spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=following.pk,
                       spell_id=None, now=NOW)
    assert spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW) is None


def test_declining_stores_the_answer_without_learning(alice, leveled):
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)

    spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk, spell_id=None,
                       now=NOW)

    offer.refresh_from_db()
    assert (offer.resolved_at, offer.chosen) == (NOW, None)
    assert known(leveled) == {"Soin", "Rune 1"}
    assert ActionRecord.objects.get(kind="decline").summary == {"level": 1, "spell": None}


def test_an_offer_is_answered_once(alice, leveled):
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    first, second = offer.spells.order_by("pk")[:2]
    spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk,
                       spell_id=first.pk, now=NOW)

    with pytest.raises(OfferInvalid) as refused:
        spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk,
                           spell_id=second.pk, now=NOW)

    assert refused.value.code == "invalid_offer"
    assert second.name not in known(leveled)


def test_a_spell_outside_the_offer_is_refused(alice, leveled, spells, unchanged):
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    outside = next(s for s in spells.values() if s.name not in offered(offer))

    with unchanged(), pytest.raises(OfferInvalid):
        spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk,
                           spell_id=outside.pk, now=NOW)


def test_another_users_offer_is_not_found(bob, leveled, campaign, unchanged):
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    bobs = character(bob, campaign, "Bob's", (9, 9))

    with unchanged():
        with pytest.raises(NotFound):
            spell_offer_answer(user=bob, character_id=leveled.pk, offer_id=offer.pk,
                               spell_id=None, now=NOW)
        with pytest.raises(NotFound):  # his own character, her offer
            spell_offer_answer(user=bob, character_id=bobs.pk, offer_id=offer.pk,
                               spell_id=None, now=NOW)


def test_a_full_book_answers_by_replacing(alice, leveled, spells, unchanged):
    teach(leveled, *(spells[n] for n in ("Bouclier", "Météore", "Régénération", "Protection",
                                         "Explosion", "Guérison de groupe", "Barrière",
                                         "Boule de feu")))
    offer = spell_offer_pending(character=leveled, rng=random.Random(1), now=NOW)
    pick = offer.spells.first()

    with unchanged(), pytest.raises(SpellbookFull):
        spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk,
                           spell_id=pick.pk, now=NOW)

    spell_offer_answer(user=alice, character_id=leveled.pk, offer_id=offer.pk, spell_id=pick.pk,
                       replace_spell_id=spells["Soin"].pk, now=NOW)
    assert pick.name in known(leveled) and "Soin" not in known(leveled)
    assert len(known(leveled)) == 10


# --- scrolls -------------------------------------------------------------------------------------

def test_stepping_on_a_scroll_learns_the_spell_and_removes_it(alice, mage, spells):
    Scroll.objects.create(board=mage.board, x=6, y=5, spell=spells["Météore"])

    result = action_move(user=alice, character_id=mage.pk, dx=1, dy=0, now=NOW)

    assert known(mage) == {"Météore"}
    assert KnownSpell.objects.get(character=mage).source == "scroll"
    assert not Scroll.objects.exists()
    assert result.action.summary == {"to": [6, 5], "xp": 1, "scroll": "Météore"}


def test_a_full_book_leaves_the_scroll_on_the_board(alice, full, spells):
    scroll = Scroll.objects.create(board=full.board, x=6, y=5, spell=spells["Rune 2"])

    result = action_move(user=alice, character_id=full.pk, dx=1, dy=0, now=NOW)

    assert "Rune 2" not in known(full)
    assert Scroll.objects.get() == scroll
    assert result.action.summary == {"to": [6, 5], "xp": 1}


def test_a_known_spell_leaves_the_scroll_on_the_board(alice, mage, spells):
    teach(mage, spells["Soin"])
    Scroll.objects.create(board=mage.board, x=6, y=5, spell=spells["Soin"])

    action_move(user=alice, character_id=mage.pk, dx=1, dy=0, now=NOW)

    assert Scroll.objects.count() == 1


def test_a_scroll_elsewhere_is_not_picked_up(alice, mage, spells):
    Scroll.objects.create(board=mage.board, x=7, y=5, spell=spells["Soin"])

    action_move(user=alice, character_id=mage.pk, dx=1, dy=0, now=NOW)

    assert known(mage) == set() and Scroll.objects.count() == 1
