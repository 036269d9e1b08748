import pytest

PATHS = [
    "/api/campaigns/",
    "/api/characters/",
    "/api/characters/{character_id}/",
    "/api/characters/{character_id}/board/",
    "/api/characters/{character_id}/move/",
    "/api/characters/{character_id}/attack/",
]


@pytest.mark.django_db
def test_schema_lists_every_endpoint(api):
    response = api.get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Percentile API"
    assert sorted(schema["paths"]) == sorted(PATHS)
    assert set(schema["paths"]["/api/characters/"]) == {"get", "post"}
    assert set(schema["paths"]["/api/characters/{character_id}/move/"]) == {"post"}
    move = schema["paths"]["/api/characters/{character_id}/move/"]["post"]
    assert move["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/Move")


@pytest.mark.django_db
def test_schema_is_valid_openapi(api):
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    validate_schema(SchemaGenerator().get_schema(request=None, public=True))


def test_no_docs_page_that_needs_a_cdn(client):
    assert client.get("/api/docs/").status_code == 404
