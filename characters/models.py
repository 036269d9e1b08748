from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.errors import RuleSystemNotPlayable
from campaigns.messages import error_message


class CharacterQuerySet(models.QuerySet):
    def annotate_faction(self):
        """Each character's faction id as ``faction_id_cached`` (None without one), joined in the
        same query."""
        return self.annotate(faction_id_cached=models.F("membership__faction_id"))


class Character(models.Model):
    """A character in a campaign, whatever its rule system. Rule-system numbers live in the
    system's sheet (its ``RuleSystemSpec.sheet_related_name``). ``board``/``x``/``y`` are null
    while off the board."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("Player character")
        CREATURE = "creature", _("Creature")
        DOOR = "door", _("Door")
        OBJECT = "object", _("Object")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="characters", verbose_name=_("campaign"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.PLAYER)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                              blank=True, related_name="characters", verbose_name=_("owner"))
    name = models.CharField(_("name"), max_length=60)
    board = models.ForeignKey("campaigns.Board", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="pieces")
    x = models.IntegerField(null=True, blank=True)
    y = models.IntegerField(null=True, blank=True)
    first_action_at = models.DateTimeField(
        null=True, blank=True, help_text=_("A level 0 character cannot be attacked before this."))
    last_action_at = models.DateTimeField(null=True, blank=True)
    suicided_at = models.DateTimeField(
        _("suicided at"), null=True, blank=True,
        help_text=_("Set by a suicide, cleared by reincarnation. The character may reincarnate "
                    "suicide_cooldown_hours after it, with the campaign's current value: "
                    "changing the parameter also changes blocks already running."))
    reincarnate_asap = models.BooleanField(
        _("reincarnate as soon as possible"), default=False,
        help_text=_("Chosen on the suicide form: the cooldown task brings the character back "
                    "when the block ends."))
    cooldown_notice = models.CharField(
        _("cooldown notice"), max_length=16, blank=True, choices=[
            ("cooldown_over", _("May reincarnate")), ("reincarnated", _("Reincarnated"))],
        help_text=_("Shown to the player until dismissed: the suicide block ended."))
    cooldown_notice_at = models.DateTimeField(null=True, blank=True)
    deaths = models.PositiveIntegerField(_("deaths"), default=0)
    kills = models.PositiveIntegerField(_("kills"), default=0)
    attacks = models.PositiveIntegerField(_("attacks"), default=0)
    dodges = models.PositiveIntegerField(_("dodges"), default=0)
    # A square PNG thumbnail (campaigns.images.portrait_file), shown on the map's token
    # instead of the initials; the GM or the player uploads it (characters.services).
    portrait = models.ImageField(_("portrait"), upload_to="portraits/", blank=True,
                                 db_default="", default="")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        constraints = (
            models.UniqueConstraint(fields=["board", "x", "y"], condition=Q(board__isnull=False),
                                    name="one_piece_per_cell", violation_error_code="cell_occupied",
                                    violation_error_message=_(
                                        "Another piece already stands on this cell of the "
                                        "board.")),
            # Case-insensitive: "Aldric" and "aldric" created at once both pass the services'
            # name__iexact check; the second insert is refused here (name_taken).
            models.UniqueConstraint("campaign", Lower("name"), name="unique_name_per_campaign_ci",
                                    violation_error_code="name_taken",
                                    violation_error_message=_(
                                        "A character with this name already exists in this "
                                        "campaign.")),
            models.CheckConstraint(
                condition=Q(board__isnull=True) | (Q(x__gte=0) & Q(y__gte=0)),
                name="on_board_has_position", violation_error_code="off_board",
                violation_error_message=_("A piece on the board needs a cell: x and y, each 0 "
                                          "or more.")),
        )
        indexes = (models.Index(fields=["board", "x", "y"]),)

    # Not columns: attributes that queries and services attach, typed here for mypy (no value,
    # so ``getattr(c, name, default)`` still says when one is missing).
    faction_id_cached: int | None  # CharacterQuerySet.annotate_faction
    shield_cached: int | None  # set by the system's action context: the strongest active shield
    equipped_items: list[Any]  # the system's items, loaded with its sheet under lock
    is_ally: bool  # the board's attack options (the system's selectors)
    friendly_fire_refused: bool
    attack_kinds: list[tuple[str, Decimal, int, Any]]  # kind, PA, odds %, refusal or None
    token_side: str  # how the board draws it (the system's selectors: token_look)
    token_initials: str
    token_gauge: int | None

    def __str__(self) -> str:
        return self.name

    @property
    def cell(self) -> tuple[int, int]:
        """(x, y) of a piece on the board. Raises ValueError off the board (a caller bug: the
        services refuse an action off the board first, with CannotAct)."""
        if self.x is None or self.y is None:
            raise ValueError(f"{self.name} is not on the board.")
        return self.x, self.y

    def clean(self) -> None:
        if not self.campaign_id:
            return
        try:  # pages and actions read the campaign's rules: a system not built yet has none
            rule_systems.require(self.campaign.rule_system)
        except RuleSystemNotPlayable as exc:
            raise ValidationError({"campaign": error_message(exc)}) from None

    @property
    def on_board(self) -> bool:
        return self.board_id is not None

    @property
    def is_player(self) -> bool:
        return self.kind == self.Kind.PLAYER
