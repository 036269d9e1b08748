"""Eclipse Phase, first edition (seed 001_e6266c120d4801b4.txt), played in turn-based
encounters.

Modules, one job each: ``params`` (EclipsePhaseParameters), ``errors``, ``sheet`` (aptitudes,
skills, morph, ego, character, resleeving), ``gear`` (weapons, armour, magazines), ``checks``
(tests read 00-99, criticals, margin, Moxie, opposed tests), ``turn`` (initiative, phases,
quick/complex actions, delaying), ``situations`` (the seed's three modifier tables as data),
``attack`` (attack and defence, DV), ``health`` (armour, wounds, knockdown, stun, bleeding,
death), ``stress`` (stress, traumas, lucidity, insanity, recovery), ``firing`` (firing modes,
suppressive fire, beams, blind and indirect fire, reloading), ``manoeuvres`` (movement, gravity,
subdue escape, ambush, several weapons), ``explosives`` and ``odds`` (exact chances with
icepool), ``volley`` (an attack in the encounter: its typed order and schema, the
defence answered, every shot of a volley at one target). Choices: docs/rules/eclipse-phase.md.
"""
