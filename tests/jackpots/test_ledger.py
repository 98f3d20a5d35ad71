"""Issue #7: meters, the double-entry ledger, awards, adjustments and reconciliation."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum

from audit.jackpots.ledger import Book, LedgerUnbalanced
from audit.jackpots.models import JackpotAward, JackpotLineConfig, LedgerLeg, LedgerTransaction
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.rules import cents
from audit.jackpots.selectors import bank_state, liability_report
from audit.jackpots.services import (
    jackpot_adjustment_decide,
    jackpot_adjustment_request,
    jackpot_award_pay,
    jackpot_line_configure,
)
from tables.models import Wager
from tables.services.rounds import round_correct, round_record, round_void
from tests.factories import user_with_role
from tests.jackpots.helpers import (
    DAY_START,
    PROGRESSIVE,
    SIX_CARD_BUST,
    hit_round,
    linked_bank,
    simulated_day,
)

pytestmark = pytest.mark.django_db
SEVEN_CARD_BUST = (
    "2H",
    "2C",
    "2D",
    "2S",
    "3H",
    "3C",
    "TD",
)  # 2+2+2+2+3+3 = 14, then T: 24 with 7 cards
D = Decimal


def _line(bank, line, at=None):
    return next(ln for ln in bank_state(bank, at=at).lines if ln.line == line)


def _tax_of_rounds(tables) -> Decimal:
    total = Wager.objects.filter(
        round__table__in=tables, round__status="active", wager="taxpayers_fortune_tax"
    )
    total = [w for w in total.select_related("round") if w.revision.number == w.round.revision]
    return sum((-w.expected_net for w in total), D("0"))


def test_simulated_day_on_linked_tables_ties_to_the_cent():
    bank, tables, manager, pitboss = linked_bank(3)
    finance = user_with_role("finance", username="fin1")
    manager2 = user_with_role("gaming_manager", username="gm2")
    jackpot_line_configure(
        bank=bank,
        line="bust7_unsuited",
        progressive=False,
        author=manager,
        reason="fixed",
        at=DAY_START,
    )
    extra = [
        (12, tables[0], hit_round()),  # bust5_unsuited, progressive
        (40, tables[1], hit_round(player=("AS", "KS"))),  # bust5_suited, progressive with cap
        (
            41,
            tables[2],
            hit_round(dealer=SIX_CARD_BUST, player=("AD", "QD")),
        ),  # bust6_suited >= $1000: W-2G
        (
            60,
            tables[0],
            hit_round(dealer=SIX_CARD_BUST, player=("AH", "KC")),
        ),  # bust6_unsuited fixed $400
        (80, tables[1], hit_round(dealer=SEVEN_CARD_BUST)),  # bust7_unsuited fixed $4000: W-2G
        (95, tables[2], hit_round()),  # bust5_unsuited again
    ]
    simulated_day(tables, pitboss, rounds=120, extra=extra)
    awards = list(JackpotAward.objects.filter(bank=bank).order_by("won_at"))
    assert [a.line for a in awards] == [
        "bust5_unsuited",
        "bust5_suited",
        "bust6_suited",
        "bust6_unsuited",
        "bust7_unsuited",
        "bust5_unsuited",
    ]
    assert [a.w2g_required for a in awards] == [False, False, True, False, True, False]
    assert awards[3].amount == D("400") and awards[4].amount == D("4000")
    # The first progressive award is the meter as it stood; the meter reset to its reset value.
    assert awards[0].amount >= D("40.00") and awards[2].amount >= D("1000.00")
    # Pay the small ones, the W-2G one with its reference; leave the $4000 pending.
    end = DAY_START + timedelta(hours=3)
    for award in (awards[0], awards[1], awards[3], awards[5]):
        jackpot_award_pay(award=award, author=pitboss, at=end)
    jackpot_award_pay(
        award=awards[2], author=pitboss, w2g_reference="W2G-0001", winner_name="A. Player", at=end
    )
    # An approved reduction, a rejected one, and one still waiting: only the first moves money.
    reduce = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="-1.50",
        reason="malfunction_correction",
        note="meter double-counted one tax",
        author=finance,
        at=end,
    )
    jackpot_adjustment_decide(
        adjustment=reduce, approve=True, author=manager2, at=end + timedelta(minutes=1)
    )
    rejected = jackpot_adjustment_request(
        bank=bank,
        line="bust6_suited",
        amount="-2.00",
        reason="game_closing",
        note="test",
        author=finance,
        at=end,
    )
    jackpot_adjustment_decide(
        adjustment=rejected, approve=False, author=manager2, at=end + timedelta(minutes=1)
    )
    jackpot_adjustment_request(
        bank=bank,
        line="bust6_suited",
        amount="-1.00",
        reason="jackpot_paid",
        note="waiting",
        author=finance,
        at=end,
    )

    day = DAY_START.date()
    report = liability_report(day_from=day, day_to=day)
    summary = report.banks[0]
    # Closing = opening + contributions + house funding - payments - approved reductions + increases, to the cent.
    assert summary["closing_liability"] == (
        summary["opening_liability"]
        + summary["contributions"]
        + summary["house_funding"]
        - summary["payments"]
        - summary["approved_reductions"]
        + summary["approved_increases"]
    )
    assert summary["approved_reductions"] == D("1.50") and summary["approved_increases"] == 0
    assert summary["payments"] == sum(
        (a.amount for a in (awards[0], awards[1], awards[2], awards[3], awards[5])), D("0")
    )
    # Contributions are exactly the configured shares of the tax the rounds collected.
    tax = _tax_of_rounds(tables)
    assert summary["contribution_base"] == tax > 0
    per_round = Wager.objects.filter(
        round__table__in=tables, wager="taxpayers_fortune_tax", expected_net__lt=0
    )
    taxes_by_round: dict[int, Decimal] = {}
    for w in per_round:
        taxes_by_round[w.round_id] = taxes_by_round.get(w.round_id, D("0")) - w.expected_net
    expected_contrib = sum(
        (
            cents(t * D(inc)) + cents(t * D(hid))
            for t in taxes_by_round.values()
            for _r, inc, hid, _c in PROGRESSIVE.values()
        ),
        D("0"),
    )
    assert summary["contributions"] == expected_contrib
    # The closing liability is what the meters, reserves and payable hold now.
    state = bank_state(bank)
    assert summary["closing_liability"] == state.total_liability
    assert state.payable == awards[4].amount  # only the $4000 is still owed
    for line, (reset, *_rest) in PROGRESSIVE.items():
        assert _line(bank, line).meter >= D(reset)
    capped = _line(bank, "bust5_suited")
    assert capped.meter <= D("150.00")
    # The recomputation from the recorded rounds matches the ledger.
    check = jackpot_recompute(bank)
    assert check.ok, (check.differences, check.award_mismatches)
    assert check.rounds == 120
    # Every transaction balances.
    for txn in LedgerTransaction.objects.filter(bank=bank):
        assert sum(leg.amount for leg in txn.legs.all()) == 0


def test_progressive_award_is_the_meter_and_a_dealer_underpay_is_a_finding():
    bank, tables, manager, pitboss = linked_bank(1)
    meter = _line(bank, "bust5_unsuited").meter
    audited = round_record(
        table=tables[0],
        author=pitboss,
        at=DAY_START + timedelta(minutes=1),
        data=hit_round(
            paid=[
                {"wager": "21", "hand": 0, "net": "15.00"},
                {"wager": "upcard_luck", "net": "25.00"},
                {"wager": "taxpayers_fortune_tax", "net": "-2.00"},
                {"wager": "taxpayers_fortune_jackpot", "net": str(meter - 10)},
            ]
        ),
    )
    award = JackpotAward.objects.get(round=audited.round)
    assert award.amount == meter
    jackpot = next(s for s in audited.audit.settlements if s.wager == "taxpayers_fortune_jackpot")
    assert jackpot.net == meter
    finding = audited.round.findings.get(kind="underpay")
    assert finding.amount == D("10.00")
    # Meter reset to its reset value, then this round's own contribution on top.
    reset = D(PROGRESSIVE["bust5_unsuited"][0])
    assert _line(bank, "bust5_unsuited").meter == reset + cents(D("2") * D("0.30"))


def test_w2g_sized_win_cannot_be_closed_without_its_reference():
    bank, tables, manager, pitboss = linked_bank(1)
    round_record(
        table=tables[0],
        author=pitboss,
        data=hit_round(dealer=SIX_CARD_BUST, player=("AD", "QD")),
        at=DAY_START + timedelta(minutes=1),
    )
    award = JackpotAward.objects.get(bank=bank)
    assert award.w2g_required and award.amount >= D("1000") and award.odds_multiple >= 300
    with pytest.raises(ValidationError) as err:
        jackpot_award_pay(award=award, author=pitboss)
    assert "w2g_reference" in err.value.message_dict
    award.refresh_from_db()
    assert award.status == JackpotAward.PENDING and award.payment_transaction is None
    assert bank_state(bank).payable == award.amount
    # The database refuses it too, whoever writes.
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotAward.objects.filter(pk=award.pk).update(status=JackpotAward.PAID)
    paid = jackpot_award_pay(
        award=award,
        author=pitboss,
        w2g_reference="W2G-77",
        winner_name="B. Winner",
        federal_withholding="0",
    )
    assert paid.status == JackpotAward.PAID and paid.paid_by == pitboss
    assert bank_state(bank).payable == 0


def test_reductions_need_a_second_person_who_is_a_gaming_manager():
    bank, tables, manager, pitboss = linked_bank(1)
    finance = user_with_role("finance", username="fin1")
    before = LedgerTransaction.objects.count()
    with pytest.raises(ValidationError) as err:
        jackpot_adjustment_request(
            bank=bank,
            line="bust5_unsuited",
            amount="-0.01",
            reason="malfunction_correction",
            note="below the reset",
            author=finance,
        )
    assert "below its floor" in err.value.message_dict["amount"][0]
    with pytest.raises(ValidationError):
        jackpot_adjustment_request(
            bank=bank,
            line="bust5_unsuited",
            amount="-1",
            reason="because",
            note="x",
            author=finance,
        )
    with pytest.raises(ValidationError):
        jackpot_adjustment_request(
            bank=bank,
            line="bust5_unsuited",
            amount="-1",
            reason="jackpot_paid",
            note="x",
            author=pitboss,
        )
    increase = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="10.00",
        reason="malfunction_correction",
        note="meter lost a reading",
        author=manager,
    )
    with pytest.raises(ValidationError) as err:
        jackpot_adjustment_decide(adjustment=increase, approve=True, author=manager)
    assert "second gaming manager" in err.value.message_dict["author"][0]
    with pytest.raises(ValidationError):
        jackpot_adjustment_decide(adjustment=increase, approve=True, author=finance)
    assert LedgerTransaction.objects.count() == before  # nothing posted without approval
    other = user_with_role("gaming_manager", username="gm2")
    jackpot_adjustment_decide(adjustment=increase, approve=True, author=other)
    assert _line(bank, "bust5_unsuited").meter == D("50.00")
    reduction = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="-10.00",
        reason="malfunction_correction",
        note="undo",
        author=finance,
    )
    jackpot_adjustment_decide(adjustment=reduction, approve=True, author=other)
    assert _line(bank, "bust5_unsuited").meter == D("40.00")
    # A request that was fine when made but would now break the floor is refused at approval.
    first = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="5.00",
        reason="malfunction_correction",
        note="add",
        author=finance,
    )
    jackpot_adjustment_decide(adjustment=first, approve=True, author=other)
    late = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="-5.00",
        reason="game_closing",
        note="close",
        author=finance,
    )
    early = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="-5.00",
        reason="game_closing",
        note="close first",
        author=finance,
    )
    jackpot_adjustment_decide(adjustment=early, approve=True, author=other)
    with pytest.raises(ValidationError) as err:
        jackpot_adjustment_decide(adjustment=late, approve=True, author=other)
    assert "below its floor" in err.value.message_dict["amount"][0]
    increase.refresh_from_db()
    assert increase.requested_by == manager and increase.decided_by == other
    assert increase.history.count() == 2  # the request and the approval are both kept


def test_correction_and_void_keep_the_ledger_right():
    bank, tables, manager, pitboss = linked_bank(1)
    start = _line(bank, "bust5_unsuited").meter
    hit = round_record(
        table=tables[0], author=pitboss, data=hit_round(), at=DAY_START + timedelta(minutes=1)
    )
    award = JackpotAward.objects.get(round=hit.round)
    assert award.amount == start
    # Recorded wrongly: the dealer actually stood on 19 (no bust). The pending award is
    # reversed and the meter holds again what it held, plus this round's contribution.
    fixed = hit_round(dealer=("2H", "3C", "4D", "TS"))
    round_correct(
        round=hit.round,
        revision=1,
        data=fixed,
        reason="dealer had 19",
        author=pitboss,
        at=DAY_START + timedelta(minutes=2),
    )
    award.refresh_from_db()
    assert award.status == JackpotAward.REVERSED
    assert _line(bank, "bust5_unsuited").meter == start + cents(D("2") * D("0.30"))
    assert bank_state(bank).payable == 0
    assert jackpot_recompute(bank).ok
    # Correct it back: a new award at the meter value, paid, then it cannot vanish.
    round_correct(
        round=hit.round,
        revision=2,
        data=hit_round(),
        reason="it was a bust after all",
        author=pitboss,
        at=DAY_START + timedelta(minutes=3),
    )
    again = JackpotAward.objects.get(round=hit.round, status=JackpotAward.PENDING)
    jackpot_award_pay(award=again, author=pitboss)
    with pytest.raises(ValidationError):
        round_correct(
            round=hit.round, revision=3, data=fixed, reason="try to remove", author=pitboss
        )
    with pytest.raises(ValidationError):
        round_void(round=hit.round, reason="misdeal", author=pitboss)
    # A void of a taxed round without a hit reverses its tax and contributions.
    taxed = round_record(
        table=tables[0],
        author=pitboss,
        data=hit_round(dealer=("2H", "3C", "4D", "TS")),
        at=DAY_START + timedelta(minutes=5),
    )
    meter_before_void = _line(bank, "bust5_unsuited").meter
    round_void(
        round=taxed.round, reason="misdeal", author=pitboss, at=DAY_START + timedelta(minutes=6)
    )
    assert _line(bank, "bust5_unsuited").meter == meter_before_void - cents(D("2") * D("0.30"))
    assert jackpot_recompute(bank).ok


def test_a_change_to_an_active_progressive_waits_for_the_hit():
    bank, tables, manager, pitboss = linked_bank(1)
    config = jackpot_line_configure(
        bank=bank,
        line="bust5_unsuited",
        progressive=True,
        reset="60.00",
        increment_rate="0.25",
        hidden_rate="0.05",
        author=manager,
        reason="bigger reset",
        at=DAY_START + timedelta(minutes=1),
    )
    assert config.status == JackpotLineConfig.PENDING
    assert _line(bank, "bust5_unsuited").config.reset == D("40.00")
    with pytest.raises(ValidationError):
        jackpot_line_configure(
            bank=bank,
            line="bust5_unsuited",
            progressive=True,
            reset="60",
            increment_rate="0.9",
            hidden_rate="0.2",
            author=manager,
            reason="too much",
        )
    with pytest.raises(ValidationError):
        jackpot_line_configure(
            bank=bank,
            line="bust5_unsuited",
            progressive=True,
            reset="60",
            author=pitboss,
            reason="not a manager",
        )
    round_record(
        table=tables[0], author=pitboss, data=hit_round(), at=DAY_START + timedelta(minutes=2)
    )
    config.refresh_from_db()
    assert config.status == JackpotLineConfig.ACTIVE and config.activated_by_round is not None
    # Reset to the new value (60), then this round's contribution at the new rate.
    assert _line(bank, "bust5_unsuited").meter == D("60.00") + cents(D("2") * D("0.25"))
    assert jackpot_recompute(bank).ok


def test_a_metered_line_the_ruleset_pays_fixed_refuses_the_round():
    bank, tables, manager, pitboss = linked_bank(1)
    jackpot_line_configure(
        bank=bank,
        line="bust8plus_suited",
        progressive=True,
        reset="20000",
        increment_rate="0.1",
        author=manager,
        reason="grand",
        at=DAY_START,
    )
    with pytest.raises(ValidationError) as err:
        round_record(
            table=tables[0], author=pitboss, data=hit_round(), at=DAY_START + timedelta(minutes=1)
        )
    assert "bust8plus_suited" in err.value.message_dict["table"][0]


def test_meters_as_of_a_past_time():
    bank, tables, manager, pitboss = linked_bank(1)
    simulated_day(tables, pitboss, rounds=30, extra=[(20, tables[0], hit_round())])
    mid = DAY_START + timedelta(minutes=19, seconds=30)
    then = _line(bank, "bust5_unsuited", at=mid)
    award = JackpotAward.objects.get(bank=bank)
    assert then.meter == award.amount  # just before the hit, the meter held exactly what it paid
    assert bank_state(bank, at=DAY_START - timedelta(minutes=1)).total_liability == 0


def test_unbalanced_posting_is_refused():
    bank, tables, manager, pitboss = linked_bank(1)
    book = Book(bank)
    with pytest.raises(LedgerUnbalanced):
        book.post(
            kind="adjustment",
            legs=[(("meter", "bust5_unsuited"), D("-1.00")), (("cash", ""), D("0.99"))],
            memo="bad",
            author=manager,
            at=DAY_START,
        )
    with pytest.raises(LedgerUnbalanced):
        book.post(
            kind="adjustment",
            legs=[(("meter", "bust5_unsuited"), D("-1.001")), (("cash", ""), D("1.001"))],
            memo="fractions",
            author=manager,
            at=DAY_START,
        )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_database_refuses_unbalanced_and_changed_legs():
    if connection.vendor != "postgresql":
        pytest.skip(
            "the balance trigger and append-only guards are PostgreSQL triggers; SQLite has only the service"
        )
    bank, tables, manager, pitboss = linked_bank(1)
    txn = LedgerTransaction.objects.filter(bank=bank).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        lone = LedgerTransaction.objects.create(
            bank=bank,
            kind="adjustment",
            created_at=DAY_START,
            gaming_day=DAY_START.date(),
            memo="raw",
            created_by=manager,
        )
        LedgerLeg.objects.create(
            transaction=lone, account=bank.accounts.get(kind="cash"), amount=D("5")
        )
    from django.db import DatabaseError

    with pytest.raises(DatabaseError), transaction.atomic():
        LedgerLeg.objects.filter(transaction=txn).update(amount=D("1"))
    with pytest.raises(DatabaseError), transaction.atomic():
        LedgerTransaction.objects.filter(pk=txn.pk).delete()
    assert LedgerLeg.objects.filter(transaction=txn).aggregate(s=Sum("amount"))["s"] == 0


def test_progressive_ruleset_at_a_table_in_no_bank_is_refused_not_crashed(db):
    from tables.services.floor import ruleset_create
    from tables.services.sessions import table_session_open
    from tests.factories import DealerFactory, PitFactory, TableFactory, user_with_role

    pit = PitFactory()
    boss, manager = user_with_role("pit_boss"), user_with_role("gaming_manager")
    ruleset = ruleset_create(casino=pit.casino, game="upcard_luck_21", name="progressive, no bank", author=manager,
                             reason="test", config={"progressive_lines": {"bust5_suited": {"reset": "80",
                                                                                           "increment_rate": "0.1"}}})
    table = TableFactory(pit=pit, game="upcard_luck_21", ruleset=ruleset)
    # Issue #14: such a table does not even open (tests/jackpots/test_banks_required.py).
    with pytest.raises(ValidationError, match="in no jackpot bank"):
        table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=boss)


def _six_card_bust_award(at):
    bank, tables, manager, pitboss = linked_bank(1, at=at)
    round_record(
        table=tables[0],
        author=pitboss,
        data=hit_round(dealer=SIX_CARD_BUST, player=("AD", "QD")),
        at=at + timedelta(minutes=1),
    )
    return JackpotAward.objects.get(bank=bank)


def test_w2g_threshold_is_the_rule_of_the_awards_day():
    """$600 at 300 to 1 until 2025; the draft 2026 instructions' $2,000 from 2026 on."""
    from audit.jackpots.models import W2GThreshold

    assert list(W2GThreshold.objects.values_list("effective_from", "min_amount", "min_multiple")) == [
        (date(1977, 1, 1), D("600.00"), D("300.00")),
        (date(2026, 1, 1), D("2000.00"), D("300.00")),
    ]
    award = _six_card_bust_award(datetime(2026, 3, 14, 8, 0, tzinfo=ZoneInfo("America/New_York")))
    assert D("600") <= award.amount < D("2000") and award.odds_multiple >= 300
    assert not award.w2g_required


def test_a_new_dated_threshold_applies_from_its_day_only():
    from audit.jackpots.models import W2GThreshold

    W2GThreshold.objects.create(effective_from=date(2025, 3, 15), min_amount=D("5000"), min_multiple=D("300"),
                                note="test")
    award = _six_card_bust_award(DAY_START)  # 2025-03-14: still the $600 rule
    assert award.w2g_required and award.amount < D("5000")


@pytest.mark.postgres
def test_a_round_locks_its_banks_meters_only_to_post_unless_it_wins_a_meter(monkeypatch):
    """Tables of one bank wait for each other only while a round posts: the engine settles a
    round that wins no progressive line at unlocked meter values (they price nothing); a
    round that wins one is settled again at the locked meters (the award is the meter)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite locks the whole database)")
    from django.test.utils import CaptureQueriesContext

    from audit.jackpots import services as jackpot_services

    bank, tables, manager, pitboss = linked_bank(1)
    with CaptureQueriesContext(connection) as queries:
        round_record(table=tables[0], author=pitboss, at=DAY_START + timedelta(minutes=1),
                     data=hit_round(dealer=("2H", "3C", "4D", "TH")))  # a 4-card bust: no line
    sql = [q["sql"] for q in queries.captured_queries]
    first_lock = next(i for i, q in enumerate(sql) if "jackpots_jackpotmeter" in q and "FOR UPDATE" in q)
    revision = next(i for i, q in enumerate(sql) if "INSERT INTO" in q and "tables_roundrevision" in q)
    assert revision < first_lock, "the meters were locked before the round was written"
    # A hit: settled twice, the second time at the locked meters, and paid the meter.
    audits = []
    real = jackpot_services.jackpot_context_for_round

    def spy(**kwargs):
        audits.append(kwargs.get("lock", True))
        return real(**kwargs)

    monkeypatch.setattr("audit.jackpots.services.jackpot_context_for_round", spy)  # what the registered meters call
    meter = _line(bank, "bust5_unsuited").meter
    audited = round_record(table=tables[0], author=pitboss, at=DAY_START + timedelta(minutes=2), data=hit_round())
    assert audits == [False, True]
    assert JackpotAward.objects.get(round=audited.round).amount == meter


def test_recording_reaches_the_ledger_only_through_the_listed_round_ledgers():
    """tables asks and posts to the ledgers the settings list (ROUND_LEDGERS); the jackpot ledger
    is the one listed, and tables imports nothing of it."""
    from audit.jackpots.meters import JackpotMeters
    from tables.round_effects import RoundLedger, round_ledgers

    (ledger,) = round_ledgers()
    assert isinstance(ledger, JackpotMeters) and isinstance(ledger, RoundLedger)
