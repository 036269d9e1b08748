"""The moved models' content types follow them: ``django_content_type`` rows ``characters.<model>``
become ``ew1.<model>``, so the admin permissions given to users and groups (and the admin log,
and any generic relation) keep pointing at them.

On a new database there is nothing to rename (content types are made after the migrations).
If ``ew1`` rows were already made (a ``migrate`` stopped between ew1 0001 and here runs the
post-migrate hook, which makes the new rows and their default permissions), those fresh rows are
dropped first, with their permissions, so that the old rows, the ones users and groups hold,
take their place. Reversible the same way.
"""

from django.db import migrations

MODELS = ("eternalwarsheet", "itemtemplate", "itemmodifier", "iteminstance", "characterdraft")


def _move(source, target):
    def run(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        types = ContentType.objects.using(db)
        for model in MODELS:
            if not types.filter(app_label=source, model=model).exists():
                continue
            types.filter(app_label=target, model=model).delete()
            types.filter(app_label=source, model=model).update(app_label=target)
        ContentType.objects.clear_cache()
    return run


class Migration(migrations.Migration):

    dependencies = [
        # The rows that point at a content type (permissions, the admin log) are in the state.
        ('admin', '0003_logentry_add_action_flag_choices'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('characters', '0008_ew1_models_moved'),
        ('ew1', '0001_initial'),
    ]

    operations = [migrations.RunPython(_move("characters", "ew1"), _move("ew1", "characters"))]
