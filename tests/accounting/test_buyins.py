"""Buy-ins: recorded at an open table on the gaming day of their moment; refused with the
field named; append-only, corrected by a void and a new record; the estimated drop."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

from tables.accounting.models import BuyIn, BuyInVoid, DropBox
from tables.accounting.selectors_drop import estimated_drop
from tables.accounting.services.buyins import buy_in_record, buy_in_void
from tables.services.sessions import table_session_close
from tests.accounting.drop_floor import drop_floor


def test_a_buy_in_is_stored_on_the_gaming_day_of_its_moment_and_makes_the_box(db):
    f = drop_floor()
    # 05:30 New York on 3 March is still the gaming day of 2 March (start hour 6).
    at = datetime(2026, 3, 3, 10, 30, tzinfo=UTC)
    b = buy_in_record(table=f.table, seat=3, kind="cash", amount=D("500.00"), author=f.pit_boss,
                      player_identifier=" CARD-77 ", at=at)
    assert (b.gaming_day.isoformat(), b.seat, b.player_identifier, b.recorded_at) == ("2026-03-02", 3, "CARD-77", at)
    assert DropBox.objects.filter(table=f.table, gaming_day=b.gaming_day).count() == 1
    assert buy_in_record(table=f.table, seat=1, kind="marker", amount=D("1000"), author=f.pit_boss,
                         player_identifier="", at=at).player_identifier is None


@pytest.mark.parametrize(("fields", "field"), [
    ({"seat": 0}, "seat"), ({"seat": 8}, "seat"), ({"amount": D("0")}, "amount"),
    ({"amount": D("-5")}, "amount"), ({"amount": D("1.005")}, "amount"), ({"kind": "credit"}, "kind"),
    ({"player_identifier": "x" * 41}, "player_identifier"), ({"player_identifier": "a\x00b"}, "player_identifier"),
])
def test_bad_input_is_refused_with_the_field_named_and_nothing_stored(db, fields, field):
    f = drop_floor()
    with pytest.raises(ValidationError) as refused:
        buy_in_record(table=f.table, author=f.pit_boss, **{"seat": 1, "kind": "cash", "amount": D("100"), **fields})
    assert field in refused.value.message_dict
    assert not BuyIn.objects.exists()


def test_a_buy_in_at_a_closed_table_is_refused(db):
    f = drop_floor(open_table=False)
    with pytest.raises(ValidationError) as refused:
        buy_in_record(table=f.table, seat=1, kind="cash", amount=D("100"), author=f.pit_boss)
    assert "closed" in refused.value.message_dict["table"][0]
    assert not BuyIn.objects.exists() and not DropBox.objects.exists()


def test_a_correction_is_a_void_and_a_new_record_and_the_estimate_counts_only_what_stands(db):
    f = drop_floor()
    wrong = buy_in_record(table=f.table, seat=2, kind="cash", amount=D("300"), author=f.pit_boss)
    buy_in_record(table=f.table, seat=4, kind="marker", amount=D("2000"), author=f.pit_boss)
    buy_in_record(table=f.table, seat=5, kind="chips", amount=D("75"), author=f.pit_boss)
    table_session_close(session=f.table.sessions.get(), author=f.pit_boss)  # a closed table may be corrected
    buy_in_void(buy_in=wrong, reason="was 200, not 300", author=f.pit_boss,
                replacement={"seat": 2, "kind": "cash", "amount": D("200")})
    right = BuyIn.objects.get(corrects=wrong)
    assert (right.amount, right.gaming_day, right.recorded_at) == (D("200"), wrong.gaming_day, wrong.recorded_at)
    assert estimated_drop(None, wrong.gaming_day)[f.table.pk] == {
        "cash": D("200"), "marker": D("2000"), "chips": D("75"), "estimated_drop": D("2200")}
    with pytest.raises(ValidationError, match="already voided"):
        buy_in_void(buy_in=wrong, reason="again", author=f.pit_boss)


def test_only_the_recorder_or_a_gaming_manager_voids_and_a_reason_is_required(db):
    f = drop_floor()
    b = buy_in_record(table=f.table, seat=2, kind="cash", amount=D("300"), author=f.pit_boss)
    from tests.factories import user_with_role
    with pytest.raises(ValidationError, match="only the pit boss"):
        buy_in_void(buy_in=b, reason="no", author=user_with_role("pit_boss", username="other-boss"))
    with pytest.raises(ValidationError) as refused:
        buy_in_void(buy_in=b, reason="  ", author=f.manager)
    assert "reason" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        buy_in_void(buy_in=b, reason="seat", author=f.manager, replacement={"seat": 9, "kind": "cash",
                                                                              "amount": D("1")})
    assert "seat" in refused.value.message_dict
    assert not BuyInVoid.objects.exists()  # the void rolled back with its refused replacement
    buy_in_void(buy_in=b, reason="never happened", author=f.manager)


@pytest.mark.postgres
def test_buy_ins_and_their_voids_are_append_only_in_postgresql(db):
    from django.db import connection
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL guards")
    f = drop_floor()
    b = buy_in_record(table=f.table, seat=2, kind="cash", amount=D("300"), author=f.pit_boss)
    for statement in ("UPDATE accounting_buyin SET amount = 1", "DELETE FROM accounting_buyin"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert BuyIn.objects.get().amount == b.amount
