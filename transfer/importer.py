"""A campaign in: :func:`campaign_import` checks a document (transfer.exporter's) whole, then
writes it in one transaction, every foreign key remapped; or merges its catalogue into an
existing campaign, refusing any conflict. Nothing is written when anything is refused."""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, models, transaction

from campaigns import rule_systems
from gamerules.errors import RuleError
from transfer import codec, registry
from transfer.errors import (DocumentMalformed, DocumentUnknownVersion, ImportConflicts,
                             TransferError, UsersMissing)
from transfer.exporter import FORMAT, VERSION, _is_user, _m2m_fields

MAX_PROBLEMS = 20


@dataclass
class ImportResult:
    """``campaign``: the campaign made or merged into; ``created``/``unchanged``: label -> rows;
    ``ids``: label -> {document id: new id}; ``users_created``: usernames made inactive."""

    campaign: Any
    created: dict[str, int] = field(default_factory=dict)
    unchanged: dict[str, int] = field(default_factory=dict)
    ids: dict[str, dict[Any, Any]] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)


def _refuse(problems: list[str]) -> None:
    if problems:
        shown = problems[:MAX_PROBLEMS]
        more = len(problems) - len(shown)
        raise DocumentMalformed(problems="; ".join(shown) + (f" (+{more} more)" if more else ""),
                                count=len(problems), items=shown)


def check(document: Any) -> dict[str, list[dict]]:
    """The document's rows by label after its shape is checked: a dict of the known format
    and version, every model known here, every row ``{"pk", "fields"}`` with known fields whose
    values parse, one campaign, every reference to a row of the document. Raises
    DocumentMalformed (``problems``: the list, at most 20 shown), DocumentUnknownVersion."""
    given = _models_given(document)
    known = {e.label: e for e in registry.exported()}
    problems = [f"{label}: not a model this site imports" for label in given if label not in known]
    pks: dict[str, set] = {}
    for label, entry in known.items():
        rows = given.get(label, [])
        if not isinstance(rows, list):
            problems.append(f"{label}: not a list")
            continue
        problems += _row_problems(label, entry.model, rows, pks.setdefault(label, set()))
    root = given.get(registry.ROOT)
    if not isinstance(root, list) or len(root) != 1:
        problems.append(f"{registry.ROOT}: exactly one campaign expected")
    elif isinstance(root[0], dict) and isinstance(root[0].get("fields"), dict):
        problems += _campaign_problems(root[0]["fields"])  # else its row's problem is listed
    _refuse(problems)
    for label, entry in known.items():
        for i, row in enumerate(given.get(label, [])):
            problems += _reference_problems(f"{label}[{i}]", entry.model, row["fields"],
                                            known, pks)
    _refuse(problems)
    return {label: given.get(label, []) for label in known}


def _models_given(document: Any) -> dict:
    """The document's ``"models"`` object once its format and version are this site's.
    Raises DocumentMalformed (not an object, an unknown format, no ``"models"`` object),
    DocumentUnknownVersion."""
    if not isinstance(document, dict):
        _refuse(["the document is not a JSON object"])
    if document.get("format") != FORMAT:
        raise DocumentMalformed("document_unknown_format", code="document_unknown_format",
                                found=str(document.get("format")))
    if document.get("version") != VERSION:
        raise DocumentUnknownVersion(found=str(document.get("version")), known=VERSION)
    given = document.get("models")
    if not isinstance(given, dict):
        _refuse(['"models" is not an object'])
    return given


def _row_problems(label: str, model, rows: list, seen: set) -> list[str]:
    """The problems of the shape of ``rows`` (the document's list for ``label``): each a
    ``{"pk": int, "fields": {...}}`` of a pk not met before (``seen`` gathers them), naming
    fields of ``model`` (its own non-relation pk excluded) whose plain values codec.decode
    parses; relations and files are checked later (:func:`_reference_problems`)."""
    names = {f.name: f for f in model._meta.concrete_fields} | {
        f.name: f for f in _m2m_fields(model)}
    problems: list[str] = []
    for i, row in enumerate(rows):
        where = f"{label}[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("fields"), dict) \
                or isinstance(row.get("pk"), bool) or not isinstance(row.get("pk"), int):
            problems.append(f"{where}: not {{\"pk\": id, \"fields\": {{...}}}}")
            continue
        if row["pk"] in seen:
            problems.append(f"{where}: id {row['pk']} twice")
        seen.add(row["pk"])
        for name, value in row["fields"].items():
            f = names.get(name)
            if f is None or (f.primary_key and not f.is_relation):
                problems.append(f"{where}.{name}: no such field")
            elif f.is_relation or isinstance(f, models.FileField):
                continue
            else:
                try:
                    codec.decode(f, value)
                except (ValidationError, TypeError, ValueError):
                    problems.append(f"{where}.{name}: {value!r} is not a valid value")
    return problems


def _reference_problems(where: str, model, fields: dict, known: dict,
                        pks: dict[str, set]) -> list[str]:
    """The problems of one row's (``where``: "label[i]") files and references: a file is null
    or ``{"name": str, "content": str}``; a non-null foreign key is set; a user is a username;
    any other foreign key or many-to-many id names a row of the document (``pks``: label ->
    its ids; ``known``: label -> registry entry)."""
    problems: list[str] = []
    for f in model._meta.concrete_fields:
        value = fields.get(f.name)
        if not f.is_relation:
            if isinstance(f, models.FileField) and value is not None and not (
                    isinstance(value, dict) and isinstance(value.get("name"), str)
                    and isinstance(value.get("content"), str)):
                problems.append(f"{where}.{f.name}: not {{\"name\", \"content\"}}")
            continue
        target = f.related_model._meta.label
        if value is None:
            if not f.null:
                problems.append(f"{where}.{f.name}: missing")
        elif _is_user(f):
            if not isinstance(value, str):
                problems.append(f"{where}.{f.name}: a username expected")
        elif target not in known or value not in pks.get(target, ()):
            problems.append(f"{where}.{f.name}: no {target} {value!r} in the document")
    for f in _m2m_fields(model):
        value = fields.get(f.name, [])
        target = f.related_model._meta.label
        if not isinstance(value, list) or any(v not in pks.get(target, ()) for v in value):
            problems.append(f"{where}.{f.name}: ids of {target} of the document expected")
    return problems


def _campaign_problems(fields: dict) -> list[str]:
    """The campaign's rule system must be one this site plays, its parameters valid for it."""
    system = fields.get("rule_system")
    if not rule_systems.is_playable(system):
        return [f"{registry.ROOT}.rule_system: {system!r} is not a rule system of this site"]
    try:
        rule_systems.parameters_for(system, fields.get("rule_parameters") or {})
    except (RuleError, TypeError, ValueError, AttributeError) as error:
        return [f"{registry.ROOT}.rule_parameters: {error}"]
    return []


def _usernames(rows: dict[str, list[dict]]) -> set[str]:
    names: set[str] = set()
    for entry in registry.exported():
        for row in rows[entry.label]:
            for f in entry.model._meta.concrete_fields:
                value = row["fields"].get(f.name)
                if _is_user(f) and value is not None:
                    names.add(value)
                elif registry.JSON_IDS.get((entry.label, f.name)) == "users":
                    names.update(v for v in value or () if isinstance(v, str))
    return names


def _users(names: set[str], *, create_missing: bool) -> tuple[dict[str, int], list[str]]:
    User = registry.user_model()
    found = dict(User._base_manager.filter(username__in=names).values_list("username", "pk"))
    missing = sorted(names - set(found))
    if missing and not create_missing:
        raise UsersMissing(names=", ".join(missing), items=missing)
    for name in missing:
        user = User(username=name, is_active=False)
        user.set_unusable_password()
        user.save()
        found[name] = user.pk
    return found, missing


def campaign_import(*, document: Any, create_missing_users: bool = False,
                    name: str | None = None, game_master=None, into=None,
                    include_files: bool = True) -> ImportResult:
    """Import ``document`` (a dict, transfer.exporter's shape).

    Without ``into``: a new campaign with every row of the document, in one transaction; users
    mapped by username (missing ones: UsersMissing, or created inactive with no usable
    password when ``create_missing_users``); ``name`` renames it (a name taken: the key
    ``import_name_taken``); ``game_master`` (a user) replaces the document's game master.

    With ``into`` (an existing campaign of the same rule system): only the catalogue
    (registry.CATALOGUE: items with their modifiers, spells, templates) is merged by name: rows
    of a new name are added, rows equal to the campaign's are left, and any row that differs
    (same name, other values) refuses the whole import with ImportConflicts, whose
    ``params["conflicts"]`` lists ``{"model", "name", "fields"}``. Nothing else of the document
    is read then.

    Raises DocumentMalformed, DocumentUnknownVersion, UsersMissing, ImportConflicts,
    TransferError; writes nothing when it raises."""
    rows = check(document)
    if into is not None:
        return _merge(rows, into)
    with transaction.atomic():
        try:
            return _create(rows, create_missing_users=create_missing_users, name=name,
                           game_master=game_master, include_files=include_files)
        except IntegrityError as error:
            raise DocumentMalformed(problems=f"the database refused a row: {error}",
                                    count=1, items=[str(error)]) from error


def _create(rows, *, create_missing_users, name, game_master, include_files) -> ImportResult:
    """A new campaign from ``rows`` (label -> checked rows, :func:`check`'s): the name taken
    refuses it (TransferError ``import_name_taken``); users mapped by :func:`_users`; one
    bulk_create per model in registry order, then :func:`_patch` and :func:`_link_m2m`. Files
    written are deleted again when anything raises. The caller holds the transaction."""
    Campaign = apps.get_model(registry.ROOT)
    campaign_row = rows[registry.ROOT][0]["fields"]
    new_name = name or campaign_row.get("name")
    if Campaign._base_manager.filter(name=new_name).exists():
        raise TransferError("import_name_taken", code="import_name_taken", name=new_name)
    users, created_users = _users(_usernames(rows), create_missing=create_missing_users)
    result = ImportResult(campaign=None, users_created=created_users)
    ids: dict[str, dict[Any, Any]] = defaultdict(dict)
    later: dict[str, list[tuple[models.Model, str, str, Any]]] = defaultdict(list)
    written_files: list[str] = []
    objects: dict[str, list[tuple[dict, models.Model]]] = {}
    try:
        for entry in registry.exported():
            made = []
            for row in sorted(rows[entry.label], key=lambda r: r["pk"]):
                obj = _new_object(entry, row["fields"], users=users, ids=ids, later=later,
                                  include_files=include_files, written_files=written_files)
                if entry.label == registry.ROOT:
                    obj.name = new_name
                    if game_master is not None:
                        obj.game_master_id = game_master.pk
                made.append((row, obj))
            entry.model._base_manager.bulk_create([obj for _, obj in made])
            for row, obj in made:
                ids[entry.label][row["pk"]] = obj.pk
            objects[entry.label] = made
            result.created[entry.label] = len(made)
        _patch(objects, later, ids, users)
        _link_m2m(objects, ids)
    except BaseException:
        for stored in written_files:
            default_storage.delete(stored)
        raise
    result.campaign = objects[registry.ROOT][0][1]
    result.ids = dict(ids)
    return result


def _new_object(entry, values: dict, *, users: dict[str, int], ids: dict[str, dict[Any, Any]],
                later: dict[str, list[tuple[models.Model, str, str, Any]]],
                include_files: bool, written_files: list[str]) -> models.Model:
    """An unsaved ``entry.model`` of one row's ``values`` (field name -> document value; a field
    left out keeps the model's default). Users become ids through ``users`` (username -> id),
    foreign keys through ``ids`` (label -> {document id: new id}); a link to a row not made yet
    is left null and noted in ``later[entry.label]`` as ``(obj, attname, target label, document
    id)`` for :func:`_patch`. Files are stored by :func:`_file_in` (noted in ``written_files``)."""
    obj = entry.model()
    for f in entry.model._meta.concrete_fields:
        if f.primary_key and not f.is_relation:
            continue
        if f.name not in values:
            continue  # the model's default
        value = values[f.name]
        if f.is_relation:
            if value is None:
                setattr(obj, f.attname, None)
            elif _is_user(f):
                setattr(obj, f.attname, users[value])
            elif value in ids[f.related_model._meta.label]:
                setattr(obj, f.attname, ids[f.related_model._meta.label][value])
            else:  # a later row (a circle's null link, a row of the same model)
                setattr(obj, f.attname, None)
                later[entry.label].append((obj, f.attname, f.related_model._meta.label, value))
        elif isinstance(f, models.FileField):
            setattr(obj, f.attname, _file_in(value, include_files, written_files))
        else:
            setattr(obj, f.attname, codec.decode(f, value))
    return obj


def _link_m2m(objects: dict[str, list[tuple[dict, models.Model]]],
              ids: dict[str, dict[Any, Any]]) -> None:
    """The many-to-many links of the rows made (``objects``: label -> [(document row, obj)]),
    their document ids mapped through ``ids``; one bulk_create per many-to-many field."""
    for entry in registry.exported():
        for f in _m2m_fields(entry.model):
            through = f.remote_field.through
            target = f.related_model._meta.label
            src, dst = f.m2m_field_name() + "_id", f.m2m_reverse_field_name() + "_id"
            through.objects.bulk_create([
                through(**{src: obj.pk, dst: ids[target][v]})
                for row, obj in objects[entry.label] for v in row["fields"].get(f.name, [])])


def _patch(objects, later, ids, users) -> None:
    """The second pass: the links to rows made later, the timestamps bulk_create stamped with
    now (auto_now, auto_now_add), the ids inside JSON columns; one bulk update per model."""
    combatants = ids.get("encounters.Combatant", {})
    characters = ids.get("characters.Character", {})
    for entry in registry.exported():
        model = entry.model
        changed: set[str] = set()
        for obj, attname, target, value in later.get(entry.label, []):
            setattr(obj, attname, ids[target][value])
            changed.add(attname)
        stamped = [f for f in model._meta.concrete_fields
                   if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
        json_fields = [(f, kind) for (label, name), kind in registry.JSON_IDS.items()
                       if label == entry.label for f in [model._meta.get_field(name)]]
        for row, obj in objects[entry.label]:
            for f in stamped:
                if f.name in row["fields"]:
                    setattr(obj, f.attname, codec.decode(f, row["fields"][f.name]))
                    changed.add(f.attname)
            for f, kind in json_fields:
                if f.name in row["fields"]:
                    setattr(obj, f.attname, codec.remap_json(
                        kind, row["fields"][f.name], users=users, combatants=combatants,
                        characters=characters, encounters=ids.get("encounters.Encounter", {})))
                    changed.add(f.attname)
        if changed and objects[entry.label]:
            model._base_manager.bulk_update([obj for _, obj in objects[entry.label]],
                                            sorted(changed), batch_size=500)


def _file_in(value, include: bool, written: list[str]) -> str:
    if not value or not include:
        return ""
    try:
        content = base64.b64decode(value["content"], validate=True)
    except (binascii.Error, ValueError) as error:
        raise DocumentMalformed(problems=f"{value['name']}: not base64", count=1,
                                items=[str(error)]) from error
    stored = default_storage.save(value["name"], ContentFile(content))
    written.append(stored)
    return stored


def _natural(model, values: dict, skip: set[str]) -> dict[str, Any]:
    return {f.name: values.get(f.name) for f in model._meta.concrete_fields
            if not f.primary_key and f.name not in skip}


def _check_added(plans, known, into) -> None:
    """The catalogue rows a merge adds, checked as the admin checks them (the model's
    full_clean): a row the rules refuse refuses the document (DocumentMalformed)."""
    refused = []
    for model, values, _ in plans:
        try:
            model(**values, **{known[model._meta.label].path: into}).full_clean(
                validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            refused.append(f"{model._meta.label} {values.get('name')!r}: " + "; ".join(
                f"{k}: {' '.join(v)}" for k, v in error.message_dict.items()))
    _refuse(refused)


def _merge(rows, into) -> ImportResult:
    """The catalogue of ``rows`` (label -> checked rows) merged into the campaign ``into``, in
    one transaction: a document of another rule system refuses it (TransferError
    ``import_wrong_system``); any row differing from the campaign's of its name refuses it
    (ImportConflicts, ``params["conflicts"]``: ``[{"model", "name", "fields"}]``); the rows of
    new names are checked (:func:`_check_added`) then made with their children."""
    document_system = rows[registry.ROOT][0]["fields"].get("rule_system")
    if document_system != into.rule_system:
        raise TransferError("import_wrong_system", code="import_wrong_system",
                            found=str(document_system), expected=into.rule_system)
    result = ImportResult(campaign=into)
    conflicts: list[dict] = []
    plans: list[tuple[type[models.Model], dict, dict[str, list[dict]]]] = []
    known = {e.label: e for e in registry.exported()}
    with transaction.atomic():
        for label, (key, children) in registry.CATALOGUE.items():
            if label not in known:
                continue
            added, differing, same = _compare_catalogue(label, key, children, rows=rows,
                                                        into=into, known=known)
            plans += added
            conflicts += differing
            if same:
                result.unchanged[label] = result.unchanged.get(label, 0) + same
        if conflicts:
            raise ImportConflicts(count=len(conflicts),
                                  names=", ".join(c["name"] for c in conflicts[:10]),
                                  conflicts=conflicts)
        _check_added(plans, known, into)
        _add_planned(plans, known, into, result)
    return result


def _compare_catalogue(label: str, key: tuple[str, ...], children: dict[str, str], *, rows,
                       into, known) -> tuple[list, list[dict], int]:
    """The document's rows of the catalogue model ``label`` against ``into``'s, by the natural
    ``key`` (field names), as ``(plans, conflicts, unchanged)``: ``plans`` the rows of a new
    key, ``[(model, values, {child label: [child fields]})]``; ``conflicts`` the rows that
    differ, ``[{"model", "name", "fields"}]``; ``unchanged`` the count of equal rows (their
    children, ``children``: child label -> its parent field, included). One read, plus one per
    child model of each row met."""
    plans: list[tuple[type[models.Model], dict, dict[str, list[dict]]]] = []
    conflicts: list[dict] = []
    unchanged = 0
    model = known[label].model
    campaign_field = known[label].path
    existing = {tuple(getattr(o, k) for k in key): o for o in
                model._base_manager.filter(**{campaign_field: into.pk})}
    kids_of: dict[str, dict[Any, list[dict]]] = {}
    for child, parent in children.items():
        kids_of[child] = defaultdict(list)
        for r in rows.get(child, []):
            kids_of[child][r["fields"].get(parent)].append(r["fields"])
    for row in rows.get(label, []):
        values = {f.name: codec.decode(f, row["fields"][f.name])
                  for f in model._meta.concrete_fields
                  if not f.is_relation and not f.primary_key and f.name in row["fields"]}
        natural = tuple(values.get(k) for k in key)
        theirs = {c: kids_of[c].get(row["pk"], []) for c in children}
        old = existing.get(natural)
        if old is None:
            plans.append((model, values, theirs))
            continue
        differ = _differences(old, values, theirs, children, known, skip={campaign_field})
        if differ:
            conflicts.append({"model": label, "name": " / ".join(map(str, natural)),
                              "fields": differ})
        else:
            unchanged += 1
    return plans, conflicts, unchanged


def _differences(old, values: dict, theirs: dict[str, list[dict]], children: dict[str, str],
                 known, *, skip: set[str]) -> list[str]:
    """What differs between the campaign's row ``old`` and the document's ``values`` (decoded,
    field name -> value) with its children ``theirs`` (child label -> [document fields]): the
    names of the differing fields, sorted (``skip`` left out), then the model name of each child
    model whose rows differ (compared whole, their parent field left out)."""
    model = type(old)
    ours = _natural(model, {f.name: getattr(old, f.attname)
                            for f in model._meta.concrete_fields}, skip)
    differ = sorted(n for n, v in values.items() if n in ours and ours[n] != v)
    for child, parent in children.items():
        cm = known[child].model
        mine = sorted(repr(sorted(_natural(cm, {f.name: getattr(o, f.attname) for f in
                                               cm._meta.concrete_fields},
                                           {parent}).items()))
                      for o in cm._base_manager.filter(**{parent: old}))
        yours = sorted(repr(sorted(_natural(cm, {
            f.name: codec.decode(f, v.get(f.name)) for f in cm._meta.concrete_fields
            if not f.primary_key}, {parent}).items())) for v in theirs[child])
        if mine != yours:
            differ.append(cm._meta.model_name)
    return differ


def _add_planned(plans, known, into, result: ImportResult) -> None:
    """The catalogue rows of new names made in ``into``, each with its children (one create,
    one bulk_create per child model), counted in ``result.created`` by label."""
    for model, values, theirs in plans:
        label = model._meta.label
        obj = model._base_manager.create(**values, **{known[label].path: into})
        result.created[label] = result.created.get(label, 0) + 1
        for child, parent in registry.CATALOGUE[label][1].items():
            cm = known[child].model
            made = cm._base_manager.bulk_create([
                cm(**{parent: obj}, **{f.name: codec.decode(f, v.get(f.name))
                                       for f in cm._meta.concrete_fields
                                       if not f.is_relation and not f.primary_key
                                       and f.name in v}) for v in theirs[child]])
            result.created[child] = result.created.get(child, 0) + len(made)
