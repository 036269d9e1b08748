"""``makemessages`` keeps every translated entry of the French catalogue live.

A label translated at run time (``gettext(label)`` on a value from a rules module) is only in the
catalogue if its literal is marked where it is written (``gettext_noop``, or ``N_`` which
``config/management/commands/makemessages.py`` adds to xgettext's keywords). An unmarked one goes
obsolete (``#~``) at the next ``makemessages`` and its French is lost. This runs the real command
on a copy of the tree (the repository's catalogue is never written) and fails on each translated
msgid that would go obsolete.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.i18n.test_i18n import PO_FILE, _po_entries

SKIP = shutil.ignore_patterns(".venv", ".git", "var", "node_modules", "__pycache__", "*.pyc",
                              "static", "media", "*.mo")


def _obsolete_msgids(path: Path) -> set[tuple[str | None, str]]:
    """(msgctxt, msgid) of each ``#~`` entry of a .po file."""
    found = set()
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line[3:] for line in block.splitlines() if line.startswith("#~ ")]
        if not any(line.startswith("msgid ") for line in lines):
            continue
        copy = path.with_suffix(".obsolete")
        copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
        found |= {(ctx, msgid) for _f, ctx, msgid, _s in _po_entries(copy)}
    return found


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs gettext's xgettext")
def test_makemessages_keeps_every_translated_entry(tmp_path, settings, monkeypatch):
    tree = tmp_path / "tree"
    shutil.copytree(settings.BASE_DIR, tree, ignore=SKIP, symlinks=True)
    settings.LOCALE_PATHS = [tree / "locale"]
    monkeypatch.chdir(tree)
    call_command("makemessages", locale=["fr"], ignore_patterns=[".venv"], no_wrap=True,
                 verbosity=0)
    translated = {(ctx, msgid) for _f, ctx, msgid, msgstr in _po_entries(PO_FILE) if msgstr}
    gone = translated & _obsolete_msgids(tree / "locale" / "fr" / "LC_MESSAGES" / "django.po")
    assert not gone, (
        "these translated msgids would go obsolete at the next makemessages: mark their literal "
        f"with gettext_noop/N_ where it is written, or drop the dead entry: {sorted(gone)}")


def test_an_unmarked_label_would_be_caught(tmp_path):
    """The reader above sees an obsolete entry (a ``#~`` block as makemessages writes it)."""
    po = tmp_path / "django.po"
    po.write_text('msgid ""\nmsgstr ""\n\n#~ msgid "Gone"\n#~ msgstr "Parti"\n\n'
                  'msgid "Kept"\nmsgstr "Gardé"\n', encoding="utf-8")
    assert _obsolete_msgids(po) == {(None, "Gone")}
