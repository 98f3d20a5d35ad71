"""A day's players ranked by theo for the reads that show a slice of them (the list API's page, the top
players), ordered in SQL from a theo each day row keeps, priced by the one pricing (selectors._Prices).

A stored theo is only as good as what it was priced from, so each row keeps that beside it
(``RatingDay.theo_of``): a digest of the odds of its (day, casino)'s keys (ruleset version, wager),
and the MD5 of its ``wagers``. A read computes what each row's should be now in SQL (the digests
from the odds book it has just read, the MD5 from the row), prices again the rows where it differs
(a round recorded since, an edited TheoreticalAssumption, a new exact figure, a rebuild) and only
then ranks with ORDER BY. The recording's writer never prices: it writes ``wagers`` as before and
the MD5 shows the change. A pair (theo, theo_of) is written together from the same ``wagers`` read,
so it is right whenever it matches, however writes interleave.

The read takes only the rows no one else holds (``SKIP LOCKED``: a recording transaction waits for
no ranking, and the two never wait on each other); a row it could not price, or one changed again
meanwhile, leaves the day to the in-memory ranking (selectors.RankedDays) for that read.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from datetime import date

from django.db import router, transaction
from django.db.models import Case, CharField, F, Func, TextField, Value, When
from django.db.models.functions import MD5, Cast, Collate, Concat

from .models import RatingDay
from .selectors import DayRating, RankedDays, _Prices, check_range, day_rating_of, day_ratings
from .writer import MICRO, gap_threshold

#: Rows priced and written per transaction: the locks a first read of a day holds stay short.
CHUNK = 500
#: Pricing passes before a day written to all the while is left to the in-memory ranking.
PASSES = 3
_ROW = ("casino_id", "gaming_day", "player", "rounds", "sessions", "seconds", "threshold", "wagers")


class _Keys(Func):
    """Each key of a row's ``wagers`` (a set-returning function: a row per key)."""

    function = "jsonb_object_keys"
    output_field = CharField()


def _digest(prices: _Prices, keys) -> str:
    """What the theo of a row holding ``keys`` depends on in the odds book: each key's wager type and edge."""
    text = "|".join(f"{key}={prices.kinds[key]!r}" for key in sorted(keys))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


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


def _priced(stale, prices: _Prices) -> tuple[int, bool]:
    """Price ``stale`` rows and keep their theo: how many were stale, and whether every one was
    priced (none held by another writer, none holding a key the odds were not read for)."""
    rows = list(stale.values_list("pk", "wagers", "stamp"))
    using = router.db_for_write(RatingDay)
    every = True
    for start in range(0, len(rows), CHUNK):
        # A row written since the keys were read may hold a new one: its digest is not known.
        chunk = {pk: (wagers, stamp) for pk, wagers, stamp in rows[start:start + CHUNK]
                 if all(key in prices.kinds for key in wagers)}
        with transaction.atomic(using=using):
            mine = set(RatingDay.objects.using(using).filter(pk__in=list(chunk)).select_for_update(
                skip_locked=True).values_list("pk", flat=True))
            RatingDay.objects.using(using).bulk_update(
                [RatingDay(pk=pk, theo=prices.theo(chunk[pk][0]), theo_of=chunk[pk][1]) for pk in mine],
                ["theo", "theo_of"])
        every = every and len(mine) == len(rows[start:start + CHUNK])
    return len(rows), every


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
    keys: dict[tuple, set[str]] = defaultdict(set)
    for day, casino_id, key in days.annotate(key=_Keys("wagers")).values_list(
            "gaming_day", "casino_id", "key").distinct():
        keys[(day, casino_id)].add(key)
    prices = _Prices(set().union(*keys.values()))
    if not keys:
        return StoredRanking(days, prices)
    digests = Case(*(When(gaming_day=day, casino_id=casino_id, then=Value(_digest(prices, theirs)))
                     for (day, casino_id), theirs in keys.items()), output_field=CharField())
    stale = days.annotate(stamp=Concat(digests, Value(":"), MD5(Cast("wagers", TextField())),
                                       output_field=CharField())).exclude(theo_of=F("stamp"))
    for _ in range(PASSES):
        found, every = _priced(stale, prices)
        if not found:
            return StoredRanking(days, prices)
        if not every:
            break
    rows = list(days.values_list(*_ROW))
    return RankedDays(rows, _Prices({k for row in rows for k in row[7]}))
