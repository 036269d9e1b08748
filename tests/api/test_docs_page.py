"""The API documentation page (issue 8, item 19): Swagger UI served from our own static files,
linked from the navigation; nothing is loaded from a CDN."""

import re

import pytest
from django.contrib.staticfiles import finders

from tests import factories


@pytest.mark.django_db
def test_the_docs_page_loads_swagger_ui_from_our_static_files(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "/api/schema/" in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    for asset in assets:
        assert asset.startswith("/static/"), asset  # no CDN, no other host
        assert finders.find(asset.removeprefix("/static/")), f"{asset} is not a static file"
    assert "cdn" not in html.lower()


@pytest.mark.django_db
def test_the_navigation_links_to_the_api_docs(client):
    client.force_login(factories.user("reader"))
    html = client.get("/characters/").content.decode()
    assert 'href="/api/docs/"' in html


@pytest.mark.django_db
def test_the_docs_page_reads_nothing_from_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/api/docs/").status_code == 200
