"""A day's players ranked by theo for the reads that show a slice of them (the list API's page, the top
players), ordered in SQL by a theo each day row keeps, priced by the one pricing (selectors._Prices).

A kept theo is only as good as what it was priced from, so each row keeps beside it the digest of
the odds it was priced with (``RatingDay.theo_of``: each of the (day, casino)'s keys, a ruleset
version and wager, with its wager type and house edge). A read works out each (day, casino)'s digest
from the odds book it has just read, prices again the rows whose digest differs (an edited
TheoreticalAssumption, a new exact figure, a key new to the day) or is empty (the writer empties it
whenever it writes a row: a round recorded, corrected or voided, a rebuild) and only then ranks
with ORDER BY ... LIMIT and a COUNT. The writer never prices, so recording reads no odds.

A row is priced from its ``wagers`` read under its row lock, taken with ``SKIP LOCKED``: a
recording transaction that writes the row meanwhile waits for that short lock (a chunk of
:data:`CHUNK` rows) and then empties the digest again, and the read never waits for the writer (no
deadlock between the two). Rows still unpriced after :data:`PASSES` passes (held by writers all the
while) leave the day to the in-memory ranking (selectors.RankedDays) for that read, and so does a
database other than PostgreSQL.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from datetime import date

from django.db import connections, router, transaction
from django.db.models import Case, CharField, F, Func, Value, When
from django.db.models.functions import Collate

from .models import RatingDay
from .selectors import DayRating, RankedDays, _Prices, check_range, day_rating_of, day_ratings
from .writer import MICRO, gap_threshold

#: Rows priced and written per transaction: the locks a first read of a day holds stay short.
CHUNK = 200
#: Pricing passes before a day written to all the while is left to the in-memory ranking.
PASSES = 3
_UPDATE = (f"UPDATE {RatingDay._meta.db_table} SET {RatingDay._meta.get_field('theo').column} = %s, "  # noqa: S608
           f"{RatingDay._meta.get_field('theo_of').column} = %s WHERE {RatingDay._meta.pk.column} = %s")
_ROW = ("casino_id", "gaming_day", "player", "rounds", "sessions", "seconds", "threshold", "wagers")


class _Keys(Func):
    """Each key of a row's ``wagers`` (a set-returning function: a row per key)."""

    function = "jsonb_object_keys"
    output_field = CharField()


def _digest(prices: _Prices, keys) -> str:
    """What the theo of a row of a (day, casino) whose rows hold ``keys`` depends on in the odds book:
    each key's wager type and house edge."""
    text = "|".join(f"{key}={prices.kinds[key]!r}" for key in sorted(keys))
    return hashlib.sha256(text.encode()).hexdigest()[:40]


class StoredRanking:
    """The ranked day rows as a sequence of :class:`DayRating` (``len()``, slices): a slice is one
    ordered read of those rows, priced in full."""

    def __init__(self, days, prices: _Prices) -> None:
        self._days = days.order_by("gaming_day", F("theo").desc(), Collate("player", "C"))
        self._prices = prices
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            self._count = self._days.count()
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))  # as a list's: negative and open ends
            if step != 1 or stop <= start:
                return list(self)[index] if step != 1 else []
            return [day_rating_of(self._prices, row) for row in self._days[start:stop].values_list(*_ROW)]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return day_rating_of(self._prices, self._days.values_list(*_ROW)[index % len(self)])

    def __iter__(self):
        return (day_rating_of(self._prices, row) for row in self._days.values_list(*_ROW))


def _price(stale, prices: _Prices) -> None:
    """Price the ``stale`` rows (annotated with their ``digest``) and keep their theo, a chunk at a
    time, each row from its wagers read under its lock; rows another transaction holds are left."""
    using = router.db_for_write(RatingDay)
    pks = list(stale.values_list("pk", flat=True))
    for start in range(0, len(pks), CHUNK):
        with transaction.atomic(using=using):
            rows = stale.using(using).filter(pk__in=pks[start:start + CHUNK]).select_for_update(
                skip_locked=True).values_list("pk", "wagers", "digest")
            # A row written since the day's keys were read may hold a new key: it stays unpriced.
            priced = [(prices.theo(wagers), digest, pk) for pk, wagers, digest in rows
                      if all(key in prices.kinds for key in wagers)]
            with connections[using].cursor() as cursor:
                # One statement per row, sent together (psycopg's pipeline): bulk_update's CASE over
                # the chunk's ids made the first read of a 10,000-player day take 16 s.
                cursor.executemany(_UPDATE, priced)


def day_ranking(*, casino_ids, first: date, last: date | None = None) -> StoredRanking | RankedDays | list[DayRating]:
    """Every player's day of ``first``..``last`` at ``casino_ids`` (None: every casino) in
    :func:`~.selectors.day_ratings`' order and with its figures (without sessions or registered
    players), for reads that show a slice of it: only the slice taken is priced in full."""
    last = last or first
    check_range(first, last)
    limit = gap_threshold() // MICRO
    days = RatingDay.objects.filter(gaming_day__range=(first, last))
    if casino_ids is not None:
        days = days.filter(casino_id__in=casino_ids)
    if days.exclude(threshold=limit).exists():
        # Counted at another threshold: the sessions are read (selectors.day_ratings).
        return day_ratings(casino_ids=casino_ids, first=first, last=last, sessions=False)
    if connections[days.db].vendor == "postgresql":
        keys: dict[tuple, set[str]] = defaultdict(set)
        for day, casino_id, key in days.annotate(key=_Keys("wagers")).values_list(
                "gaming_day", "casino_id", "key").distinct():
            keys[(day, casino_id)].add(key)
        prices = _Prices(set().union(*keys.values()))
        if not keys:
            return StoredRanking(days, prices)
        digests = Case(*(When(gaming_day=day, casino_id=casino_id, then=Value(_digest(prices, theirs)))
                         for (day, casino_id), theirs in keys.items()),
                       # A row of a (day, casino) written since the keys were read: stale, never matched.
                       default=Value("-"), output_field=CharField())
        stale = days.annotate(digest=digests).exclude(theo_of=F("digest"))
        for _ in range(PASSES):
            if not stale.exists():
                return StoredRanking(days, prices)
            _price(stale, prices)
    rows = list(days.values_list(*_ROW))
    return RankedDays(rows, _Prices({k for row in rows for k in row[7]}))
