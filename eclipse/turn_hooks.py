"""Eclipse Phase's actions in turn plugged into the shared encounter (encounters.hooks): the
defence resolver, the journal's kinds they write, the map's move, the turn's templates, and the
labels of the defence options, the kinds and the effects (added to the spec's
``action_labels``). ``register()`` is called from EclipseConfig.ready().

Source: 001_e6266c120d4801b4.txt, "Actions", "Combat", "Options & Complications" (what the
actions of eclipse.acting's modules play); the choices are in docs/rules/eclipse-phase.md
("The encounter").
"""

from __future__ import annotations

from eclipse import environment
from eclipse.acting import AIM_COMPLEX, AIM_QUICK, RUNNING
from eclipse.actions import KIND_ACTION, KIND_MOVE, KIND_RELOAD, map_move
from eclipse.attack import NONE_KEY
from eclipse.blasts import KIND_EXPLOSION
from eclipse.defence import DODGE, KIND_ATTACK, MOXIE_SUFFIX, QUICK_PREFIX
from eclipse.turn_end import KIND_TURN_END
from eclipse.zones import KIND_SUPPRESSIVE, ZONE


def register() -> None:
    """The resolver, the actions partial, and the labels of the defence options and the
    journal's kinds (added to the spec's ``action_labels``)."""
    from django.utils.text import format_lazy
    from django.utils.translation import gettext_lazy as _

    from campaigns import rule_systems
    from eclipse import defence
    from encounters import hooks

    defence.register()
    from eclipse.ambush import KIND_AMBUSH

    hooks.register_journal_kinds("eclipse_phase", (
        KIND_ATTACK, KIND_ACTION, KIND_MOVE, KIND_RELOAD, KIND_TURN_END, KIND_SUPPRESSIVE,
        KIND_EXPLOSION, KIND_AMBUSH, environment.KIND_GRAVITY))
    hooks.register_map_move("eclipse_phase", map_move)
    hooks.register_templates("eclipse_phase", hooks.EncounterTemplates(
        actions="eclipse/encounter/_turn.html", reaction="eclipse/encounter/_reaction.html",
        panel="eclipse/encounter/_tacnet.html"))
    spec = rule_systems.get("eclipse_phase")
    labels = spec.action_labels if spec is not None else None
    if isinstance(labels, dict):  # the spec's own dict: a new spec would be another helper's
        base = {DODGE: _("Dodge"), "melee:blades": _("Parry (blades)"),
                "melee:clubs": _("Parry (clubs)"),
                "melee:unarmed_combat": _("Parry (unarmed combat)")}
        for key, label in base.items():
            labels[key] = label
            labels[key + MOXIE_SUFFIX] = format_lazy(_("{}, Moxie flip if it fails"), label)
            labels[QUICK_PREFIX + key] = format_lazy(_("{} (surprised: a quick action)"),
                                                     label)
            labels[QUICK_PREFIX + key + MOXIE_SUFFIX] = format_lazy(
                _("{} (surprised: a quick action), Moxie flip if it fails"), label)
        labels.update({
            NONE_KEY: _("No defence"),
            KIND_ATTACK: _("Attack"), KIND_ACTION: _("Action"), KIND_MOVE: _("Move"),
            KIND_TURN_END: _("End of the action turn"),
            KIND_SUPPRESSIVE: _("Suppressive fire"), KIND_EXPLOSION: _("Explosion"),
            # The effects' names (stored in English), as the shared encounter lists them,
            # with the campaign's numbers (encounters.selectors.EncounterView.label).
            RUNNING: _("Running (-%(running_malus)s)"),
            AIM_QUICK: _("Aimed (+%(aim_quick_bonus)s)"),
            AIM_COMPLEX: _("Aimed (+%(aim_complex_bonus)s)"), ZONE: _("Suppressive fire zone"),
            defence.FULL_DEFENCE: _("Full defence (+%(full_defence_bonus)s)"),
            defence.BRACED: _("Braced for a charge (+%(receive_charge_bonus)s)"),
            defence.QUICK_OWED: _("Defended while surprised (quick action)")})

