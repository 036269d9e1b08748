import pytest

PATHS = [
    "/api/campaigns/",
    "/api/campaigns/{campaign_id}/chat/", "/api/encounters/{encounter_id}/chat/",
    "/api/chat/messages/{message_id}/",
    "/api/characters/",
    "/api/characters/{character_id}/",
    "/api/characters/{character_id}/board/",
    "/api/characters/{character_id}/move/", "/api/characters/{character_id}/move-to/",
    "/api/characters/{character_id}/attack/",
    "/api/characters/{character_id}/game/",
    "/api/characters/{character_id}/suicide/",
    "/api/characters/{character_id}/reincarnate/",
    "/api/characters/{character_id}/level-up/",
    "/api/characters/{character_id}/items/{item_id}/equip/",
    "/api/characters/{character_id}/items/{item_id}/unequip/",
    "/api/characters/{character_id}/items/{item_id}/use/",
    "/api/campaigns/{campaign_id}/leaderboard/",
    "/api/drafts/",
    "/api/drafts/{draft_id}/",
    "/api/drafts/{draft_id}/reroll/",
    "/api/drafts/{draft_id}/redistribute/",
    "/api/drafts/{draft_id}/confirm/",
    "/api/campaigns/{campaign_id}/factions/",
    "/api/factions/{faction_id}/",
    "/api/factions/{faction_id}/join/",
    "/api/factions/{faction_id}/invite/",
    "/api/factions/{faction_id}/remove/",
    "/api/factions/{faction_id}/transfer/",
    "/api/factions/{faction_id}/leave/",
    "/api/factions/{faction_id}/dissolve/",
    "/api/faction-requests/{request_id}/answer/",
    "/api/faction-requests/{request_id}/withdraw/",
    "/api/characters/{character_id}/spells/",
    "/api/characters/{character_id}/spells/offer/",
    "/api/characters/{character_id}/cast/",
    "/api/campaigns/{campaign_id}/encounters/",
    "/api/encounters/{encounter_id}/",
    "/api/encounters/{encounter_id}/version/",
    "/api/encounters/{encounter_id}/combatants/",
    "/api/encounters/{encounter_id}/join/",
    "/api/encounters/{encounter_id}/joining/",
    "/api/encounters/{encounter_id}/order/",
    "/api/encounters/{encounter_id}/start/",
    "/api/encounters/{encounter_id}/next/",
    "/api/encounters/{encounter_id}/delay/",
    "/api/encounters/{encounter_id}/end/",
    "/api/encounters/{encounter_id}/spend-action/",
    "/api/encounters/{encounter_id}/effects/",
    "/api/encounters/{encounter_id}/combatants/{combatant_id}/",
    "/api/encounters/{encounter_id}/combatants/{combatant_id}/remove/",
    "/api/encounters/{encounter_id}/combatants/{combatant_id}/readd/",
    # issue 12, item 9: positions in metres
    "/api/encounters/{encounter_id}/combatants/{combatant_id}/position/",
    "/api/encounters/{encounter_id}/positions/clear/",
    "/api/reactions/{reaction_id}/answer/",
    "/api/homebrew/campaigns/{campaign_id}/characters/",
    "/api/homebrew/campaigns/{campaign_id}/rest/",
    "/api/homebrew/characters/{character_id}/",
    "/api/homebrew/characters/{character_id}/test/",
    "/api/homebrew/characters/{character_id}/posture/",
    "/api/homebrew/characters/{character_id}/odds/",
    "/api/homebrew/encounters/{encounter_id}/attack/",
    "/api/homebrew/encounters/{encounter_id}/posture/",
    "/api/homebrew/encounters/{encounter_id}/actions/",
    # issue 12: Eclipse Phase
    "/api/eclipse/campaigns/{campaign_id}/characters/",
    "/api/eclipse/characters/{character_id}/",
    *(f"/api/eclipse/characters/{{character_id}}/{suffix}" for suffix in (
        "resleeve/", "weapons/", "weapons/drop/", "armour/", "armour/remove/", "heal/",
        "recover/", "stress/", "derangement/", "moxie/")),
    *(f"/api/eclipse/encounters/{{encounter_id}}/{step}/" for step in (
        "attack", "full-defence", "brace", "reload", "stand-up", "move", "aim", "actions",
        "escape", "zone-attack", "mishap", "gravity", "ambush")),
    # issue 12, item 10: TACNet
    "/api/eclipse/campaigns/{campaign_id}/tacnets/",
    "/api/eclipse/tacnets/{network_id}/join/",
    "/api/eclipse/tacnets/{network_id}/leave/",
    "/api/eclipse/encounters/{encounter_id}/tacnet/",
    "/api/eclipse/encounters/{encounter_id}/tacnet/perceive/",
    "/api/eclipse/encounters/{encounter_id}/tacnet/clear/",
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
    assert set(schema["paths"]["/api/drafts/"]) == {"post"}
    assert set(schema["paths"]["/api/drafts/{draft_id}/"]) == {"get"}
    assert "429" in schema["paths"]["/api/drafts/{draft_id}/reroll/"]["post"]["responses"]
    [order] = schema["paths"]["/api/campaigns/{campaign_id}/leaderboard/"]["get"]["parameters"][1:]
    assert order["name"] == "order" and order["in"] == "query"
    attack = schema["components"]["schemas"]["Attack"]["properties"]["kind"]
    assert attack["allOf"] == [{"$ref": "#/components/schemas/AttackKindEnum"}]
    assert attack["default"] == "brawl"
    assert schema["components"]["schemas"]["AttackKindEnum"]["enum"] == [
        "brawl", "melee", "ranged", "throw"]


@pytest.mark.django_db
def test_schema_generation_has_no_warnings(capsys):
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)

    assert not GENERATOR_STATS, capsys.readouterr().err


@pytest.mark.django_db
def test_schema_is_valid_openapi(api):
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    validate_schema(SchemaGenerator().get_schema(request=None, public=True))
