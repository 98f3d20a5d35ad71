"""Pricing the queued rounds: the one writer of :class:`~.models.SeatDecisions`.

A round's action (record, correct, void) queues it in its own transaction (:class:`DecisionQueue`,
a ``tables.round_effects.RoundProjection``: one small upsert, no engine work under the table's
lock). :func:`price_pending` then prices a batch: it reads the rounds' current revisions, runs
the engine (``tables.games.decision_prices``) outside any transaction, and in a short one
replaces the rounds' rows and clears their queue entries, but only the entries whose ``stamp``
is still the one it read: a round changed meanwhile stays queued and is priced again by the next
pass, so a stored price is never of an older revision than the last pass saw.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from contextlib import nullcontext
from datetime import date, timedelta
from decimal import Decimal

import orjson
from django.db import connections, router, transaction
from django.db.models import F, Q
from django.utils import timezone

from casino.lookups import AnyOf
from casino.prepared import PREPARED
from tables.games import GAMES
from tables.games.decision_prices import PRICING_VERSION, ROUND_PRICES, WARM
from tables.games.vocabulary.catalogue import POKER_OR_BUST
from tables.models import Round, RoundRevision, Ruleset, RulesetVersion

from . import draw_tables
from .models import DecisionPending, SeatDecisions

log = logging.getLogger(__name__)

#: Rounds one pass prices (one read of their revisions, one transaction to store them).
BATCH = 500
#: How long a pass holds the entries it took: far above a batch's pricing, even cold (~30 s).
CLAIM = timedelta(minutes=5)
_CENT = Decimal("0.01")
dumps = orjson.dumps


#: The queue's upsert (PostgreSQL and SQLite alike): a round queued again moves its stamp on.
_QUEUE_SQL = ("INSERT INTO decisions_pending (round_id, gaming_day, stamp) VALUES (%s, %s, 1) "
              "ON CONFLICT (round_id) DO UPDATE SET stamp = decisions_pending.stamp + 1, claimed_until = NULL")
#: The arrays as text made here: psycopg's list dumpers took a tenth of a second a slice.
_QUEUE_MANY_SQL = ("INSERT INTO decisions_pending (round_id, gaming_day, stamp, claimed_until) "
                   "SELECT DISTINCT ON (r) r, d, 1, %s FROM unnest(%s::bigint[], %s::date[]) AS q(r, d) ORDER BY r "
                   "ON CONFLICT (round_id) DO UPDATE SET stamp = decisions_pending.stamp + 1, "
                   "claimed_until = EXCLUDED.claimed_until RETURNING round_id, gaming_day, stamp")


def rounds_queue(rounds: Iterable[tuple[int, date]], *, using: str | None = None,
                 claim: bool = False) -> list[tuple[int, date, int]] | None:
    """Queue ``(round id, gaming day)`` pairs for pricing (again). With ``claim``, the entries are
    also taken for the caller, as :func:`_claim` takes them, and returned as it returns them; a
    pass that held one finds its stamp moved on and leaves it."""
    pairs = list(rounds)
    if not pairs:
        return [] if claim else None
    db = using or router.db_for_write(DecisionPending)
    connection = connections[db]
    with connection.cursor() as cursor:
        if len(pairs) == 1 and not claim:
            # The recorder's statement, once per round: prepared, as its others are (casino/prepared.py).
            cursor.execute(PREPARED + _QUEUE_SQL, pairs[0])
        elif connection.vendor == "postgresql":
            # One statement for a re-audit's slice (tens of thousands of rounds), not one each.
            cursor.execute(_QUEUE_MANY_SQL, [timezone.now() + CLAIM if claim else None,
                                             "{" + ",".join(str(p[0]) for p in pairs) + "}",
                                             "{" + ",".join(p[1].isoformat() for p in pairs) + "}"])
            return cursor.fetchall() if claim else None
        else:
            cursor.executemany(_QUEUE_SQL, pairs)
    return _claim(None, None, db, round_ids=[p[0] for p in pairs]) if claim else None


class DecisionQueue:
    """The decisions' queue as a ``tables.round_effects.RoundProjection`` (``ROUND_PROJECTIONS``):
    a round of a priced game is queued when it is recorded, corrected or voided."""

    def changing(self, round_ids):
        return nullcontext()

    def round_posted(self, *, round, revision, casino_id=None) -> None:  # noqa: A002
        if priced(round.game, round.ruleset_version):
            rounds_queue([(round.pk, round.gaming_day)], using=round._state.db)

    def round_voided(self, *, round) -> None:  # noqa: A002
        if priced(round.game, round.ruleset_version):
            rounds_queue([(round.pk, round.gaming_day)], using=round._state.db)


def priced(game: str, version: RulesetVersion) -> bool:
    """Whether the rounds of ``game`` under ``version`` have decisions to price: the games of
    ``ROUND_PRICES``, Poker or Bust once the whole-game solve of its settings is stored (before,
    its rounds are neither queued nor replayed into the queue: nothing would be stored)."""
    if game not in ROUND_PRICES:
        return False
    return game != POKER_OR_BUST or draw_tables.solved(version)


def draw_prices_store(rules, prices) -> int:
    """Store Poker or Bust's tables for ``rules``' settings and queue every active round of those
    settings to be priced from them, in one transaction; how many hands were stored."""
    with transaction.atomic():
        hands = draw_tables.store(rules, prices)
        rounds = Round.objects.filter(game=POKER_OR_BUST, ruleset_version_id__in=draw_tables.versions_of(rules),
                                      status=Round.ACTIVE)
        rounds_queue(list(rounds.order_by().values_list("id", "gaming_day")))
    return hands


def _decision_json(d, money: Decimal, made: dict) -> orjson.Fragment:
    """One decision as the row's JSON holds it, serialised once per pass: a day's decisions meet a
    few thousand distinct states and stakes, and a re-audit's slice writes 70,000 of them."""
    key = (d.hand, d.cards, d.action, d.stake, *d.values.items())
    got = made.get(key)
    if got is None:
        got = made[key] = orjson.Fragment(dumps({
            "hand": d.hand, "cards": list(d.cards), "action": d.action, "best": d.best,
            "values": {a: round(v, 9) for a, v in d.values.items()}, "cost": round(d.cost, 9),
            "stake": str(d.stake), "money": str(money)}))
    return got


#: A row's columns as :func:`seat_rows` gives them (the model's, without the primary key).
COLUMNS = ("round_id", "gaming_day", "casino_id", "table_id", "game", "ruleset_version_id", "revision", "seat",
           "player", "handle", "cost", "decisions", "unpriced", "upcard", "hole", "priced_with")


def seat_rows(*, round_id: int, gaming_day: date, casino_id: int, table_id: int, game: str, version_id: int,
              revision: int, data: dict, rules, made: dict | None = None, parsed=None) -> list[tuple]:
    """The rows of one round's revision, as tuples of :data:`COLUMNS`: one per seat with a
    decision priced or left unpriced (a pass writes thousands: no model instance is made); the
    decisions as serialised JSON (``orjson.Fragment``), the unpriced ones as data.
    ``parsed``: the engine's parse of ``data`` under ``rules``, when the caller has it;
    ``made``: the pass's decisions already serialised (:func:`_decision_json`)."""
    made = {} if made is None else made
    if parsed is None:
        parsed = GAMES[game].module.parse_round(data, rules)
    prices = ROUND_PRICES[game](parsed, rules)
    dealer = prices.dealer
    handles = dict(prices.handles)
    by_seat: dict[int, list] = {}
    unpriced: dict[int, list] = {}
    for d in prices.decisions:
        by_seat.setdefault(d.seat, []).append(d)
    for seat, hand, action, why in prices.unpriced:
        unpriced.setdefault(seat, []).append({"hand": hand, "action": action, "why": why})
    rows = []
    hole = dealer[1] if len(dealer) > 1 else None
    for seat in parsed.seats:
        decisions = by_seat.get(seat.seat, [])
        if not decisions and seat.seat not in unpriced:
            continue
        handle = handles.get(seat.seat, Decimal(0)) if decisions else Decimal(0)
        moneys = [d.cost_money for d in decisions]
        rows.append((round_id, gaming_day, casino_id, table_id, game, version_id, revision, seat.seat,
                     seat.player or "", handle.quantize(_CENT), sum(moneys, Decimal(0)),
                     [_decision_json(d, m, made) for d, m in zip(decisions, moneys, strict=True)],
                     unpriced.get(seat.seat, []), dealer[0], hole, PRICING_VERSION))
    return rows


def _read(pending: list[tuple[int, date, int]], db: str) -> list[tuple]:
    ids = [p[0] for p in pending]
    days = sorted({p[1] for p in pending})
    # The revision's own gaming day as well as the round's: one partition of each.
    return list(RoundRevision.objects.using(db)
                .filter(AnyOf(F("round_id"), ids), gaming_day__in=days, round__gaming_day__in=days,
                        number=F("round__revision"))
                .order_by()
                .values_list("round_id", "round__gaming_day", "round__table__pit__casino_id", "round__table_id",
                             "round__game", "round__ruleset_version_id", "round__status", "number", "data"))


def _priced(items, db: str, versions: dict | None = None) -> tuple[list[tuple], set[int]]:
    """The rows of ``items`` (round id, gaming day, casino id, table id, game, version id, status,
    revision number, data: as :func:`_read` gives them; then, optionally, the parsed round) and
    the rounds they price (a voided round: none, its rows go)."""
    versions = dict(versions or {})
    made: dict = {}
    rows: list[tuple] = []
    rounds: set[int] = set()
    for round_id, day, casino_id, table_id, game, version_id, status, number, data, *parsed in items:
        rounds.add(round_id)
        if status != Round.ACTIVE or game not in ROUND_PRICES:
            continue  # a voided round keeps no prices
        version = versions.get(version_id)
        if version is None:
            version = versions[version_id] = RulesetVersion.objects.using(db).get(pk=version_id)
        try:
            rows += seat_rows(round_id=round_id, gaming_day=day, casino_id=casino_id, table_id=table_id,
                              game=game, version_id=version_id, revision=number, data=data, rules=version.rules(),
                              made=made, parsed=parsed[0] if parsed else None)
        except Exception:  # noqa: BLE001 - one round the engine cannot price never stops the others
            log.exception("pricing round %s", round_id)
    return rows, rounds


def _decoded(row: tuple) -> tuple:
    """``row`` with its decisions as data (for the ORM, off PostgreSQL)."""
    return (*row[:11], orjson.loads(dumps(row[11])), *row[12:])


def _replace(rows: list[tuple], round_ids, db: str) -> None:
    """The rows of ``round_ids`` replaced by ``rows`` (tuples of :data:`COLUMNS`; in the caller's
    transaction)."""
    if ids := list(round_ids):
        SeatDecisions.objects.using(db).filter(AnyOf(F("round_id"), ids)).delete()
    connection = connections[db]
    if connection.vendor != "postgresql" or not rows:
        SeatDecisions.objects.using(db).bulk_create([SeatDecisions(**dict(zip(COLUMNS, _decoded(row), strict=True)))
                                                     for row in rows], batch_size=1000)
        return
    # COPY: a pass writes a few thousand rows with JSON; bulk_create's arrays cost half the pass.
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY decisions_seat ({', '.join(COLUMNS)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row((*row[:11], dumps(row[11]).decode(), dumps(row[12]).decode(), *row[13:]))


def prices_current(round_ids, *, using: str | None = None):
    """(round id, revision) of ``round_ids`` whose rows this pricing made (``PRICING_VERSION``).

    By round id alone, on the (round, seat) key: a gaming-day filter beside it let the planner
    choose the day's index while the day's statistics lagged its rows (a re-audit writes them
    by the hundred thousand), and test 20,000 ids against each of 200,000 rows (8 s a slice)."""
    ids = list(round_ids)
    if not ids:
        return []
    rows = SeatDecisions.objects.using(using or router.db_for_read(SeatDecisions)).filter(
        AnyOf(F("round_id"), ids), priced_with=PRICING_VERSION)
    return rows.order_by().values_list("round_id", "revision").distinct()


def _claim(limit: int | None, gaming_day: date | None, db: str, round_ids=None) -> list[tuple[int, date, int]]:
    """Take up to ``limit`` queue entries (of ``round_ids`` only, when given) no other pass holds,
    for ``CLAIM`` (one short transaction: a queued round's upsert never waits on a pass's engine
    work)."""
    now = timezone.now()
    with transaction.atomic(using=db):
        queued = (DecisionPending.objects.using(db).select_for_update(skip_locked=True)
                  .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
                  .order_by("round_id"))
        if gaming_day is not None:
            queued = queued.filter(gaming_day=gaming_day)
        if round_ids is not None:
            queued = queued.filter(AnyOf(F("round_id"), list(round_ids)))
        queued = queued.values_list("round_id", "gaming_day", "stamp")
        pending = list(queued[:limit] if limit is not None else queued)
        if pending:
            DecisionPending.objects.using(db).filter(AnyOf(F("round_id"), [p[0] for p in pending])).update(
                claimed_until=now + CLAIM)
    return pending


def _store(pending: list[tuple[int, date, int]], rows: list[tuple], db: str) -> int:
    """Replace the rows of the ``pending`` entries still at the stamp read, and clear those entries
    (a round changed since stays queued); how many were cleared."""
    stamps = {p[0]: p[2] for p in pending}
    with transaction.atomic(using=db):
        taken = set(DecisionPending.objects.using(db).select_for_update()
                    .filter(AnyOf(F("round_id"), list(stamps))).values_list("round_id", "stamp"))
        done = {rid for rid, stamp in taken if stamps.get(rid) == stamp}
        _replace([r for r in rows if r[0] in done], done, db)
        DecisionPending.objects.using(db).filter(AnyOf(F("round_id"), list(done))).delete()
    return len(done)


def price_pending(*, limit: int = BATCH, gaming_day: date | None = None, using: str | None = None) -> int:
    """Price up to ``limit`` queued rounds (of ``gaming_day`` only, when given); how many queue
    entries were taken (priced, or gone: a round no longer of a priced game or voided)."""
    db = using or router.db_for_write(SeatDecisions)
    pending = _claim(limit, gaming_day, db)
    if not pending:
        return 0
    rows, _rounds = _priced(_read(pending, db), db)
    return _store(pending, rows, db)


def price_replayed(replayed: list[tuple[int, date, int, str, int, dict, object]], *, versions=None,
                   claimed: list[tuple[int, date, int]] | None = None, using: str | None = None) -> int:
    """Price queued rounds whose revision the caller has just read and decoded (the re-audit):
    ``replayed`` holds (round id, gaming day, revision number, game, ruleset version id, data,
    the engine's parse of data under that version's rules, or None).
    What :func:`price_pending` does, without reading and decoding the revisions again: the
    rounds' entries are claimed (``claimed``: the entries the caller queued claimed with
    :func:`rounds_queue`, in a transaction committed since), and a round whose current revision
    is no longer the one given (corrected or voided since) is read afresh. How many entries were
    cleared."""
    db = using or router.db_for_write(SeatDecisions)
    given = {r[0]: r for r in replayed}
    pending = claimed if claimed is not None else _claim(None, None, db, round_ids=given)
    if not pending:
        return 0
    days = sorted({p[1] for p in pending})
    ids = [p[0] for p in pending]
    items, again = [], []
    for pk, revision, status, table_id, casino_id in (
            Round.objects.using(db).filter(AnyOf(F("pk"), ids), gaming_day__in=days).order_by()
            .values_list("pk", "revision", "status", "table_id", "table__pit__casino_id")):
        round_id, day, number, game, version_id, data, parsed = given[pk]
        if revision == number and status == Round.ACTIVE:
            items.append((round_id, day, casino_id, table_id, game, version_id, status, number, data, parsed))
        else:
            again.append(pk)
    if again:
        items += _read([p for p in pending if p[0] in set(again)], db)
    rows, _rounds = _priced(items, db, versions)
    return _store(pending, rows, db)


def price_all_pending(*, gaming_day: date | None = None, using: str | None = None) -> int:
    """Price every queued round (of ``gaming_day``); how many were taken."""
    total = 0
    while taken := price_pending(gaming_day=gaming_day, using=using):
        total += taken
    return total


def warm_tables(*, budget: float, using: str | None = None) -> list[str]:
    """Fill this process's engine tables for the rulesets the floor's tables deal now, for at most
    about ``budget`` seconds (a ruleset started is finished); the rulesets warmed, by name.

    A Celery worker's main process calls it before it forks its pool (tasks.py,
    ``DECISIONS_WARM_SECONDS``): every child then prices its first round as fast as its
    thousandth, instead of each filling the same tables (~14 s for a ruleset's 21 bet, ~22 s
    more for Ante Up 21's fold decisions)."""
    started = time.monotonic()
    warmed = []
    db = using or router.db_for_read(Ruleset)
    # The current version's rules object, as the pricing will ask for it (RulesetVersion.rules keeps
    # one per version and process): the engine keeps a ruleset's fold decisions on that object, so
    # a copy made from the ruleset's config would be warmed and thrown away.
    current = (RulesetVersion.objects.using(db)
               .filter(ruleset__game__in=list(WARM), ruleset__tables__isnull=False, number=F("ruleset__version"))
               .select_related("ruleset").distinct().order_by("ruleset_id"))
    for version in current:
        if time.monotonic() - started >= budget:
            break
        WARM[version.game](version.rules(), version.game)
        warmed.append(version.ruleset.name)
    return warmed
