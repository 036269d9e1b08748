import pytest
from django.test import Client

from campaigns.models import ActionRecord, RollRecord
from characters.models import Character
from ew1.models import EternalWarSheet

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


def state() -> tuple:
    """Everything a page action may change."""
    return (list(Character.objects.order_by("pk").values()),
            list(EternalWarSheet.objects.order_by("pk").values()),
            ActionRecord.objects.count(), RollRecord.objects.count())
