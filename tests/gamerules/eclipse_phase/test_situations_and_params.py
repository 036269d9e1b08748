"""The seed's three modifier tables as data, and EclipsePhaseParameters on the shared
machinery."""

from decimal import Decimal
from pathlib import Path

import pytest

from gamerules.eclipse_phase.errors import InvalidModifier
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.situations import SITUATIONS, modifier, modifiers_for
from gamerules.errors import ParameterError
from gamerules.parameters import RuleParameters
from tests.gamerules.eclipse_phase.helpers import P

SEED = Path(__file__).resolve().parents[3].parent / "shared" / "seeds" / "001_e6266c120d4801b4.txt"


def test_every_row_of_the_three_tables_is_there_with_the_seeds_value():
    tables = {t: [s for s in SITUATIONS if s.table == t] for t in ("general", "melee", "ranged")}
    assert (len(tables["general"]), len(tables["melee"]), len(tables["ranged"])) == (13, 3, 19)
    for row in SITUATIONS:
        assert str(abs(row.value)) in row.seed or row.value == 0, row.code
        assert row.value_for(P) == row.value or row.code == "beam_sweep", row.code


@pytest.mark.skipif(not SEED.exists(), reason="seed file not on this machine")
def test_every_row_quotes_the_seed_word_for_word():
    text = SEED.read_text(encoding="utf-8").replace("\u2019", "'")
    for row in SITUATIONS:
        assert row.seed in text, row.code


def test_rows_take_the_campaigns_parameter_and_keep_their_sign():
    custom = EclipsePhaseParameters(charge_malus=15, aim_complex_bonus=40)
    assert modifier("charging", custom).value == -15
    assert modifier("aim_complex", custom).value == 40
    assert modifier("beam_sweep", P).value == 20  # the options' +20, not the table's +10
    assert modifier("multiple_targets", P, 2).value == -40


def test_modifiers_for_refuses_unknown_wrong_kind_wrong_side_and_same_group():
    mods = modifiers_for({"superior_position": 1, "visibility_minor": 1}, attack="melee",
                         side="attack", params=P)
    assert [(m.label, m.value, m.source) for m in mods] == [
        ("superior position", 20, "situation:superior_position"),
        ("poor visibility (minor)", -10, "situation:visibility_minor")]
    for choice, kind in [({"nope": 1}, "melee"), ({"smartlink": 1}, "melee"),
                         ({"reach": 1}, "ranged"), ({"receiving_charge": 1}, "melee"),
                         ({"small_target": 1, "large_target": 1}, "ranged"),
                         ({"superior_position": 2}, "melee"), ({"charging": 1}, "melee"),
                         ({"long_range": 1}, "ranged"), ({"wounded": 1}, "melee")]:
        with pytest.raises(InvalidModifier):
            modifiers_for(choice, attack=kind, side="attack", params=P)


@pytest.mark.parametrize(("name", "value"), [
    ("success_inclusive", False), ("wound_malus", 10), ("ranged_dodge_divisor", 2),
    ("full_defence_bonus", 30), ("excellent_margin", 30), ("excellent_dv", 5),
    ("superb_margin", 60), ("superb_dv", 10), ("wound_inclusive", False),
    ("knockdown_som_multiplier", 3), ("death_multiplier_bio", Decimal("1.5")),
    ("death_multiplier_synth", Decimal("2")), ("walk_m", 4), ("run_m", 20), ("running_malus", 10),
    ("charge_malus", 10), ("charge_dv", 10), ("receive_charge_bonus", 20),
    ("subdue_escape_malus", 30), ("aim_quick_bonus", 10), ("aim_complex_bonus", 30),
    ("burst_rounds", 3), ("full_auto_rounds", 10), ("suppressive_rounds", 20),
    ("suppressive_width_m", 20), ("beam_sweep_bonus", 20), ("blind_fire_malus", 30),
    ("indirect_fire_malus", 30), ("called_shot_malus", 10), ("blast_dv_per_m", 2),
    ("surprise_perception_malus", 20), ("surprise_initiative_malus", 30), ("off_hand_malus", 20),
    ("extra_weapon_bonus_max", 30), ("touch_bonus", 20)])
def test_defaults_are_the_seeds_numbers(name, value):
    assert getattr(P, name) == value


def test_built_on_the_shared_machinery():
    assert issubclass(EclipsePhaseParameters, RuleParameters)
    params = EclipsePhaseParameters.from_overrides({"success_inclusive": True, "run_m": 25})
    assert (params.success_inclusive, params.run_m) == (True, 25)
    with pytest.raises(ParameterError) as info:
        EclipsePhaseParameters.from_overrides({"walk_m": -1, "x": 1})
    assert info.value.errors == {"walk_m": "must be between 0 and 100", "x": "unknown parameter"}
