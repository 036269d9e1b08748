"""encounters 0008 gives a background sent before it had metres a size on the ground: 30 m
wide, as high as its picture's proportions say (a square when its file cannot be read)."""

import io

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from PIL import Image

BEFORE = [("encounters", "0007_players_may_join")]
AFTER = [("encounters", "0008_background_metres")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0008(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_an_old_background_gets_30_metres_and_its_proportions(before_0008):
    old = before_0008
    Campaign, Encounter = old.get_model("campaigns", "Campaign"), old.get_model("encounters",
                                                                               "Encounter")
    campaign = Campaign.objects.create(name="Old maps")
    out = io.BytesIO()
    Image.new("RGB", (1200, 800), (1, 2, 3)).save(out, format="JPEG")
    name = default_storage.save("backgrounds/old.jpg", ContentFile(out.getvalue()))
    wide = Encounter.objects.create(campaign=campaign, name="Wide", background=name)
    lost = Encounter.objects.create(campaign=campaign, name="Lost", background="backgrounds/x.jpg")
    bare = Encounter.objects.create(campaign=campaign, name="Bare")

    after = _migrate(AFTER).get_model("encounters", "Encounter")

    sizes = {e.name: (e.background_width_m, e.background_height_m) for e in after.objects.all()}
    assert sizes == {"Wide": (30, 20), "Lost": (30, 30), "Bare": (None, None)}
    assert {wide.pk, lost.pk, bare.pk} == set(after.objects.values_list("pk", flat=True))
