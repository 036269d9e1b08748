"""The homebrew d100 system (seed 002_80873c4f1892db54.txt), played in turn-based encounters.

Modules, one job each: ``params`` (HomebrewParameters), ``characteristics`` (creation budgets),
``checks`` (1d100 and 1d6 tests), ``turn`` (one action per turn, postures), ``attack`` (hit,
damage, criticals), ``fumbles`` (critical-failure effects), ``reactions`` (parry, dodge),
``magic`` (MP, then HP), ``health`` (unconscious, permanent injury, death), ``rest`` and
``odds`` (exact chances with icepool). Choices: docs/rules/homebrew-d100.md.
"""
