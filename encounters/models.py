"""The shared turn-based encounter (issue 11): an encounter, its combatants in order, effects
with durations in rounds, and the reaction prompts that make the encounter wait.

Every step goes through encounters.services, which locks the Encounter row first
(``select_for_update``) and bumps ``version``: the pages poll that number (and a later push can
send it). The order and the clock's rules are gamerules.encounter's.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.errors import WrongCampaign
from campaigns.validation import play_mode_problem, related, require, same_campaign_problem
from gamerules.encounter.clock import Edge
from gamerules.encounter.order import OrderMode
from gamerules.encounter.reactions import Status
from gamerules.encounter.space import Point

DEFAULT_REACTION_TIMEOUT = 30  # seconds: midi-qol's range is 10-30 (ENCOUNTER-NOTES.md)


class Encounter(models.Model):
    class State(models.TextChoices):
        SETUP = "setup", _("Being set up")
        RUNNING = "running", _("Running")
        ENDED = "ended", _("Ended")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="encounters", verbose_name=_("campaign"))
    name = models.CharField(_("name"), max_length=120)
    state = models.CharField(_("state"), max_length=8, choices=State.choices,
                             default=State.SETUP)
    order_mode = models.CharField(max_length=8, default=OrderMode.GM,
                                  choices=[(m.value, m.value) for m in OrderMode])
    round = models.PositiveIntegerField(_("round"), default=0,
                                        help_text=_("0 before the start."))
    turn_serial = models.PositiveIntegerField(
        _("turns played"), default=0,
        help_text=_("Counts the turns played: a 'next turn' names the one it ends."))
    current = models.ForeignKey("Combatant", on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+")
    current_phase = models.PositiveSmallIntegerField(default=0)
    turn_actions = models.PositiveSmallIntegerField(
        default=0, help_text="Actions spent in the current turn.")
    actions_per_turn = models.PositiveSmallIntegerField(
        _("actions per turn"), default=1, validators=[MinValueValidator(1), MaxValueValidator(20)])
    skip_defeated = models.BooleanField(_("skip defeated combatants"), default=True)
    reaction_timeout_seconds = models.PositiveIntegerField(
        _("time to react (seconds)"), default=DEFAULT_REACTION_TIMEOUT,
        validators=[MinValueValidator(1), MaxValueValidator(3600)],
        help_text=_("After this, a reaction prompt counts as no reaction."))
    players_may_join = models.BooleanField(
        _("players may join"), default=False, db_default=False,  # rows of older code too
        help_text=_("The campaign's players may add their own character, once, while the "
                    "encounter is being set up or running."))
    reaction_deadline = models.DateTimeField(
        null=True, blank=True, help_text="The pending reaction's deadline (polls read it).")
    version = models.PositiveBigIntegerField(default=1)
    # The map's background, drawn under the grid (campaigns.images.background_file; the GM's).
    background = models.ImageField(_("background"), upload_to="backgrounds/", blank=True,
                                   db_default="", default="")
    # Its size on the ground in metres (encounters.pictures: the GM's width, the height from
    # the picture's proportions); its lower left corner stands at (0, 0) m. Null without one.
    background_width_m = models.DecimalField(_("background's width (m)"), max_digits=7,
                                             decimal_places=2, null=True, blank=True)
    background_height_m = models.DecimalField(_("background's height (m)"), max_digits=7,
                                              decimal_places=2, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("encounter")
        verbose_name_plural = _("encounters")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        campaign = self.campaign if self.campaign_id else None
        require(campaign=play_mode_problem(campaign, rule_systems.ENCOUNTER))


class Combatant(models.Model):
    """One participant: a character of the campaign, or a name alone (a GM's extra).
    ``rank`` is its place in the kept order (null while out of it: not started, removed)."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, null=True,
                                  blank=True, related_name="combatants",
                                  verbose_name=_("character"))
    name = models.CharField(_("name"), max_length=80)
    position = models.IntegerField(_("order number"), default=0,
                                   help_text="The GM's number (entry order by default).")
    initiative = models.IntegerField(_("initiative"), null=True, blank=True)
    tiebreak = models.IntegerField(_("tiebreak"), default=0)
    tie = models.CharField(_("tie"), max_length=16, blank=True,
                           help_text=_("What broke its tie, if any."))
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    turns_per_round = models.PositiveSmallIntegerField(
        _("turns per round"), default=1, validators=[MinValueValidator(1), MaxValueValidator(10)])
    surprised = models.BooleanField(_("surprised"), default=False)
    hidden = models.BooleanField(_("hidden"), default=False, help_text=_("GM-only until revealed."))
    defeated = models.BooleanField(_("defeated"), default=False)
    removed = models.BooleanField(_("removed"), default=False)
    joined_round = models.PositiveIntegerField(default=0)
    # Where it stands, in metres to the centimetre (gamerules.encounter.space); both null: no
    # position (the table places it). Set by the GM, moved by its system's move action.
    x = models.DecimalField(_("x (m)"), max_digits=7, decimal_places=2, null=True, blank=True)
    y = models.DecimalField(_("y (m)"), max_digits=7, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["rank", "position", "id"]
        verbose_name = _("combatant")
        verbose_name_plural = _("combatants")
        indexes = (models.Index(fields=["encounter", "rank"]),)
        constraints = (
            models.CheckConstraint(
                condition=(models.Q(x__isnull=True, y__isnull=True)
                           | models.Q(x__isnull=False, y__isnull=False,
                                      x__gte=-10_000, x__lte=10_000,
                                      y__gte=-10_000, y__lte=10_000)),
                name="combatant_position_both_or_neither_bounded",
                violation_error_message=_("A position has both x and y, each from -10,000 to "
                                          "10,000 m, or neither.")),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def point(self):
        """Its gamerules.encounter.space.Point, None without a position."""
        return None if self.x is None or self.y is None else Point(self.x, self.y)

    def clean(self) -> None:
        """A character of the encounter's campaign (a name alone needs no character)."""
        encounter = related(self, "encounter")
        require(character=same_campaign_problem(related(self, "character"),
                                                encounter.campaign_id if encounter else None))


class EncounterEffect(models.Model):
    """An effect lasting rounds: it ends at the ``edge`` of ``anchor``'s first turn in
    ``expires_round`` or later (gamerules.encounter.clock)."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="effects")
    name = models.CharField(_("name"), max_length=80)
    bearer = models.ForeignKey(Combatant, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="effects")
    anchor = models.ForeignKey(Combatant, on_delete=models.CASCADE, related_name="anchored")
    edge = models.CharField(max_length=5, choices=[(e.value, e.value) for e in Edge])
    rounds = models.PositiveSmallIntegerField()
    created_round = models.PositiveIntegerField()
    expires_round = models.PositiveIntegerField()
    expired_round = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Its bearer and anchor fight in its encounter."""
        problems = {}
        for name in ("bearer", "anchor"):
            combatant = related(self, name)
            if combatant is not None and combatant.encounter_id != self.encounter_id:
                problems[name] = WrongCampaign("not_in_encounter", name=combatant.name)
        require(**problems)


class PendingReaction(models.Model):
    """A prompt to ``target``'s side about ``actor``'s action: pending until answered or
    defaulted (gamerules.encounter.reactions); ``lead`` the first prompt of the same action
    when it has several targets. ``resolver`` names the system's function that
    turns the answer into the result (encounters.reactions.register_resolver); ``rolls`` are
    the action's rolls so far, journaled with the answer's in one ActionRecord."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="reactions")
    actor = models.ForeignKey(Combatant, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(Combatant, on_delete=models.CASCADE, related_name="+")
    resolver = models.CharField(max_length=80)
    payload = models.JSONField(default=dict, blank=True)
    options = models.JSONField(default=list)
    default = models.CharField(max_length=32)
    rolls = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=9, choices=[(s.value, s.value) for s in Status],
                              default=Status.PENDING)
    choice = models.CharField(max_length=32, blank=True)
    end_turn = models.BooleanField(default=False, help_text="End the turn once resolved.")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+")
    round = models.PositiveIntegerField()
    requested_at = models.DateTimeField()
    deadline = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    # The action's one journal entry, shared by every prompt of its group.
    action = models.ForeignKey("campaigns.ActionRecord", on_delete=models.SET_NULL,
                               null=True, blank=True, related_name="reactions")
    # Several targets of one action (a volley): the first prompt leads, the others join it;
    # all pending at once, the action resolved once none is (encounters.services).
    lead = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="joined")

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]
        constraints = (
            models.UniqueConstraint(fields=["encounter"],
                                    condition=models.Q(status="pending", lead__isnull=True),
                                    name="one_pending_action_per_encounter",
                                    violation_error_message=_(
                                        "This encounter already waits for a reaction.")),
            models.UniqueConstraint(fields=["lead", "target"], name="one_prompt_per_target",
                                    violation_error_message=_(
                                        "This target is already prompted for this action.")),
        )

    def __str__(self) -> str:
        return f"{self.target} reacting to {self.actor} ({self.status})"
