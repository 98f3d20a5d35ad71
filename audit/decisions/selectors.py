"""Reading the decisions' prices: a day's sums per player, per table and game, and what is still
queued. Money is summed exactly (Decimal) and rounded to the cent by the reader that shows it.

Definitions (README.md): a decision's **cost** is the best action's value less the taken one's,
times its stake; **decision theo** = theo + the decisions' cost (what the player's own play gave
the house beyond the edge); **play quality** = cost / priced handle, the handle being the initial
stakes the priced decisions serve (the 21 bet; Ante Up 21's ANTE with its fold decision).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum

from casino.lookups import AnyOf
from tables.games.vocabulary.cards import TEXT
from tables.models import Round

from .models import DecisionPending, SeatDecisions

ZERO = Decimal(0)


@dataclass(frozen=True)
class DecisionFigures:
    cost: Decimal = ZERO  # in money, to the hundredth of a cent
    handle: Decimal = ZERO  # the initial stakes the priced decisions serve
    seats: int = 0  # (round, seat) rows with a priced decision (a priced handle)


def _summed(rows, *keys: str):
    """``rows`` (seat rows) grouped by ``keys``, each group with its figures' sums."""
    # the count first: after it, ``handle`` names the sum
    return rows.order_by().values(*keys).annotate(seats=Count("id", filter=Q(handle__gt=0)), cost=Sum("cost"),
                                                  handle=Sum("handle"))


def _figures(row: dict) -> DecisionFigures:
    return DecisionFigures(row["cost"] or ZERO, row["handle"] or ZERO, row["seats"])


def player_days(casino_ids, gaming_days, players=None) -> dict[tuple[date, str], DecisionFigures]:
    """``{(gaming day, player): figures}`` of the players at ``casino_ids`` on ``gaming_days``."""
    rows = SeatDecisions.objects.filter(casino_id__in=list(casino_ids), gaming_day__in=list(gaming_days)).exclude(
        player="")
    if players is not None:
        rows = rows.filter(player__in=list(players))
    return {(r["gaming_day"], r["player"]): _figures(r) for r in _summed(rows, "gaming_day", "player")}


def player_sessions(casino_ids, gaming_days, players, sessions) -> dict[tuple, DecisionFigures]:
    """The priced decisions of rating sessions: ``sessions`` are (gaming day, player, table id,
    start, end) keys, and each gets the figures of that player's rows at that table that day whose
    round was recorded from start to end (a table's sessions never overlap, so each row counts in
    one). A key with nothing priced is absent."""
    wanted = defaultdict(list)
    for key in sessions:
        wanted[key[:3]].append(key)
    if not wanted:
        return {}
    # The rows carry no round time (no foreign key into the partitioned rounds): the round's own
    # partition gives it.
    recorded = Round.objects.filter(pk=OuterRef("round_id"), gaming_day=OuterRef("gaming_day")).values("recorded_at")
    rows = (SeatDecisions.objects.filter(casino_id__in=list(casino_ids), gaming_day__in=list(gaming_days),
                                         player__in=list(players), table_id__in={k[2] for k in wanted})
            .order_by().annotate(at=Subquery(recorded[:1]))
            .values_list("gaming_day", "player", "table_id", "at", "cost", "handle"))
    sums: dict[tuple, list] = {}
    for day, player, table_id, at, cost, handle in rows:
        for key in wanted.get((day, player, table_id), ()):
            if key[3] <= at <= key[4]:
                got = sums.setdefault(key, [ZERO, ZERO, 0])
                got[0] += cost
                got[1] += handle
                got[2] += 1 if handle > 0 else 0
                break
    return {key: DecisionFigures(*got) for key, got in sums.items()}


def table_games(casino_id: int, gaming_day: date, through_round: int | None = None
                ) -> dict[tuple[int, str], DecisionFigures]:
    """``{(table id, game): figures}`` of one casino's gaming day (players with or without an id), of
    the rounds up to ``through_round`` when given (a provisional report counts the rounds its run
    planned: a decision priced since, of a round recorded later, must not join a theo without it)."""
    rows = SeatDecisions.objects.filter(casino_id=casino_id, gaming_day=gaming_day)
    if through_round is not None:
        rows = rows.filter(round_id__lte=through_round)
    return {(r["table_id"], r["game"]): _figures(r) for r in _summed(rows, "table_id", "game")}


def slice_table_games(casino_id: int, gaming_day: date, first: int, last: int
                      ) -> dict[tuple[int, str], DecisionFigures]:
    """:func:`table_games` of the rounds with ids in ``[first, last]`` (a report's slice): read by
    the round key alone, the casino and the day kept here. A day's statistics lag the rows a
    re-audit has just written, and a planner that believed the day empty read its rows through
    the day's index and sorted two million of them on disk (1.8 s of a million-round report's
    combine, which each slice now does for its own 40,000 rows)."""
    rows = _summed(SeatDecisions.objects.filter(round_id__gte=first, round_id__lte=last),
                   "casino_id", "gaming_day", "table_id", "game")
    return {(r["table_id"], r["game"]): _figures(r) for r in rows
            if r["casino_id"] == casino_id and r["gaming_day"] == gaming_day}


def pending_rounds(casino_id: int, gaming_day: date, through_round: int | None = None, *,
                   first: int | None = None) -> int:
    """The casino's rounds of ``gaming_day`` (up to ``through_round``; from ``first``) queued and
    not priced yet: the figures will still move. The queue's entries first, then their rounds by
    key: the queue is short when the workers keep up, and a million-round day is not scanned to
    say so (one query with both let a planner whose statistics still counted a drained queue walk
    every round)."""
    pending = DecisionPending.objects.filter(gaming_day=gaming_day)
    if through_round is not None:
        pending = pending.filter(round_id__lte=through_round)
    if first is not None:
        pending = pending.filter(round_id__gte=first)
    ids = list(pending.values_list("round_id", flat=True))
    if not ids:
        return 0
    return Round.objects.filter(AnyOf(F("pk"), ids), gaming_day=gaming_day, table__pit__casino_id=casino_id).count()


#: The decisions' actions as the pages name them (the desk's round page and the advantage page).
ACTION_WORDS = {
    "hit": "Hit", "stand": "Stand", "double": "Double down", "split": "Split", "insurance": "Insurance",
    "decline": "No insurance", "even_money": "Even money", "fold": "Fold", "bet": "Bet", "draw": "Draw",
}


@dataclass(frozen=True)
class DecisionRow:
    seat: int
    player: str
    hand: int
    cards: str  # the cards held when deciding, as the round writes them
    taken: str
    best: str
    values: str  # each legal action's expected value, as a percentage of its stake
    cost: Decimal  # in money, to the cent
    optimal: bool


def round_decisions(round_id: int, gaming_day: date) -> tuple[list[DecisionRow], list[str], bool]:
    """The priced decisions of one round for the desk's round page (seats in order, decisions as
    played), the unpriced ones with the reason, and whether the round is still queued."""
    rows: list[DecisionRow] = []
    unpriced: list[str] = []
    for seat in SeatDecisions.objects.filter(round_id=round_id, gaming_day=gaming_day).order_by("seat"):
        for d in seat.decisions:
            values = ", ".join(f"{ACTION_WORDS.get(a, a)} {v * 100:+.2f}%"
                               for a, v in sorted(d["values"].items(), key=lambda kv: -kv[1]))
            cost = Decimal(d["money"]).quantize(Decimal("0.01"))
            rows.append(DecisionRow(seat.seat, seat.player, d["hand"] + 1, " ".join(TEXT[c] for c in d["cards"]),
                                    ACTION_WORDS.get(d["action"], d["action"]), ACTION_WORDS.get(d["best"], d["best"]),
                                    values, cost, d["cost"] == 0))
        unpriced += [f"Seat {seat.seat}, hand {u['hand'] + 1}: {ACTION_WORDS.get(u['action'], u['action'])} "
                     f"not priced ({u['why']})" for u in seat.unpriced]
    queued = DecisionPending.objects.filter(round_id=round_id).exists()
    return rows, unpriced, queued
