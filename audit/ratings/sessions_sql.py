"""A day's rating sessions cut and summed in SQL (issue #20): one row per (casino, player, gaming
day, table, session, ruleset version, wager), and per round for a Hold'em pot (its rake share is
per round). A busy day is ~100,000 wagers; Python only sees the few thousand session rows.

The session rule (README "Definitions"): at one table and gaming day, a gap between two of a
player's rounds of more than the threshold starts a new session; a session's time is the sum of
the gaps inside it, each in whole seconds rounded down. Times are compared in integer
microseconds on both databases, so the cut is exactly the one a ``timedelta`` comparison makes.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.utils.dateparse import parse_date

CENT = Decimal("0.01")

#: A timestamp as integer microseconds since the epoch. SQLite (the quick start) keeps Django's
#: text 'YYYY-MM-DD HH:MM:SS[.ffffff]'; its julianday() is a float and would misplace a cut.
_MICROS = {
    "postgresql": "CAST(EXTRACT(EPOCH FROM {col}) * 1000000 AS BIGINT)",
    "sqlite": "(CAST(strftime('%%s', {col}) AS INTEGER) * 1000000"
              " + CAST(substr({col} || '.000000', 21, 6) AS INTEGER))",
}

_SQL = """
WITH played AS ({played}),
gaps AS (
  SELECT played.*,
         {at_micros} - LAG({at_micros}) OVER w AS gap,
         LAG(r_round) OVER w AS previous_round
  FROM played
  WINDOW w AS (PARTITION BY r_casino, r_player, r_day, r_table ORDER BY r_at, r_round, r_wager)
),
cut AS (
  SELECT gaps.*,
         CASE WHEN gap IS NULL OR gap > %s THEN 1 ELSE 0 END AS starts,
         SUM(CASE WHEN gap IS NULL OR gap > %s THEN 1 ELSE 0 END) OVER (
           PARTITION BY r_casino, r_player, r_day, r_table ORDER BY r_at, r_round, r_wager
           ROWS UNBOUNDED PRECEDING) AS session,
         CASE WHEN r_wager = %s THEN r_round END AS pot_round
  FROM gaps
)
SELECT r_casino, r_player, r_day, r_table, session, r_version, r_wager, pot_round,
       SUM(r_placed), SUM(r_stake), SUM(r_net),
       SUM(CASE WHEN previous_round IS NULL OR previous_round <> r_round THEN 1 ELSE 0 END),
       SUM(CASE WHEN starts = 1 THEN 0 ELSE gap / 1000000 END),
       MIN({at_micros}), MAX({at_micros})
FROM cut
GROUP BY r_casino, r_player, r_day, r_table, session, r_version, r_wager, pot_round
"""


def _money(value) -> Decimal:
    """SQLite sums a decimal column as a float: back to the cent, as Django's own converter does."""
    if value is None:
        return Decimal(0)
    if isinstance(value, Decimal):
        return value
    return Decimal(repr(value)).quantize(CENT)


def _day(value) -> date:
    return value if isinstance(value, date) else parse_date(value)


def at_micros(micros: int) -> datetime:
    """Integer microseconds since the epoch as the UTC time (exact, unlike a float timestamp)."""
    return EPOCH + timedelta(microseconds=micros)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def session_rows(played_queryset, *, gap: timedelta, pot_key: str) -> list[tuple]:
    """``played_queryset``: one row per wager with the columns r_casino, r_player, r_day, r_table,
    r_at, r_round, r_version, r_wager, r_placed (1, or 0 for a row that is not a wager placed), r_stake
    and r_net (the player's net). Returns tuples
    (casino, player, day, table, session no., version, wager, pot round or None, placed, stake,
    net, rounds, seconds, first and last round's time as integer microseconds: :func:`at_micros`;
    a few thousand sessions' times are made into datetimes, not every row's)."""
    try:
        played_sql, played_params = played_queryset.query.sql_with_params()
    except EmptyResultSet:  # e.g. no casino of the reader's: nothing to rate
        return []
    at_micros = _MICROS[connection.vendor].format(col="r_at")
    sql = _SQL.format(played=played_sql, at_micros=at_micros)
    limit = (gap.days * 86_400 + gap.seconds) * 1_000_000 + gap.microseconds
    with connection.cursor() as cursor:
        cursor.execute(sql, (*played_params, limit, limit, pot_key))
        rows = cursor.fetchall()
    return [(c, p, _day(d), t, s, v, w, pot, int(placed or 0), _money(stake), _money(net), int(rounds),
             int(seconds or 0), int(first), int(last))
            for c, p, d, t, s, v, w, pot, placed, stake, net, rounds, seconds, first, last in rows]
