"""The Eclipse Phase journal on the pages (templates/eclipse/registry/_log_entry.html): every
kind the play writes shown with its key values (each shot's tests with their modifiers, MoS,
DV, armour and AP, wounds, the SOMx3 test, distance and range band from positions), in English
and in French; the app's own kinds on the character page; the page's queries unchanged by a
journal of every kind. The journal is played with seeded dice (journal_world.every_kind)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from campaigns.models import ActionRecord
from eclipse import services
from eclipse.models import MorphTemplate, WeaponTemplate
from tests.eclipse_play.journal_world import every_kind
from tests.eclipse_play.test_pages import _logged

pytestmark = pytest.mark.django_db


def log_text(html: str) -> str:
    """The encounter's (or the character's) log as read: tags and the rolls' details out."""
    start = html.index('data-testid="log"') if 'data-testid="log"' in html \
        else html.index('id="combat-log"')
    end = re.compile(r"</ol>\s*</div>").search(html, start)
    log = html[start:end.start()]
    log = re.sub(r"<details.*?</details>", "", log, flags=re.S)
    return tidy(re.sub(r"<[^>]+>", " ", log))


def tidy(text: str) -> str:
    """Spaces as the tags leave them, made one: none before a colon, a comma, a closing mark."""
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"([(\[]) ", r"\1", re.sub(r" ([:;,.)\]])", r"\1", text))


def test_every_kind_the_play_writes_shows_its_values(client, ep):
    e, _c = every_kind(ep)
    assert {a.kind for a in ActionRecord.objects.all()} == {
        "eclipse_move", "eclipse_attack", "eclipse_action", "eclipse_suppressive",
        "eclipse_turn_end", "eclipse_explosion", "eclipse_reload"}
    text = log_text(_logged(client, ep.gm).get(reverse("encounters:play", args=[e.pk]))
                    .content.decode())
    for seen in (
            # eclipse_move, with positions
            "Ava: moves (walking, up to 4 m), 2.0 m from (0.0, 0.0) to (2.0, 0.0)",
            "“behind the crate”",
            # eclipse_attack: the prompt (10 m: short range), the answer, each shot
            "Ava → Guard : Pistol (SA, 2 rounds), 10.0 m, short range.",
            "Defence: Dodge",
            "Shot 1: attack Kinetic weapons 27 / 80 Success, MoS 27 "
            "[superior position +20, short range +0]",
            "defence dodge/2 02 / 20 Success, MoS 2",
            "hit ; DV 10, armour 4 - AP 2 = 2, 8 damage, 1 wound",
            "SOMx3 against knockdown 21 / 50 Success, MoS 21 [wounds -10]",
            "defence dodge/2 03 / 10 Success, MoS 3 [wounds -10]",  # the first wound counts
            "DV 9 (margin of success +5)",
            "SOMx3 against knockdown 89 / 40 Failure [wounds -20] — knocked down",
            "Guard: 2 hits, damage 0 → 15, wounds 0 → 2",
            # eclipse_action
            "Bo : full defence (complex, +30)", "Ava : aims (quick)",
            "Bo : “Shout a warning” (quick)",
            # eclipse_suppressive: a free attack rolled, one spared
            "Guard : suppressive fire with Rifle (20 rounds, 0 left).",
            "attack Kinetic weapons 48 / 40 Failure [wounds -20, short range +0] — missed",
            "Ava: 0 hits", "Bo: spared (in full defence)",
            # eclipse_turn_end
            "End of the action turn (round 1) : nobody bleeds or is stunned",
            # eclipse_explosion
            "Ava : Frag grenade goes off, DV 12.",
            "Guard at 3.0 m: DV 6, armour 4, 2 damage, 0 wounds",
            "Bo at 8.0 m: DV 0, armour 4, 0 damage, 0 wounds",
            # eclipse_reload
            "Bo : reloads Pistol (12 loaded, 0 spare)"):
        assert tidy(seen) in text, seen
    assert "eclipse_" not in text  # no kind left as its code


def test_the_journal_reads_in_french(client, ep):
    e, _c = every_kind(ep)
    text = log_text(_logged(client, ep.gm, "fr").get(reverse("encounters:play", args=[e.pk]))
                    .content.decode())
    for seen in (
            "se déplace (en marchant, jusqu'à 4 m), 2,0 m de (0,0 ; 0,0) à (2,0 ; 0,0)",
            "Pistol (SA, 2 munitions), 10,0 m, portée courte.", "Défense : Esquive",
            "Tir 1 : attaque Armes cinétiques 27 / 80 Réussite, MR 27 "
            "[Position supérieure +20, portée courte +0]",
            "défense esquive/2 02 / 20 Réussite, MR 2",
            "VD 9 (marge de réussite +5), armure 4 - PA 2 = 2, 7 dégâts, 1 blessure",
            "SOMx3 contre la chute 89 / 40 Échec [blessures -20] — au sol",
            "Guard : 2 touches, dégâts 0 → 15, blessures 0 → 2",
            "défense totale (complexe, +30)", "vise (rapide)",
            "tir de suppression avec Rifle (20 munitions, 0 restantes)",
            "Bo : épargné (en défense totale)",
            "Fin du tour d'action (round 1) : personne ne saigne ni n'est assommé",
            "Frag grenade explose, VD 12.", "Guard à 3,0 m : VD 6, armure 4, 2 dégâts",
            "recharge Pistol (12 chargées, 0 de rechange)"):
        assert tidy(seen) in text, seen
    for english in ("Shot", "damage", "wound", "hits", "moves", "reloads", "range", "Success",
                    "Failure", "knockdown", "spare", "Defence"):
        assert not re.search(rf"\b{english}\b", text), english


def test_the_rarer_branches_show(client, ep):
    """A mishap the GM set, a bleeding and stunned line at the end of the turn, a volley's
    other target, a GM's correction of the band, a free attack in a zone, an escape."""
    e, _c = every_kind(ep)
    attack = ActionRecord.objects.get(kind="eclipse_attack")
    s = attack.summary
    s["result"]["weapon_mishap"] = "damaged"
    s["prompt"]["payload"]["range_band_picked"] = "medium"
    s["result"]["others"] = [{**s["result"], "target": "Bo", "weapon_mishap": None}]
    attack.summary = s
    attack.save(update_fields=["summary"])
    end = ActionRecord.objects.get(kind="eclipse_turn_end")
    end.summary = {**end.summary, "lines": [{"name": "Bo", "bled": 1, "damage": 31,
                                             "stunned": 2, "condition": "unconscious"}]}
    end.save(update_fields=["summary"])
    zone = ActionRecord.objects.get(kind="eclipse_suppressive")
    ActionRecord.objects.create(
        campaign=ep.campaign, kind="eclipse_suppressive", actor=ep.guard,
        created_at=attack.created_at,
        summary={"encounter": e.pk, "round": 2, "combatant": "Guard", "weapon": "Rifle",
                 "targets": [{"target": "Bo", "zone": zone.summary["zone"],
                              "free_attack": True, "in_cover": True, "spared": "cover"}]})
    ActionRecord.objects.create(
        campaign=ep.campaign, kind="eclipse_action", actor=ep.bo, created_at=attack.created_at,
        summary={"encounter": e.pk, "round": 2, "combatant": "Bo", "action": "escape",
                 "cost": "complex", "how": "somx3", "free": True, "holder": "Guard",
                 "test": {"label": "SOMx3 to escape", "reading": 12, "target": 30,
                          "grade": "success", "margin": 12, "flipped_from": None,
                          "modifiers": [{"label": "escape", "value": -30,
                                         "source": "subdue"}]}, "against": None})
    text = log_text(_logged(client, ep.gm).get(reverse("encounters:play", args=[e.pk]))
                    .content.decode())
    for seen in ("Pistol damaged", "(corrected from medium)", "Bo: 2 hits",
                 "Bo bleeds 1 (damage 31), stunned 2 more turns, unconscious",
                 "free attack of the suppressive fire (Rifle)", "Bo: spared (in cover)",
                 "Bo : escapes a hold (complex): SOMx3 to escape 12 / 30 Success, MoS 12 "
                 "[escape -30] — free"):
        assert tidy(seen) in text, seen


def test_the_apps_own_kinds_show_on_the_character_page(client, ep):
    campaign, now = ep.campaign, ep.now
    morph = MorphTemplate.objects.create(campaign=campaign, name="Fury", durability=50)
    ash = services.eclipse_character_create(
        user=ep.alice, campaign=campaign, name="Ash", morph_id=morph.pk, now=now,
        aptitudes={"COG": 15, "COO": 20, "INT": 15, "REF": 20, "SAV": 10, "SOM": 15, "WIL": 10},
        skills={"fray": 40})
    splicer = MorphTemplate.objects.get(campaign=campaign, name="Splicer")
    services.resleeve(user=ep.alice, character=ash.pk, morph_id=splicer.pk, now=now)
    knife = WeaponTemplate.objects.get(campaign=campaign, name="Knife")
    carried = services.weapon_equip(user=ep.alice, character=ash.pk, template_id=knife.pk,
                                    now=now)
    services.weapon_unequip(user=ep.alice, character=ash.pk, carried_id=carried.pk, now=now)
    services.moxie_spend(user=ep.alice, character=ash.pk, reason="a lucky break", now=now)
    services.moxie_refresh(user=ep.gm, character=ash.pk, now=now)
    services.derangement_name(user=ep.gm, character=ash.pk, name="Fear of the dark", now=now)
    response = _logged(client, ep.alice).get(reverse("characters:detail", args=[ash.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    text = log_text(html)
    for seen in ("Ash: created (Fury)", "resleeved Fury → Splicer",
                 "takes Knife (0 loaded, 0 spare)", "drops Knife",
                 "spends a Moxie point", "“a lucky break”", "Moxie refreshed",
                 "derangement “Fear of the dark”"):
        assert tidy(seen) in text, seen
    assert "eclipse_" not in text


@pytest.mark.parametrize("journal", [False, True])
def test_the_page_queries_do_not_grow_with_the_journal(client, ep, journal,
                                                       django_assert_num_queries):
    """Bo's page in his phase of round 2: the same count with a journal of every kind as with
    one entry (the entries and their rolls are two queries whatever they hold)."""
    from tests.eclipse_play.conftest import running
    from tests.eclipse_play.journal_world import _next

    if journal:
        e, _c = every_kind(ep)
    else:
        e, _c = running(ep)
        for _ in range(4):
            _next(ep, e)
        from eclipse.actions import encounter_other
        encounter_other(user=ep.bob, encounter_id=e.pk, combatant_id=_c[ep.bo.pk].pk,
                        name="Shout a warning", kind="quick", now=ep.now)
    url = reverse("encounters:play", args=[e.pk])
    _logged(client, ep.bob).get(url)
    # 10 (no reaction pending: no query for the prompts), one for the TACNet panel, one for the
    # environment
    with django_assert_num_queries(11):
        client.get(url)


def test_a_refused_move_names_the_pace_in_french(client, ep):
    from tests.eclipse_play.conftest import running
    from encounters import services as enc

    e, c = running(ep)
    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk, x=0, y=0)
    for pace, words in (("walk", "en marchant, Ava parcourt 4 m au plus"),
                        ("run", "en courant, Ava parcourt 20 m au plus")):
        html = _logged(client, ep.alice, "fr").post(
            reverse("eclipse_play:move", args=[e.pk]),
            {"page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk,
             "pace": pace, "x": "30", "y": "0"}, HTTP_HX_REQUEST="true").content.decode()
        error = unescape(html.split('data-testid="error">')[1].split("</p>")[0])
        assert error.startswith("C'est à 30") and words in error, error
        assert pace not in error


def test_the_action_form_in_french_has_no_english_left(client, ep):
    """The options of the attack and explosive forms in French: AP as PA, the blast's kind and
    the cone's range bands by their names, the aim shown translated."""
    from eclipse.actions import encounter_aim
    from encounters import services as enc
    from tests.eclipse_play.conftest import running

    e, c = running(ep)
    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk, x=0, y=0)
    encounter_aim(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                  kind="quick", now=ep.now)
    html = _logged(client, ep.alice, "fr").get(reverse("encounters:play", args=[e.pk])) \
        .content.decode()
    turn = unescape(html[html.index('data-testid="eclipse-turn"'):html.index("</table>")])
    assert "Pistol (2d10, PA -2, 12/12)" in turn
    assert "Frag grenade (3d10, Explosion (-2 VD par mètre), 1/1)" in turn
    assert "<strong>Visée (+10)</strong>" in turn
    shown = [label for _value, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<',
                                                   turn)]
    for english in ("AP", "blast", "point_blank", "short", "medium", "long", "extreme",
                    "Aimed"):
        assert not any(re.search(rf"\b{english}\b", label) for label in shown), english


@pytest.mark.parametrize("lang, why", [
    ("en", "Defence: none asked: a psi attack is resisted with WIL"),
    ("fr", "Défense : aucune demandée : une attaque psi se résiste avec la VOL")])
def test_an_attack_with_no_defence_to_ask_says_why(client, ep, lang, why):
    """Issue 19, item 5: a psi attack is resolved at once; the log says why no defence was
    asked."""
    import random

    from eclipse.attack import encounter_attack
    from tests.eclipse_play.conftest import running

    e, c = running(ep)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.guard.pk].pk, weapon_id=ep.w.ava_lash.pk,
                            rng=random.Random(3), now=ep.now)
    assert step.reaction is None
    text = log_text(_logged(client, ep.gm, lang).get(reverse("encounters:play", args=[e.pk]))
                    .content.decode())
    assert tidy(why) in text
