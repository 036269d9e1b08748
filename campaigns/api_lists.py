"""The API's lists (issue 22, item 6): pagination and filters, shared by every list endpoint.

- **The journal** (campaign and encounter) pages by cursor, newest first: ``{"next",
  "previous", "results"}``, ``next`` and ``previous`` the URLs of the neighbouring pages (null
  at either end); a cursor stays right while entries are journaled.
- **The older lists** (characters, open campaigns, factions, encounters) keep their bodies, so
  that every client of them keeps working: the page is chosen with ``?page=`` (from 1) and
  ``?page_size=``, and the ``Link`` header names the neighbouring pages (``rel="next"``,
  ``rel="prev"``, as GitHub's API does). No total: one row more than the page is read to know
  whether a next page exists, so a list costs the queries it cost before.

Both take ``?page_size=`` up to ``MAX_PAGE_SIZE`` (``PAGE_SIZE`` by default). Filters are
django-filter FilterSets read through ``StrictFilterBackend``: a query parameter that no
filter nor the pagination reads is a 400 ``invalid_input`` (a typo must not widen a list
silently), as is an id not written as a whole number (``WholeNumberFilter``)."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.dateparse import parse_datetime
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.pagination import BasePagination, CursorPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from campaigns.api import ActionSerializer
from campaigns.api_base import NOT_WHOLE, WHOLE_NUMBER
from campaigns.journal import declared_kinds
from campaigns import rule_systems
from campaigns.models import ActionRecord, Campaign

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
ID_MAX = 2**31 - 1  # PostgreSQL's integer: a larger id is no row's


class JournalPagination(CursorPagination):
    """The journal, newest first, by cursor (``?cursor=``)."""

    ordering = ("-created_at", "-id")
    page_size = PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"

    def decode_cursor(self, request):
        """DRF's, refusing as it refuses any bad cursor (404 "Invalid cursor") one whose
        position is no time: DRF would hand it to the ``created_at`` filter, a 500."""
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                when = parse_datetime(str(cursor.position))
            except ValueError:  # well formed, no such date
                when = None
            if when is None:
                raise exceptions.NotFound(self.invalid_cursor_message)
        return cursor


class HeaderPagination(BasePagination):
    """``?page=`` (from 1) and ``?page_size=``; the body as it was (a list, or the view's own
    object around it), the links in the ``Link`` header. One more row than the page is read to
    know whether a next page exists: no count query, the list's queries as before. A page past
    the last is empty; a page or size that is not a whole number from 1 is a 400."""

    page_query_param = "page"
    page_size_query_param = "page_size"

    def _number(self, request, name: str, default: int) -> int:
        raw = request.query_params.get(name)
        if raw is None:
            return default
        if not WHOLE_NUMBER.fullmatch(raw) or not 1 <= int(raw) <= ID_MAX:
            raise exceptions.ValidationError({name: [NOT_WHOLE + " From 1."]})
        return int(raw)

    def paginate_queryset(self, queryset, request, view=None) -> list:
        self.request = request
        self.number = self._number(request, self.page_query_param, 1)
        size = min(self._number(request, self.page_size_query_param, PAGE_SIZE), MAX_PAGE_SIZE)
        start = (self.number - 1) * size
        rows = list(queryset[start:start + size + 1])
        self.has_next = len(rows) > size
        return rows[:size]

    def headers(self) -> dict[str, str]:
        url = self.request.build_absolute_uri()
        links = []
        if self.has_next:
            links.append(f'<{replace_query_param(url, self.page_query_param, self.number + 1)}>;'
                         ' rel="next"')
        if self.number > 1:
            link = (remove_query_param(url, self.page_query_param) if self.number == 2  # noqa: PLR2004  the first page has no number
                    else replace_query_param(url, self.page_query_param, self.number - 1))
            links.append(f'<{link}>; rel="prev"')
        return {"Link": ", ".join(links)} if links else {}

    def get_paginated_response(self, data) -> Response:
        return Response(data, headers=self.headers())

    def get_paginated_response_schema(self, schema):
        return schema  # the body is not wrapped: the links are in the headers

    def get_schema_operation_parameters(self, view):
        return [{"name": name, "required": False, "in": "query", "description": text,
                 "schema": {"type": "integer", "minimum": 1}}
                for name, text in ((self.page_query_param,
                                    "The page, from 1: the Link header names the next one."),
                                   (self.page_size_query_param,
                                    f"Rows per page: {PAGE_SIZE} by default, at most "
                                    f"{MAX_PAGE_SIZE} (a larger size reads {MAX_PAGE_SIZE})."))]


def paged(view, rows) -> Response:
    """The view's answer for ``rows`` (the serialized page) with its pagination headers."""
    return view.paginator.get_paginated_response(rows)


class WholeNumberField(forms.IntegerField):
    """An id in a query string: ASCII digits only (Django's reads " 1 ", "1.0" and Arabic-Indic
    digits), within PostgreSQL's integer."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, str) or not WHOLE_NUMBER.fullmatch(value):
            raise forms.ValidationError(NOT_WHOLE, code="invalid")
        number = int(value)
        if not 1 <= number <= ID_MAX:
            raise forms.ValidationError("No such id.", code="invalid")
        return number


@extend_schema_field({"type": "integer", "minimum": 1})
class WholeNumberFilter(filters.NumberFilter):
    field_class = WholeNumberField


class StrictFilterBackend(filters.DjangoFilterBackend):
    """django-filter's backend, refusing a query parameter that neither the filters nor the
    view's pagination read; the FilterSet also gets the view's ``journal_read`` (what the
    viewer may read, for the filters that depend on it)."""

    def get_filterset_kwargs(self, request, queryset, view):
        kwargs = super().get_filterset_kwargs(request, queryset, view)
        filterset_class = self.get_filterset_class(view, queryset)
        known = set(filterset_class.base_filters) if filterset_class else set()
        paginator = getattr(view, "paginator", None)
        for name in ("page_query_param", "page_size_query_param", "cursor_query_param"):
            if getattr(paginator, name, None):
                known.add(getattr(paginator, name))
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            raise exceptions.ValidationError({name: ["Unknown field."] for name in unknown})
        if filterset_class is not None and issubclass(filterset_class, JournalFilter):
            kwargs["read"] = getattr(view, "journal_read", None)
        return kwargs


def journal_kinds() -> list[tuple[str, str]]:
    return [(kind, kind) for kind in sorted(declared_kinds())]


class JournalFilter(filters.FilterSet):
    """The journal's filters: by character (as actor or target), kind (several: ``?kind=attack
    &kind=move``) and time (``since`` included, ``until`` excluded; ISO 8601 with its offset)."""

    character = WholeNumberFilter(method="filter_character",
                                  help_text="Entries by or against this character.")
    kind = filters.MultipleChoiceFilter(choices=journal_kinds,
                                        help_text="The entry's kind; repeat for several.")
    since = filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte",
                                      help_text="Journaled at or after (ISO 8601).")
    until = filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt",
                                      help_text="Journaled before (ISO 8601).")

    class Meta:
        model = ActionRecord
        fields: tuple[str, ...] = ("character", "kind", "since", "until")

    def __init__(self, *args, read=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = read

    def filter_character(self, queryset, name, value):
        unseen: frozenset[int] = getattr(self.read, "unseen_characters", frozenset())
        if value in unseen:  # a hidden combatant's: as if it never appeared
            return queryset.none()
        return queryset.filter(Q(actor_id=value) | Q(target_id=value))


class CampaignJournalFilter(JournalFilter):
    encounter = WholeNumberFilter(method="filter_encounter",
                                  help_text="Entries of this encounter only.")

    class Meta(JournalFilter.Meta):
        fields = (*JournalFilter.Meta.fields, "encounter")

    def filter_encounter(self, queryset, name, value):
        return queryset.filter(summary__encounter=value)


class JournalListView(ListAPIView):
    """A journal, paged by cursor and filtered (``JournalFilter``): ``read(request)`` gives
    what the viewer may read (a ``characters.selectors.JournalRead``), each page is shown
    through it. Thin: the selector decides what the viewer reads."""

    serializer_class = ActionSerializer
    pagination_class = JournalPagination
    filter_backends = (StrictFilterBackend,)
    filterset_class: type[JournalFilter] = JournalFilter
    queryset = ActionRecord.objects.none()  # the model, for the schema

    def read(self, request):
        raise NotImplementedError

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            return ActionRecord.objects.none()
        self.journal_read = self.read(self.request)
        return self.journal_read.entries

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        return self.journal_read.shown(list(page or ()))


class CampaignFilter(filters.FilterSet):
    """The open campaigns' filter: by rule system."""

    rule_system = filters.ChoiceFilter(choices=rule_systems.choices,
                                       help_text="Only the campaigns of this rule system.")

    class Meta:
        model = Campaign
        fields = ("rule_system",)


class ListView(GenericAPIView):
    """A list endpoint: filtered (``filterset_class``, through StrictFilterBackend) and paged by
    ``HeaderPagination`` (the body as it was). ``listed(queryset)`` is the page of it."""

    pagination_class = HeaderPagination
    filter_backends = (StrictFilterBackend,)

    def listed(self, queryset) -> list:
        return self.paginate_queryset(self.filter_queryset(queryset)) or []

    def get_serializer_class(self):
        # OPTIONS describes a POST through the view's serializer_class; a list whose methods
        # choose their own serializers describes no fields rather than failing (a 500).
        return self.serializer_class or serializers.Serializer
