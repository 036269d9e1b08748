"""The Django admin for game masters (issue 22, item 1; docs/campaigns.md, "The admin for game
masters").

Who gets the admin, and what of it:

- **Superusers, and staff for each model Django's own permissions grant them** (users, groups:
  ``ModelBackend``): every row, as before this module.
- **A game master or co-game master** (``Campaign.game_master``, ``CampaignMaster``) who is
  neither: the admin without ``is_staff`` (``PercentileAdminSite.has_permission``), scoped to the
  campaigns they master. ``is_staff`` is not asked of them on purpose: in this project it makes
  its holder oversee *every* campaign on the pages (campaigns.permissions.oversees_every_campaign),
  which a game master of one table must not. Their rights on each campaign-scoped model are
  django-rules object permissions (``<app>.<action>_<model>``, registered here for each model
  a :class:`CampaignScopedAdmin` or :class:`CampaignScopedInline` declares with the path to its
  campaign): true with no object when the user masters some campaign, true on a row of a
  campaign they master. Adding a campaign stays on the pages (campaigns/new/); deleting one is
  its game master's alone, not a co-GM's (campaigns.permissions.owns).

What the scoped admin does, for every model with a path to its campaign: the change list holds
the rows of the user's campaigns only (``get_queryset``; its related filters list those of the
rows shown); a change, delete or history page of another campaign's row answers as for a
missing one; every choice of a related row in a form (a foreign key, a many-to-many, an
autocomplete, a raw id, a choice set by the form's own ``__init__``) holds rows of the user's
campaigns only; a row that would end up in another campaign (or in none: the shared catalogue,
which a game master reads but does not write) is refused by the form, in words, and again in
``save_model`` (PermissionDenied). The user choices (a character's owner) hold the members of
the user's campaigns: the masters and the players who own a character there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import rules
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.filters import RelatedOnlyFieldListFilter
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, PermissionDenied
from django.core.exceptions import ValidationError
from django.db.models import Model, Q
from django.utils.translation import gettext_lazy as _

from campaigns.permissions import (allowed, mastered_campaign_ids, masters_any_campaign,
                                   master_role, may_use_admin, sees_every_row)

ACTIONS = ("view", "change", "delete", "add")
SELF = "pk"  # the campaign path of the Campaign model itself


class Scoped:
    """A model's path to its campaign (``"campaign"``, ``"owner__character__campaign"``;
    ``"pk"`` for Campaign itself) and whether a row may have none (``shared``: a catalogue row of
    every campaign, read-only for a game master)."""

    __slots__ = ("path", "shared")

    def __init__(self, path: str, shared: bool = False):
        self.path, self.shared = path, shared


SCOPES: dict[type[Model], Scoped] = {}  # filled by each scoped admin and inline (register)


def scope_of(model) -> Scoped | None:
    """The campaign path of ``model``: declared by its admin, the model itself for Campaign,
    ``campaign`` for a model with that foreign key; None for a model of no campaign."""
    from campaigns.models import Campaign

    if model is Campaign:
        return Scoped(SELF)
    found = SCOPES.get(model)
    if found is not None:
        return found
    try:
        field = model._meta.get_field("campaign")
    except FieldDoesNotExist:
        return None
    return Scoped("campaign", shared=field.null) if field.related_model is Campaign else None


def campaign_id_of(obj, path: str) -> int | None:
    """The id of ``obj``'s campaign by ``path`` (through the loaded relations; None when a link
    is missing)."""
    if path == SELF:
        return obj.pk
    *hops, last = path.split("__")
    try:
        for hop in hops:
            obj = getattr(obj, hop)
            if obj is None:
                return None
    except ObjectDoesNotExist:
        return None
    return getattr(obj, f"{last}_id", None)


def in_scope(scope: Scoped, ids) -> Q:
    """The rows of the campaigns ``ids`` (and the shared ones, for a model that has them)."""
    key = "pk" if scope.path == SELF else scope.path
    q = Q(**{f"{key}__in": ids})
    return q | Q(**{f"{scope.path}__isnull": True}) if scope.shared else q


def _row_rule(model, scope: Scoped, action: str):
    """The rule of ``<app>.<action>_<model>``: with no object, whether the user masters some
    campaign (Campaign: never adds one here); on a row, whether it is of a campaign they master
    (a shared row: view only; a campaign: deleted by its game master only)."""
    from campaigns.models import Campaign

    def rule(user, obj=None) -> bool:
        ids = mastered_campaign_ids(user)
        if not ids or (model is Campaign and action == "add"):
            return False
        if obj is None:
            return True
        campaign_id = campaign_id_of(obj, scope.path)
        if campaign_id is None:
            return scope.shared and action == "view"
        if model is Campaign and action == "delete":
            return master_role(user, obj) == "game_master"
        return campaign_id in ids

    return rules.predicate(rule, name=f"masters_{model._meta.label_lower}_{action}")


def register(model, path: str, shared: bool = False) -> Scoped:
    """Declare ``model``'s campaign path and its rules (once)."""
    scope = SCOPES.get(model)
    if scope is None:
        scope = SCOPES[model] = Scoped(path, shared)
        for action in ACTIONS:
            name = f"{model._meta.app_label}.{action}_{model._meta.model_name}"
            if not rules.perm_exists(name):
                rules.add_perm(name, _row_rule(model, scope, action))
    return scope


def members_of(ids) -> Q:
    """The users of the campaigns ``ids``: their masters and the owners of their characters."""
    return (Q(characters__campaign__in=ids) | Q(mastered_campaigns__in=ids)
            | Q(co_mastered_campaigns__campaign__in=ids))


def limit_field(field, ids) -> None:
    """Keep in ``field``'s choices (a model choice field) the rows of the campaigns ``ids``."""
    queryset = getattr(field, "queryset", None)
    if queryset is None:
        return
    model = queryset.model
    if model is get_user_model():
        field.queryset = queryset.filter(pk__in=model.objects.filter(members_of(ids)).values("pk"))
        return
    scope = scope_of(model)
    if scope is not None:
        field.queryset = queryset.filter(in_scope(scope, ids))


OUTSIDE = _("This row would belong to a campaign you do not master.")
SHARED = _("A row of every campaign (no campaign) is for the staff to write.")


def check_row(instance, ids) -> ValidationError | None:
    """Why ``instance`` may not be saved by a user scoped to ``ids`` (None: it may)."""
    scope = scope_of(type(instance))
    if scope is None:
        return None
    if scope.path == SELF:  # a campaign: only one of theirs is changed (no add: rule)
        return None if instance.pk in ids else ValidationError(OUTSIDE, code="outside_campaigns")
    campaign_id = campaign_id_of(instance, scope.path)
    if campaign_id is None:
        return ValidationError(SHARED, code="shared_row") if scope.shared else None
    return None if campaign_id in ids else ValidationError(OUTSIDE, code="outside_campaigns")


def scoped_form(form_class, ids):
    """``form_class`` with its choices limited to the campaigns ``ids`` (after its own
    ``__init__``, which may set them) and a row outside them refused (a non-field error)."""

    class ScopedForm(form_class):  # type: ignore[valid-type, misc]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            for field in self.fields.values():
                limit_field(field, ids)

        def _post_clean(self):
            super()._post_clean()
            if not self.errors:
                problem = check_row(self.instance, ids)
                if problem is not None:
                    self.add_error(None, problem)

    ScopedForm.__name__ = ScopedForm.__qualname__ = form_class.__name__
    return ScopedForm


# To the type checker the mixins are what they are mixed into (Django's admin classes).
if TYPE_CHECKING:
    _AdminBase = admin.ModelAdmin
    _InlineBase = admin.options.InlineModelAdmin
else:
    _AdminBase = _InlineBase = object


def admin_scope(request, model) -> frozenset[int] | None:
    """None: ``request.user`` sees every row of ``model`` (Django's permissions); else the ids of
    the campaigns they master (maybe none)."""
    return None if sees_every_row(request.user, model) else mastered_campaign_ids(request.user)


class CampaignScopedAdmin(_AdminBase):
    """The mixin of every admin of a campaign-scoped model (before ``admin.ModelAdmin``):
    ``campaign_path`` leads to the row's campaign, ``shared_rows`` says whether a row may have
    none. See the module's docstring for what it scopes."""

    campaign_path: str = "campaign"
    shared_rows: bool = False

    def __init__(self, model, admin_site):
        super().__init__(model, admin_site)
        self.scope = register(model, self.campaign_path, self.shared_rows)

    def campaign_ids(self, request) -> frozenset[int] | None:
        return admin_scope(request, self.model)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        ids = self.campaign_ids(request)
        return queryset if ids is None else queryset.filter(in_scope(self.scope, ids))

    def _rule(self, request, action: str, obj=None) -> bool:
        opts = self.model._meta
        return allowed(request.user, f"{opts.app_label}.{action}_{opts.model_name}", obj)

    def has_module_permission(self, request):
        if self.campaign_ids(request) is None:
            return super().has_module_permission(request)
        return masters_any_campaign(request.user)

    def has_view_permission(self, request, obj=None):
        if self.campaign_ids(request) is None:
            return super().has_view_permission(request, obj)
        return self._rule(request, "view", obj) or self._rule(request, "change", obj)

    def has_change_permission(self, request, obj=None):
        if self.campaign_ids(request) is None:
            return super().has_change_permission(request, obj)
        return self._rule(request, "change", obj)

    def has_delete_permission(self, request, obj=None):
        if self.campaign_ids(request) is None:
            return super().has_delete_permission(request, obj)
        return self._rule(request, "delete", obj)

    # has_add_permission: Django's asks ``<app>.add_<model>`` with no object, which the rules
    # answer for a scoped user (and the form checks the campaign of the row added).

    def get_list_filter(self, request):
        """For a scoped user, each related filter lists the values of the rows shown only
        (not every campaign's)."""
        filters = super().get_list_filter(request)
        if self.campaign_ids(request) is None:
            return filters
        return [(f, RelatedOnlyFieldListFilter) if isinstance(f, str) and _related(self.model, f)
                else f for f in filters]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        ids = self.campaign_ids(request)
        if field is not None and ids is not None:
            limit_field(field, ids)
        return field

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        ids = self.campaign_ids(request)
        if field is not None and ids is not None:
            limit_field(field, ids)
        return field

    def get_form(self, request, obj=None, *args, **kwargs):
        form = super().get_form(request, obj, *args, **kwargs)
        ids = self.campaign_ids(request)
        return form if ids is None else scoped_form(form, ids)

    def save_model(self, request, obj, form, change):
        ids = self.campaign_ids(request)
        if ids is not None and check_row(obj, ids) is not None:
            raise PermissionDenied
        super().save_model(request, obj, form, change)


class CampaignScopedInline(_InlineBase):
    """The mixin of every inline of a scoped admin: declares its model's campaign path (its
    rules: a scoped user's inline rights) and limits its forms' choices and rows as
    CampaignScopedAdmin does."""

    campaign_path: str = "campaign"
    shared_rows: bool = False

    def __init_subclass__(cls, **kwargs):
        """Declared with the class, not when the admin first makes an inline for a request: a
        choice of the inline's model in another form (an effect's bearer, a Combatant) is
        limited from the first request on."""
        super().__init_subclass__(**kwargs)
        if getattr(cls, "model", None) is not None:
            register(cls.model, cls.campaign_path, cls.shared_rows)

    def __init__(self, parent_model, admin_site):
        super().__init__(parent_model, admin_site)
        self.scope = register(self.model, self.campaign_path, self.shared_rows)

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        ids = admin_scope(request, self.parent_model)
        if ids is not None:
            formset.form = scoped_form(formset.form, ids)
        return formset


def _related(model, name: str) -> bool:
    try:
        return bool(get_fields_from_path(model, name)[-1].is_relation)
    except (FieldDoesNotExist, Exception):  # a lookup that is no field: leave it
        return False


class GameMasterAuthenticationForm(AdminAuthenticationForm):
    """The admin's login: staff, and game masters and co-GMs without ``is_staff``."""

    def confirm_login_allowed(self, user):
        if not may_use_admin(user):
            super().confirm_login_allowed(user)  # Django's refusal, in its words


class PercentileAdminSite(admin.AdminSite):
    """The admin site: for staff (``is_staff``) and for anyone active who masters a campaign
    (the scoped admin of this module)."""

    login_form = GameMasterAuthenticationForm

    def has_permission(self, request):
        return may_use_admin(request.user)

