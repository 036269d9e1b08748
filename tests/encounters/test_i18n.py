"""Every encounter error has its French, and every raise names a message its class has."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings
from django.utils import translation

from encounters import access, changes, effects, positions, reactions, roster, services
from encounters import errors as app_errors
from encounters import turn_order, turns
from gamerules.encounter import clock
from gamerules.encounter import errors as rule_errors


def test_every_encounter_error_template_has_french():
    templates = {**rule_errors.MESSAGES, **app_errors.MESSAGES}
    with translation.override("fr"):
        missing = sorted(t for t in templates.values() if translation.gettext(t) == t)
    assert not missing


def test_every_raise_names_a_message_of_its_class():
    # the façade and every module of the encounter's steps (services names them)
    steps = (services, access, changes, effects, positions, reactions, roster, turn_order, turns)
    modules = {f"encounters/{m.__name__.split('.')[-1]}.py": m for m in steps}
    modules["gamerules/encounter/clock.py"] = clock
    sites = 0
    for path, module in modules.items():
        for node in ast.walk(ast.parse((Path(settings.BASE_DIR) / path).read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            cls = getattr(module, node.func.id, None)
            if not (isinstance(cls, type) and issubclass(cls, rule_errors.EncounterError)):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            # the message's key: the first argument when given, else the code
            key = node.args[0] if node.args else keywords.get("code")
            template = cls.template_for(key.value if key is not None else cls.code)
            needed = {p.split(")")[0] for p in template.split("%(")[1:]}
            assert needed <= set(keywords), f"{path}:{node.lineno}"
            sites += 1
    assert sites > 30
