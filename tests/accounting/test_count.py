"""The drop and the soft count: only a dropped box is counted; two different counters sign;
a signed count changes only by a new revision with a reason, and the ledger always holds the
current count (hypothesis: any sequence of revisions)."""

from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.accounting.ledger import account_for, balance, balance_by_denomination
from tables.accounting.models import (
    Account,
    AccountingSettings,
    BuyIn,
    CountSignature,
    SoftCount,
    Transaction,
)
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop, drop_box_for
from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
from tests.accounting.drop_floor import drop_floor
from tests.examples import examples
from tests.factories import user_with_role


def _dropped(f):
    b = buy_in_record(table=f.table, seat=1, kind="cash", amount=D("500"), author=f.pit_boss)
    return drop_box_drop(table=f.table, gaming_day=b.gaming_day, author=f.counter)


def _accounts(f):
    c = f.casino
    return (account_for(c, Account.TABLE_RESULT, f.table), account_for(c, Account.DROP, f.table),
            account_for(c, Account.CAGE))


def test_a_signed_count_posts_the_drop(db):
    f = drop_floor()
    box = _dropped(f)
    count = soft_count_enter(box=box, author=f.counter, currency={"100": 4, "20": 5}, chips=[
        {"denomination": "25", "count": 2}], markers="1000.00", coupons="50")
    assert (count.currency, count.chips, count.markers, count.coupons, count.drop) == (
        D("500"), D("50"), D("1000"), D("50"), D("1550"))
    assert not Transaction.objects.filter(kind=Transaction.COUNT).exists()  # one signature posts nothing
    sig = soft_count_sign(count=count, author=f.second_counter)
    result, drop, cage = _accounts(f)
    assert (balance(result), balance(drop), balance(cage)) == (D("-1550"), D("1500"), D("50"))
    assert balance_by_denomination(cage) == {D("25.00"): D("50")}
    assert sig.transaction.gaming_day == box.gaming_day and sig.transaction.kind == Transaction.COUNT


def test_a_revision_needs_a_reason_and_a_second_signature_and_posts_the_difference(db):
    f = drop_floor()
    box = _dropped(f)
    first = soft_count_enter(box=box, author=f.counter, currency={"100": 5})
    soft_count_sign(count=first, author=f.second_counter)
    with pytest.raises(ValidationError) as refused:
        soft_count_enter(box=box, author=f.second_counter, currency={"100": 4})
    assert "reason" in refused.value.message_dict
    second = soft_count_enter(box=box, author=f.second_counter, currency={"100": 4}, chips={"5": 3},
                              reason="a 100 note was another table's")
    with pytest.raises(ValidationError) as refused:
        soft_count_sign(count=second, author=f.second_counter)
    assert "signed_by" in refused.value.message_dict
    sig = soft_count_sign(count=second, author=f.counter)
    result, drop, cage = _accounts(f)
    assert (balance(result), balance(drop), balance(cage)) == (D("-415"), D("400"), D("15"))
    assert {(leg.account.kind, leg.amount) for leg in sig.transaction.legs.select_related("account")} == {
        ("table_result", D("85")), ("drop", D("-100")), ("cage", D("15"))}
    assert list(box.counts.values_list("revision", flat=True)) == [1, 2]  # every revision kept


def test_an_unsigned_revision_may_be_replaced_and_then_cannot_be_signed(db):
    f = drop_floor()
    box = _dropped(f)
    typo = soft_count_enter(box=box, author=f.counter, currency={"100": 50})
    fixed = soft_count_enter(box=box, author=f.counter, currency={"100": 5}, reason="typed 50 for 5")
    with pytest.raises(ValidationError, match="replaced by revision 2"):
        soft_count_sign(count=typo, author=f.second_counter)
    soft_count_sign(count=fixed, author=f.second_counter)
    with pytest.raises(ValidationError, match="already signed"):
        soft_count_sign(count=fixed, author=user_with_role("count", username="counter-3"))
    assert balance(_accounts(f)[1]) == D("500")


def test_a_box_never_dropped_is_not_counted(db):
    f = drop_floor()
    b = buy_in_record(table=f.table, seat=1, kind="cash", amount=D("500"), author=f.pit_boss)
    box = drop_box_for(table=f.table, gaming_day=b.gaming_day, author=f.pit_boss)
    with pytest.raises(ValidationError) as refused:
        soft_count_enter(box=box, author=f.counter, currency={"100": 5})
    assert "never dropped" in refused.value.message_dict["box"][0]
    assert not SoftCount.objects.exists()


@pytest.mark.parametrize(("currency", "chips", "markers", "where"), [
    ({"100": -1}, None, 0, "currency[0].count"),
    ({"100": "1.5"}, None, 0, "currency[0].count"),
    ([{"denomination": "100", "count": 2.5}], None, 0, "currency[0].count"),
    ({"3": 1}, None, 0, "currency[0].denomination"),
    (None, {"7": 1}, 0, "chips[0].denomination"),
    (None, [{"denomination": "5", "count": 1}, {"denomination": "5.00", "count": 1}], 0, "chips[1].denomination"),
    (None, None, "-1", "markers"),
    (None, None, "1.001", "markers"),
    ("lots", None, 0, "currency"),
])
def test_bad_counts_are_refused_with_the_entry_named(db, currency, chips, markers, where):
    f = drop_floor()
    box = _dropped(f)
    with pytest.raises(ValidationError) as refused:
        soft_count_enter(box=box, author=f.counter, currency=currency, chips=chips, markers=markers)
    assert where in refused.value.message_dict
    assert not SoftCount.objects.exists()


def test_who_drops_and_counts(db):
    f = drop_floor()
    b = buy_in_record(table=f.table, seat=1, kind="cash", amount=D("500"), author=f.pit_boss)
    for outsider in (f.pit_boss, f.finance):
        with pytest.raises(ValidationError, match="only the count team"):
            drop_box_drop(table=f.table, gaming_day=b.gaming_day, author=outsider)
    AccountingSettings.objects.create(casino=f.casino, finance_counts=True)  # no count team here
    box = drop_box_drop(table=f.table, gaming_day=b.gaming_day, author=f.finance)
    with pytest.raises(ValidationError, match="already dropped"):
        drop_box_drop(table=f.table, gaming_day=b.gaming_day, author=f.counter)
    count = soft_count_enter(box=box, author=f.finance, currency={"100": 5})
    soft_count_sign(count=count, author=f.counter)
    assert CountSignature.objects.get().signed_by == f.counter


_revision = st.fixed_dictionaries({
    "currency": st.dictionaries(st.sampled_from(["1", "5", "20", "100"]), st.integers(0, 300), max_size=4),
    "chips": st.dictionaries(st.sampled_from(["1", "5", "25", "100"]), st.integers(0, 40), max_size=4),
    "markers": st.sampled_from(["0", "500.00", "2500.50"]),
    "coupons": st.sampled_from(["0", "25"]),
    "sign": st.booleans(),
})


@settings(max_examples=examples(60, 6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(revisions=st.lists(_revision, min_size=1, max_size=4))
def test_the_ledger_always_holds_the_current_count(db, revisions):
    """Whatever revisions are entered and signed, the accounts' balances equal the latest
    signed revision's figures, and every posting balances."""
    from django.db import transaction
    sid = transaction.savepoint()
    try:
        f = drop_floor()
        box = _dropped(f)
        signers = (f.second_counter, f.counter)
        current = None
        for i, rev in enumerate(revisions):
            count = soft_count_enter(box=box, author=signers[(i + 1) % 2], currency=rev["currency"],
                                     chips=rev["chips"], markers=rev["markers"], coupons=rev["coupons"],
                                     reason=f"recount {i}" if i else "")
            if rev["sign"]:
                soft_count_sign(count=count, author=signers[i % 2])
                current = count
        result, drop, cage = _accounts(f)
        expected = (-current.drop, current.currency + current.markers, current.chips) if current else (0, 0, 0)
        assert (balance(result), balance(drop), balance(cage)) == expected
        for txn in Transaction.objects.filter(kind=Transaction.COUNT):
            assert sum(leg.amount for leg in txn.legs.all()) == 0
    finally:
        transaction.savepoint_rollback(sid)


def test_the_demo_count_reconciles_on_every_table_but_one(db):
    import random

    from django.utils import timezone

    from casino.demo.count import demo_buy_ins, play_demo_count
    from tables.services.sessions import table_session_open
    from tests.factories import DealerFactory, TableFactory

    f = drop_floor()
    other = TableFactory(label="BJ-9", pit=f.table.pit)
    table_session_open(table=other, dealer=DealerFactory(casino=f.casino), author=f.pit_boss)
    rng, now = random.Random(3), timezone.now()
    for table in (f.table, other):
        demo_buy_ins(table=table, pit_boss=f.pit_boss, rng=rng, at=now)
    day = BuyIn.objects.first().gaming_day
    result = play_demo_count(casino=f.casino, counters=(f.counter, f.second_counter), gaming_day=day, at=now)
    differences = {label: counted - estimated for label, (estimated, counted) in result.items()}
    assert sorted(differences.values()) == [D("-100"), D("0")]


def test_load_demo_counts_yesterdays_boxes_all_reconciling_but_one_and_again_is_harmless(db):
    from django.core.management import call_command

    from tables.accounting.models import DropBox
    from tables.accounting.selectors_drop import boxes_of_day
    from tables.accounting.services.soft_count import current_count

    call_command("load_demo", "--rounds", "0", stdout=io.StringIO())
    counted_day = SoftCount.objects.values_list("box__gaming_day", flat=True).distinct().get()
    rows = boxes_of_day(None, counted_day)
    assert len(rows) >= 2 and all(row.dropped and row.current for row in rows)
    assert sorted(row.current.drop - row.estimated for row in rows)[:2] == [D("-100"), D("0")]
    assert sum(1 for row in rows if row.current.drop != row.estimated) == 1
    assert all(current_count(box) is None for box in DropBox.objects.exclude(gaming_day=counted_day))
    before = (SoftCount.objects.count(), BuyIn.objects.count())
    call_command("load_demo", "--rounds", "0", stdout=io.StringIO())
    assert (SoftCount.objects.count(), BuyIn.objects.count()) == before
