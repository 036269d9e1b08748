"""The shared turn-based encounter, for every rule system played in rounds and turns (homebrew
d100, Eclipse Phase): the order and its tie-breaks (``order``), rounds and turns (``clock``),
effects with durations in rounds (``clock.Duration``), and the reaction prompt's states
(``reactions``). Pure Python: values in, frozen results out, dice passed in.

Source: issue 11, items 1-5 (and /work/shared/ENCOUNTER-NOTES.md for what trackers do).
"""
