"""Read-only queries for character pages and the API. Each runs a fixed number of queries."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import UTC
from decimal import Decimal
from collections.abc import Sequence


from campaigns.models import ActionRecord
from characters.models import Character
from characters.selectors import character_sheet
from ew1.actors import require_eternal_war
from ew1.daily_pa import pa_spent_today
from ew1.equipment import loadout_of
from ew1.models import ItemInstance
from ew1.readiness import cannot_act, pa_shortfall, refusal
from ew1.regeneration import sheet_refresh
from ew1.bonus import are_allies, combat_bonus
from gamerules.errors import RuleError
from gamerules.ew1 import errors
from gamerules.ew1.attacks import Combatant, Modifier, attack_modifiers
from gamerules.ew1.movement import MoveArea, blocked_cells, paths_from, plan_move
from gamerules.ew1.presence import own_characters_malus
from gamerules.ew1.progression import LevelProgress
from gamerules.geometry import chebyshev
from gamerules.regeneration import Accrual

logger = logging.getLogger(__name__)


def cell_problems(*, campaign_id: int | None, board, x: int | None, y: int | None,
                  character_id: int | None = None) -> dict[str, RuleError]:
    """Why a piece cannot stand at (``x``, ``y``) of ``board`` (None: off the board), by field
    ("board", "x", "y"): the campaign's own board, both coordinates or neither, a cell on the
    board (OffBoard) and free of any other piece than ``character_id`` (CellOccupied), as a
    move checks them (combat.services.action_move). One query when the cell is on the board."""
    if board is None:
        off = x is not None or y is not None
        return {"board": errors.ActionRefused("cell_without_board")} if off else {}
    if campaign_id is not None and board.campaign_id != campaign_id:
        return {"board": errors.ActionRefused("not_campaign_board")}
    if x is None or y is None:
        return {"x" if x is None else "y": errors.ActionRefused("cell_needed")}
    if not board.contains(x, y):
        return {"x": errors.OffBoard()}
    if Character.objects.filter(board=board, x=x, y=y).exclude(pk=character_id).exists():
        return {"x": errors.CellOccupied()}
    return {}


@dataclass(frozen=True)
class SheetView:
    character: Character
    progress: LevelProgress
    pa: Accrual
    pv: Accrual
    log: list[ActionRecord]
    now: datetime
    items: Sequence[ItemInstance] = ()  # with template, equipped first

    @property
    def loadout(self):
        return loadout_of(self.items)

    @property
    def reincarnation_wait(self) -> timedelta | None:
        """Time left before a suicided character may come back, or None."""
        until = self.character.ew1.reincarnation_blocked_until
        return until - self.now if until and until > self.now else None

    @property
    def daily_pa_cap(self) -> int:
        """The campaign's ``daily_pa_cap`` (0: no cap)."""
        return self.character.campaign.parameters.daily_pa_cap

    @property
    def pa_spent_today(self) -> Decimal:
        """PA spent on the campaign's game day of ``now`` (no query)."""
        return pa_spent_today(self.character.ew1, params=self.character.campaign.parameters,
                              now=self.now)

    @property
    def life_state(self) -> str:
        """What the PV gauge means, in one word: "active" (on the board above 0 PV), "down" (at
        0 PV: may be healed, cannot act), "dead" (disincarnated below 0 PV, by damage) or
        "disincarnated" (off the board otherwise: a suicide). Seed 000, "Distribution des
        dégâts reçue"."""
        pv = self.character.ew1.pv
        if not self.character.on_board:
            return "dead" if pv < 0 else "disincarnated"
        return "down" if pv <= 0 else "active"

    @property
    def pa_next_at(self) -> datetime | None:
        if self.pa.next_at is None:
            return None
        return datetime.fromtimestamp(self.pa.next_at, tz=UTC)


@dataclass(frozen=True)
class Cell:
    """A cell in view. For a free cell, the walk there as the move would take it
    (``gamerules.ew1.movement``): ``path`` the cells stepped on ("x,y x,y ...", the cell last;
    "" when none), ``cost`` in PA (None when there is no path) and ``refusal``, why the move
    there would be refused now (None: it would go)."""

    x: int
    y: int
    piece: Character | None
    distance: int
    path: str = ""
    steps: int = 0
    cost: Decimal | None = None
    refusal: RuleError | None = None


@dataclass(frozen=True)
class BoardView:
    sheet: SheetView
    rows: list[list[Cell]]
    radius: int
    in_view: list[Character]  # others, nearest first
    adjacent_ids: frozenset[int] = frozenset()
    attacks: dict[int, list[str]] | None = None  # target id -> attack kinds possible from here
    # The move pad: rows of (dx, dy, name, arrow, refusal or None), None in the centre.
    pad: tuple = ()
    game_refusal: RuleError | None = None  # why "Play a game" would be refused now
    # (x, y) of a character placed outside its board (saved around the admin's checks, or left
    # there when the board shrank): nothing is drawn, the page says so, the admin tells the GM.
    outside: tuple | None = None


# The move pad's directions: rows of (dx, dy, name, arrow), None in the centre.
PAD = (
    ((-1, -1, "nw", "↖"), (0, -1, "n", "↑"), (1, -1, "ne", "↗")),
    ((-1, 0, "w", "←"), None, (1, 0, "e", "→")),
    ((-1, 1, "sw", "↙"), (0, 1, "s", "↓"), (1, 1, "se", "↘")),
)


def move_pad(character: Character, at: dict, params) -> tuple:
    """The pad with why each step would be refused now (the order ``action_move`` checks: state,
    off the board, occupied, PA), or None. ``at`` maps (x, y) to the pieces in view. No query."""
    state = cannot_act(character, character.ew1)
    board = character.board

    def why(dx, dy):
        x, y = character.x + dx, character.y + dy
        if state:
            return state
        if board is None or not board.contains(x, y):
            return errors.OffBoard()
        if (x, y) in at:
            return errors.CellOccupied()
        return pa_shortfall(character.ew1, params.move_cost_pa)

    return tuple(tuple(d and (*d, why(d[0], d[1])) for d in row) for row in PAD)


# What the board, its menus, its panels (magic's spells) and the API read of a piece in view:
# the rest of the rows (the other sheets' characteristics and skills, the statistics, the
# timestamps but the first action's) is not loaded; a board of 200 pieces in view built 400
# model instances of every column, a good part of its cost (issue 21, item 9). A field read
# beyond these would cost a query per piece: tests/pages/test_query_counts.py pins the page's.
PIECE_FIELDS = ("campaign", "kind", "owner", "name", "board", "x", "y", "first_action_at",
                "ew1__level", "ew1__pa", "ew1__pa_max", "ew1__pa_anchor", "ew1__pv",
                "ew1__pv_max", "ew1__pv_anchor")


def board_view(*, user, character_id: int, now: datetime | None = None) -> BoardView:
    """The cells within the campaign's view radius around the character, and who stands there.
    Pieces come in one query whatever their number; those outside the board are never in view.
    A character itself outside its board sees nothing (``outside``: its cell; logged). Raises
    what ``character_sheet`` raises (NotFound for a character the user may not see), then
    NotEternalWar ("not_ew1") for a character of another rule system: the board is Eternal War
    One II's, and only who may see the character learns its system."""
    view = character_sheet(user=user, character_id=character_id, now=now)
    character = view.character
    require_eternal_war(character.campaign)
    board = character.board if character.on_board else None
    if board is None:
        return BoardView(view, [], 0, [])
    if character.x is None or character.y is None or not board.contains(character.x, character.y):
        logger.warning("character %s stands outside board %s at (%s, %s): left out of the board",
                       character.pk, board.pk, character.x, character.y)
        return BoardView(view, [], 0, [], outside=(character.x, character.y))
    radius = character.campaign.parameters.view_radius
    here = cx, cy = character.cell
    x0, x1 = max(0, cx - radius), min(board.width - 1, cx + radius)
    y0, y1 = max(0, cy - radius), min(board.height - 1, cy + radius)
    # A piece without a sheet (saved around the admin) is not shown rather than break the board.
    pieces = list(Character.objects.filter(board=board, x__range=(x0, x1), y__range=(y0, y1),
                                           ew1__isnull=False)
                  .select_related("ew1").only(*PIECE_FIELDS).annotate_faction())
    character.faction_id_cached = next(
        (p.faction_id_cached for p in pieces if p.pk == character.pk), None)
    params = character.campaign.parameters
    for piece in pieces:  # what each piece has now, in memory (nothing is written)
        if piece.pk != character.pk:
            sheet_refresh(piece.ew1, params=params, now=view.now)
    at = {p.cell: p for p in pieces}
    rows = _cells(character, at, params, window=(x0, y0, x1, y1))
    others = sorted((p for p in pieces if p.pk != character.pk),
                    key=lambda p: (chebyshev(p.cell, here), p.name))
    adjacent = frozenset(p.pk for p in others
                         if chebyshev(p.cell, here) == 1)
    options = attack_options(character, others, view.loadout, params)
    for piece in pieces:
        token_look(piece, character)
    return BoardView(view, rows, radius, others, adjacent, options,
                     move_pad(character, at, params),
                     refusal(character, character.ew1, params.game_cost_pa))


GAUGE_UNITS = 28  # the token's PV bar at full PV, in the token's SVG units


def initials(name: str) -> str:
    """A token's letters: the first of the first two words, or the first two of one word."""
    words = name.split()
    letters = "".join(w[0] for w in words[:2]) if len(words) > 1 else name[:2]
    return letters.upper() if len(words) > 1 else letters


def token_look(piece: Character, viewer: Character) -> None:
    """How ``viewer``'s board draws ``piece`` (set on it, no query): ``token_side`` ("me",
    "mine": the same owner, "ally": the viewer's faction, "foe": another player's character,
    "creature", "thing": a door or an object), ``token_initials`` and ``token_gauge``, the PV
    bar's width (0..GAUGE_UNITS) for the viewer's own pieces and its allies, None for the
    others. Call after ``attack_options`` (which sets ``is_ally``)."""
    if piece.pk == viewer.pk:
        side = "me"
    elif viewer.owner_id is not None and piece.owner_id == viewer.owner_id:
        side = "mine"
    elif getattr(piece, "is_ally", False):
        side = "ally"
    elif piece.is_player:
        side = "foe"
    else:
        side = "creature" if piece.kind == Character.Kind.CREATURE else "thing"
    piece.token_side = side
    piece.token_initials = initials(piece.name)
    sheet = piece.ew1
    shown = side in ("me", "mine", "ally") and sheet.pv_max > 0
    piece.token_gauge = (max(0, min(GAUGE_UNITS, round(GAUGE_UNITS * sheet.pv / sheet.pv_max)))
                         if shown else None)


def _cells(character: Character, at: dict, params, *, window: tuple[int, int, int, int]
           ) -> list[list[Cell]]:
    """The rows of cells in ``window``, each free one with its walk and its refusal (the order
    ``action_move_to`` checks: state, the walk, PA). One breadth-first search over the window
    (``paths_from``), no query."""
    board, here = character.board, character.cell
    assert board is not None  # board_view draws the cells of a character on its board only
    area = MoveArea(width=board.width, height=board.height, window=window,
                    blocked=blocked_cells(at, mover=here))
    paths = paths_from(here, area)
    state = cannot_act(character, character.ew1)
    x0, y0, x1, y1 = window

    def cell(x: int, y: int) -> Cell:
        piece, distance = at.get((x, y)), chebyshev((x, y), here)
        if piece is not None:
            return Cell(x, y, piece, distance)
        try:
            plan = plan_move(here, (x, y), area, cost_per_cell=params.move_cost_pa,
                             xp_per_cell=params.move_xp, paths=paths)
        except RuleError as exc:
            return Cell(x, y, None, distance, refusal=state or exc)
        path = " ".join(f"{px},{py}" for px, py in plan.path)
        return Cell(x, y, None, distance, path, plan.steps, plan.cost,
                    state or pa_shortfall(character.ew1, plan.cost))

    return [[cell(x, y) for x in range(x0, x1 + 1)] for y in range(y0, y1 + 1)]


def attack_options(character: Character, others: list[Character], loadout,
                   params) -> dict[int, list[str]]:
    """Which attacks ``character`` can make on each of ``others`` from where it stands (the
    services check again): brawl and melee adjacent, ranged within the equipped weapon's range,
    throw within ``throw_range_cells``. Protected characters get none. Each piece also gets
    ``attack_kinds``: (kind, PA cost, chance to hit in %, refusal or None) with the same modifiers
    the attack will use (items, own characters in view, faction bonus), the refusal being the
    state or PA error the service would raise now; ``is_ally`` (a member of the character's
    faction) and ``friendly_fire_refused`` (an ally while the campaign's ``friendly_fire`` is
    off: no attack listed for it, its buttons disabled). No query."""
    pieces = [character, *others]
    here = character.cell
    own = [chebyshev(p.cell, here) for p in others
           if character.owner_id and p.owner_id == character.owner_id and p.is_player]
    extra = []
    malus = own_characters_malus(own, reach=params.own_characters_reach)
    if malus:
        extra.append(Modifier("own characters in view", -malus))
    bonus = combat_bonus(character, pieces, params)
    if bonus.attack:
        extra.append(Modifier(f"faction ({bonus.allies} allies)", bonus.attack))
    sheet = character.ew1
    attacker = Combatant(characteristics=sheet.characteristics, skills=sheet.skills,
                         level=sheet.level, modifiers=loadout.modifiers)
    options: dict[int, list[str]] = {}
    for p in others:
        # Allies are marked; with friendly fire off their buttons show, disabled, with the
        # reason, and the API lists no attack on them (docs/rules, "Friendly fire").
        p.is_ally = are_allies(character, p)
        p.friendly_fire_refused = p.is_ally and not params.friendly_fire
        if p.ew1.is_protected:
            options[p.pk], p.attack_kinds = [], []
            continue
        d = chebyshev(p.cell, here)
        kinds = []
        if d == 1:
            kinds.append("brawl")
            if loadout.melee:
                kinds.append("melee")
        if loadout.ranged and d <= loadout.ranged.range_cells:
            kinds.append("ranged")
        if d <= params.throw_range_cells:
            kinds.append("throw")
        options[p.pk] = [] if p.friendly_fire_refused else kinds
        p.attack_kinds = []
        for kind in kinds:
            weapon = {"melee": loadout.melee, "ranged": loadout.ranged}.get(kind)
            score, _ = attack_modifiers(kind, attacker, weapon=weapon, distance=d,
                                        extra=tuple(extra))
            cost = getattr(params, f"{kind}_cost_pa")
            p.attack_kinds.append((kind, cost, max(0, min(100, score)),
                                   refusal(character, sheet, cost)))
    return options
