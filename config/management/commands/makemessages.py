"""``makemessages`` that also extracts ``N_("...")``.

The rules modules (``gamerules/``, no Django) mark the words they hand to the pages with
``gettext_noop`` imported as ``N_`` (``from gamerules.errors import gettext_noop as N_``); the
pages translate them at run time (``gettext(label)``). xgettext knows ``gettext_noop`` but not
``N_``, so without this keyword every such label went obsolete (``#~``) at the next
``makemessages`` and the French was lost. ``tests/i18n/test_catalogue_extraction.py`` fails when a
translated entry would go obsolete.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    # A class attribute as Django declares it (django-stubs: an instance variable).
    xgettext_options: list[str] = [*makemessages.Command.xgettext_options, "--keyword=N_"]  # noqa: RUF012
