"""The ratings as audit/ratings/selectors.py computed them before issue #20 (sessions cut in
Python over every (player, round, wager) row, wagers filtered only through their round): the
reference the SQL-cut sessions must match figure for figure on the same data. Frozen on purpose;
do not "fix" it along with the selector."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.db.models import Case, Count, DecimalField, F, Q, Sum, Value, When
from django.db.models.functions import Coalesce

from audit.ratings.selectors import (
    ZERO,
    DayRating,
    Session,
    WagerTotal,
    check_range,
    day_totals,
    gap_threshold,
)
from audit.reports.theoretical import JACKPOT_KEY, POT_KEY, RAKE_KEY, OddsBook, wager_type
from tables.models import Round, RulesetVersion, Table, Wager


def _round_rows(casino_ids, first: date, last: date, identifiers):
    """The current revision's wagers of the active rounds, summed per (player, round, wager)."""
    money = DecimalField(max_digits=16, decimal_places=2)
    wagers = Wager.objects.filter(
        round__gaming_day__range=(first, last), round__status=Round.ACTIVE,
        revision__number=F("round__revision"),
    ).exclude(player="")
    if casino_ids is not None:
        wagers = wagers.filter(round__table__pit__casino_id__in=casino_ids)
    if identifiers is not None:
        wagers = wagers.filter(player__in=list(identifiers))
    return wagers.values(
        "player", "round_id", "round__table_id", "round__table__pit__casino_id", "round__gaming_day",
        "round__recorded_at", "round__ruleset_version_id", "wager",
    ).annotate(
        # A Taxpayer's Fortune jackpot row has stake 0: the marker is counted once, on its tax row.
        placed=Count("id", filter=~Q(wager=JACKPOT_KEY)),
        stake=Sum("stake"),
        # The house's side is minus the player's net: the recorded pay where recorded, else the engine's.
        net=Sum(Coalesce("recorded_net", "expected_net"), output_field=money),
    ).order_by()


def _rake_shares(round_ids: set[int]) -> dict[int, tuple[Decimal, Decimal, Decimal]]:
    """Per Hold'em round: (chips all seats put in the pot, rake due, rake taken as recorded)."""
    if not round_ids:
        return {}
    money = DecimalField(max_digits=16, decimal_places=2)
    rows = Wager.objects.filter(
        round_id__in=round_ids, revision__number=F("round__revision"), wager__in=(POT_KEY, RAKE_KEY),
    ).values("round_id").annotate(
        pot=Sum(Case(When(wager=POT_KEY, then="stake"), default=Value(ZERO), output_field=money)),
        due=Sum(Case(When(wager=RAKE_KEY, then="expected_net"), default=Value(ZERO), output_field=money)),
        taken=Sum(Case(When(wager=RAKE_KEY, then=Coalesce("recorded_net", "expected_net")), default=Value(ZERO),
                       output_field=money)),
    ).order_by()
    return {r["round_id"]: (r["pot"] or ZERO, r["due"] or ZERO, r["taken"] or ZERO) for r in rows}


def previous_day_ratings(*, casino_ids, first: date, last: date | None = None,
                identifiers: Iterable[str] | None = None) -> list[DayRating]:
    """Every player's rating for each gaming day of ``first``..``last`` at ``casino_ids`` (None:
    every casino), optionally only for ``identifiers``; sorted by day, then theo (highest first)."""
    last = last or first
    check_range(first, last)
    rows = list(_round_rows(casino_ids, first, last, identifiers))
    if not rows:
        return []
    book = OddsBook()
    versions = {v.pk: v for v in RulesetVersion.objects.filter(pk__in={r["round__ruleset_version_id"] for r in rows})}
    tables = {t.pk: t for t in Table.objects.filter(pk__in={r["round__table_id"] for r in rows})}
    rake = _rake_shares({r["round_id"] for r in rows if r["wager"] == POT_KEY})

    # (casino, player, day, table) -> {round id: [recorded_at, {(game, wager type): WagerTotal}]}
    plays: dict[tuple, dict[int, list]] = defaultdict(dict)
    for r in rows:
        version = versions[r["round__ruleset_version_id"]]
        key = (r["round__table__pit__casino_id"], r["player"], r["round__gaming_day"], r["round__table_id"])
        at, wagers = plays[key].setdefault(r["round_id"], [r["round__recorded_at"], {}])
        stake, net = r["stake"] or ZERO, r["net"] or ZERO
        total = WagerTotal(version.game, wager_type(r["wager"]), r["placed"], stake)
        if r["wager"] == POT_KEY:
            # The house has no stake in the pot: the player's part of the rake is the house's theo
            # (rake due) and actual (rake taken), in proportion to the chips they put in.
            pot, due, taken = rake.get(r["round_id"], (ZERO, ZERO, ZERO))
            if pot:
                total.theo, total.actual = due * stake / pot, taken * stake / pot
        else:
            total.theo = stake * book.odds(version, r["wager"]).house_edge
            total.actual = -net
        wagers.setdefault((total.game, total.wager), WagerTotal(total.game, total.wager)).add(total)

    gap = gap_threshold()
    days: dict[tuple, DayRating] = {}
    for (casino_id, player, day, table_id), rounds in plays.items():
        rating = days.setdefault((casino_id, player, day), DayRating(casino_id=casino_id, identifier=player,
                                                                     gaming_day=day))
        table = tables[table_id]
        session = None
        for at, wagers in sorted(rounds.values(), key=lambda item: item[0]):
            if session is None or at - session.end > gap:
                session = Session(table_id=table_id, table_label=table.label, game=table.game, gaming_day=day,
                                  start=at, end=at)
                rating.sessions.append(session)
            session.seconds += int((at - session.end).total_seconds())
            session.end = at
            session.rounds += 1
            session.add_wagers(wagers)
    # Summing a day's sessions is unchanged: the selector's own step (what changed is the cut).
    return day_totals(days)
