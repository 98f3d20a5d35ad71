"""The advantage-play day as derived data: ``selectors.advantage_day`` computed once and stored
(models.DayResult, a row per player in models.DayResultPlayer), compared with the day's change
counters (models.DayChange) on every read so a result is never served stale as current.

* :func:`day_answer`, the page's and the API's read: the stored result when it is current; else
  a small day (at most ``ADVANTAGE_INLINE_LINES`` count lines) counted in the request and stored,
  as before; else a recount queued (:func:`recount_request`) and the last stored result shown with
  its time, or, with none, the day's size and a plain "being counted".
* :func:`day_results_compute`, the task's and the rebuild's: one read and one walk of a casino's
  day, stored for all its tables and for each table.

No second copy of the count or of the statistics: every figure stored is what
``selectors.day_of`` (count.walk, player_rows, judge) gave. A player's pairs are kept twice: for
the page the count's inputs (running count, cards seen, decks), its true count and decks left
coming back through count.true_count / count.decks_remaining as the walk made them; for the API
its JSON as serializers.pairs_json writes it (a busy day's page of 50 players is ~50,000 pairs:
written as they are, not serialized again).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from itertools import groupby

from django.conf import settings
from django.db import IntegrityError, connections, router, transaction
from django.db.models import Count, F, Sum, TextField, Value
from django.template.loader import render_to_string
from django.utils import timezone

from audit.advantage.count import decks_remaining, true_count, walk
from audit.advantage.models import CountLine, DayChange, DayResult, DayResultPlayer
from audit.advantage.plays import CountFigures, HoleFigures, PlayFigures
from audit.advantage.selectors import (
    SIGNAL_WORDS,
    AdvantageDay,
    Pair,
    PlayerRow,
    Thresholds,
    advantage_day,
    day_of,
    day_plays,
    day_rounds,
    row_opened,
)
from audit.advantage.serializers import deviation_rows, pairs_json
from audit.advantage.stats import Correlation
from audit.decisions.models import DecisionPending
from casino.outbox import task_enqueue

log = logging.getLogger(__name__)

#: What a read found. CURRENT: the figures are the day's as it stands; STALE: the last stored
#: figures, the day has changed since and is being recounted; COUNTING: no figures yet.
CURRENT, STALE, COUNTING = "current", "stale", "counting"
#: A row's rounds as the page shows them (the page includes it for a row counted in the request).
PAIRS_TEMPLATE = "surveillance/_advantage_pairs.html"
#: A recount queued this recently and not yet done is not queued again (a lost one is, after it).
RECOUNT_PENDING = timedelta(minutes=5)
#: The recount's Celery task (tasks.day_count registers under it; queued here by name).
RECOUNT_TASK = "advantage.day_count"


@dataclass(slots=True)
class StoredRow:
    """A player's stored row, with the attributes of selectors.PlayerRow the page and API read."""

    player: str
    n: int
    correlation: Correlation | None
    min_bet: Decimal
    max_bet: Decimal
    spread: Decimal
    mean_bet_low: Decimal | None
    mean_bet_high: Decimal | None
    signal: str
    #: The play signals' figures (their deviations in ``deviations_text``, read as pairs are).
    plays: PlayFigures = field(default_factory=PlayFigures)
    #: The page's: the rounds of the ``?player=`` row (empty for the others).
    pairs: list[Pair] = field(default_factory=list)
    #: The page's: an opened row's rounds as made when the day was counted (selectors.OPEN_SIGNALS).
    pairs_html: str = ""
    #: The API's: every pair, as serializers.pairs_json made them when the day was counted.
    pairs_json: str = "[]"
    #: The player's deviations as serializers.deviations_json made them (the API's, and the
    #: page's ``?player=`` row; "[]" for the others).
    deviations_text: str = "[]"

    @property
    def signal_words(self) -> str:
        return SIGNAL_WORDS[self.signal]

    @property
    def opened(self) -> bool:
        return row_opened(self.signal, self.plays.hole.signal, self.plays.count.signal)

    @property
    def deviation_rows(self) -> list[dict]:
        return deviation_rows(self.deviations_text)


@dataclass
class DayAnswer:
    """What the page and the API show of a day: its figures (None while COUNTING) and where they
    come from. Rows are read a page at a time with :meth:`rows`."""

    gaming_day: date
    status: str
    thresholds: Thresholds
    rounds: int | None
    shoes: int | None
    players: int
    as_of: datetime | None
    #: The day's count lines (its size): given when the figures are not current.
    lines: int | None = None
    #: The day's rounds still queued for pricing when counted: not in the play signals yet.
    unpriced: int = 0
    recount_queued: bool = False
    _day: AdvantageDay | None = None
    _result: DayResult | None = None

    def rows(self, start: int, stop: int, *, player: str | None = None, api: bool = False) -> list:
        """The players ``start``..``stop`` in the page's order (``player``: that one only, with its
        pairs). A stored row carries for the page its rounds made if it opens them
        (``pairs_html``), for the API (``api``) its pairs' JSON (``pairs_json``)."""
        if self._day is not None:
            rows = self._day.rows
            if player:
                rows = [row for row in rows if row.player == player]
            return rows[start:stop]
        if self._result is None:
            return []
        return _stored_rows(self._result, start, stop, player=player, api=api)

    def count(self, *, player: str | None = None) -> int:
        """Players of the day (``player``: 1 if that one played, else 0)."""
        if not player:
            return self.players
        if self._day is not None:
            return sum(1 for row in self._day.rows if row.player == player)
        return int(self._result is not None and self._result.player_rows.filter(player=player).exists())


class _Rows:
    """A day's rows as a sequence for DRF's paginator: its length is the day's players, a slice
    reads that page only."""

    def __init__(self, answer: DayAnswer):
        self.answer = answer

    def __len__(self) -> int:
        return self.answer.players

    def __getitem__(self, page: slice) -> list:
        return self.answer.rows(page.start or 0, page.stop, api=True)


def answer_rows(answer: DayAnswer) -> _Rows:
    return _Rows(answer)


def _stamp(gaming_day: date, casino_id: int, table_id: int | None) -> tuple[int, int]:
    """(changes, lines) of the day's tables (one table's): what a stored result is compared with."""
    rows = DayChange.objects.filter(gaming_day=gaming_day)
    rows = rows.filter(table_id=table_id) if table_id is not None else rows.filter(table__pit__casino_id=casino_id)
    sums = rows.aggregate(changes=Sum("changes"), lines=Sum("lines"))
    return sums["changes"] or 0, sums["lines"] or 0


def _unpriced(gaming_day: date, casino_id: int, table_id: int | None) -> int:
    """The day's rounds (of the table, or of the casino's tables) queued for their decisions' prices
    (audit/decisions' DecisionPending, a handful while rounds are being recorded): the play signals
    do not see them yet. A round is queued only in the transaction that moves its table's
    DayChange on, so at one stamp this count only falls, as rounds are priced."""
    lines = CountLine.objects.filter(gaming_day=gaming_day)
    lines = lines.filter(table_id=table_id) if table_id is not None else lines.filter(table__pit__casino_id=casino_id)
    return DecisionPending.objects.filter(gaming_day=gaming_day, round_id__in=lines.values("round_id")).count()


def _thresholds_of(result: DayResult) -> Thresholds:
    return Thresholds(result.lower_bound, result.min_rounds, result.play_alpha, result.play_min)


def _is_current(result: DayResult | None, changes: int, unpriced: int, thresholds: Thresholds) -> bool:
    return (result is not None and result.computed_at is not None and result.changes == changes
            and result.unpriced == unpriced and _thresholds_of(result) == thresholds)


def day_answer(gaming_day: date, *, casino_id: int, table_id: int | None = None) -> DayAnswer:
    """The day of one casino (all its tables, or ``table_id``, a table of it) as the page shows it."""
    thresholds = Thresholds.from_settings()
    # The stamp is read before the lines: a round recorded in between makes the stored result
    # look older than it is (recounted once more), never newer.
    changes, lines = _stamp(gaming_day, casino_id, table_id)
    # Read after the stamp and before the decisions: a round priced in between is counted as
    # still queued (the result is recounted once more), never the other way.
    unpriced = _unpriced(gaming_day, casino_id, table_id)
    result = DayResult.objects.filter(casino_id=casino_id, gaming_day=gaming_day, table_id=table_id).first()
    if _is_current(result, changes, unpriced, thresholds):
        return _stored_answer(result, CURRENT)
    if lines <= settings.ADVANTAGE_INLINE_LINES:
        now = timezone.now()
        day = advantage_day(gaming_day, casinos={casino_id}, table_id=table_id, thresholds=thresholds)
        if lines:
            result_store(casino_id=casino_id, gaming_day=gaming_day, table_id=table_id, changes=changes, day=day,
                         at=now, unpriced=unpriced)
        return DayAnswer(gaming_day=gaming_day, status=CURRENT, thresholds=thresholds, rounds=day.rounds,
                         shoes=day.shoes, players=len(day.rows), as_of=now, unpriced=unpriced, _day=day)
    queued = recount_request(casino_id=casino_id, gaming_day=gaming_day, table_id=table_id)
    if result is not None and result.computed_at is not None:
        answer = _stored_answer(result, STALE)
        answer.lines, answer.recount_queued = lines, queued
        return answer
    return DayAnswer(gaming_day=gaming_day, status=COUNTING, thresholds=thresholds, rounds=None, shoes=None,
                     players=0, as_of=None, lines=lines, recount_queued=queued)


def _stored_answer(result: DayResult, status: str) -> DayAnswer:
    return DayAnswer(gaming_day=result.gaming_day, status=status, thresholds=_thresholds_of(result),
                     rounds=result.rounds, shoes=result.shoes, players=result.players, as_of=result.computed_at,
                     unpriced=result.unpriced, _result=result)


_ROW_FIELDS = ("player", "n", "r", "ci_low", "ci_high", "min_bet", "max_bet", "spread", "mean_bet_low",
               "mean_bet_high", "signal")
_PLAY_FIELDS = ("hole_rounds", "hole_deviations", "hole_observed", "hole_expected", "hole_z", "hole_p",
                "hole_signal", "play_decisions", "play_deviations", "play_informative", "play_r", "play_z",
                "play_signal")


def _stored_rows(result: DayResult, start: int, stop: int, *, player: str | None, api: bool) -> list[StoredRow]:
    rows = result.player_rows.order_by("rank")
    if player:
        rows = rows.filter(player=player)
    text = F("pairs") if api else F("counts") if player else Value("", output_field=TextField())
    html = Value("", output_field=TextField()) if api else F("pairs_html")
    deviations = F("deviations") if api or player else Value("[]", output_field=TextField())
    out = []
    for *figures, pairs, made, deviated in rows.annotate(text=text, html=html, deviated=deviations).values_list(
            *_ROW_FIELDS, *_PLAY_FIELDS, "text", "html", "deviated")[start:stop]:
        name, n, r, low, high, min_bet, max_bet, spread, mean_low, mean_high, signal = figures[:len(_ROW_FIELDS)]
        h_rounds, h_dev, h_obs, h_exp, h_z, h_p, h_signal, c_dec, c_dev, c_inf, c_r, c_z, c_signal = \
            figures[len(_ROW_FIELDS):]
        row = StoredRow(player=name, n=n, correlation=Correlation(r, low, high) if r is not None else None,
                        min_bet=min_bet, max_bet=max_bet, spread=spread, mean_bet_low=mean_low,
                        mean_bet_high=mean_high, signal=signal, pairs_html=made, deviations_text=deviated,
                        plays=PlayFigures(hole=HoleFigures(h_rounds, h_dev, h_obs, h_exp, h_z, h_p, h_signal),
                                          count=CountFigures(c_dec, c_dev, c_inf, c_r, c_z, c_signal)))
        if api:
            row.pairs_json = pairs
        elif player:
            row.pairs = counts_decode(pairs)
        out.append(row)
    return out


def counts_encode(row: PlayerRow) -> str:
    """A player's pairs as the page reads them back: the count's inputs (running count, cards
    seen, decks), not its results (see counts_decode)."""
    return json.dumps([[c.round.round_id, c.round.table_label, c.round.sequence, c.shoe, c.running_count,
                        c.cards_seen, c.round.decks, str(bet)] for c, bet in zip(row.counted, row.bets, strict=True)],
                      separators=(",", ":"), ensure_ascii=False)


def counts_decode(text: str) -> list[Pair]:
    """The pairs of a stored row, as PlayerRow.pairs gives them: decks left and true count from
    the stored running count, cards seen and decks through count.py's own functions."""
    if not text:
        return []
    money: dict[str, Decimal] = {}
    return [Pair(round_id=round_id, table_label=label, sequence=sequence, shoe=shoe, running_count=running,
                 decks_remaining=decks_remaining(decks, seen), true_count=true_count(running, decks, seen),
                 bet=money.get(bet) or money.setdefault(bet, Decimal(bet)))
            for round_id, label, sequence, shoe, running, seen, decks, bet in json.loads(text)]


def result_store(*, casino_id: int, gaming_day: date, table_id: int | None, changes: int,
                 day: AdvantageDay, at: datetime | None = None, unpriced: int = 0) -> bool:
    """Store ``day`` as the result of its key, computed at the stamp ``changes`` (``at``: when its
    count began, default now), in place of the one stored; False when another writer stored the
    key's first result meanwhile."""
    now = at or timezone.now()
    try:
        with transaction.atomic():
            result = DayResult.objects.select_for_update().filter(
                casino_id=casino_id, gaming_day=gaming_day, table_id=table_id).first()
            # The last count stored wins: one older than the day's stamp only reads as stale (and is
            # recounted); a "keep the higher stamp" rule would keep a result forever once the
            # counters started again lower (their rows deleted with a bulk load).
            if result is None:
                result = DayResult(casino_id=casino_id, gaming_day=gaming_day, table_id=table_id)
            else:
                result.player_rows.all().delete()
            result.changes, result.computed_at = changes, now
            result.lower_bound, result.min_rounds = day.thresholds.lower_bound, day.thresholds.min_rounds
            result.play_alpha, result.play_min = day.thresholds.play_alpha, day.thresholds.play_min
            result.unpriced = unpriced
            result.rounds, result.shoes, result.players = day.rounds, day.shoes, len(day.rows)
            result.save()
            # A few hundred rows at a time, each row's pairs dropped once written: a busy day's
            # ~1,000,000 pairs are not all held twice.
            for first in range(0, len(day.rows), 500):
                _players_insert([_player_row(result, rank, row) for rank, row in
                                 enumerate(day.rows[first:first + 500], start=first + 1)])
    except IntegrityError:  # another request or task stored the key's first result meanwhile
        return False
    return True


_PLAYER_FIELDS = [f for f in DayResultPlayer._meta.concrete_fields if not f.primary_key]


def _players_insert(rows: list[DayResultPlayer]) -> None:
    """The rows in one pipelined ``executemany`` of a plain INSERT: bulk_create sends them as one
    array per column, and psycopg quotes a text array element by element with a regular
    expression (a busy day's ~100 MB of pairs took minutes that way)."""
    connection = connections[router.db_for_write(DayResultPlayer)]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(DayResultPlayer._meta.db_table)} "  # noqa: S608 - names from the model
           f"({', '.join(quote(f.column) for f in _PLAYER_FIELDS)}) VALUES ({', '.join(['%s'] * len(_PLAYER_FIELDS))})")
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[f.get_db_prep_save(getattr(row, f.attname), connection) for f in _PLAYER_FIELDS]
                                 for row in rows])


def _player_row(result: DayResult, rank: int, row: PlayerRow) -> DayResultPlayer:
    c = row.correlation
    hole, count = row.plays.hole, row.plays.count
    stored = DayResultPlayer(
        result=result, rank=rank, player=row.player, n=row.n, r=c.r if c else None, ci_low=c.low if c else None,
        ci_high=c.high if c else None, min_bet=row.min_bet, max_bet=row.max_bet, spread=row.spread,
        mean_bet_low=row.mean_bet_low, mean_bet_high=row.mean_bet_high, signal=row.signal,
        hole_rounds=hole.rounds, hole_deviations=hole.deviations, hole_observed=hole.observed,
        hole_expected=hole.expected, hole_z=hole.z, hole_p=hole.p_value, hole_signal=hole.signal,
        play_decisions=count.decisions, play_deviations=count.deviations, play_informative=count.informative,
        play_r=count.r, play_z=count.z, play_signal=count.signal, deviations=row.deviations_text,
        counts=counts_encode(row), pairs=pairs_json(row.pairs),
        # The rows the page opens are made once here (a flagged player of a busy day has ~1,000
        # rounds; rendering them took the page seconds), by the page's own template.
        pairs_html=render_to_string(PAIRS_TEMPLATE, {"row": row}) if row.opened else "")
    # PlayerRow keeps its pairs once made (cached_property): they go with this row.
    row.__dict__.pop("pairs", None)
    return stored


def day_results_compute(*, casino_id: int, gaming_day: date) -> int:
    """Count a casino's day once and store its result for all its tables and for each table;
    how many results were stored. Safe to run twice (the second stores the same, or a later day)."""
    thresholds = Thresholds.from_settings()
    at = timezone.now()  # the figures are the day as of its read, not of the end of the count
    stamps = dict(DayChange.objects.filter(gaming_day=gaming_day, table__pit__casino_id=casino_id)
                  .values_list("table_id", "changes"))
    if not stamps:  # no count line of the casino that day: nothing to count
        return 0
    # The rounds queued for pricing, per table, read after the stamps and before the decisions.
    queued = dict(CountLine.objects.filter(gaming_day=gaming_day, table__pit__casino_id=casino_id, round_id__in=
                                           DecisionPending.objects.filter(gaming_day=gaming_day).values("round_id"))
                  .order_by().values("table_id").annotate(n=Count("round_id")).values_list("table_id", "n"))
    counted = list(walk(day_rounds(gaming_day, casinos={casino_id})))
    plays = day_plays(gaming_day, casinos={casino_id})  # a seat's round is in one table's part of the walk
    stored = int(result_store(casino_id=casino_id, gaming_day=gaming_day, table_id=None,
                              changes=sum(stamps.values()), day=day_of(gaming_day, counted, thresholds, plays), at=at,
                              unpriced=sum(queued.values())))
    by_table = {table_id: list(part) for table_id, part in groupby(counted, key=lambda c: c.round.table_id)}
    for table_id in sorted(stamps.keys() | by_table.keys()):
        stored += result_store(casino_id=casino_id, gaming_day=gaming_day, table_id=table_id,
                               changes=stamps.get(table_id, 0),
                               day=day_of(gaming_day, by_table.get(table_id, []), thresholds, plays), at=at,
                               unpriced=queued.get(table_id, 0))
    return stored


def recount_request(*, casino_id: int, gaming_day: date, table_id: int | None) -> bool:
    """Queue the day's recount (the task counts every table of the casino's day) unless one
    queued within RECOUNT_PENDING is still to come; True when queued. Through the outbox
    (casino/outbox.py): a broker that is down delays the recount, never fails the read."""
    now = timezone.now()
    try:
        with transaction.atomic():
            result, _ = DayResult.objects.select_for_update().get_or_create(
                casino_id=casino_id, gaming_day=gaming_day, table_id=table_id)
            pending = result.requested_at is not None and result.requested_at > now - RECOUNT_PENDING and (
                result.computed_at is None or result.requested_at > result.computed_at)
            if pending:
                return False
            result.requested_at = now
            result.save(update_fields=["requested_at"])
            task_enqueue(RECOUNT_TASK, casino_id, gaming_day.isoformat())
    except IntegrityError:  # another reader asked at the same moment: its request stands
        return False
    return True


def results_rebuild(*, since: date | None = None, until: date | None = None) -> tuple[int, int]:
    """Recount every gaming day of the period (all when open) that has count lines, per casino;
    (days, results stored)."""
    days = DayChange.objects.order_by().values_list("gaming_day", "table__pit__casino_id").distinct()
    if since:
        days = days.filter(gaming_day__gte=since)
    if until:
        days = days.filter(gaming_day__lte=until)
    pairs = sorted(set(days))
    stored = sum(day_results_compute(casino_id=casino_id, gaming_day=day) for day, casino_id in pairs)
    return len({day for day, _ in pairs}), stored
