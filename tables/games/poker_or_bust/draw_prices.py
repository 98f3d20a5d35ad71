"""Poker or Bust's recorded draws and stands priced from the whole-game solve: each decision's
two actions' values read, not computed.

A six-deck draw takes seconds to minutes to price on its own (:func:`.exact.decision_evs`), and
a draw at a low total is beyond it; the whole-game solve (:mod:`.player_levels`) meets every hand
anyway. So the long solve (``price_rulesets --long``) keeps the hands of up to :data:`KEEP` cards
with both actions' values (:class:`DrawPrices`, stored per ruleset settings by
``audit.decisions``), and a round's pricing reads them: a few microseconds a decision.

A seat's decisions are read from its cards in the order dealt: with k cards (three to the last
but one) the player drew, with all of them he stood, unless he is over 31 (no decision left).
Each is priced per unit of the Ante (the round's expected net, Ante + Odds, the two being equal),
the draw under optimal play after it, both given the player's cards and the dealer's upcard only.
Not priced, with the reason: a decision on more than :data:`KEEP` cards, a seat whose Ante and
Odds differ (the values assume equal wagers). Where no solve is stored for the settings
(:func:`use_source`) the round has nothing to price (:data:`NOT_STORED` says why).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from itertools import permutations
from math import isnan
from typing import Any

from ..vocabulary.cards import BJ_POINTS
from ..vocabulary.prices import Decision, RoundPrices
from .game import BUST_ABOVE
from .player_levels import KEY_CARDS, hand_key, stands

DRAW = "draw"
STAND = "stand"
#: The most cards of a hand whose decision is kept: 3 to 5 cards are about 0.37 million hands an
#: upcard at six decks (a sixth card would be 1.3 million more), and few decisions come later.
KEEP = 5
#: Bumped when what a stored table means changes: the tables of another format are not read.
FORMAT = 2
#: A bound kept as a C float is rounded up by this factor first (a float keeps 24 bits): never
#: below the solve's.
_BOUND_UP = 1.0 + 1e-6


def settings_key(decks: int, paytable: Mapping[str, Decimal]) -> str:
    """What a stored table is found by: the settings the game's math depends on (the shoe and
    the Odds table; not the rounding of pays), and :data:`FORMAT`."""
    text = json.dumps({"format": FORMAT, "decks": decks, "odds": {k: str(v) for k, v in sorted(paytable.items())}},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class UpcardPrices:
    """The kept hands of one upcard's solve, by key (:func:`.player_levels.hand_key`), sorted,
    with both actions' values and the bound of each hand's (``error``: the largest)."""

    def __init__(self, upcard: int, keys: Sequence[int], stand: Sequence[float], draw: Sequence[float],
                 bound: Sequence[float], perms: Sequence[Sequence[int]] = ()) -> None:
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.upcard = upcard
        self.keys = array("Q", [keys[i] for i in order])
        self.stand = array("d", [stand[i] for i in order])
        self.draw = array("d", [draw[i] for i in order])
        self.bound = array("f", [bound[i] * _BOUND_UP for i in order])
        self.error = max(self.bound, default=0.0)
        # the suit maps a hand is tried under: the identity and the solve's relabellings
        self.perms = [tuple(range(4)), *(tuple(p) for p in perms)]

    def __len__(self) -> int:
        return len(self.keys)

    def find(self, cards: Sequence[int], maps: Sequence[Sequence[int]]) -> int:
        """The row of the first relabelling of ``cards`` under ``maps`` that is kept, or -1."""
        keys = self.keys
        for m in maps:
            key = hand_key([(c & ~3) | m[c & 3] for c in cards])
            i = bisect_left(keys, key)
            if i < len(keys) and keys[i] == key:
                return i
        return -1

    def to_bytes(self) -> bytes:
        head = json.dumps({"upcard": self.upcard, "perms": self.perms[1:], "size": len(self.keys)}).encode()
        return zlib.compress(len(head).to_bytes(4, "big") + head + self.keys.tobytes() + self.stand.tobytes()
                             + self.draw.tobytes() + self.bound.tobytes(), 6)

    @classmethod
    def from_bytes(cls, data: bytes) -> UpcardPrices:
        raw = zlib.decompress(data)
        size = int.from_bytes(raw[:4], "big")
        head = json.loads(raw[4:4 + size])
        n = head["size"]
        body = memoryview(raw)[4 + size:]
        out = cls.__new__(cls)
        out.upcard = head["upcard"]
        out.perms = [tuple(range(4)), *(tuple(p) for p in head["perms"])]
        out.keys, out.stand, out.draw, out.bound = array("Q"), array("d"), array("d"), array("f")
        out.keys.frombytes(body[:8 * n])
        out.stand.frombytes(body[8 * n:16 * n])
        out.draw.frombytes(body[16 * n:24 * n])
        out.bound.frombytes(body[24 * n:28 * n])
        out.error = max(out.bound, default=0.0)
        return out


class DrawPrices:
    """Every upcard's kept hands of one ruleset's solve (``by_upcard``: the solve's upcards;
    with a whole shoe one per rank, suit 0, any suit read through it by relabelling)."""

    def __init__(self, by_upcard: Mapping[int, UpcardPrices], *, whole_shoe: bool) -> None:
        self.by_upcard = dict(by_upcard)
        self.whole_shoe = whole_shoe
        self._memo: dict[tuple, tuple[dict[str, float], float] | None] = {}

    def values(self, cards: Sequence[int], upcard: int) -> tuple[dict[str, float], float] | None:
        """``({"draw": ev, "stand": ev}, bound)`` per unit of the Ante for the player holding
        ``cards`` against ``upcard`` (``draw`` absent where the shoe has no card left), or None
        when the hand is not kept. A floor deals the same few thousand starts all day: each
        (hand, upcard) is looked up once per process (up to :data:`MEMO` of them)."""
        memo_key = (*sorted(cards), -1, upcard)
        got = self._memo.get(memo_key, _MISSING)
        if got is _MISSING:
            got = self._look_up(cards, upcard)
            if len(self._memo) >= MEMO:
                self._memo.clear()
            self._memo[memo_key] = got
        return got

    def _look_up(self, cards: Sequence[int], upcard: int) -> tuple[dict[str, float], float] | None:
        if len(cards) > KEY_CARDS:
            return None
        if self.whole_shoe:
            table = self.by_upcard.get(upcard & ~3)
            if table is None:
                return None
            # every suit map that takes the upcard's suit to the solve's upcard's (suit 0)
            s = upcard & 3
            maps = [m for m in _SUIT_MAPS if m[s] == table.upcard & 3]
        else:
            table = self.by_upcard.get(upcard)
            if table is None:
                return None
            maps = table.perms
        i = table.find(cards, maps)
        if i < 0:
            return None
        out = {STAND: table.stand[i]}
        if not isnan(table.draw[i]):
            out[DRAW] = table.draw[i]
        return out, table.bound[i]


_SUIT_MAPS = [tuple(p) for p in permutations(range(4))]
_MISSING = object()
#: Lookups a process remembers (a few hundred bytes each) before it starts again.
MEMO = 200_000


def _none(rules: Any) -> DrawPrices | None:
    return None


#: Where the stored tables of a ruleset are read (``rules`` -> DrawPrices or None):
#: ``audit.decisions`` names the database (:func:`use_source`); none elsewhere.
_source: Callable[[Any], DrawPrices | None] = _none


def use_source(source: Callable[[Any], DrawPrices | None]) -> None:
    global _source
    _source = source


def stored(rules: Any) -> DrawPrices | None:
    """The stored tables of ``rules``, where the source has them."""
    return _source(rules)


#: In the desk's words (the round page): IT runs the solve (docs/operations/deploy.md).
NOT_STORED = ("the whole-game solve of this table's rules has not been run yet; the casino's IT runs it "
              "once per set of rules (about an hour of computing), and the rounds are then priced")
TOO_LONG = f"a hand of more than {KEEP} cards: the stored solve keeps the decisions up to {KEEP} cards"
UNEQUAL = "the Ante and Odds differ: the values assume the equal wagers the game requires"
NOT_REACHED = "not a hand the stored solve reaches (the audit flags the cards)"


def best_of(values: Mapping[str, float]) -> str:
    """The better action, ties to standing (:func:`.player_levels.stands`)."""
    if DRAW not in values:
        return STAND
    return STAND if stands(values[STAND], values[DRAW]) else DRAW


def round_prices(round_: Any, rules: Any) -> RoundPrices:
    """Every draw and stand of every seat of a parsed Poker or Bust round, priced from the
    stored solve of ``rules`` (:func:`use_source`)."""
    upcard = round_.dealer_cards[0]
    book = _source(rules)
    if book is None:  # the round's reason, not a decision's (:data:`NOT_STORED`): nothing to store
        return RoundPrices((), (), (), tuple(round_.dealer_cards))
    decisions: list[Decision] = []
    unpriced: list[tuple[int, int, str, str]] = []
    handles: list[tuple[int, Decimal]] = []
    for seat in round_.seats:
        if seat.ante is None or seat.ante <= 0:
            continue
        cards = seat.cards
        steps = [(k, DRAW) for k in range(3, len(cards))]
        if sum(BJ_POINTS[c] for c in cards) <= BUST_ABOVE:
            steps.append((len(cards), STAND))
        priced = 0
        for k, action in steps:
            why = None
            got = None
            if seat.odds != seat.ante:
                why = UNEQUAL
            elif k > KEEP:
                why = TOO_LONG
            else:
                got = book.values(cards[:k], upcard)
                if got is None or action not in got[0]:
                    why = NOT_REACHED
            if why is not None:
                unpriced.append((seat.seat, 0, action, why))
                continue
            values = got[0]
            best = best_of(values)
            decisions.append(Decision(seat.seat, 0, tuple(cards[:k]), action, dict(values), best,
                                      max(0.0, values[best] - values[action]), seat.ante))
            priced += 1
        handles.append((seat.seat, seat.ante + seat.odds if priced else Decimal(0)))
    return RoundPrices(tuple(decisions), tuple(unpriced), tuple(handles), tuple(round_.dealer_cards))
