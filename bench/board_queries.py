"""SQL queries of the board page, with few and with many characters in view.

One campaign, one owner's character in the middle of the board; the others stand nearest
first, so that a small view radius shows the first few and a larger one shows them all. The
owner's journal holds a move and a brawl (with their rolls), as in play.
"""

from __future__ import annotations

import random

from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from gamerules.geometry import chebyshev


def _cells_by_distance(cx: int, cy: int, radius: int):
    cells = [(x, y) for x in range(cx - radius, cx + radius + 1)
             for y in range(cy - radius, cy + radius + 1) if (x, y) != (cx, cy)]
    return sorted(cells, key=lambda c: (chebyshev(c, (cx, cy)), c[1], c[0]))


def _radius_showing(n: int) -> int:
    """The smallest view radius whose square holds ``n`` others."""
    r = 1
    while (2 * r + 1) ** 2 - 1 < n:
        r += 1
    return r


def build(*, sizes: tuple[int, ...]):
    """The campaign and its pieces. Returns (owner, character id, campaign, {size: radius})."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Board, Campaign, RuleSystem
    from characters.models import Character
    from combat.services import action_brawl, action_move
    from characters.services import character_create

    biggest = max(sizes)
    radii: dict[int, int] = {}
    for n in sorted(sizes):  # each radius larger than the previous one
        radii[n] = max(_radius_showing(n + 1), max(radii.values(), default=0) + 1)
    reach = max(radii.values())
    side = 2 * reach + 3
    centre = side // 2
    rng = random.Random(7)
    users = get_user_model().objects
    with transaction.atomic():
        campaign = Campaign.objects.create(name="Bench: board", rule_system=RuleSystem.ETERNAL_WAR)
        board = Board.objects.create(campaign=campaign, width=side, height=side)
        owner = users.create_user("bench-owner", "owner@example.invalid", "bench-password-42")
        others_owners = [users.create_user(f"bench-{i}", f"b{i}@example.invalid", "x")
                         for i in range(20)]
        me = character_create(user=owner, campaign=campaign, name="Bench hero", rng=rng)
        Character.objects.filter(pk=me.pk).update(board=None, x=None, y=None)
        Character.objects.filter(pk=me.pk).update(board=board, x=centre - 1, y=centre)

        # Cells for the others: the first ``n`` of each size within its radius but outside the
        # previous one, so that each radius shows exactly its size. The owner starts west of
        # the centre and moves in below.
        cells: list[tuple[int, int]] = []
        taken = {(centre, centre), (centre - 1, centre)}
        inner = 0
        for n in sorted(sizes):
            ring = [c for c in _cells_by_distance(centre, centre, radii[n])
                    if c not in taken and chebyshev(c, (centre, centre)) > inner]
            if len(ring) < n - len(cells):
                raise SystemExit(f"no room for {n} characters within radius {radii[n]}")
            cells += ring[:n - len(cells)]
            inner = radii[n]
        # The others come from the real service, then stand on their cells.
        others = [character_create(user=others_owners[i % len(others_owners)],
                                   campaign=campaign, name=f"p{i:04d}", rng=rng)
                  for i in range(biggest)]
        Character.objects.filter(pk__in=[o.pk for o in others]).update(board=None, x=None,
                                                                        y=None)
        for other, (x, y) in zip(others, cells):
            Character.objects.filter(pk=other.pk).update(board=board, x=x, y=y,
                                                         first_action_at=me.created_at)
    # A move into the centre, then a brawl on a neighbour: the journal as in play.
    action_move(user=owner, character_id=me.pk, dx=1, dy=0)
    neighbour = Character.objects.filter(board=board, x=centre + 1, y=centre).first()
    if neighbour is not None:
        action_brawl(user=owner, character_id=me.pk, target_id=neighbour.pk,
                     rng=random.Random(3))
    return owner, me.pk, campaign, radii


def count_queries(client: Client, url: str) -> tuple[int, list[str], int]:
    """Queries of one GET of ``url``; also the SQL and the number of characters in view."""
    client.get(url)  # warm-up: the first request of a process loads content types and such
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"GET {url} answered {response.status_code}")
    in_view = len(response.context["board"].in_view)
    return len(ctx.captured_queries), [q["sql"] for q in ctx.captured_queries], in_view


def run(*, sizes: tuple[int, ...], out) -> bool:
    """Print the query counts; return False when they differ."""
    from campaigns.models import Campaign

    owner, character_id, campaign, radii = build(sizes=sizes)
    client = Client()
    client.force_login(owner)
    url = f"/characters/{character_id}/board/"
    counts = {}
    for n in sizes:
        Campaign.objects.filter(pk=campaign.pk).update(
            rule_parameters={"view_radius": radii[n]})
        count, sql, in_view = count_queries(client, url)
        if in_view != n:
            raise SystemExit(f"expected {n} characters in view, the page shows {in_view}")
        counts[n] = (count, sql)
        print(f"  GET {url} with {n:>3} characters in view (view_radius {radii[n]}):"
              f" {count} queries", file=out)
    values = [c for c, _ in counts.values()]
    equal = len(set(values)) == 1
    print(f"  equal: {'yes' if equal else 'NO'}", file=out)
    if not equal:
        n1, (_, sql1) = list(counts.items())[-1]
        print(f"  queries with {n1} characters in view:", file=out)
        for q in sql1:
            print(f"    {q[:160]}", file=out)
    return equal
