"""The encounter's map (issue 21, items 1 and 2): the combatants a viewer sees, drawn from
their positions in metres (``Combatant.x``/``y``) on a square grid with a scale, whatever the
rule system. Plain Python: the selector (``EncounterView.ground``) hands it the combatants the
viewer may see (encounters.visibility already left the hidden ones out for a player), the
template draws it (templates/encounters/parts/_ground.html), static/js/encounter-map.js reads
the frame back from the SVG's data attributes to turn a pointer into metres.

The frame: the smallest box holding every placed combatant and the current combatant's
farthest move (``reach_m`` around it, so the player can click anywhere it may go), at least
``MIN_M`` metres across, with a margin of ``PAD_SHARE`` of its side (at least ``MIN_PAD_M``);
widened so that it is never taller than ``MAX_RATIO`` times its width. With a background
(``Backdrop``: its size on the ground, its lower left corner at (0, 0) m), the box holds the
picture's whole extent too, whoever views it, and the move's circles no longer widen it: the
frame does not change while the tokens move over the picture, and a token stands over the same
spot of it on the GM's map and on a player's. ``WIDTH_PX`` SVG
units across: metres to units by one ``scale``, north up (``y`` grows upwards in metres,
downwards in the SVG). The grid's cell is the smallest of ``CELLS_M`` that gives at most
``MAX_CELLS`` cells across; its lines stand on multiples of the cell (the origin on a line).

Worked example (tests/encounters/test_ground.py): two combatants at (0, 0) and (10, 0) m,
nobody's move: 10 m across (``MIN_M`` high), a margin of 1 m (8 % of 10 m is under
``MIN_PAD_M``): 12 m by 12 m from (-1, 6) at the top left, 40 units a metre; (0, 0) is drawn
at (40, 240) and (10, 0) at (440, 240); 12 cells of 1 m.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

WIDTH_PX = 480  # SVG units across (the CSS scales the drawing to the column's width)
# The drawing's own size in CSS pixels, units times this: the largest it is drawn, the page's
# CSS shrinking it (proportions kept) to the column's width and the screen's height.
DISPLAY_ZOOM = 2.5
MIN_M = 10.0  # metres across and high, at least
PAD_SHARE, MIN_PAD_M = 0.08, 1.0  # the margin around what is drawn
MAX_RATIO = 1.25  # height / width, at most
CELLS_M = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
MAX_CELLS = 16
TOKEN_R = 14  # a token's radius in SVG units (the margin keeps one on the edge whole)
MAX_TOKEN_ICONS = 3  # conditions drawn beside a token (the tooltip and the legend say them all)

PARTY, ENEMY = "party", "enemy"


@dataclass(frozen=True)
class Frame:
    """Metres to SVG units: ``u = (x - left) * scale``, ``v = (top - y) * scale``; the drawing
    is ``width`` by ``height`` units, ``cell_m`` metres a grid cell."""

    left: float
    top: float
    width_m: float
    height_m: float
    scale: float
    cell_m: int

    @property
    def width(self) -> int:
        return round(self.width_m * self.scale)

    @property
    def height(self) -> int:
        return round(self.height_m * self.scale)

    @property
    def cell_px(self) -> float:
        return round(self.cell_m * self.scale, 2)

    def to_svg(self, x: float, y: float) -> tuple[float, float]:
        """The SVG point of (``x``, ``y``) metres, to a hundredth of a unit."""
        return round((x - self.left) * self.scale, 2), round((self.top - y) * self.scale, 2)

    def lines(self) -> tuple[list[float], list[float]]:
        """(the vertical grid lines' u, the horizontal ones' v): every multiple of the cell
        inside the frame."""
        c = self.cell_m
        xs = range(math.ceil(self.left / c), math.floor((self.left + self.width_m) / c) + 1)
        ys = range(math.ceil((self.top - self.height_m) / c), math.floor(self.top / c) + 1)
        return ([self.to_svg(k * c, 0)[0] for k in xs], [self.to_svg(0, k * c)[1] for k in ys])


def frame(points: Iterable[tuple[float, float]], circles: Iterable[tuple[float, float, float]]
          = (), boxes: Iterable[tuple[float, float, float, float]] = ()) -> Frame | None:
    """The frame holding ``points`` ((x, y) metres), ``circles`` ((x, y, radius) metres) and
    ``boxes`` ((left, bottom, right, top) metres: the background); None with none of them."""
    boxes = [(x, y, x, y) for x, y in points] + [(x - r, y - r, x + r, y + r)
                                                 for x, y, r in circles] + list(boxes)
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    w, h = max(x1 - x0, MIN_M), max(y1 - y0, MIN_M)
    pad = max(MIN_PAD_M, PAD_SHARE * max(w, h))
    w, h = w + 2 * pad, h + 2 * pad
    w = max(w, h / MAX_RATIO)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    cell = next((c for c in CELLS_M if w / c <= MAX_CELLS), CELLS_M[-1])
    return Frame(left=cx - w / 2, top=cy + h / 2, width_m=w, height_m=h, scale=WIDTH_PX / w,
                 cell_m=cell)


_DIGITS = re.compile(r"\d+")


def initials(name: str) -> str:
    """What a token shows of ``name``: the first letters of its first and last words ("Ava
    Kim": "AK"), a trailing number kept whole ("Orc 2": "O2"); a one-word name's first two
    letters ("Bo": "Bo"). "?" for an empty name."""
    words = name.split()
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2]
    last = words[-1]
    tail = last if _DIGITS.fullmatch(last) else last[0].upper()
    return words[0][0].upper() + tail


@dataclass(frozen=True)
class Gauge:
    """A token's bar: ``value`` of ``maximum`` (both ints), ``label`` ("HP"); ``share`` the
    filled fraction, 0 to 1."""

    value: int
    maximum: int
    label: str = ""

    @property
    def share(self) -> float:
        if self.maximum <= 0:
            return 0.0
        return min(1.0, max(0.0, self.value / self.maximum))


@dataclass(frozen=True)
class Token:
    """One placed combatant as the viewer sees it. ``u``/``v`` its SVG centre, ``x``/``y`` its
    metres; ``side`` PARTY (a player character) or ENEMY (anyone else); ``effects`` the names
    of the effects it bears that the viewer sees; ``gauge`` only where the roster shows the
    viewer one."""

    pk: int
    name: str
    initials: str
    side: str
    x: float
    y: float
    u: float
    v: float
    current: bool = False
    hidden: bool = False
    defeated: bool = False
    mine: bool = False
    gauge: Gauge | None = None
    effects: tuple[str, ...] = ()
    glance: Any = None  # encounters.glance.Glance: the state this viewer reads, or None
    portrait: str = ""  # its character's portrait's address (drawn instead of the initials)
    character_id: int | None = None  # None: a GM's extra without a character (no portrait)

    @property
    def icons(self) -> list[tuple[float, Any]]:
        """The marks drawn on the token's right (exact: the conditions, at most
        ``MAX_TOKEN_ICONS``; described: the level's word), each with its SVG ``v`` offset."""
        g = self.glance
        if g is None:
            return []
        marks = list(g.marks[:MAX_TOKEN_ICONS]) if g.exact else [g]
        return [(round(-TOKEN_R + 13 * i, 2), m) for i, m in enumerate(marks)]

    @property
    def gauge_width(self) -> float:
        """The bar's filled width in SVG units (the bar is a token's diameter)."""
        return round(2 * TOKEN_R * self.gauge.share, 2) if self.gauge else 0.0


@dataclass(frozen=True)
class Backdrop:
    """The encounter's background picture: its address and its size on the ground, its lower
    left corner at (0, 0) m (x from its left edge, y from its bottom edge)."""

    url: str
    width_m: float
    height_m: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, self.width_m, self.height_m)


@dataclass(frozen=True)
class Placed:
    """Where the background is drawn in the SVG: its top left corner and its size, in units."""

    u: float
    v: float
    width: float
    height: float


@dataclass(frozen=True)
class Ground:
    """The map: its frame, its tokens (in the roster's order), the grid lines, ``reach`` the
    current combatant's move circles as (metres, radius in units, label), ``unplaced`` the
    names of the combatants in play without a position (listed beside the map)."""

    frame: Frame
    tokens: list[Token]
    unplaced: list[str] = field(default_factory=list)
    reach: list[tuple[float, float, str]] = field(default_factory=list)
    backdrop: Backdrop | None = None  # the encounter's background, drawn under the grid

    @property
    def background(self) -> Placed | None:
        """The background's place in the SVG (None without one)."""
        b = self.backdrop
        if b is None:
            return None
        u, v = self.frame.to_svg(0, b.height_m)
        s = self.frame.scale
        return Placed(u=u, v=v, width=round(b.width_m * s, 2), height=round(b.height_m * s, 2))

    @property
    def width(self) -> int:
        return self.frame.width

    @property
    def height(self) -> int:
        return self.frame.height

    @property
    def display_width(self) -> int:
        return round(self.frame.width * DISPLAY_ZOOM)

    @property
    def display_height(self) -> int:
        return round(self.frame.height * DISPLAY_ZOOM)

    @property
    def metres(self) -> float:
        return round(self.frame.width_m, 1)

    @property
    def current(self) -> Token | None:
        return next((t for t in self.tokens if t.current), None)

    @property
    def grid(self) -> tuple[list[float], list[float]]:
        return self.frame.lines()

    @property
    def scale_bar(self) -> dict[str, Any]:
        """The scale drawn in the bottom left corner: one cell long."""
        return {"u": 8, "v": self.height - 10, "length": self.frame.cell_px,
                "metres": self.frame.cell_m}


def build(combatants: Sequence[Any], *, current_id: int | None, mine: set[int],
          gauges: dict[int, Gauge] | None = None, effects: dict[int, list[str]] | None = None,
          reach: Sequence[tuple[float, str]] = (), glances: dict[int, Any] | None = None,
          backdrop: Backdrop | None = None) -> Ground | None:
    """The map of ``combatants`` (Combatants in play the viewer sees; removed ones are left
    out) or None when none is placed and there is no ``backdrop``. ``reach``: the current
    combatant's moves as (metres, label), drawn as circles around it, kept inside the frame
    without a backdrop (with one, the frame holds the picture whoever views it and however the
    tokens move over it: a circle past its edge is cut); ``gauges``, ``effects`` and
    ``glances`` (what the viewer reads of each state, encounters.glance) by combatant id."""
    shown = [c for c in combatants if not c.removed]
    placed = [(c, c.point.as_floats()) for c in shown if c.point is not None]
    current = next((p for c, p in placed if c.pk == current_id), None)
    far = max((m for m, _label in reach), default=0.0)
    f = frame([p for _c, p in placed],
              [(current[0], current[1], far)] if current is not None and far
              and backdrop is None else [],
              [backdrop.box] if backdrop is not None else [])
    if f is None:
        return None
    gauges, effects, glances = gauges or {}, effects or {}, glances or {}
    tokens = []
    for c, (x, y) in placed:
        u, v = f.to_svg(x, y)
        player = c.character is not None and c.character.is_player
        tokens.append(Token(pk=c.pk, name=c.name, initials=initials(c.name),
                            side=PARTY if player else ENEMY, x=x, y=y, u=u, v=v,
                            current=c.pk == current_id, hidden=c.hidden, defeated=c.defeated,
                            mine=c.pk in mine, gauge=gauges.get(c.pk),
                            effects=tuple(effects.get(c.pk, ())), glance=glances.get(c.pk),
                            portrait=portrait_of(c), character_id=c.character_id))
    circles = ([(m, round(m * f.scale, 2), label) for m, label in reach]
               if current is not None else [])
    return Ground(frame=f, tokens=tokens, unplaced=[c.name for c in shown if c.point is None],
                  reach=circles, backdrop=backdrop)


def portrait_of(combatant: Any) -> str:
    """The address of the combatant's character's portrait, "" without one."""
    picture = getattr(combatant.character, "portrait", None) if combatant.character else None
    return picture.url if picture else ""
