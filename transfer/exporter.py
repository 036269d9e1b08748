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


def campaign_export(*, campaign, include_files: bool = True) -> dict[str, Any]:  # noqa: C901, PLR0912  one walk of the registry
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
        model = entry.model
        lookup = {"pk": campaign.pk} if entry.path == "pk" else {entry.path: campaign.pk}
        objs = list(model._base_manager.filter(**lookup).order_by("pk"))
        out = []
        m2m = {f.name: {} for f in _m2m_fields(model)}
        for f in _m2m_fields(model):
            through = f.remote_field.through
            src = f.m2m_field_name() + "_id"
            dst = f.m2m_reverse_field_name() + "_id"
            for a, b in through.objects.filter(**{src + "__in": [o.pk for o in objs]}) \
                    .order_by(dst).values_list(src, dst):
                m2m[f.name].setdefault(a, []).append(b)
        for obj in objs:
            fields: dict[str, Any] = {}
            for f in model._meta.concrete_fields:
                if f.primary_key and not f.is_relation:
                    continue
                if f.is_relation:
                    value = getattr(obj, f.attname)
                    if _is_user(f) and value is not None:
                        user_ids.add(value)
                    fields[f.name] = value
                elif isinstance(f, models.FileField):
                    fields[f.name] = codec.file_out(getattr(obj, f.attname),
                                                    include=include_files)
                else:
                    value = codec.encode(f, getattr(obj, f.attname))
                    if registry.JSON_IDS.get((entry.label, f.name)) == "users":
                        user_ids.update(value or ())
                    fields[f.name] = value
            for name, links in m2m.items():
                fields[name] = links.get(obj.pk, [])
            out.append((obj, fields))
        rows[entry.label] = out
    names = dict(User._base_manager.filter(pk__in=user_ids).values_list("pk", "username"))
    document_models: dict[str, list[dict]] = {}
    for entry in registry.exported():
        listed = []
        for obj, fields in rows[entry.label]:
            for f in entry.model._meta.concrete_fields:
                if _is_user(f) and fields[f.name] is not None:
                    fields[f.name] = names[fields[f.name]]
                elif registry.JSON_IDS.get((entry.label, f.name)) == "users":
                    fields[f.name] = [names[i] for i in fields[f.name] or () if i in names]
            listed.append({"pk": obj.pk, "fields": fields})
        document_models[entry.label] = listed
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {"name": campaign.name, "rule_system": campaign.rule_system},
        "users": sorted(names.values()),
        "files": include_files,
        "models": document_models,
    }
