"""A new ego's aptitudes and skills: the first edition's budget, where the seed gives none.

The seed only says "Les tests se font à l'aide de compétences, échelonnées de 1 à 99" and names
the seven aptitudes. Choices (docs/rules/eclipse-phase.md, "Django side"): a new ego spends
``creation_aptitude_points`` (105) on its seven aptitudes, each from ``creation_aptitude_min``
(5) to ``creation_aptitude_max`` (30) before the morph's bonus (the morph's own maximum then
caps what a test reads, ``Character.aptitude``); a skill is given as the ranks learnt, 1-99,
added to its linked aptitude, and named in the catalogue (``SKILL_APTITUDES``) or linked to an
aptitude. The first problem found is raised, as ``InvalidSheet`` with its code's params.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamerules.eclipse_phase.errors import InvalidSheet
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import RANKS_MAX, SKILL_APTITUDES, Aptitude, Ego


def validate_creation(name: str, aptitudes: Mapping[Aptitude, int], skills: Mapping[str, int],
                      params: EclipsePhaseParameters, *,
                      skill_aptitudes: Mapping[str, Aptitude] | None = None) -> Ego:
    """The new ego, or InvalidSheet: "every_aptitude_needed", "creation_aptitude_range",
    "creation_aptitude_points", "skill_ranks", "unknown_skill_name"."""
    links = dict(skill_aptitudes or {})
    ego = Ego(name=name, aptitudes=dict(aptitudes), skills=dict(skills), skill_aptitudes=links,
              moxie=params.moxie_max_default)
    low, high = params.creation_aptitude_min, params.creation_aptitude_max
    for aptitude in Aptitude:
        value = ego.aptitudes[aptitude]
        if not low <= value <= high:
            raise InvalidSheet("creation_aptitude_range", aptitude=aptitude.value, low=low,
                               high=high, value=value)
    spent = sum(ego.aptitudes[a] for a in Aptitude)
    if params.creation_aptitude_points and spent != params.creation_aptitude_points:
        raise InvalidSheet("creation_aptitude_points", budget=params.creation_aptitude_points,
                           spent=spent)
    for skill, ranks in ego.skills.items():
        if not 1 <= ranks <= RANKS_MAX:  # a new ego's trained skill has ranks
            raise InvalidSheet("skill_ranks", low=1, high=RANKS_MAX, skill=skill, ranks=ranks)
        if skill not in SKILL_APTITUDES and skill not in links:
            raise InvalidSheet("unknown_skill_name", skill=skill)
    return ego
