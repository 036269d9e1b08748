"""Reading the state at a glance (encounters.glance) off the three surfaces, as a viewer gets
them: the page, its htmx fragment and the API (``GET /api/encounters/<id>/``). Each reader
returns, for one combatant, what its roster row (and its map token) says: None when the
viewer reads nothing, else ``{"detail", "level", "meters", "marks"}`` (the keys)."""

from __future__ import annotations

import re

SURFACES = ("page", "fragment", "api")


def _row(html: str, pk: int) -> str | None:
    m = re.search(rf'<tr id="enc-row-{pk}".*?</tr>', html, re.S)
    return m.group(0) if m else None


def _token(html: str, pk: int) -> str | None:
    m = re.search(rf'<g id="map-token-{pk}".*?(?=<g id="map-token-|<g class="map-scale")',
                  html, re.S)
    return m.group(0) if m else None


def from_html(html: str, pk: int) -> dict | None:
    """The row's glance; the token's marks must agree with it (exact: its conditions, or its
    level's word when described; nothing when the row shows nothing)."""
    row = _row(html, pk)
    assert row is not None, f"no row for combatant {pk}"
    token = _token(html, pk)
    found = re.search(r'data-testid="glance" data-detail="(\w+)" data-level="(\w+)"', row)
    marks_on_token = set(re.findall(r'data-testid="map-mark" data-key="([\w-]+)"', token or ""))
    if found is None:
        assert not marks_on_token, "the token shows what the row does not"
        return None
    detail, level = found.groups()
    meters = set(re.findall(r'data-testid="meter" data-key="(\w+)"', row))
    marks = set(re.findall(r'data-testid="mark" data-key="(\w+)"', row))
    if token is not None:
        if detail == "described":
            assert marks_on_token == {f"level-{level}"}
        else:
            assert marks_on_token <= marks
    return {"detail": detail, "level": level, "meters": meters, "marks": marks}


def from_api(data: dict, pk: int) -> dict | None:
    [c] = [c for c in data["combatants"] if c["id"] == pk]
    state = c["state"]
    if state is None:
        return None
    return {"detail": state["detail"], "level": state["level"],
            "meters": {m["key"] for m in state["meters"]},
            "marks": {m["key"] for m in state["marks"]}}


def read(client, surface: str, encounter_id: int, pk: int, page: str = "play") -> dict | None:
    """What ``client``'s user reads of combatant ``pk`` on ``surface``."""
    url = f"/encounters/{encounter_id}/" + ("control/" if page == "control" else "")
    if surface == "api":
        response = client.get(f"/api/encounters/{encounter_id}/")
        assert response.status_code == 200
        return from_api(response.json(), pk)
    extra = {"HTTP_HX_REQUEST": "true"} if surface == "fragment" else {}
    response = client.get(url, **extra)
    assert response.status_code == 200
    return from_html(response.content.decode(), pk)


def ids_in(client, surface: str, encounter_id: int) -> set[int]:
    """Every combatant id the surface names at all (rows, tokens, the API's list)."""
    if surface == "api":
        return {c["id"] for c in client.get(f"/api/encounters/{encounter_id}/").json()
                ["combatants"]}
    extra = {"HTTP_HX_REQUEST": "true"} if surface == "fragment" else {}
    html = client.get(f"/encounters/{encounter_id}/", **extra).content.decode()
    return ({int(i) for i in re.findall(r'id="enc-row-(\d+)"', html)}
            | {int(i) for i in re.findall(r'id="map-token-(\d+)"', html)})
