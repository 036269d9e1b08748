"""Deleting one's own account (issue 22, item 2; docs/deploy.md, "Accounts").

What it does, in one transaction:

- **Refused** while the user is the game master or a co-game master of a campaign: a campaign
  is not left without its game master by surprise, nor with a co-game master who is gone. The
  game master hands it over first (the campaign's page or the admin), a co-game master steps
  down; the refusal names the campaigns.
- **Characters are kept**, without an owner: the campaign's story (its journal, encounters,
  factions, the other players' fights) stays whole, and the game master plays them or removes
  them. Character drafts (not yet in play) are deleted.
- The user's row is deleted, and with it, by their foreign keys: API tokens, e-mail addresses,
  OAuth connections, whispers addressed to them, sessions at their next request. Chat messages
  and journal entries they wrote stay, their author shown as gone (SET_NULL).

accounts sits beside campaigns in the layers (it imports none of it): the user's campaigns and
characters are read through the user's reverse relations."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from gamerules.errors import RuleError, gettext_noop

MESSAGES = {
    "account_delete_refused": gettext_noop("This account cannot be deleted."),
    "account_masters_campaigns": gettext_noop(
        "You are a game master of %(campaigns)s: hand the campaign over to another game "
        "master, or step down, before deleting your account."),
}


class AccountDeleteRefused(RuleError):
    """The account cannot be deleted now (409; ``campaigns``: the names, comma-separated)."""

    code = "account_delete_refused"
    status = 409
    messages = MESSAGES


def campaigns_mastered_by(*, user) -> list[str]:
    """The names of the campaigns ``user`` is the game master or a co-game master of, sorted
    (one query)."""
    from django.db.models import Q

    model = user.mastered_campaigns.model
    return sorted(model.objects.filter(Q(game_master=user) | Q(masters__user=user))
                  .values_list("name", flat=True).distinct())


def account_delete(*, user) -> dict[str, int]:
    """Delete ``user``'s account as the module says. Returns what was done:
    ``{"characters_kept": n, "drafts_deleted": n}``. Raises AccountDeleteRefused
    (``account_masters_campaigns``) while the user masters a campaign; then nothing changes.
    The user's row is locked first, so that two deletions do not both run."""
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        names = campaigns_mastered_by(user=user)
        if names:
            raise AccountDeleteRefused(code="account_masters_campaigns",
                                       campaigns=", ".join(names))
        kept = user.characters.update(owner=None)
        drafts, _by_model = user.character_drafts.all().delete()
        user.delete()
    return {"characters_kept": kept, "drafts_deleted": drafts}
