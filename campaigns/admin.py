"""The admin of campaigns and of the journal.

A campaign is added in two steps (campaigns.forms): the add page asks for the rule system (and
the name, the game master, the board), saves no parameter, and goes on to the change page,
which shows that system's parameters only. The change page also names the pieces that stand
outside the board (the board pages leave them out), and the board inline refuses a size that
would leave a piece outside it.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, F, Q
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from campaigns.forms import MAIN_FIELDS, CampaignAdminForm, parameter_groups, system_shown
from campaigns.models import ActionRecord, Board, Campaign, RollRecord


def pieces_outside(board: Board, *, width: int | None = None, height: int | None = None):
    """The pieces of ``board`` standing outside it (or outside ``width`` x ``height``), by
    name: one query."""
    width = board.width if width is None else width
    height = board.height if height is None else height
    return board.pieces.filter(Q(x__gte=width) | Q(y__gte=height) | Q(x__lt=0) | Q(y__lt=0)
                               ).order_by("name", "id")


class BoardForm(forms.ModelForm):
    class Meta:
        model = Board
        fields = ("width", "height")

    def clean(self):
        cleaned = super().clean()
        width, height = cleaned.get("width"), cleaned.get("height")
        if self.instance.pk and width and height:
            outside = list(pieces_outside(self.instance, width=width, height=height)[:10])
            if outside:
                raise forms.ValidationError(
                    _("Pieces stand outside this size: %(pieces)s. Move them first."),
                    code="pieces_outside",
                    params={"pieces": ", ".join(f"{p.name} ({p.x}, {p.y})" for p in outside)})
        return cleaned


class BoardInline(CampaignScopedInline, admin.StackedInline):
    model = Board
    form = BoardForm
    extra = 0
    max_num = 1


def _system_name(code: str) -> str:
    spec = rule_systems.get(code)
    return str(spec.name) if spec else code


@admin.register(Campaign)
class CampaignAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "pk"  # a game master's own campaigns (campaigns.admin_scope)
    form = CampaignAdminForm
    list_display = ("name", "rule_system", "game_master", "is_open", "accepts_requests",
                    "created_at",
                    "outside_count")
    list_filter = ("rule_system", "is_open", "accepts_requests")
    search_fields = ("name", "description")
    inlines = (BoardInline,)
    readonly_fields = ("pieces_outside_board",)

    def get_queryset(self, request):
        """Each campaign with how many pieces stand outside its board (the list's column; the
        change page lists them only when there are)."""
        outside = (Q(board__pieces__x__gte=F("board__width"))
                   | Q(board__pieces__y__gte=F("board__height"))
                   | Q(board__pieces__x__lt=0) | Q(board__pieces__y__lt=0))
        return super().get_queryset(request).annotate(
            outside_count=Count("board__pieces", filter=outside))

    @admin.display(description=_("Pieces outside the board"), ordering="outside_count")
    def outside_count(self, obj) -> str:
        return str(obj.outside_count) if obj.outside_count else ""

    def get_readonly_fields(self, request, obj=None):
        """A game master scoped to their campaigns does not hand one over here."""
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if self.campaign_ids(request) is None else (*fields, "game_master")

    def get_fieldsets(self, request, obj=None):
        data = request.POST if request.method == "POST" else None
        system = system_shown(obj, data)
        main = [*MAIN_FIELDS]
        if obj is not None and obj.pk and self._outside(obj):
            main.append("pieces_outside_board")
        if system is None:
            description = (_("Choose the rule system and save: the campaign's rule parameters "
                             "are shown next, those of its system only.") if obj is None else
                           _("The rule parameters of the new rule system are shown once "
                             "saved (its defaults)."))
            return [(None, {"fields": main, "description": description})]
        groups = parameter_groups(system)
        return [
            (None, {"fields": main, "description": _(
                "Below, each rule of %(system)s that the campaign may change, by chapter of the "
                "rules, with its default and bounds (docs/rules/). An empty box takes the "
                "default; only the values that differ from it are stored.")
                % {"system": _system_name(system)}}),
            *[(_("Rule parameters: %(chapter)s") % {"chapter": title}, {"fields": names})
              for title, names in groups],
        ]

    def get_form(self, request, obj=None, **kwargs):
        kwargs["fields"] = None  # the parameter fields are made by the form itself
        return super().get_form(request, obj, **kwargs)

    @admin.display(description=_("Pieces outside the board"))
    def pieces_outside_board(self, obj):
        """The pieces the board pages leave out, each linked to its admin page."""
        pieces = self._outside(obj)
        if not pieces:
            return "-"
        return format_html_join(", ", '<a href="{}">{}</a> ({}, {})', (
            (reverse("admin:characters_character_change", args=[p.pk]), p.name, p.x, p.y)
            for p in pieces))

    def _outside(self, obj) -> list:
        cached = getattr(obj, "_pieces_outside", None)
        if cached is None:
            board = Board.objects.filter(campaign=obj).first() if getattr(
                obj, "outside_count", 1) else None
            cached = list(pieces_outside(board)) if board else []
            obj._pieces_outside = cached
        return cached

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET":
            obj = self.get_object(request, object_id)
            if obj is not None and self._outside(obj):
                messages.warning(request, gettext(
                    "Some pieces stand outside the board: their board pages leave them out "
                    "until you move them (see \"Pieces outside the board\")."))
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        request._rule_system_changed = change and "rule_system" in form.changed_data
        super().save_model(request, obj, form, change)

    def response_add(self, request, obj, post_url_continue=None):
        """On to the change page, where the system's parameters are (as UserAdmin does for a
        user's password)."""
        if "_addanother" not in request.POST and admin.options.IS_POPUP_VAR not in request.POST:
            request.POST = request.POST.copy()
            request.POST["_continue"] = 1
            messages.info(request, gettext(
                "Rule system: %(system)s. Its parameters are below, at their defaults: change "
                "those the campaign plays otherwise.") % {"system": _system_name(obj.rule_system)})
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "_rule_system_changed", False) and "_saveasnew" not in request.POST:
            request.POST = request.POST.copy()
            request.POST["_continue"] = 1
            messages.info(request, gettext(
                "Rule system: %(system)s. Its parameters are below, at their defaults.") % {
                    "system": _system_name(obj.rule_system)})
        return super().response_change(request, obj)


class RollInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "action__campaign"
    model = RollRecord
    extra = 0
    can_delete = False
    fields = readonly_fields = ("label", "actor", "expression", "faces", "total", "target_score",
                                "grade", "modifiers")


@admin.register(ActionRecord)
class ActionRecordAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    list_display = ("created_at", "campaign", "kind", "actor", "target", "cost")
    list_filter = ("campaign", "kind")
    search_fields = ("actor__name", "target__name")
    list_select_related = ("campaign", "actor", "target")
    inlines = (RollInline,)
    readonly_fields = ("campaign", "user", "actor", "target", "kind", "cost", "summary",
                       "created_at")

    def has_add_permission(self, request):
        return False
