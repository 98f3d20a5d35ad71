"""The one writer of the daily rollups (models.py).

Every figure of a round (what it adds to its (gaming day, table, dealer, game) rows) is computed by
:func:`figures` from raw rows with the desk's own rules (audit/selectors.py: ``counted_findings``,
``_round_stats``), so a rollup can never count differently from the raw pages it replaces.

Kept current by increments, never by read-modify-write: a change to some rounds computes their
figures before and after (under the rounds' locks the services already hold) and adds the
difference with ``INSERT ... ON CONFLICT DO UPDATE SET x = x + EXCLUDED.x``, one statement per
rollup table, so two recorders at one table never lose each other's counts. A new round without
findings (most of them) costs one such upsert and no read.

The repair path, :func:`rollups_recompute`, rebuilds a (gaming day, table) from its raw rows
(the ``rollups_rebuild`` command and the data migration use it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import date
from decimal import Decimal

from django.db import router, transaction
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, Value
from django.db.models.functions import Coalesce

from audit.rollups.models import DailyCodeRollup, DailyOverpayRollup, DailyRollup
from audit.selectors import PAY_STATES, _money_sum, _round_stats, counted_findings, pay_state
from casino.rows import RowInserter
from tables import chain
from tables.games.vocabulary.catalogue import OVERPAY, UNDERPAY
from tables.history.days import days_with_tables
from tables.models import Finding, Round, Wager

_DAY = ("gaming_day", "table_id", "dealer_id", "game")
#: Each rollup: its key columns and its additive figures.
SHAPES = {
    DailyRollup: (_DAY, ("rounds", "active_rounds", "error_rounds", "findings", "open_findings", "overpaid",
                         "underpaid", *PAY_STATES)),
    DailyCodeRollup: ((*_DAY, "kind", "code"), ("count", "amount")),
    DailyOverpayRollup: (("gaming_day", "table_id", "dealer_id", "seat", "player"),
                         ("count", "rounds", "player_rounds", "amount")),
}
Figures = dict[type, dict[tuple, dict]]


def _money(value) -> Decimal:
    return Decimal(value or 0).quantize(Decimal("0.01"))


def _day(value) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value


def figures(**rounds_filter) -> Figures:
    """The rollup rows of the rounds matching ``rounds_filter`` (Round lookups), from raw rows."""
    day = rounds_filter.get("gaming_day")
    if day:
        days = (day, day)
    else:  # rounds by id: their days first, so that every read below plans their months only
        span = Round.objects.filter(**rounds_filter).aggregate(first=Min("gaming_day"), last=Max("gaming_day"))
        days = (span["first"], span["last"]) if span["first"] else None
        if days:
            rounds_filter = {**rounds_filter, "gaming_day__range": days}
    rounds = Round.objects.filter(**rounds_filter).order_by()
    on_rounds = {f"round__{k}": v for k, v in rounds_filter.items()}
    # A finding's day is its round's: said of the findings too, PostgreSQL reads one month of them.
    on_rounds.update({k: v for k, v in rounds_filter.items() if k.startswith("gaming_day")})
    findings = counted_findings(Finding.objects.filter(**on_rounds), days=days).order_by()
    on_round = {"gaming_day": "round__gaming_day", "table_id": "round__table", "dealer_id": "round__dealer",
                "game": "round__game"}
    out: Figures = {model: {} for model in SHAPES}

    def put(model, row: dict, key_names: Iterable[str], **figs) -> None:
        key = tuple(row[k] for k in key_names)
        key = (_day(key[0]), *key[1:])
        out[model][key] = {name: (_money(v) if name in ("overpaid", "underpaid", "amount") else v)
                           for name, v in figs.items()}

    day_rows = {}
    for row in (_round_stats(rounds, days).values("gaming_day", "table", "dealer", "game")
                .annotate(n=Count("id"), active=Count("id", filter=Q(status=Round.ACTIVE)),
                          errors=Count("id", filter=Q(has_error=True)))):
        key = (_day(row["gaming_day"]), row["table"], row["dealer"], row["game"])
        day_rows[key] = {"rounds": row["n"], "active_rounds": row["active"], "error_rounds": row["errors"],
                         "findings": 0, "open_findings": 0, "overpaid": _money(0), "underpaid": _money(0),
                         **dict.fromkeys(PAY_STATES, 0)}
    # The pays of the active rounds' current revisions, grouped as pay_state reads them. The
    # wagers, rounds and revisions are all partitioned by the day: the days said of each.
    wagers = Wager.objects.filter(**{f"round__{k}": v for k, v in rounds_filter.items()},
                                  round__status=Round.ACTIVE, revision__number=F("round__revision"))
    if days:
        wagers = wagers.filter(gaming_day__range=days, revision__gaming_day__range=days,
                               round__gaming_day__range=days)
    for row in (wagers.order_by().values("round__gaming_day", "round__table", "round__dealer", "round__game",
                                         "wager", "revision__pays_attested")
                .annotate(entered=Count("id", filter=Q(recorded_net__isnull=False)),
                          missing=Count("id", filter=Q(recorded_net__isnull=True)))):
        key = (_day(row["round__gaming_day"]), row["round__table"], row["round__dealer"], row["round__game"])
        for recorded, n in ((True, row["entered"]), (False, row["missing"])):
            if n:
                day_rows[key][pay_state(row["wager"], recorded, row["revision__pays_attested"])] += n
    for row in (findings.values(*on_round.values())
                .annotate(n=Count("id"), waiting=Count("id", filter=Q(status=Finding.OPEN)),
                          over=_money_sum("amount", kind=OVERPAY), under=_money_sum("amount", kind=UNDERPAY))):
        key = (_day(row["round__gaming_day"]), row["round__table"], row["round__dealer"], row["round__game"])
        # A counted finding's round is always counted (active, or holding this reviewed error).
        day_rows[key].update(findings=row["n"], open_findings=row["waiting"], overpaid=_money(row["over"]),
                             underpaid=_money(row["under"]))
    out[DailyRollup] = day_rows
    for row in findings.values(*on_round.values(), "kind", "code").annotate(n=Count("id"), amt=_money_sum("amount")):
        put(DailyCodeRollup, row, (*on_round.values(), "kind", "code"), count=row["n"], amount=row["amt"])
    overpays = findings.filter(kind=OVERPAY).annotate(seat0=Coalesce("seat", Value(0)))
    # The player's lowest overpaid seat of the round carries the round for the player (models.py).
    lower_seat = counted_findings(
        Finding.objects.filter(round=OuterRef("round"), kind=OVERPAY, player=OuterRef("player"))
        .annotate(seat0=Coalesce("seat", Value(0))).filter(seat0__lt=OuterRef("seat0")), days=days
    )
    for row in (overpays.annotate(lowest=~Exists(lower_seat))
                .values("round__gaming_day", "round__table", "round__dealer", "seat0", "player")
                .annotate(n=Count("id"), n_rounds=Count("round", distinct=True),
                          n_player=Count("round", distinct=True, filter=Q(lowest=True)), amt=_money_sum("amount"))):
        put(DailyOverpayRollup, row, ("round__gaming_day", "round__table", "round__dealer", "seat0", "player"),
            count=row["n"], rounds=row["n_rounds"], player_rounds=row["n_player"], amount=row["amt"])
    return out


def _difference(before: Figures, after: Figures) -> Figures:
    out: Figures = {}
    for model, (_, names) in SHAPES.items():
        rows = {}
        for key in before[model].keys() | after[model].keys():
            old, new = before[model].get(key, {}), after[model].get(key, {})
            delta = {n: new.get(n, 0) - old.get(n, 0) for n in names}
            if any(delta.values()):
                rows[key] = delta
        out[model] = rows
    return out


#: The increment of each rollup: one upsert adding to the stored figures (casino/rows.py builds it
#: once; on PostgreSQL one statement text, prepared, for any number of rows).
_ADDERS = {model: RowInserter(model, (*keys, *names), returning_pk=False, add=(keys, names))
           for model, (keys, names) in SHAPES.items()}


def _increment(changes: Figures) -> None:
    """Add ``changes`` to the rollups: one upsert per rollup table that changes."""
    for model, rows in changes.items():
        if not rows:
            continue
        _, names = SHAPES[model]
        # One order: two writers of the same rows never deadlock.
        _ADDERS[model].insert([(*key, *(rows[key].get(n, 0) for n in names)) for key in sorted(rows)],
                              using=router.db_for_write(model))


_EMPTY: Figures = {model: {} for model in SHAPES}


@contextmanager
def rounds_changing(round_ids: Iterable[int]):
    """Around a change to ``round_ids`` (their findings, status or revision), made under their
    locks: their figures are read before and after and the difference added. Nothing is added
    when the change raises (its transaction rolls back)."""
    ids = sorted(set(round_ids))
    if not ids:
        yield
        return
    before = figures(pk__in=ids)
    yield
    _increment(_difference(before, figures(pk__in=ids)))


class DeskRollups:
    """The desk's rollups as a ``tables.round_effects.RoundProjection`` (``ROUND_PROJECTIONS``):
    a correction or void adds its difference (:func:`rounds_changing`), a new round its figures."""

    def changing(self, round_ids: Iterable[int]):
        return rounds_changing(round_ids)

    def round_posted(self, *, round, revision, casino_id=None) -> None:  # noqa: A002
        round_recorded(round=round, revision=revision)

    def round_voided(self, *, round) -> None:  # noqa: A002
        """Counted by :meth:`changing`, around the void."""


def round_recorded(*, round, revision) -> None:  # noqa: A002
    """A new round adds its figures (a correction is a :func:`rounds_changing`).
    A round without findings (most of them) adds its row from the rows the recording just wrote,
    with no read."""
    if revision.number != 1:
        return
    wagers = getattr(revision, "wager_rows", None)
    if getattr(revision, "finding_rows", None) == [] and wagers is not None:
        key = (_day(round.gaming_day), round.table_id, round.dealer_id, round.game)
        row = {"rounds": 1, "active_rounds": 1, "error_rounds": 0, "findings": 0, "open_findings": 0,
               "overpaid": 0, "underpaid": 0, **dict.fromkeys(PAY_STATES, 0)}
        # The rows just written, read as the rebuild reads them from the database.
        for wager in wagers:
            row[pay_state(wager.wager, wager.recorded_net is not None, revision.pays_attested)] += 1
        _increment({**_EMPTY, DailyRollup: {key: row}})
        return
    _increment(_difference(_EMPTY, figures(pk=round.pk, gaming_day=round.gaming_day)))


def rollups_recompute(gaming_day: date, table_id: int) -> None:
    """Rebuild one (gaming day, table) from its raw rounds and findings: the repair path."""
    _recompute(gaming_day, [table_id])


@transaction.atomic
def _recompute(gaming_day: date, table_ids: list[int]) -> None:
    """Rebuild the rollups of ``table_ids`` on ``gaming_day`` from the raw rows, with one read of
    the day for all of them. Under the tables' locks (taken in id order, as every writer takes
    them), which recording, corrections, voids and reviews also take, so no increment lands
    between the delete and the rebuild."""
    table_ids = sorted(set(table_ids))
    for table_id in table_ids:
        chain.lock_table_chain(table_id, using=router.db_for_write(DailyRollup))
    for model in SHAPES:
        model.objects.filter(gaming_day=gaming_day, table_id__in=table_ids).delete()
    _increment(figures(gaming_day=gaming_day, table_id__in=table_ids))


def rollups_rebuild(*, since: date | None = None, until: date | None = None) -> int:
    """Recompute every (gaming day, table) with rounds in the period (all when open), a gaming
    day at a time (one transaction and one read per day: a year of a floor rebuilds in minutes,
    not the hours of one (day, table) at a time); how many (day, table) pairs."""
    by_day = days_with_tables(Round, since=since, until=until)
    for day in sorted(by_day):
        _recompute(day, by_day[day])
    return sum(len(tables) for tables in by_day.values())


def rollups_stored(**rows_filter) -> Figures:
    """The stored rollup rows (zero rows left by decrements dropped), keyed as :func:`figures`."""
    out: Figures = defaultdict(dict)
    for model, (keys, names) in SHAPES.items():
        out[model] = {}
        for row in model.objects.filter(**rows_filter).values(*keys, *names):
            figs = {n: (_money(row[n]) if isinstance(row[n], Decimal) else row[n]) for n in names}
            if any(figs.values()):
                out[model][tuple(row[k] for k in keys)] = figs
    return dict(out)
