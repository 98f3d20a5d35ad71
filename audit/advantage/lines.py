"""The one writer of the count lines (models.CountLine), and their decoding.

A line holds what the walk of the count (count.py) needs of a round's **current revision**: its
cards (``bets.round_cards``) and its players' base wagers (``bets.round_bets``), beside the round's
table, sequence, session, dealer, decks and whether it is active. Those two functions are the only
definition of which cards and which wager count: the listener and the rebuild both call them.

* ``round_posted`` (a new round or a correction): the line is made from the posted revision's
  JSON, already in hand (a new round: one prepared INSERT; a correction: the line replaced).
* ``round_voided``: the line is marked inactive (the selector leaves it out, as it left the
  voided round out).
* The repair path, :func:`lines_rebuild` (``manage.py advantage_lines_rebuild`` and the data
  migration), remakes a gaming day's lines from the raw revisions, under the tables' locks.

A re-audit (audit/reports/services/reaudit.py) only adds findings to the current revision: it
changes no round's cards, bets or status, so it leaves the lines as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from contextlib import nullcontext
from datetime import date
from decimal import Decimal

from django.db import router, transaction
from django.db.models import F

from audit.advantage.bets import ASSESSED_GAMES, round_bets, round_cards
from audit.advantage.models import CountLine, DayChange
from casino.rows import RowInserter
from tables import chain
from tables.history.days import days_with_tables
from tables.models import Round, RoundRevision, RulesetVersion

_COLUMNS = ("round_id", "gaming_day", "table_id", "sequence", "session_id", "dealer_id", "decks", "active", "cards",
            "bets")
_INSERT = RowInserter(CountLine, _COLUMNS, returning_pk=False)
_REPLACED = _COLUMNS[1:]
#: The day's change counter of the table (models.DayChange): one upsert adding to it.
_BUMP = RowInserter(DayChange, ("gaming_day", "table_id", "changes", "lines"), returning_pk=False,
                    add=(("gaming_day", "table"), ("changes", "lines")))


def _changed(db: str, rnd: Round, *, new_line: bool) -> None:
    """Count a change of the table's day (the stored results of it are stale from now on): one
    small statement in the recording transaction, under the table's lock every recorder takes,
    so two rounds of one table never wait on each other here that did not already."""
    _BUMP.insert([(rnd.gaming_day, rnd.table_id, 1, 1 if new_line else 0)], using=db)


def encode_cards(cards: tuple[int, ...]) -> bytes:
    """One byte per card: the card's int (0-51, tables.games.vocabulary.cards)."""
    return bytes(cards)


def line_cards(stored) -> tuple[int, ...]:
    """The cards of a line (bytes, or a memoryview from some drivers), as ``bets.round_cards`` gave them."""
    return tuple(stored)


def encode_bets(bets: tuple[tuple[str, Decimal], ...]) -> str:
    """``bets.round_bets`` as compact JSON ``["player","amount",...]`` (``[]`` for none): any text a
    player identifier holds survives, and the amount's text gives back the very Decimal."""
    return json.dumps([x for player, bet in bets for x in (player, str(bet))], ensure_ascii=False,
                      separators=(",", ":"))


class _Money(dict):
    """Amount text -> its Decimal, made once per distinct text (a Decimal never changes, so the
    rounds of a day share it)."""

    def __missing__(self, text: str) -> Decimal:
        amount = self[text] = Decimal(text)
        return amount


def _pairs(flat: list, money: _Money) -> tuple[tuple[str, Decimal], ...]:
    return tuple(zip(flat[::2], map(money.__getitem__, flat[1::2]), strict=True))


def line_bets(stored: str) -> tuple[tuple[str, Decimal], ...]:
    """The bets of a line, as ``bets.round_bets`` gave them."""
    return _pairs(json.loads(stored or "[]"), _Money())


def lines_bets(stored: list[str]) -> list[tuple[tuple[str, Decimal], ...]]:
    """The bets of many lines (a day's), as :func:`line_bets` gives each: one JSON parse for all of
    them, and one Decimal per distinct amount (a day's bets are a few dozen amounts; a Decimal
    never changes, so the rounds share it)."""
    money = _Money()
    return [_pairs(flat, money) for flat in json.loads("[" + ",".join(t or "[]" for t in stored) + "]")]


def line_values(*, round_id: int, gaming_day, table_id: int, sequence: int, session_id: int, dealer_id: int,
                decks: int, active: bool, game: str, data: dict) -> tuple:
    """A line's values in ``_COLUMNS`` order, from a round's current revision JSON."""
    return (round_id, gaming_day, table_id, sequence, session_id, dealer_id, decks, active,
            encode_cards(round_cards(game, data)), encode_bets(round_bets(game, data)))


def _of_round(rnd: Round, data: dict) -> tuple:
    return line_values(round_id=rnd.pk, gaming_day=rnd.gaming_day, table_id=rnd.table_id, sequence=rnd.sequence,
                       session_id=rnd.session_id, dealer_id=rnd.dealer_id, decks=rnd.ruleset_version.rules().decks,
                       active=rnd.status == Round.ACTIVE, game=rnd.game, data=data)


class CountLines:
    """The count lines as a ``tables.round_effects.RoundProjection`` (``ROUND_PROJECTIONS``)."""

    def changing(self, round_ids):
        return nullcontext()

    def round_posted(self, *, round, revision, casino_id=None) -> None:  # noqa: A002
        line_posted(round=round, revision=revision)

    def round_voided(self, *, round) -> None:  # noqa: A002
        line_voided(round=round)


def line_posted(*, round, revision) -> None:  # noqa: A002
    """The line of a new round, or a corrected round's line replaced."""
    if round.game not in ASSESSED_GAMES:
        return
    values = _of_round(round, revision.data)
    db = round._state.db or router.db_for_write(CountLine)
    if revision.number == 1:
        _INSERT.insert([values], using=db)
        _changed(db, round, new_line=True)
        return
    # A correction (rare): the line replaced, or made if it was missing (a table of lines lost).
    line = CountLine(**dict(zip(_COLUMNS, values, strict=True)))
    CountLine.objects.using(db).bulk_create([line], update_conflicts=True, unique_fields=["round"],
                                            update_fields=list(_REPLACED))
    _changed(db, round, new_line=False)


def line_voided(*, round) -> None:  # noqa: A002
    """A voided round's line stays, inactive (the walk leaves a voided round's cards out)."""
    if round.game in ASSESSED_GAMES:
        db = round._state.db or router.db_for_write(CountLine)
        CountLine.objects.using(db).filter(round_id=round.pk).update(active=False)
        _changed(db, round, new_line=False)


def lines_of_day(gaming_day: date, table_ids: list[int]) -> list[CountLine]:
    """The lines of ``table_ids`` on ``gaming_day`` made from the raw revisions (current revision of
    every round of the assessed games, voided ones inactive). Names only the columns it reads, so
    a later migration adding columns to rounds or revisions does not break the data migration."""
    # The revision's own gaming day as well as the round's: one monthly partition of each.
    rows = (RoundRevision.objects.filter(gaming_day=gaming_day, round__gaming_day=gaming_day,
                                         round__table_id__in=table_ids, round__game__in=ASSESSED_GAMES,
                                         number=F("round__revision"))
            .order_by().values_list("round_id", "round__table_id", "round__sequence", "round__session_id",
                                    "round__dealer_id", "round__ruleset_version_id", "round__status", "round__game",
                                    "data"))
    rows = list(rows.iterator(chunk_size=2000))
    versions = RulesetVersion.objects.filter(pk__in={r[5] for r in rows}).only("pk", "game", "config", "created_at")
    decks = {v.pk: v.rules().decks for v in versions}
    return [CountLine(**dict(zip(_COLUMNS, line_values(
        round_id=round_id, gaming_day=gaming_day, table_id=table_id, sequence=sequence, session_id=session_id,
        dealer_id=dealer_id, decks=decks[version_id], active=status == Round.ACTIVE, game=game, data=data),
        strict=True)))
        for round_id, table_id, sequence, session_id, dealer_id, version_id, status, game, data in rows]


@transaction.atomic
def lines_recompute(gaming_day: date, table_ids: list[int], *, count_changes: bool = True) -> int:
    """Remake the lines of ``table_ids`` on ``gaming_day`` from the raw revisions (the repair path);
    how many lines. Under the tables' locks, taken in id order as every writer takes them: a round
    recorded, corrected or voided at those tables waits, so no line is lost between the delete and
    the insert. ``count_changes`` False: the change counters are left alone (the data migration
    that made the first lines ran before they existed; the next one counts them)."""
    table_ids = sorted(set(table_ids))
    for table_id in table_ids:
        chain.lock_table_chain(table_id, using=router.db_for_write(CountLine))
    CountLine.objects.filter(gaming_day=gaming_day, table_id__in=table_ids).delete()
    lines = lines_of_day(gaming_day, table_ids)
    CountLine.objects.bulk_create(lines, batch_size=2000)
    # Every table's counter moves on (a stored result of the day is stale) and its size is counted
    # afresh; the counter never goes back, or an old result could match it again.
    sizes = Counter(line.table_id for line in lines)
    for table_id in table_ids if count_changes else ():
        change, made = DayChange.objects.get_or_create(gaming_day=gaming_day, table_id=table_id,
                                                       defaults={"changes": 1, "lines": sizes[table_id]})
        if not made:
            DayChange.objects.filter(pk=change.pk).update(changes=F("changes") + 1, lines=sizes[table_id])
    return len(lines)


def lines_rebuild(*, since: date | None = None, until: date | None = None,
                  count_changes: bool = True) -> tuple[int, int]:
    """Remake the lines of every gaming day in the period (all when open), a day at a time (one
    transaction and one read of the day's revisions each); (days, lines). A day's stray lines (of
    no round) go too."""
    by_day = days_with_tables(Round, CountLine, since=since, until=until)
    lines = sum(lines_recompute(day, by_day[day], count_changes=count_changes) for day in sorted(by_day))
    return len(by_day), lines
