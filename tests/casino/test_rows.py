"""Built INSERTs write exactly what the ORM would, one row or many (UNNEST on PostgreSQL)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import DataError, connection, transaction

from casino.rows import RowInserter
from tables.models import Wager
from tables.services.rounds import round_record
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

COLUMNS = ("revision_id", "round_id", "gaming_day", "seat", "player", "wager", "hand", "line", "stake", "expected_net",
           "recorded_net", "outcome", "explanation")
WAGERS = RowInserter(Wager, COLUMNS, returning_pk=True)


def _revision(pitboss):  # noqa: F811
    audited = round_record(table=open_table("ante_up_21", pitboss), data=ROUNDS["ante_up_21"]["correct"][0],
                           author=pitboss)
    return audited.revision


@pytest.mark.parametrize("count", [1, 2, 25])
def test_rows_come_back_as_written_in_order_with_their_keys(pitboss, count):  # noqa: F811
    revision = _revision(pitboss)
    rows = [(revision.pk, revision.round_id, revision.gaming_day, 1 + i % 7, f"P-{i}" if i % 3 else "", "ante", None if i % 2 else i,
             "", Decimal("25.5") + i, Decimal("-25"), None if i % 4 == 0 else Decimal(i) / 4, "lose",
             f"row {i}: naïve — ünïcode") for i in range(count)]
    ids = WAGERS.insert(rows)
    assert len(ids) == count and ids == sorted(ids)
    stored = {w.pk: w for w in Wager.objects.filter(pk__in=ids)}
    cents = Decimal("0.01")
    for pk, row in zip(ids, rows, strict=True):
        # Money comes back with its two decimal places (str tells 25.50 from 25.5).
        expected = tuple(str(v.quantize(cents)) if isinstance(v, Decimal) else v for v in row)
        assert tuple(str(v) if isinstance(v, Decimal) else v for v in
                     (getattr(stored[pk], c) for c in COLUMNS)) == expected


def test_a_value_too_long_is_refused_not_cut(pitboss):  # noqa: F811
    if connection.vendor != "postgresql":
        pytest.skip("SQLite does not enforce a text column's length")
    revision = _revision(pitboss)
    row = (revision.pk, revision.round_id, revision.gaming_day, 1, "", "ante", 1, "", Decimal(5), Decimal(5), None, "win", "")
    too_long = (*row[:4], "P" * 41, *row[5:])
    with pytest.raises(DataError), transaction.atomic():
        WAGERS.insert([row, too_long])


def test_a_row_short_of_a_value_is_refused_before_anything_is_sent(pitboss):  # noqa: F811
    revision = _revision(pitboss)
    row = (revision.pk, revision.round_id, revision.gaming_day, 1, "", "ante", 1, "", Decimal(5), Decimal(5), None, "win", "")
    before = Wager.objects.count()
    with pytest.raises(ValueError):
        WAGERS.insert([row, row[:-1]])
    assert Wager.objects.count() == before
