"""The breaker tests' world (two players, items, spells, drafts) serves here too."""

from tests.breaker.conftest import world  # noqa: F401 (a fixture)
