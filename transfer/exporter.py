"""A campaign out: :func:`campaign_export` builds the versioned JSON document of every row of it
(transfer.registry says which models and how; docs/export.md describes the document)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

from transfer import codec, registry

FORMAT = "percentile-campaign"
VERSION = 1


def _m2m_fields(model) -> list[models.ManyToManyField]:
    return [f for f in model._meta.many_to_many if f.remote_field.through._meta.auto_created]


def _is_user(field) -> bool:
    return field.is_relation and field.related_model is registry.user_model()


def campaign_export(*, campaign, include_files: bool = True) -> dict[str, Any]:
    """The document of ``campaign``::

        {"format": "percentile-campaign", "version": 1, "exported_at": ISO 8601,
         "campaign": {"name", "rule_system"}, "users": [username, ...],
         "files": bool, "models": {label: [{"pk": id, "fields": {name: value}}, ...]}}

    One read per exported model and per many-to-many field, one for the usernames. Files are
    inlined in base64 unless ``include_files`` is False (then null)."""
    User = registry.user_model()
    rows: dict[str, list[tuple[models.Model, dict]]] = {}
    user_ids: set[int] = set()
    for entry in registry.exported():
        rows[entry.label] = _entry_rows(entry, campaign, include_files=include_files,
                                        user_ids=user_ids)
    names = dict(User._base_manager.filter(pk__in=user_ids).values_list("pk", "username"))
    document_models = {entry.label: _named_rows(entry, rows[entry.label], names)
                       for entry in registry.exported()}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {"name": campaign.name, "rule_system": campaign.rule_system},
        "users": sorted(names.values()),
        "files": include_files,
        "models": document_models,
    }


def _entry_rows(entry, campaign, *, include_files: bool,
                user_ids: set[int]) -> list[tuple[models.Model, dict]]:
    """The rows of ``entry``'s model in ``campaign``, by pk: ``[(obj, {field name: value})]``,
    foreign keys as ids, many-to-many fields as lists of ids; the user ids met (foreign keys
    and registry.JSON_IDS "users" lists) are added to ``user_ids``. One read for the rows, one
    per many-to-many field."""
    model = entry.model
    lookup = {"pk": campaign.pk} if entry.path == "pk" else {entry.path: campaign.pk}
    objs = list(model._base_manager.filter(**lookup).order_by("pk"))
    m2m = _m2m_links(model, objs)
    out = []
    for obj in objs:
        fields = _row_fields(entry, obj, include_files=include_files, user_ids=user_ids)
        for name, links in m2m.items():
            fields[name] = links.get(obj.pk, [])
        out.append((obj, fields))
    return out


def _m2m_links(model, objs: list[models.Model]) -> dict[str, dict[Any, list[Any]]]:
    """Field name -> {pk of one of ``objs``: [linked pks, in order]} for every auto-created
    many-to-many field of ``model``; one read per field."""
    m2m: dict[str, dict[Any, list[Any]]] = {f.name: {} for f in _m2m_fields(model)}
    for f in _m2m_fields(model):
        through = f.remote_field.through
        src = f.m2m_field_name() + "_id"
        dst = f.m2m_reverse_field_name() + "_id"
        for a, b in through.objects.filter(**{src + "__in": [o.pk for o in objs]}) \
                .order_by(dst).values_list(src, dst):
            m2m[f.name].setdefault(a, []).append(b)
    return m2m


def _row_fields(entry, obj, *, include_files: bool, user_ids: set[int]) -> dict[str, Any]:
    """``obj``'s concrete fields but its own non-relation primary key, encoded: relations as
    ids, files through codec.file_out, the rest through codec.encode. User ids met are added to
    ``user_ids``."""
    fields: dict[str, Any] = {}
    for f in entry.model._meta.concrete_fields:
        if f.primary_key and not f.is_relation:
            continue
        if f.is_relation:
            value = getattr(obj, f.attname)
            if _is_user(f) and value is not None:
                user_ids.add(value)
            fields[f.name] = value
        elif isinstance(f, models.FileField):
            fields[f.name] = codec.file_out(getattr(obj, f.attname), include=include_files)
        else:
            value = codec.encode(f, getattr(obj, f.attname))
            if registry.JSON_IDS.get((entry.label, f.name)) == "users":
                user_ids.update(value or ())
            fields[f.name] = value
    return fields


def _named_rows(entry, rows: list[tuple[models.Model, dict]],
                names: dict[int, str]) -> list[dict]:
    """``rows`` as the document lists them, ``[{"pk", "fields"}]``, every user id (foreign keys
    and registry.JSON_IDS "users" lists) replaced by its username from ``names`` (id ->
    username); ids of no user are dropped from the lists."""
    listed = []
    for obj, fields in rows:
        for f in entry.model._meta.concrete_fields:
            if _is_user(f) and fields[f.name] is not None:
                fields[f.name] = names[fields[f.name]]
            elif registry.JSON_IDS.get((entry.label, f.name)) == "users":
                fields[f.name] = [names[i] for i in fields[f.name] or () if i in names]
        listed.append({"pk": obj.pk, "fields": fields})
    return listed
