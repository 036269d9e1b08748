"""The UI in French and English: pages, error messages, and the French catalogue itself."""

from __future__ import annotations

import ast
import gettext
import importlib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from campaigns import errors as campaign_errors
from campaigns.messages import error_message
from gamerules import errors as rule_errors
from gamerules.ew1 import errors as ew1_errors
from tests import factories

LOCALE_DIR = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
PO_FILE = LOCALE_DIR / "django.po"
MO_FILE = LOCALE_DIR / "django.mo"

pytestmark = pytest.mark.django_db


# --- pages -------------------------------------------------------------------------------------

def _set_language(client, code: str) -> None:
    response = client.post("/i18n/setlang/", {"language": code, "next": "/"})
    assert response.status_code == 302


@pytest.fixture
def hero(alice, campaign):
    factories.character(owner=factories.user("carol"), campaign=campaign, name="Brenna", at=(3, 2))
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(2, 2))


def test_login_page_in_french_after_setlang(client):
    _set_language(client, "fr")
    html = client.get("/accounts/login/").content.decode()
    assert '<html lang="fr">' in html
    assert "Se connecter" in html
    assert "Pas encore de compte ?" in html
    assert "Log in" not in html


def test_login_page_follows_accept_language(client):
    html = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Se connecter" in html and "S'inscrire" in html


def test_login_page_in_english(client):
    _set_language(client, "en")
    html = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in html
    assert "Log in" in html and "No account yet?" in html
    assert "Se connecter" not in html


def test_character_sheet_in_french(client, alice, hero):
    client.force_login(alice)
    _set_language(client, "fr")
    html = client.get(f"/characters/{hero.pk}/").content.decode()
    for text in ("Mes personnages", "Se déconnecter", "Caractéristiques", "Compétences",
                 "Bagarre", "Esquive", "Aller au damier", "Actions récentes", "Niveau"):
        assert text in html, text
    assert "My characters" not in html and "Characteristics" not in html


def test_character_sheet_in_english(client, alice, hero):
    client.force_login(alice)
    _set_language(client, "en")
    html = client.get(f"/characters/{hero.pk}/").content.decode()
    for text in ("My characters", "Log out", "Characteristics", "Skills", "Brawl", "Dodge",
                 "Go to the board", "Recent actions", "Level"):
        assert text in html, text
    assert "Mes personnages" not in html


def test_board_page_in_french(client, alice, hero):
    client.force_login(alice)
    _set_language(client, "fr")
    html = client.get(f"/characters/{hero.pk}/board/").content.decode()
    for text in ("Mes personnages", "Déplacement", "Dans la vue", "Fiche de personnage",
                 "sur le damier de", 'title="nord-ouest"', "Bagarre (2 PA, "):
        assert text in html, text
    # The ids the browser test and htmx rely on are unchanged.
    assert 'data-testid="move-nw"' in html and 'data-testid="attack-Brenna"' in html


def test_board_page_in_english(client, alice, hero):
    client.force_login(alice)
    _set_language(client, "en")
    html = client.get(f"/characters/{hero.pk}/board/").content.decode()
    for text in ("My characters", "Move", "In view", "Character sheet", 'title="north-west"',
                 "Brawl (2 PA, "):
        assert text in html, text


def test_refused_move_is_explained_in_french(client, alice, campaign):
    corner = factories.character(owner=alice, campaign=campaign, name="Corner", at=(0, 0))
    client.force_login(alice)
    _set_language(client, "fr")
    html = client.post(f"/characters/{corner.pk}/move/", {"dx": -1, "dy": 0},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Cette case est hors du damier." in html


def test_refused_move_is_explained_in_english(client, alice, campaign):
    corner = factories.character(owner=alice, campaign=campaign, name="Corner", at=(0, 0))
    client.force_login(alice)
    _set_language(client, "en")
    html = client.post(f"/characters/{corner.pk}/move/", {"dx": -1, "dy": 0},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "That cell is off the board." in html


def test_character_creation_error_in_french(client, alice, hero, campaign):
    client.force_login(alice)
    _set_language(client, "fr")
    html = client.post("/characters/", {"campaign": campaign.pk, "name": "hero"}).content.decode()
    assert "Un personnage nommé &#x27;hero&#x27; existe déjà dans cette campagne." in html


# --- error messages ----------------------------------------------------------------------------

PROJECT_PACKAGES = ("gamerules", "campaigns", "characters", "combat", "magic", "factions",
                    "accounts", "chat")


def _error_classes() -> list[type[rule_errors.RuleError]]:
    """Every RuleError subclass of the project (each module of PROJECT_PACKAGES imported)."""
    for package in PROJECT_PACKAGES:
        for path in sorted((Path(settings.BASE_DIR) / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(settings.BASE_DIR).with_suffix("").parts
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    found, todo = [], [rule_errors.RuleError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def _templates() -> dict[str, str]:
    """key -> English template, over every error class's table (and the homebrew problems)."""
    from gamerules.homebrew.characteristics import PROBLEMS

    templates = dict(PROBLEMS)
    for cls in _error_classes():
        templates.update(cls.__dict__.get("messages", {}))
    return templates


def test_every_error_class_has_a_code_a_status_and_a_template():
    classes = _error_classes()
    assert {"rule_error", "not_found", "not_enough_pa", "invalid_direction",
            "ep_out_of_ammo", "faction_name_taken", "spell_unknown"} <= {c.code for c in classes}
    for cls in classes:
        assert cls.status in (400, 403, 404, 409, 429, 503), cls
        assert cls.template_for(cls.code), cls  # LookupError if its code has no message


def test_every_error_template_has_a_french_translation():
    templates = _templates()
    assert len(templates) > 150
    with translation.override("fr"):
        missing = sorted(t for t in templates.values() if translation.gettext(t) == t)
    assert not missing, f"add French to locale/fr/LC_MESSAGES/django.po: {missing}"


def test_every_french_template_keeps_the_placeholders():
    with translation.override("fr"):
        for template in _templates().values():
            assert sorted(set(re.findall(r"%\(\w+\)\w", translation.gettext(template)))) == \
                sorted(set(re.findall(r"%\(\w+\)\w", template))), template


def test_a_missing_french_template_is_caught(monkeypatch):
    """The check above fails for a class whose template the catalogue does not know."""
    monkeypatch.setitem(campaign_errors.MESSAGES, "no_such_thing", "No such thing, untranslated.")
    with translation.override("fr"):
        assert translation.gettext(_templates()["no_such_thing"]) == "No such thing, untranslated."
        assert error_message(campaign_errors.NotFound("no_such_thing")) == \
            "No such thing, untranslated."


def test_a_raise_without_a_template_fails_loudly():
    with pytest.raises(LookupError):
        campaign_errors.NotFound("This is English text, not a key.")


def test_error_message_in_french():
    with translation.override("fr"):
        assert error_message(ew1_errors.OffBoard()) == "Cette case est hors du damier."
        # A message with values: translated with the same values.
        assert error_message(ew1_errors.NotEnoughPA(cost=2, pa=0.5)) == \
            "Cette action coûte 2 PA ; vous en avez 0.5."
        assert error_message(campaign_errors.CampaignClosed()) == \
            "Cette campagne n'accepte plus de nouveaux personnages."
        assert error_message(campaign_errors.NotFound("no_such_character")) == \
            translation.gettext("No such character.") != "No such character."


def test_error_message_in_english_is_the_message():
    with translation.override("en"):
        error = ew1_errors.NotEnoughPA(cost=2, pa=0.5)
        assert error_message(error) == str(error) == error.message == \
            "This needs 2 PA; you have 0.5."
        assert (error.code, error.params) == ("not_enough_pa", {"cost": 2, "pa": 0.5})
        assert error_message(campaign_errors.NotFound("no_such_character")) == "No such character."


def test_the_api_answers_in_the_readers_language(client, alice, hero):
    client.force_login(alice)
    response = client.post(f"/api/characters/{hero.pk}/move/", {"dx": 1, "dy": 0},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr")
    body = response.json()
    assert response.status_code == 400 and body["code"] == "cell_occupied"  # Brenna is there
    with translation.override("fr"):
        french = translation.gettext("That cell is occupied.")
    assert body["detail"] == french != "That cell is occupied."


# --- the catalogue -----------------------------------------------------------------------------

def _po_entries(path: Path):
    """(flags, msgctxt, msgid, msgstr) of each entry of a .po file, header excluded."""
    def unquote(s: str) -> str:
        return ast.literal_eval(s)

    for block in path.read_text(encoding="utf-8").split("\n\n"):
        flags, fields, current = set(), {}, None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].split(","))
            elif line.startswith("#"):
                continue
            elif line.startswith('"') and current:
                fields[current] += unquote(line)
            elif line:
                key, _, value = line.partition(" ")
                current = key
                fields[key] = unquote(value)
        if fields.get("msgid"):
            # A plural entry has msgstr[0], msgstr[1]...: it counts as translated when each is.
            forms = [v for k, v in sorted(fields.items()) if k.startswith("msgstr[")]
            msgstr = fields.get("msgstr", forms[0] if forms and all(forms) else "")
            yield flags, fields.get("msgctxt"), fields["msgid"], msgstr


def test_po_header_is_french_and_not_fuzzy():
    header = PO_FILE.read_text(encoding="utf-8").split("\n\n")[0]
    assert "#, fuzzy" not in header
    assert '"Language: fr\\n"' in header


def test_every_po_entry_is_translated():
    entries = list(_po_entries(PO_FILE))
    assert len(entries) > 100
    for flags, ctx, msgid, msgstr in entries:
        assert msgstr, f"untranslated: {msgid!r}"
        assert "fuzzy" not in flags, f"fuzzy: {msgid!r}"
        if "python-format" in flags:
            placeholders = re.compile(r"%\(\w+\)s")
            found = sorted(placeholders.findall(msgstr))
            assert sorted(placeholders.findall(msgid)) == found, msgid


def test_committed_mo_matches_the_po():
    """The .mo is committed (a fresh machine may lack msgfmt): it must hold every .po entry."""
    with MO_FILE.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    for _flags, ctx, msgid, msgstr in _po_entries(PO_FILE):
        key = f"{ctx}\x04{msgid}" if ctx else msgid
        compiled = catalog.get(key, catalog.get((key, 0)))  # (msgid, 0): a plural's first form
        assert compiled == msgstr, f"stale .mo for {msgid!r}: run compilemessages"


def _raise_sites():
    """(where, class, key, keyword names) of every construction of a RuleError subclass in the
    project's code, the class resolved through the module that names it."""
    by_name: dict[str, list[type]] = {}
    for cls in _error_classes():  # every module imported
        by_name.setdefault(cls.__name__, []).append(cls)
    for package in PROJECT_PACKAGES:
        for path in sorted((Path(settings.BASE_DIR) / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(settings.BASE_DIR).with_suffix("").parts
            module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__"
                                                      else parts))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func, cls = node.func, None
                if isinstance(func, ast.Name):
                    cls = getattr(module, func.id, None)
                elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    cls = getattr(getattr(module, func.value.id, None), func.attr, None)
                name = getattr(func, "id", getattr(func, "attr", ""))
                if cls is None and len(by_name.get(name, ())) == 1:  # imported in a function
                    cls = by_name[name][0]
                if not (isinstance(cls, type) and issubclass(cls, rule_errors.RuleError)):
                    continue
                keywords = {k.arg: k.value for k in node.keywords}
                key = node.args[0] if node.args else keywords.get("code")
                yield (f"{path.name}:{node.lineno}", cls, key, set(keywords) - {None})


def test_every_raise_names_a_message_its_class_has_with_all_its_params():
    """Statically, so that a raise no test reaches still has its template (and French)."""
    sites = list(_raise_sites())
    assert len(sites) > 150
    for where, cls, key, names in sites:
        own_init = cls.__init__ is not rule_errors.RuleError.__init__
        if own_init and not (key is None or isinstance(key, ast.Constant)):
            continue  # ParameterError(errors), CharacteristicsError(problems): own params
        if isinstance(key, (ast.JoinedStr, ast.Name)):  # f"unknown_{name}", require_owner(reason)
            continue
        assert key is None or isinstance(key, ast.Constant), where
        template = cls.template_for(key.value if key is not None else cls.code)
        needed = set(re.findall(r"%\((\w+)\)", template))
        assert needed <= names, f"{where}: {cls.__name__} needs {needed - names}"
