"""Reads for the reconciliation: which rounds a gaming day holds, and SQL aggregates of a slice.

Everything here is one GROUP BY query per fact, run by the database; Python only turns the
few resulting rows (tables x ruleset versions x wager keys) into JSON for the combine step.
Only each round's CURRENT revision counts (``Wager.revision.number = Round.revision``);
voided rounds are only counted.

The slice queries are plain SQL (portable: PostgreSQL and SQLite) so that each one starts
from the slice's range of round ids; see ``audit/reports/PERFORMANCE.md`` for the plans.
"""

from __future__ import annotations

import decimal
from datetime import date, datetime
from decimal import Decimal

from django.db import connection

from audit.decisions.selectors import pending_rounds, slice_table_games
from audit.selectors import PAY_ATTESTED, PAY_STATES, pay_state
from casino.gaming_day import gaming_day_bounds
from tables.games import ENGINE_VERSION
from tables.models import Finding, Round, Table

from .theoretical import POT_KEY

#: Findings that count against a dealer and in the report: the rule of
#: ``audit.selectors.counted_findings`` (open ones of an active round's current revision;
#: confirmed and escalated ones whatever became of their round; one per wager), in SQL here.
REVIEWED_FINDINGS = Finding.REVIEWED


def day_bounds(casino, gaming_day: date) -> tuple[datetime, datetime]:
    """UTC ``[start, end)`` of ``gaming_day`` at ``casino`` (23 or 25 hours across DST)."""
    return gaming_day_bounds(gaming_day, casino.time_zone, casino.gaming_day_start_hour)


def casino_table_ids(casino) -> list[int]:
    """The casino's table ids.

    Rounds are filtered by these ids rather than by joining table, pit and casino: with the
    join, PostgreSQL drove every slice's queries from the casino's tables through
    ``tables_round(table_id)``, reading every round of the day once per query and slice
    (quadratic in the day's size); with the ids it reads the slice's range of round ids.
    """
    return sorted(Table.objects.filter(pit__casino=casino).values_list("pk", flat=True))


def day_rounds(casino, gaming_day: date):
    """Every round (active or voided) of ``gaming_day`` at ``casino``.

    ``Round.gaming_day`` is the casino's gaming day of the moment the round was recorded
    (``casino/gaming_day.py``, written once by the recording service): the report reads the
    same column as the tablet, the desk and the API, so they can never count different rounds.
    """
    return Round.objects.filter(table_id__in=casino_table_ids(casino), gaming_day=gaming_day)


class _Slice:
    """The rounds of a slice: ids in ``[first, last]``, of the gaming day, at one of the
    casino's tables (``where`` gives the SQL condition on a round alias)."""

    def __init__(self, casino, gaming_day: date, first: int, last: int):
        self.tables = casino_table_ids(casino)
        self.first, self.last = first, last
        # Passed as the ORM passes it (SQLite: ISO text).
        self.day = connection.ops.adapt_datefield_value(gaming_day)

    def where(self, alias: str = "r") -> tuple[str, list]:
        marks = ", ".join(["%s"] * len(self.tables))
        sql = (
            f"{alias}.id >= %s AND {alias}.id <= %s AND {alias}.gaming_day = %s "
            f"AND {alias}.table_id IN ({marks})"
        )
        return sql, [self.first, self.last, self.day, *self.tables]


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# The range on ``v.round_id`` repeats the slice's: without it PostgreSQL, expecting almost
# no revision of another engine version, read the whole revision table (1.6 KB a row).
_REAUDIT = """
    SELECT r.id FROM tables_round r
    JOIN tables_roundrevision v ON v.round_id = r.id AND v.number = r.revision AND v.gaming_day = r.gaming_day
    WHERE {where} AND r.status = %s AND v.round_id >= %s AND v.round_id <= %s
"""


def slice_reaudit_ids(*, casino, gaming_day: date, first: int, last: int, full: bool) -> list[int]:
    """Active rounds of the slice whose current revision the re-audit must replay: those audited
    by another engine version (every one with ``full``)."""
    part = _Slice(casino, gaming_day, first, last)
    if not part.tables:
        return []
    where, params = part.where()  # placeholders only: every value is a parameter
    sql = _REAUDIT.format(where=where)
    params += [Round.ACTIVE, first, last]
    if not full:
        sql += " AND v.engine_version <> %s"
        params.append(ENGINE_VERSION)
    return [row[0] for row in _rows(sql + " ORDER BY r.id", params)]


#: SQLite returns SUMs of decimal columns as floats (or ints): converted as Django's SQLite
#: backend converts a DecimalField aggregate (15 significant digits), so that both backends
#: give what the ORM gave. PostgreSQL returns exact ``Decimal`` values.
_FLOAT_CONTEXT = decimal.Context(prec=15)


def _s(value) -> str:
    if value is not None and not isinstance(value, Decimal):
        value = _FLOAT_CONTEXT.create_decimal_from_float(value)
    return str((value or Decimal(0)).quantize(Decimal("0.0001")))


# Each active round's CURRENT revision, collected once (a materialised CTE), then that
# revision's wagers, read by the slice's ``round_id`` range and joined on the revision id
# alone. Joining on the round too made PostgreSQL multiply two join selectivities, expect
# one row instead of 140,000, and then probe per wager and sort on disk. The round of a
# wager is its revision's round (the services write them so, and wagers are append-only):
# ``_WAGER_SUMS`` counts the wagers for which that would not hold, and the slice fails
# loudly if there are any, rather than report figures the old join would not have given.
# Every join here also names the gaming day, the tables' partition key: it is the same day on
# both sides (the composite keys (round, day) and (revision, day) hold it), and without it each
# of a slice's 20,000 probes visited every month's partition (a third of the aggregates' time).
# The wagers, read beyond the materialised CTE, are given the day itself: PostgreSQL then prunes
# their other months whatever plan it chooses (tests/reports/test_slice_plans.py).
_CURRENT = """
    WITH cur AS MATERIALIZED (
        SELECT r.id, r.table_id, r.ruleset_version_id, v.id AS revision_id, r.dealer_id, v.pays_attested
        FROM tables_round r
        JOIN tables_roundrevision v ON v.round_id = r.id AND v.number = r.revision AND v.gaming_day = r.gaming_day
        WHERE {where} AND r.status = %s AND v.round_id >= %s AND v.round_id <= %s
    )
"""
_CURRENT_WAGERS = """
    FROM cur r
    JOIN tables_wager w ON w.revision_id = r.revision_id
    WHERE w.round_id >= %s AND w.round_id <= %s AND w.gaming_day = %s
"""

# "Actual" is the dealer's recorded pay where one was recorded, else the engine's.
_WAGER_SUMS = """
    {cte}
    SELECT r.table_id, r.ruleset_version_id, w.wager,
        COUNT(*),
        SUM(w.stake),
        SUM(w.stake * w.stake),
        SUM(CASE WHEN w.recorded_net > 0 OR (w.recorded_net IS NULL AND w.expected_net > 0)
                 THEN COALESCE(w.recorded_net, w.expected_net) ELSE 0 END),
        SUM(COALESCE(w.recorded_net, w.expected_net)),
        SUM(w.expected_net),
        SUM(CASE WHEN w.recorded_net IS NOT NULL THEN w.recorded_net - w.expected_net ELSE 0 END),
        SUM(CASE WHEN w.recorded_net > w.expected_net THEN w.recorded_net - w.expected_net ELSE 0 END),
        SUM(CASE WHEN w.recorded_net < w.expected_net THEN w.expected_net - w.recorded_net ELSE 0 END),
        SUM(CASE WHEN w.round_id = r.id THEN 0 ELSE 1 END)
    {current} AND w.wager <> %s
    GROUP BY r.table_id, r.ruleset_version_id, w.wager
"""

# The pays of each table's and dealer's wagers, grouped by what decides how a pay stands (the
# wager, whether its net was recorded, whether the revision was attested "paid as shown"); the
# rows are then classified by the one rule, ``audit.selectors.pay_state``
# (docs/floor/recording-rounds.md). A pay that was not recorded is never counted as paid
# correctly.
_PAYS = """
    {cte}
    SELECT r.table_id, r.dealer_id, w.wager, w.recorded_net IS NOT NULL, r.pays_attested, COUNT(*), SUM(w.stake)
    {current}
    GROUP BY r.table_id, r.dealer_id, w.wager, w.recorded_net IS NOT NULL, r.pays_attested
"""


def _pays_by_table_and_dealer(rows) -> list[list]:
    """(table, dealer) -> recorded, attested and not-recorded pays and the attested stake."""
    out: dict[tuple[int, int], list] = {}
    for table, dealer, wager, recorded, attested, n, stake in rows:
        line = out.setdefault((table, dealer), [table, dealer, 0, 0, 0, Decimal(0)])
        state = pay_state(wager, bool(recorded), bool(attested))
        line[2 + PAY_STATES.index(state)] += n
        if state == PAY_ATTESTED:
            line[5] += Decimal(stake or 0)
    return [[t, d, rec, att, none, _s(stake)] for t, d, rec, att, none, stake in out.values()]


# Seats played: distinct (round, seat) per table, counted as the rows of a DISTINCT
# (a hash aggregate) rather than with COUNT(DISTINCT), which sorts (and spilled to disk).
_SEATS = """
    {cte}
    SELECT t, COUNT(*) FROM (
        SELECT DISTINCT r.table_id AS t, w.round_id, w.seat
        {current} AND w.seat > 0
    ) seats
    GROUP BY t
"""

# Rounds per table, dealer and status in one pass: active rounds per table and per dealer,
# voided rounds per table.
_ROUNDS = """
    SELECT r.table_id, r.dealer_id, r.status, COUNT(*)
    FROM tables_round r WHERE {where}
    GROUP BY r.table_id, r.dealer_id, r.status
"""

# Counted findings (few rows: the revision's primary key is probed per finding): open ones
# of an active round's current revision, and reviewed ones (confirmed, escalated) whatever
# became of their round since, unless an earlier revision's reviewed finding of the same rule
# and path stands for the same wager (``audit.selectors.counted_findings``).
_FINDINGS = """
    FROM tables_round r
    JOIN audit_finding f ON f.round_id = r.id AND f.gaming_day = r.gaming_day
    JOIN tables_roundrevision v ON v.id = f.revision_id AND v.gaming_day = f.gaming_day
    WHERE {where} AND f.round_id >= %s AND f.round_id <= %s
        AND ((f.status = %s AND r.status = %s AND v.number = r.revision) OR f.status IN (%s, %s))
        AND NOT EXISTS (
            SELECT 1 FROM audit_finding h
            WHERE h.round_id = f.round_id AND h.gaming_day = f.gaming_day AND h.revision_id < f.revision_id
                AND h.status IN (%s, %s) AND h.code = f.code AND h.path = f.path
        )
"""


def slice_aggregates(*, casino, gaming_day: date, first: int, last: int) -> dict:
    """SQL aggregates of the rounds of ``gaming_day`` with ids in ``[first, last]``.

    Returns lists of rows (amounts as strings) that add up across slices:
    ``wagers``: table, ruleset version, wager key, settlements, handle, sum of stake squared,
    paid (actual), player's net actual, player's net expected, recorded-expected, overpaid,
    underpaid; ``tables``: table, rounds, seats played, voided rounds; ``findings``: table,
    kind, count, amount; ``dealers``: dealer, rounds, rounds with findings, findings, amount;
    ``decisions``: the decisions' prices per table and game (table, game, cost, priced handle,
    seats) and the slice's rounds still queued for pricing (run after the slice's own pricing:
    audit/reports/README.md, "Summed by the slices").
    """
    part = _Slice(casino, gaming_day, first, last)
    if not part.tables:
        return {"wagers": [], "tables": [], "findings": [], "dealers": [], "pays": [],
                "decisions": {"tables": [], "pending": 0}}
    where, params = part.where()
    cte, current = _CURRENT.format(where=where), _CURRENT_WAGERS
    current_params = [*params, Round.ACTIVE, first, last, first, last, part.day]
    wager_rows = _rows(_WAGER_SUMS.format(cte=cte, current=current), [*current_params, POT_KEY])
    strays = sum(row[-1] for row in wager_rows)
    if strays:
        raise RuntimeError(
            f"{strays} wagers of rounds {first}-{last} belong to another round than their revision"
        )
    seats = dict(_rows(_SEATS.format(cte=cte, current=current), current_params))
    cte_params, wager_params = current_params[:-3], current_params[-3:]
    pay_rows = _rows(_PAYS.format(cte=cte, current=current), [*cte_params, *wager_params])

    per_table: dict[int, int] = {}
    voided: dict[int, int] = {}
    dealer_rounds: dict[int, int] = {}
    for table, dealer, status, n in _rows(_ROUNDS.format(where=where), params):
        if status == Round.ACTIVE:
            per_table[table] = per_table.get(table, 0) + n
            dealer_rounds[dealer] = dealer_rounds.get(dealer, 0) + n
        elif status == Round.VOIDED:
            voided[table] = voided.get(table, 0) + n

    findings = _FINDINGS.format(where=where)
    finding_params = [
        *params, first, last, Finding.OPEN, Round.ACTIVE, *REVIEWED_FINDINGS, *REVIEWED_FINDINGS
    ]
    finding_rows = _rows(
        f"SELECT r.table_id, f.kind, COUNT(*), SUM(f.amount) {findings} GROUP BY r.table_id, f.kind",
        finding_params,
    )
    dealer_errors = {}
    # A voided round counts for its dealer only while it holds a reviewed error: it is added
    # to the dealer's rounds here (``_ROUNDS`` counts active rounds).
    for d, rounds, voided_held, n, amount in _rows(
        "SELECT r.dealer_id, COUNT(DISTINCT f.round_id), "
        "COUNT(DISTINCT CASE WHEN r.status = %s THEN f.round_id END), COUNT(*), SUM(f.amount) "
        f"{findings} GROUP BY r.dealer_id",
        [Round.VOIDED, *finding_params],
    ):
        dealer_errors[d] = (rounds, n, amount)
        dealer_rounds[d] = dealer_rounds.get(d, 0) + voided_held
    tables = {t: [t, n, seats.get(t, 0), voided.pop(t, 0)] for t, n in per_table.items()}
    for t, n in voided.items():
        tables[t] = [t, 0, 0, n]
    return {
        "wagers": [
            [table, version, wager, n, *(_s(amount) for amount in amounts)]
            for table, version, wager, n, *amounts, _ in wager_rows
        ],
        "tables": list(tables.values()),
        "pays": _pays_by_table_and_dealer(pay_rows),
        "findings": [[t, kind, n, _s(amount)] for t, kind, n, amount in finding_rows],
        "decisions": {
            "tables": [[t, game, str(f.cost), str(f.handle), f.seats] for (t, game), f in
                       slice_table_games(casino.pk, gaming_day, first, last).items()],
            "pending": pending_rounds(casino.pk, gaming_day, last, first=first),
        },
        "dealers": [
            [
                d,
                n,
                dealer_errors.get(d, (0, 0, None))[0],
                dealer_errors.get(d, (0, 0, None))[1],
                _s(dealer_errors.get(d, (0, 0, None))[2]),
            ]
            for d, n in dealer_rounds.items()
        ],
    }
