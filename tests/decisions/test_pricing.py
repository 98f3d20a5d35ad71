"""The stored price of every recorded decision (audit/decisions): queued in the round's own
transaction, priced right after by the engine, remade after a correction, gone after a void, and
the rebuild makes what the queue made."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.decisions import pricing
from audit.decisions.models import DecisionPending, SeatDecisions
from audit.decisions.pricing import price_all_pending, price_pending
from audit.decisions.selectors import player_days, table_games
from audit.decisions.tasks import price_pending_task
from audit.reports.services.reaudit import rounds_reaudit
from tables.games import GAMES
from tables.games.blackjack.decisions import round_prices
from tables.games.decision_prices import PRICING_VERSION
from tables.models import Round, RulesetVersion
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.advantage.helpers import table_with_decks
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor():
    pitboss = user_with_role("pit_boss")
    tables = {}
    for game in ("blackjack_tie", "ante_up_21", "poker_or_bust", "holdem_blackjack"):
        table, dealer = table_with_decks(6, game=game)
        table_session_open(table=table, dealer=dealer, author=pitboss)
        tables[game] = table
    return {"pitboss": pitboss, "tables": tables}


def _seat(number: int, player: str | None, bet: str, cards: list[str], actions: list[str], **extra) -> dict:
    seat = {"seat": number, "wagers": {"21": bet, **extra.pop("wagers", {})},
            "hands": [{"cards": cards, "actions": actions}], **extra}
    if player:
        seat["player"] = player
    return seat


def _record(floor, game: str, dealer: list[str], seats: list[dict]) -> Round:
    data = {"dealer": {"cards": dealer}, "seats": seats}
    return round_record(table=floor["tables"][game], data=data, author=floor["pitboss"]).round


def _engine(rnd: Round) -> dict:
    """{seat: (cost, [(action, best)])} as the engine prices the round's current revision."""
    rules = rnd.ruleset_version.rules()
    data = rnd.revisions.get(number=rnd.revision).data
    got = round_prices(GAMES[rnd.game].module.parse_round(data, rules), rules)
    out: dict = {}
    for d in got.decisions:
        cost, acts = out.get(d.seat, (Decimal(0), []))
        out[d.seat] = (cost + d.cost_money, [*acts, (d.action, d.best)])
    return out


def _stored(rnd: Round) -> dict:
    return {r.seat: (r.cost, [(d["action"], d["best"]) for d in r.decisions])
            for r in SeatDecisions.objects.filter(round_id=rnd.pk)}


def test_a_round_is_queued_when_recorded_and_priced_right_after(floor):
    # Seat 1 stands on 12 against a ten (the optimal play hits: 16% of the bet); seat 2 stands
    # on 20 (free).
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [
        _seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"]), _seat(2, "P-2", "10.00", ["TS", "QD"], ["stand"])])
    assert DecisionPending.objects.filter(round_id=rnd.pk).exists()
    assert not SeatDecisions.objects.exists()
    assert price_pending() == 1
    assert not DecisionPending.objects.exists()
    stored = _stored(rnd)
    assert stored == _engine(rnd)
    cost, acts = stored[1]
    assert acts == [("stand", "hit")] and Decimal("16.00") < cost < Decimal("17.00")
    assert stored[2] == (Decimal("0.0000"), [("stand", "stand")])
    row = SeatDecisions.objects.get(round_id=rnd.pk, seat=1)
    assert (row.player, row.handle, row.gaming_day, row.table_id) == ("P-1", Decimal("100.00"), rnd.gaming_day,
                                                                      rnd.table_id)
    assert row.casino_id == rnd.table.pit.casino_id
    values = row.decisions[0]["values"]
    assert set(values) == {"hit", "stand", "double"}  # T-2 is no pair; insurance is not offered against a ten
    assert (values["hit"] - values["stand"]) * 100 == pytest.approx(float(cost), abs=1e-4)


def test_a_correction_prices_the_new_revision_and_a_void_removes_the_prices(floor):
    pitboss = floor["pitboss"]
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "50.00", ["9S", "7D"], ["stand"])])
    price_all_pending()
    first = _stored(rnd)
    round_correct(round=rnd, revision=1, reason="the player hit", author=pitboss,
                  data={"dealer": {"cards": ["TH", "7C"]},
                        "seats": [_seat(1, "P-1", "50.00", ["9S", "7D", "2C"], ["hit", "stand"])]})
    rnd.refresh_from_db()
    assert DecisionPending.objects.filter(round_id=rnd.pk).exists()
    price_all_pending()
    second = _stored(rnd)
    assert second != first and second == _engine(rnd)
    assert SeatDecisions.objects.get(round_id=rnd.pk).revision == 2
    round_void(round=rnd, reason="misdeal", author=pitboss)
    price_all_pending()
    assert not SeatDecisions.objects.filter(round_id=rnd.pk).exists()


def test_a_round_changed_while_it_was_priced_stays_queued_and_is_priced_again(floor, monkeypatch):
    pitboss = floor["pitboss"]
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "50.00", ["9S", "7D"], ["stand"])])
    read = pricing._read

    def read_then_corrected(pending, db):
        rows = read(pending, db)
        # Another connection corrects the round after this pass read it (queues it again).
        round_correct(round=Round.objects.get(pk=rnd.pk), revision=1, reason="the player hit", author=pitboss,
                      data={"dealer": {"cards": ["TH", "7C"]},
                            "seats": [_seat(1, "P-1", "50.00", ["9S", "7D", "2C"], ["hit", "stand"])]})
        return rows

    monkeypatch.setattr(pricing, "_read", read_then_corrected)
    assert price_pending() == 0  # the entry read is not the entry now: nothing stored from the old revision
    assert not SeatDecisions.objects.exists()
    monkeypatch.setattr(pricing, "_read", read)
    assert price_pending() == 1
    rnd.refresh_from_db()
    assert SeatDecisions.objects.get(round_id=rnd.pk).revision == 2 and _stored(rnd) == _engine(rnd)


def test_ante_up_21_prices_the_fold_decision_per_unit_of_the_ante(floor):
    # 9-5 against a King: the optimal fold rule folds; seat 1 bet anyway, seat 2 folded.
    rnd = _record(floor, "ante_up_21", ["KD", "7C"], [
        _seat(1, "P-1", "20.00", ["9S", "5D", "2H"], ["hit", "stand"], wagers={"ante": "10.00", "bet": "10.00"}),
        _seat(2, "P-2", "20.00", ["9H", "5C", "4D"], ["hit", "stand"], wagers={"ante": "10.00"})])
    price_all_pending()
    rows = {r.seat: r for r in SeatDecisions.objects.filter(round_id=rnd.pk)}
    assert rows[1].decisions[0]["action"] == "bet" and rows[2].decisions[0]["action"] == "fold"
    assert rows[1].decisions[0]["best"] == rows[2].decisions[0]["best"] == "fold"
    assert rows[2].decisions[0]["cost"] == 0
    fold = rows[1].decisions[0]
    assert Decimal(fold["stake"]) == Decimal("10.00")
    assert fold["cost"] == pytest.approx(fold["values"]["fold"] - fold["values"]["bet"])
    assert rows[1].handle == Decimal("30.00")  # the 21 bet and the ANTE
    assert _stored(rnd) == _engine(rnd)


def test_games_without_priced_decisions_are_not_queued(floor):
    # Poker or Bust without its whole-game solve stored has nothing to price yet
    for game in ("poker_or_bust", "holdem_blackjack"):
        round_record(table=floor["tables"][game], data=ROUNDS[game]["correct"][0], author=floor["pitboss"])
    assert not DecisionPending.objects.exists()


def test_the_rebuild_makes_what_the_queue_made_and_the_sums_read_it(floor):
    made = [_record(floor, "blackjack_tie", ["TH", "7C"], [
        _seat(1, "P-1", "100.00", ["9S", "7D"], ["stand"]), _seat(2, None, "10.00", ["TS", "6D"], ["stand"])])
        for _ in range(3)]
    price_pending_task()
    by_queue = {r.pk: _stored(r) for r in made}
    SeatDecisions.objects.filter(round_id=made[0].pk).delete()
    SeatDecisions.objects.filter(round_id=made[1].pk).update(cost=Decimal("999"))
    call_command("decisions_rebuild", verbosity=0)
    assert {r.pk: _stored(r) for r in made} == by_queue
    day, casino = made[0].gaming_day, made[0].table.pit.casino_id
    players = player_days([casino], [day])
    assert set(players) == {(day, "P-1")}  # a seat without a player is the table's, no one's
    p1 = players[(day, "P-1")]
    assert p1.cost == sum(by_queue[r.pk][1][0] for r in made)
    assert p1.handle == Decimal("300.00")
    tables = table_games(casino, day)
    assert tables[(made[0].table_id, "blackjack_tie")].cost == sum(
        by_queue[r.pk][1][0] + by_queue[r.pk][2][0] for r in made)


def _pass_after_the_claim(monkeypatch) -> int:
    """The workers' pass, once the claim of a re-audit whose own pricing never ran has run out."""
    later = timezone.now() + pricing.CLAIM + timedelta(seconds=1)
    with monkeypatch.context() as m:
        m.setattr(pricing.timezone, "now", lambda: later)
        return price_all_pending()


def test_the_re_audit_queues_the_prices_of_another_pricing_and_leaves_current_ones(floor, monkeypatch):
    made = [_record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
            for _ in range(2)]
    price_all_pending()
    by_queue = {r.pk: _stored(r) for r in made}
    SeatDecisions.objects.filter(round_id=made[0].pk).update(priced_with="0", cost=Decimal("999"))
    SeatDecisions.objects.filter(round_id=made[1].pk).update(cost=Decimal("5"))  # current: left alone
    rounds_reaudit(round_ids=[r.pk for r in made], full=True)  # its pricing after commit does not run here
    assert set(DecisionPending.objects.values_list("round_id", flat=True)) == {made[0].pk}
    assert price_all_pending() == 0, "the re-audit holds what it queued, for its own pricing"
    assert _pass_after_the_claim(monkeypatch) == 1
    assert _stored(made[0]) == by_queue[made[0].pk]
    assert SeatDecisions.objects.get(round_id=made[0].pk).priced_with == PRICING_VERSION
    assert SeatDecisions.objects.get(round_id=made[1].pk).cost == Decimal("5")
    SeatDecisions.objects.all().delete()  # none at all (rounds loaded before the prices existed)
    rounds_reaudit(round_ids=[r.pk for r in made], full=True)
    assert _pass_after_the_claim(monkeypatch) == 2
    assert {r.pk: _stored(r) for r in made} == by_queue


def test_the_re_audit_prices_what_it_replayed_once_committed_without_reading_it_again(
        floor, monkeypatch, django_capture_on_commit_callbacks):
    made = [_record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
            for _ in range(3)]
    price_all_pending()
    by_queue = {r.pk: _stored(r) for r in made}
    SeatDecisions.objects.all().delete()  # a day loaded before the prices existed
    read, parsed = [], []
    real_read = pricing._read
    monkeypatch.setattr(pricing, "_read", lambda pending, db: read.append(pending) or real_read(pending, db))
    module = GAMES["blackjack_tie"].module
    real_parse = module.parse_round
    monkeypatch.setattr(module, "parse_round", lambda data, rules: parsed.append(1) or real_parse(data, rules))
    with django_capture_on_commit_callbacks(execute=True):
        rounds_reaudit(round_ids=[r.pk for r in made], full=True)
    assert not DecisionPending.objects.exists()
    assert read == []  # priced from the revisions the replay decoded
    assert len(parsed) == len(made), "each round parsed once, for its audit and its prices"
    assert {r.pk: _stored(r) for r in made} == by_queue


def test_a_pass_holding_a_round_when_the_re_audit_claims_it_leaves_it_to_the_re_audit(
        floor, django_capture_on_commit_callbacks):
    """The re-audit claims its queue entries in the statement that queues them: a workers' pass
    that had taken one finds its stamp moved on and stores nothing; the re-audit's own pricing
    after its commit stores the round, once."""
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    db = "default"
    held = pricing._claim(10, None, db)  # the pass took the recording's entry ...
    assert [p[0] for p in held] == [rnd.pk]
    rows, _ = pricing._priced(pricing._read(held, db), db)  # ... and priced it, outside any transaction
    with django_capture_on_commit_callbacks() as after_commit:
        rounds_reaudit(round_ids=[rnd.pk], full=True)  # meanwhile the re-audit queued and claimed it
    assert pricing._store(held, rows, db) == 0, "the pass's stamp moved on: it leaves the round"
    assert not SeatDecisions.objects.exists() and DecisionPending.objects.filter(round_id=rnd.pk).exists()
    for callback in after_commit:
        callback()
    assert not DecisionPending.objects.exists()
    assert _stored(rnd) == _engine(rnd)


def test_a_round_corrected_after_the_replay_is_priced_at_its_new_revision(floor):
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    old = rnd.revisions.get(number=rnd.revision).data
    round_correct(round=rnd, revision=1, reason="the hit was missed", author=floor["pitboss"],
                  data={"dealer": {"cards": ["TH", "7C"]},
                        "seats": [_seat(1, "P-1", "100.00", ["TS", "2D", "5C"], ["hit", "stand"])]})
    rnd.refresh_from_db()
    # The replay read revision 1; the correction made revision 2 before the pricing ran.
    assert pricing.price_replayed([(rnd.pk, rnd.gaming_day, 1, rnd.game, rnd.ruleset_version_id, old, None)]) == 1
    row = SeatDecisions.objects.get(round_id=rnd.pk)
    assert row.revision == rnd.revision == 2
    assert _stored(rnd) == _engine(rnd)


def test_a_pricing_that_fails_after_the_re_audit_leaves_its_rounds_queued(
        floor, monkeypatch, django_capture_on_commit_callbacks):
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    price_all_pending()
    SeatDecisions.objects.all().delete()

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(pricing, "_store", broken)
    with django_capture_on_commit_callbacks(execute=True):
        result = rounds_reaudit(round_ids=[rnd.pk], full=True)
    assert result.replayed == 1
    assert list(DecisionPending.objects.values_list("round_id", flat=True)) == [rnd.pk]
    monkeypatch.undo()
    later = timezone.now() + pricing.CLAIM + timedelta(seconds=1)
    monkeypatch.setattr(pricing.timezone, "now", lambda: later)
    assert price_all_pending() == 1
    assert _stored(rnd) == _engine(rnd)


def test_two_passes_take_different_rounds_and_a_dead_pass_leaves_its_rounds_to_the_next(floor, monkeypatch):
    made = [_record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "10.00", ["TS", "2D"], ["stand"])])
            for _ in range(3)]
    db = "default"
    first = pricing._claim(2, None, db)
    second = pricing._claim(2, None, db)
    assert {p[0] for p in first} == {made[0].pk, made[1].pk} and [p[0] for p in second] == [made[2].pk]
    assert pricing._claim(2, None, db) == []  # all held
    # The first pass died: after its claim runs out, its rounds are taken again.
    later = timezone.now() + pricing.CLAIM + timedelta(seconds=1)
    monkeypatch.setattr(pricing.timezone, "now", lambda: later)
    assert price_all_pending() == 3
    assert {r.round_id for r in SeatDecisions.objects.all()} == {r.pk for r in made}


def test_the_desks_round_page_shows_each_decision_against_the_best_play(floor, client):
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [
        _seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"]), _seat(2, "P-2", "10.00", ["TS", "QD"], ["stand"])])
    client.force_login(user_with_role("surveillance"))
    page = client.get(f"/desk/rounds/{rnd.pk}/").content.decode()
    assert "Being priced" in page
    price_all_pending()
    page = client.get(f"/desk/rounds/{rnd.pk}/").content.decode()
    section = page[page.index('id="decisions"'):page.index('id="findings"')]
    cost = SeatDecisions.objects.get(round_id=rnd.pk, seat=1).cost.quantize(Decimal("0.01"))
    assert "TS 2D" in section and "Stand" in section and "Hit" in section and f"{cost:,}" in section
    assert section.count('class="differs"') == 1  # the 12 stood against a ten; the 20 stood is the best play
    poker = round_record(table=floor["tables"]["poker_or_bust"], data=ROUNDS["poker_or_bust"]["correct"][0],
                         author=floor["pitboss"]).round
    page = client.get(f"/desk/rounds/{poker.pk}/").content.decode()
    assert "rules has not been run yet; the casino" in page[
        page.index('id="decisions"'):page.index('id="findings"')]


def test_the_rows_columns_are_the_tables():
    """seat_rows's tuples are COPY'd by column name: they must be the table's, in its order."""
    fields = [f for f in SeatDecisions._meta.concrete_fields if not f.primary_key]
    assert tuple(f.column for f in fields) == pricing.COLUMNS
    assert SeatDecisions._meta.db_table == "decisions_seat"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_price_at_once_while_the_table_records_on_its_own_connection():
    """Production's path: two workers' passes on their own connections take different rounds
    (SKIP LOCKED claims), while a tablet goes on recording at the table; every round ends priced
    once, as the engine prices its revision, and nothing is priced twice."""
    from django.db import connection

    from tests.concurrency import run_at_once

    if connection.vendor != "postgresql":
        pytest.skip("row locks and SKIP LOCKED are PostgreSQL's")
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(6, game="blackjack_tie")
    table_session_open(table=table, dealer=dealer, author=pitboss)
    data = {"dealer": {"cards": ["TH", "7C"]}, "seats": [_seat(1, "P-1", "10.00", ["TS", "2D"], ["stand"])]}
    made = [round_record(table=table, data=data, author=pitboss).round.pk for _ in range(12)]
    taken = [0, 0]

    def work(index: int) -> None:
        if index < 2:
            for _ in range(6):
                taken[index] += price_pending(limit=2)
        else:
            for _ in range(4):
                made.append(round_record(table=table, data=data, author=pitboss).round.pk)

    assert run_at_once(3, work) == []
    assert taken[0] and taken[1], taken  # both workers priced rounds
    price_all_pending()
    rows = list(SeatDecisions.objects.values_list("round_id", "seat"))
    assert sorted(rows) == sorted((pk, 1) for pk in made)  # each round's seat once
    assert not DecisionPending.objects.exists()
    for rnd in Round.objects.filter(pk__in=made):
        assert _stored(rnd) == _engine(rnd)


def test_a_worker_warms_the_floors_priced_rulesets_before_forking_and_closes_its_connection(
        floor, monkeypatch, settings):
    """What the floor's tables deal of a priced game is warmed, within the budget; the connection
    the main process used is closed before the pool forks (no child shares its socket)."""
    from audit.decisions import tasks

    calls = []
    given = {}
    monkeypatch.setattr(pricing, "WARM", {g: (lambda rules, game: calls.append(game) or given.setdefault(game, rules))
                                          for g in ("ante_up_21", "blackjack_tie", "upcard_luck_21")})
    warmed = pricing.warm_tables(budget=60)
    assert sorted(calls) == ["ante_up_21", "blackjack_tie"]  # the floor's Poker or Bust and Hold'em: none
    # The very rules object the pricing of a round at the table will read (the engine keeps Ante Up
    # 21's fold decisions on it): the current version's.
    for game in ("ante_up_21", "blackjack_tie"):
        ruleset = floor["tables"][game].ruleset
        assert given[game] is RulesetVersion.objects.get(ruleset=ruleset, number=ruleset.version).rules()
    assert sorted(warmed) == sorted(floor["tables"][g].ruleset.name for g in ("blackjack_tie", "ante_up_21"))
    calls.clear()
    assert pricing.warm_tables(budget=0) == [] and calls == []
    settings.DECISIONS_WARM_SECONDS = 0
    tasks.warm_before_forking()
    assert calls == []
    settings.DECISIONS_WARM_SECONDS = 30
    closed = []
    monkeypatch.setattr(tasks.connections, "close_all", lambda: closed.append(True))
    tasks.warm_before_forking()
    assert sorted(calls) == ["ante_up_21", "blackjack_tie"] and closed == [True]


def _short_shoe_solve():
    from tables.games.poker_or_bust import draw_prices
    from tables.games.poker_or_bust import exact as ex
    from tests.games.test_poker_or_bust_exact import PAY, shoe_of
    from tests.games.test_poker_or_bust_levels import ALIKE

    return ex.level_edge(shoe_of(ALIKE), PAY, keep=draw_prices.KEEP)["kept"]


@pytest.fixture
def short_shoe_solve():
    """The whole-game solve of a 16-card shoe (Aces, 2s, 10s and Queens, tests/games), stored
    under the six-deck settings the floor's Poker or Bust table plays: the path from the long
    solve to a round's prices is the same; the values themselves are held to the recursion in
    tests/games/test_poker_or_bust_draw_prices.py."""
    from audit.decisions import draw_tables

    kept = _short_shoe_solve()
    pricing.draw_prices_store(GAMES["poker_or_bust"].rules_from_dict({}), kept)
    yield kept
    draw_tables.forget()


def test_poker_or_bust_rounds_are_priced_from_the_stored_solve(floor, short_shoe_solve):
    from tables.games.poker_or_bust import draw_prices

    seats = [
        {"seat": 1, "player": "P-1", "wagers": {"ante": "10.00", "odds": "10.00"}, "cards": ["AD", "2H", "AS", "QH"]},
        {"seat": 2, "player": "P-2", "wagers": {"ante": "25.00", "odds": "25.00"}, "cards": ["QH", "QD", "2D"]},
        {"seat": 3, "wagers": {"ante": "5.00", "odds": "5.00"}, "cards": ["AD", "AS", "2H", "2D", "2S", "AC"]},
    ]
    rnd = round_record(table=floor["tables"]["poker_or_bust"], author=floor["pitboss"],
                       data={"dealer": {"cards": ["TC", "QS", "AH", "2C"]}, "seats": seats}).round
    assert DecisionPending.objects.filter(round_id=rnd.pk).exists()
    price_all_pending()
    rows = {r.seat: r for r in SeatDecisions.objects.filter(round_id=rnd.pk)}
    rules = rnd.ruleset_version.rules()
    data = rnd.revisions.get(number=rnd.revision).data
    want = draw_prices.round_prices(GAMES["poker_or_bust"].module.parse_round(data, rules), rules)
    assert [(d["action"], d["best"]) for d in rows[1].decisions] == [
        (d.action, d.best) for d in want.decisions if d.seat == 1] and len(rows[1].decisions) == 2
    assert rows[1].handle == Decimal("20.00")  # the Ante and the Odds
    assert rows[1].cost == sum((d.cost_money for d in want.decisions if d.seat == 1), Decimal(0))
    assert [d["action"] for d in rows[3].decisions] == ["draw", "draw", "draw"]
    assert rows[3].unpriced == [{"hand": 0, "action": "stand", "why": draw_prices.TOO_LONG}]
    assert set(rows[2].decisions[0]["values"]) == {"draw", "stand"}


def test_the_rounds_recorded_before_the_solve_was_stored_are_priced_when_it_is(floor):
    from audit.decisions import draw_tables

    seats = [{"seat": 1, "player": "P-1", "wagers": {"ante": "10.00", "odds": "10.00"}, "cards": ["QH", "QD", "2D"]}]
    rnd = round_record(table=floor["tables"]["poker_or_bust"], author=floor["pitboss"],
                       data={"dealer": {"cards": ["TC", "QS", "AH", "2C"]}, "seats": seats}).round
    # nothing to price yet: not queued
    assert not DecisionPending.objects.exists()
    try:
        pricing.draw_prices_store(GAMES["poker_or_bust"].rules_from_dict({}), _short_shoe_solve())
        assert DecisionPending.objects.filter(round_id=rnd.pk).exists()
        price_all_pending()
        row = SeatDecisions.objects.get(round_id=rnd.pk)
        assert (row.handle, [d["action"] for d in row.decisions], row.unpriced) == (Decimal("20.00"), ["stand"], [])
    finally:
        draw_tables.forget()
