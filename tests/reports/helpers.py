"""A simulated gaming day recorded through the real services, and totals computed from raw rows.

``independent_totals`` recomputes the report's money from the Wager/Finding rows with plain
Python over each round's current revision, without the report's SQL or code, so that a
test compares two independent computations to the cent.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

from casino.gaming_day import gaming_day_bounds
from tables.games import GAMES
from tables.models import Finding, Round, Wager
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_dealer_change, table_session_open
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    jackpot_bank_for,
    user_with_role,
)

GAMES_ON_FLOOR = (
    "ante_up_21",
    "upcard_luck_21",
    "poker_or_bust",
    "holdem_blackjack",
    "blackjack_tie",
)
INJECT = {
    "ante_up_21": ("overpay", "underpay", "dealer_stood_soft_17"),
    "upcard_luck_21": ("overpay", "underpay"),
    "blackjack_tie": ("overpay", "rule_violation"),
    "poker_or_bust": ("overpay", "underpay"),
    "holdem_blackjack": (),
}


def _config(game: str) -> dict:
    rules = GAMES[game].rules_to_dict(GAMES[game].default_rules())
    if game == "holdem_blackjack":
        rules.update({"rake_percent": "5", "rake_cap": "3"})
    return rules


def simulated_day(
    *,
    day: date,
    rounds_per_table: int = 12,
    seed: int = 7,
    error_rate: float = 0.15,
    casino=None,
    tables_per_game: int = 1,
    bad_dealer_rounds: int = 0,
) -> dict:
    """Record a gaming day of every game at ``casino`` (created if None): returns what it made.

    Rounds are spread over the gaming day's hours (local), some with injected dealer errors;
    one round is corrected and one voided. ``bad_dealer_rounds``: that many extra rounds at
    the first table by a dealer who errs on every one of them.
    """
    rng = random.Random(seed)
    # The factories' default casino (New York, 06:00), where test users work by default.
    casino = casino or CasinoFactory(time_zone="America/New_York", gaming_day_start_hour=6)
    pitboss = user_with_role("pit_boss", username=f"pitboss-{seed}", casinos=[casino])
    start, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    pits = [PitFactory(casino=casino, name=f"Pit {seed}-{i}") for i in (1, 2)]
    tables, recorded = [], []
    n = 0
    for gi, game in enumerate(GAMES_ON_FLOOR):
        for k in range(tables_per_game):
            ruleset = RulesetFactory(game=game, casino=casino, config=_config(game))
            table = TableFactory(
                pit=pits[gi % 2],
                game=game,
                ruleset=ruleset,
                label=f"{game[:2].upper()}{seed}-{k}",
                seats=6 if game == "holdem_blackjack" else 7,
                min_bet=Decimal("5.00"),  # the simulated play bets from $5
            )
            dealer = DealerFactory(casino=casino)
            jackpot_bank_for(table, at=start)
            table_session_open(
                table=table, dealer=dealer, author=pitboss, at=start + timedelta(minutes=1)
            )
            tables.append(table)
            rules = table.ruleset.rules()
            module = GAMES[game].module
            span = (end - start - timedelta(minutes=10)) / max(1, rounds_per_table)
            for i in range(rounds_per_table):
                kinds = INJECT[game]
                inject = (
                    frozenset({rng.choice(kinds)})
                    if kinds and rng.random() < error_rate
                    else frozenset()
                )
                data = module.simulate_round(rng, rules, seats=rng.randint(2, 5), inject=inject)
                at = start + timedelta(minutes=5) + span * i + timedelta(seconds=n)
                n += 1
                recorded.append(round_record(table=table, data=data, author=pitboss, at=at).round)
    if bad_dealer_rounds:
        table = next(t for t in tables if t.game == "ante_up_21")
        bad = DealerFactory(casino=casino, name="Careless Dealer")
        table_session_dealer_change(
            session=table.sessions.get(closed_at__isnull=True),
            dealer=bad,
            author=pitboss,
            at=end - timedelta(minutes=9),
        )
        rules = table.ruleset.rules()
        for i in range(bad_dealer_rounds):
            data = GAMES["ante_up_21"].module.simulate_round(
                rng, rules, seats=3, inject=frozenset({"overpay"})
            )
            recorded.append(
                round_record(
                    table=table,
                    data=data,
                    author=pitboss,
                    at=end - timedelta(minutes=8) + timedelta(seconds=i),
                ).round
            )
    # One correction (a new revision) and one void, so that only current revisions count.
    blackjack = [r for r in recorded if r.game == "ante_up_21"]
    if len(blackjack) >= 2:
        fixed = blackjack[0]
        data = dict(fixed.revisions.get(number=1).data)
        data["seats"] = [{k: v for k, v in s.items() if k != "paid"} for s in data["seats"]]
        round_correct(
            round=fixed,
            revision=1,
            data=data,
            reason="pays were not recorded right",
            author=pitboss,
            at=fixed.recorded_at + timedelta(minutes=1),
        )
        round_void(
            round=blackjack[1], reason="misdeal", author=pitboss, at=blackjack[1].recorded_at
        )
    return {
        "casino": casino,
        "tables": tables,
        "rounds": recorded,
        "pitboss": pitboss,
        "start": start,
        "end": end,
    }


def independent_totals(casino, day: date) -> dict:
    """Per table id and for the floor: rounds, voided, handle, paid, win, error cost, taxes, jackpots,
    findings (count, amount) — from the raw rows, in Python."""
    start, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    rounds = list(
        Round.objects.filter(table__pit__casino=casino, recorded_at__gte=start, recorded_at__lt=end)
    )
    out: dict = defaultdict(lambda: defaultdict(Decimal))
    current = {r.pk: r.revision for r in rounds if r.status == Round.ACTIVE}
    for r in rounds:
        key = "voided" if r.status == Round.VOIDED else "rounds"
        out[r.table_id][key] += 1
        out["floor"][key] += 1
    for w in Wager.objects.filter(round_id__in=list(current)).select_related("revision", "round"):
        if w.revision.number != current[w.round_id] or w.wager == "pot":
            continue
        actual = w.recorded_net if w.recorded_net is not None else w.expected_net
        for key in (w.round.table_id, "floor"):
            t = out[key]
            t["handle"] += w.stake
            if w.wager == "rake":
                t["win"] += actual
            else:
                t["win"] -= actual
                t["paid"] += max(actual, Decimal(0))
            if w.recorded_net is not None:
                t["error_cost"] += w.recorded_net - w.expected_net
            if w.wager == "taxpayers_fortune_tax":
                t["taxes"] -= actual
            if w.wager == "taxpayers_fortune_jackpot":
                t["jackpots"] += actual
    # Counted: open findings of an active round's current revision; confirmed and escalated
    # ones whatever became of the round; one per (round, code, path), the earliest reviewed.
    reviewed = (Finding.CONFIRMED, Finding.ESCALATED)
    all_findings = list(
        Finding.objects.filter(round__in=rounds).select_related("revision", "round").order_by("revision_id")
    )
    standing = {(f.round_id, f.code, f.path): f.revision_id for f in reversed(all_findings) if f.status in reviewed}
    for f in all_findings:
        if not (f.status in reviewed or (f.status == Finding.OPEN and current.get(f.round_id) == f.revision.number)):
            continue
        if standing.get((f.round_id, f.code, f.path), f.revision_id) < f.revision_id:
            continue
        for key in (f.round.table_id, "floor"):
            out[key][f"findings_{f.kind}"] += 1
            out[key][f"amount_{f.kind}"] += f.amount
    return out


def casino_since(day: date, **fields):
    """A casino that has existed since ``day``: its creation is recorded then, as an old casino's
    is, so that reports of earlier test days fall within its life (see runs.first_gaming_day)."""
    from datetime import UTC, datetime, time

    casino = CasinoFactory.build(**fields)
    casino._history_date = datetime.combine(day, time(12), tzinfo=UTC)
    casino.save()
    return casino


def done_report(settings, tmp_path, *, day: date, rounds_per_table: int, seed: int):
    """A simulated day (``simulated_day``) reconciled to the end: its final report, done, with its
    files under ``tmp_path`` (tests marked ``django_db(transaction=True)``: the run starts on commit)."""
    from audit.reports.models import DailyReport
    from audit.reports.services.runs import report_request

    settings.REPORTS_ROOT = tmp_path / "reports"
    sim = simulated_day(day=day, rounds_per_table=rounds_per_table, seed=seed)
    report = report_request(casino=sim["casino"], gaming_day=day, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report
