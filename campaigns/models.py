from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.messages import error_message
from campaigns.errors import BoardTooSmall
from gamerules.d100 import Grade
from gamerules.errors import ParameterError


class RuleSystem(models.TextChoices):
    """The codes of the three systems built in, for the code that names one; the campaign's
    choices are the registry's (campaigns.rule_systems.choices), so a new system adds none."""

    ETERNAL_WAR = "ew1", "Eternal War One II"
    ECLIPSE_PHASE = "eclipse_phase", "Eclipse Phase"
    HOMEBREW = "homebrew", _("Homebrew d100")


class EnemyState(models.TextChoices):
    """What the players of a campaign read of their enemies' state in an encounter (issue 21,
    item 2: docs/encounters.md, "State at a glance"): the numbers, words (unhurt, wounded,
    badly wounded, down), or nothing. Their own characters and allies are always exact; the
    game master sees everything."""

    EXACT = "exact", _("exact numbers")
    DESCRIBED = "described", _("described in words")
    HIDDEN = "hidden", _("hidden")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    rule_system = models.CharField(_("rule system"), max_length=32, choices=rule_systems.choices,
                                   default=RuleSystem.ETERNAL_WAR)
    rule_parameters = models.JSONField(
        _("rule parameters"), default=dict, blank=True,
        help_text=_("Only the values that differ from the rule system's defaults."))
    game_master = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="mastered_campaigns",
                                    verbose_name=_("game master"))
    # Who may make a character (campaigns.permissions.admits, docs/campaigns.md "Players"):
    # open, anyone signed up; closed, its members (by invitation or accepted request) and
    # those who oversee it. A closed campaign that takes requests is listed to everyone.
    is_open = models.BooleanField(_("open to new characters"), default=True)
    accepts_requests = models.BooleanField(
        _("takes requests to join"), default=False, db_default=False,
        help_text=_("A closed campaign listed to everyone signed up, who may ask to join it; "
                    "its game masters accept or refuse."))
    enemy_state = models.CharField(
        _("enemies' state shown to the players"), max_length=9, choices=EnemyState.choices,
        # db_default too: rows written by older code (a migration test's historical models, a
        # process not yet restarted) still get a value.
        default=EnemyState.DESCRIBED, db_default=EnemyState.DESCRIBED,
        help_text=_("In an encounter, what the players read of their enemies' health and "
                    "conditions (their own characters and allies: always exact)."))
    # The co-game masters' user ids (CampaignMaster's, kept by campaigns.services in the
    # transaction that adds or removes one), so that every read of the campaign, a values()
    # read included, knows who oversees it with no query more (campaigns.permissions.oversees).
    co_master_ids = models.JSONField(_("co-game masters"), default=list, blank=True,
                                     editable=False, db_default=[])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The stored parameters as the system reads them, and checked together
        (``conflicts``)."""
        try:
            params = rule_systems.parameters_for(self.rule_system, self.rule_parameters)
        except ParameterError as exc:
            raise ValidationError({"rule_parameters": exc.message}) from None
        found = params.conflicts() if params is not None else []
        if found:
            raise ValidationError({"rule_parameters": [error_message(c) for c in found]})

    @cached_property
    def parameters(self):
        """The rule system's parameters with this campaign's overrides (a frozen dataclass)."""
        return rule_systems.parameters_for(self.rule_system, self.rule_parameters)


class CampaignMaster(models.Model):
    """A co-game master of a campaign (docs/campaigns.md): oversees it as its game master does
    (campaigns.permissions.oversees), but only the game master (and staff) adds or removes
    them. Written by campaigns.services only, which keeps ``Campaign.co_master_ids``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="masters")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="co_mastered_campaigns", verbose_name=_("user"))
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["added_at", "id"]
        verbose_name = _("co-game master")
        verbose_name_plural = _("co-game masters")
        constraints: ClassVar[list] = [
            models.UniqueConstraint(
                fields=["campaign", "user"], name="one_co_master_per_user",
                violation_error_message=_("This user is already a co-game master of the "
                                          "campaign."))]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.campaign_id}"


class CampaignInvitation(models.Model):
    """An invitation to play in a campaign, by its link ``/campaigns/join/<code>/`` or its
    ``code`` (secrets.token_urlsafe: 22 URL-safe characters). Usable until ``expires_at``
    (none: no end), ``max_uses`` times (none: no limit; ``uses`` counts the memberships it
    made), unless revoked. Made and revoked by the campaign's game masters; accepted under a
    lock on its row (campaigns.membership.invitation_accept)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(_("code"), max_length=32, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    max_uses = models.PositiveIntegerField(_("maximum uses"), null=True, blank=True,
                                           validators=[MinValueValidator(1)])
    uses = models.PositiveIntegerField(_("uses"), default=0)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints: ClassVar[list] = [
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True) | models.Q(max_uses__gte=1,
                                                                     uses__lte=models.F("max_uses")),
                name="invitation_uses_within_maximum",
                violation_error_message=_("An invitation is used at most its maximum number "
                                          "of times (at least once)."))]

    def __str__(self) -> str:
        return f"{self.campaign_id}: {self.code}"

    def state(self, now) -> str:
        """"revoked", "expired", "used_up" or "usable" at ``now``."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "used_up"
        return "usable"


class CampaignJoinRequest(models.Model):
    """A signed-up user's request to play in a campaign that takes requests
    (``Campaign.accepts_requests``), with a short message; its game masters accept it (a
    membership is made) or refuse it. One pending request per user and campaign."""

    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="campaign_join_requests", verbose_name=_("user"))
    message = models.CharField(_("message"), max_length=500, blank=True)
    state = models.CharField(_("state"), max_length=9, choices=State.choices,
                             default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+")

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at", "id"]
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")
        constraints: ClassVar[list] = [
            models.UniqueConstraint(
                fields=["campaign", "user"], condition=models.Q(state="pending"),
                name="one_pending_join_request",
                violation_error_message=_("This user has asked to join the campaign "
                                          "already."))]

    def __str__(self) -> str:
        return f"{self.user_id} asks {self.campaign_id} ({self.state})"


class CampaignMember(models.Model):
    """A player admitted to a campaign before (or besides) owning a character of it: by an
    invitation or an accepted request (docs/campaigns.md). In a closed campaign only members
    and those who oversee it make characters (campaigns.permissions.admits)."""

    class Via(models.TextChoices):
        INVITATION = "invitation", _("invitation")
        REQUEST = "request", _("request to join")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="campaign_memberships", verbose_name=_("user"))
    joined_at = models.DateTimeField(_("joined at"))
    via = models.CharField(_("joined by"), max_length=10, choices=Via.choices)
    invitation = models.ForeignKey(CampaignInvitation, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="memberships")
    request = models.ForeignKey(CampaignJoinRequest, on_delete=models.SET_NULL, null=True,
                                blank=True, related_name="+")

    class Meta:
        ordering: ClassVar[list[str]] = ["joined_at", "id"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints: ClassVar[list] = [
            models.UniqueConstraint(
                fields=["campaign", "user"], name="one_membership_per_user",
                violation_error_message=_("This user is already a member of the campaign."))]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.campaign_id}"


class Board(models.Model):
    """The campaign's grid. Cells are (x, y) with 0 <= x < width, 0 <= y < height."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="board")
    width = models.PositiveSmallIntegerField(
        _("width (cells)"), default=20, validators=[MinValueValidator(1), MaxValueValidator(1000)])
    height = models.PositiveSmallIntegerField(
        _("height (cells)"), default=20, validators=[MinValueValidator(1), MaxValueValidator(1000)])

    def __str__(self) -> str:
        return f"{self.campaign} ({self.width}x{self.height})"

    def contains(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def clean(self) -> None:
        """A saved board does not shrink under its pieces or the scrolls lying on it (a piece
        off the board cannot be drawn nor moved): the first few named."""
        from campaigns.validation import refusal
        if self.pk is None or None in (self.width, self.height):
            return
        outside = models.Q(x__gte=self.width) | models.Q(y__gte=self.height)
        names = list(self.pieces.filter(outside).values_list("name", flat=True)[:5])
        scrolls = getattr(self, "scrolls", None)  # magic's, when installed
        if scrolls is not None:
            names += [f"{s.spell} ({s.x}, {s.y})"
                      for s in scrolls.filter(outside).select_related("spell")[:5]]
        if names:
            raise refusal(BoardTooSmall(names=", ".join(names), width=self.width,
                                        height=self.height))


class ActionRecord(models.Model):
    """One game action as it happened (a move, an attack, a creation...), with its rolls.

    ``cost`` is what the action cost in the unit of the campaign's rule system: PA (points
    d'action) in Eternal War One II, actions or MP in the turn-based systems; 0 when the action
    costs nothing (a creation, a faction change). One decimal: EW1's moves cost 0.5 PA."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="actions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+")
    actor = models.ForeignKey("characters.Character", on_delete=models.CASCADE, null=True,
                              blank=True, related_name="actions")
    target = models.ForeignKey("characters.Character", on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="targeted_by")
    kind = models.CharField(max_length=32)
    cost = models.DecimalField(max_digits=6, decimal_places=1, default=0)
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        indexes = (models.Index(fields=["actor", "-created_at"]),
                   models.Index(fields=["target", "-created_at"]))

    def __str__(self) -> str:
        return f"{self.kind} by {self.actor_id} at {self.created_at:%Y-%m-%d %H:%M}"


class RollGrade(models.TextChoices):
    """A test roll's grade, the values of ``gamerules.d100.Grade``; blank for a roll that is not
    a test (damage, power, characteristics)."""

    CRITICAL_SUCCESS = Grade.CRITICAL_SUCCESS.value, _("Critical success")
    PERFECT = Grade.PERFECT.value, _("Perfect")
    SUCCESS = Grade.SUCCESS.value, _("Success")
    FAILURE = Grade.FAILURE.value, _("Failure")
    CRITICAL_FAILURE = Grade.CRITICAL_FAILURE.value, _("Critical failure")


SUCCESS_GRADES = [g.value for g in Grade if g.success]


class RollRecord(models.Model):
    """One dice roll that changed the game: who, what, expression, faces, total, modifiers.

    A test (a d100 against ``target_score``) carries the ``grade`` its rule gave; ``success`` is
    derived from it by the database (a generated column: True for the success grades, False
    for the failures, null for a roll that is not a test), so the two cannot disagree."""

    action = models.ForeignKey(ActionRecord, on_delete=models.CASCADE, related_name="rolls")
    actor = models.ForeignKey("characters.Character", on_delete=models.CASCADE, null=True,
                              blank=True, related_name="+")
    label = models.CharField(max_length=80)  # e.g. "kinetic_weapons (Moxie flip 45 -> 54)"
    expression = models.CharField(max_length=64)
    faces = models.JSONField(default=list)
    total = models.IntegerField()
    target_score = models.IntegerField(null=True, blank=True)
    grade = models.CharField(max_length=16, choices=RollGrade.choices, blank=True, default="")
    success = models.GeneratedField(
        expression=models.Case(
            models.When(grade="", then=models.Value(None)),
            models.When(grade__in=SUCCESS_GRADES, then=models.Value(True)),
            default=models.Value(False)),
        output_field=models.BooleanField(null=True), db_persist=True)
    modifiers = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["action_id", "id"]

    def __str__(self) -> str:
        return f"{self.label}: {self.expression} = {self.total}"
