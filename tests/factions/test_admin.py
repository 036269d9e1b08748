"""Factions in the admin: the list with its filters and search, a faction with its members and
requests inline, the requests' own list."""

import pytest

from tests import factories
from tests.factions.conftest import otto_request


@pytest.fixture
def admin_client(client, db):
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    return client


def test_faction_list_filters_and_search(admin_client, world):
    html = admin_client.get("/admin/factions/faction/").content.decode()
    assert "Wolves" in html and "Ravens" in html
    html = admin_client.get("/admin/factions/faction/", {"is_public__exact": "0"}).content.decode()
    assert "Wolves" in html and "Ravens" not in html
    # Searching by a member's name finds the faction once.
    response = admin_client.get("/admin/factions/faction/", {"q": "Max"})
    assert list(response.context["cl"].result_list) == [world.wolves]
    assert response.context["cl"].result_list[0].size == 2


def test_faction_change_page_has_members_and_requests_inline(admin_client, world):
    otto_request(world)
    response = admin_client.get(f"/admin/factions/faction/{world.wolves.pk}/change/")
    assert response.status_code == 200
    formsets = {f.formset.model.__name__: f.formset for f in
                response.context["inline_admin_formsets"]}
    assert formsets["Membership"].queryset.count() == 2
    assert sorted(formsets["JoinRequest"].queryset.values_list("state", flat=True)) == [
        "accepted", "pending"]  # Max's invitation, Otto's request


def test_join_request_list(admin_client, world):
    otto_request(world)
    response = admin_client.get("/admin/factions/joinrequest/", {"state__exact": "pending"})
    assert response.status_code == 200 and len(response.context["cl"].result_list) == 1


def test_players_do_not_get_in(client, world):
    client.force_login(world.users["lea"])
    assert client.get("/admin/factions/faction/").status_code == 302


# --- live (issue 17, item 7): an admin edit is announced like the services' changes ------------

def _form_data(response) -> dict:
    """The change page's own form and inline formsets as the browser would post them."""
    data = {}
    for name, field in response.context["adminform"].form.fields.items():
        value = response.context["adminform"].form.initial.get(name, field.initial)
        if value is not None:
            data[name] = value if not isinstance(value, bool) else ("on" if value else "")
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"):
            data[f"{formset.prefix}-{name}"] = management.initial.get(name, 0) \
                if name != "TOTAL_FORMS" else formset.total_form_count()
        for form in formset.forms:
            for name in form.fields:
                value = form[name].value()
                if value is not None and value is not False:
                    data[f"{form.prefix}-{name}"] = getattr(value, "pk", value)
    return {k: v for k, v in data.items() if v != ""}


@pytest.fixture
def sent(monkeypatch):
    from campaigns import live

    events: list = []
    monkeypatch.setattr(live, "send_event", lambda *args: events.append(args[0]))
    return events


def test_removing_a_member_in_the_admin_announces_the_faction_and_its_players(
        admin_client, world, sent, django_capture_on_commit_callbacks):
    url = f"/admin/factions/faction/{world.wolves.pk}/change/"
    data = _form_data(admin_client.get(url))
    data["name"] = "Grey Wolves"
    prefix = next(k for k, v in data.items()
                  if k.endswith("-character") and v == world.char("Max").pk)[:-len("-character")]
    data[f"{prefix}-DELETE"] = "on"
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, data)
    assert response.status_code == 302, [f.formset.errors for f in
                                         response.context["inline_admin_formsets"]]
    assert not world.char("Max").__class__.objects.filter(
        pk=world.char("Max").pk, membership__isnull=False).exists()
    # Max's player is told although Max is no longer a member; Otto, unconcerned, is not.
    assert set(sent) >= {f"faction-{world.wolves.pk}", f"factions-{world.campaign.pk}",
                         f"user-{world.users['lea'].pk}", f"user-{world.users['max'].pk}"}
    assert f"user-{world.users['otto'].pk}" not in sent
    assert len(sent) == len(set(sent))


def test_deleting_a_request_in_the_admin_announces_its_faction(
        admin_client, world, sent, django_capture_on_commit_callbacks):
    request = otto_request(world)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/admin/factions/joinrequest/{request.pk}/delete/",
                                     {"post": "yes"})
    assert response.status_code == 302
    assert {f"faction-{world.wolves.pk}", f"user-{world.users['otto'].pk}"} <= set(sent)
