"""Time the stored advantage-play day (audit/advantage/results.py) on a made-up busy day: not a test.

``DATABASE_URL=postgres://.../SCRATCH .venv/bin/python -m tests.benchmarks.bench_advantage_results --lines 100000``

Writes, into a scratch database migrated to the code under test, one gaming day (``--day``) of
``--lines`` count lines at ``--tables`` tables of a casino of its own ("Bench advantage"), dealt
from shuffled 6-deck shoes (reshuffled at 75% with no marker, as the walk must infer), seats held
by ``--players`` players for stints, a few of them counters (their bet follows the true count),
the others betting flat or at random; and the tables' change counters as the writer keeps them.
No round rows: the count lines are all the read and the recount use. Then prints: the count of
the whole day as the request made it before (``advantage_day``), the task's recount
(``day_results_compute``, all tables and each), and the page and the API, all tables and one
table, median of 3 after a warm-up through Django's test client, with the stored result current.
``--clean`` removes the bench day first (its lines, counters and results).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date
from decimal import Decimal


def _deal(options, tables, rng):
    """Count lines of the day, table by table, in sequence order."""
    from audit.advantage.count import HI_LO
    from audit.advantage.lines import encode_bets, encode_cards
    from audit.advantage.models import CountLine
    from tables.games.vocabulary.cards import Shoe

    players = [f"B-{n:05d}" for n in range(options.players)]
    counters = set(rng.sample(players, max(1, options.players // 30)))
    flat = set(rng.sample(players, options.players // 3)) - counters
    amounts = [Decimal(a) for a in ("10.00", "25.00", "50.00", "100.00")]
    per_table = options.lines // len(tables)
    round_id = 10**12 + (options.day - date(2000, 1, 1)).days * 10**7  # a range of its own per day
    for table in tables:
        shoe, dealt, seen_tag = [], 0, 0
        seats: dict[int, list] = {}
        batch = []
        for sequence in range(1, per_table + 1):
            if not shoe or dealt > 0.75 * len(shoe):
                shoe, dealt, seen_tag = Shoe(6).cards(), 0, 0
                rng.shuffle(shoe)
            true = seen_tag / max((312 - dealt) / 52, 0.5)
            bets, cards = [], []
            for seat in range(1, 8):
                stint = seats.get(seat)
                if stint is None or stint[1] <= 0:
                    stint = seats[seat] = [rng.choice(players) if rng.random() < 0.8 else None, rng.randint(20, 120)]
                stint[1] -= 1
                if stint[0] is None:
                    continue
                player = stint[0]
                if player in counters:
                    bet = amounts[min(3, max(0, int(true)))]
                elif player in flat:
                    bet = amounts[1]
                else:
                    bet = rng.choice(amounts)
                bets.append((player, bet))
                cards += shoe[dealt + len(cards):dealt + len(cards) + rng.randint(2, 3)]
            cards += shoe[dealt + len(cards):dealt + len(cards) + rng.randint(2, 4)]
            cards = cards[:max(0, len(shoe) - dealt)]
            dealt += len(cards)
            seen_tag += sum(HI_LO[c] for c in cards)
            round_id += 1
            batch.append(CountLine(round_id=round_id, gaming_day=options.day, table_id=table.pk, sequence=sequence,
                                   session_id=table.pk, dealer_id=1, decks=6, active=True,
                                   cards=encode_cards(tuple(cards)), bets=encode_bets(tuple(bets))))
            if len(batch) == 5000:
                CountLine.objects.bulk_create(batch)
                batch = []
        CountLine.objects.bulk_create(batch)
    return per_table


def _timed(fn, runs: int = 3):
    fn()  # the warm-up
    seconds = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        seconds.append(time.perf_counter() - t)
    return statistics.median(seconds), seconds, out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_results")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--day", type=date.fromisoformat, default=date(2031, 3, 3))
    parser.add_argument("--clean", action="store_true", help="remove the bench day first")
    parser.add_argument("--seed", type=int, default=20)
    options = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db.models import Count
    from django.test import Client

    from audit.advantage.models import CountLine, DayChange, DayResult
    from audit.advantage.results import day_answer, day_results_compute
    from audit.advantage.selectors import advantage_day
    from tests.advantage.helpers import table_with_decks
    from tests.factories import CasinoFactory, PitFactory, user_with_role

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    casino = CasinoFactory(name="Bench advantage")
    if options.clean:
        CountLine.objects.filter(gaming_day=options.day, table__pit__casino=casino).delete()
        DayChange.objects.filter(gaming_day=options.day, table__pit__casino=casino).delete()
        DayResult.objects.filter(gaming_day=options.day, casino=casino).delete()
    tables = list(casino.pits.first().tables.order_by("pk")) if casino.pits.exists() else []
    if not CountLine.objects.filter(gaming_day=options.day, table__pit__casino=casino).exists():
        pit = casino.pits.first() or PitFactory(casino=casino)
        while len(tables) < options.tables:
            tables.append(table_with_decks(6, pit=pit)[0])
        tables = tables[:options.tables]
        t = time.perf_counter()
        per_table = _deal(options, tables, random.Random(options.seed))
        for table in tables:
            DayChange.objects.update_or_create(gaming_day=options.day, table=table,
                                               defaults={"changes": per_table, "lines": per_table})
        print(f"wrote {per_table * len(tables):,} count lines at {len(tables)} tables in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
    sizes = dict(CountLine.objects.filter(gaming_day=options.day, table__pit__casino=casino)
                 .values_list("table_id").annotate(n=Count("pk")))
    tables = sorted(sizes)
    print(f"day {options.day}: {sum(sizes.values()):,} lines at {len(tables)} tables", flush=True)

    t = time.perf_counter()
    day = advantage_day(options.day, casinos={casino.pk})
    before = time.perf_counter() - t
    pairs = sum(row.n for row in day.rows)
    flagged = next((row.player for row in day.rows if row.signal == "flag"), day.rows[0].player)
    clear = next((row.player for row in day.rows if row.signal == "clear"), day.rows[-1].player)
    print(f"advantage_day (the request's count before): {before * 1000:,.0f} ms; {day.rounds:,} rounds, "
          f"{day.shoes:,} shoes, {len(day.rows):,} players, {pairs:,} pairs, "
          f"{sum(r.signal == 'flag' for r in day.rows)} flagged", flush=True)
    del day
    t = time.perf_counter()
    stored = day_results_compute(casino_id=casino.pk, gaming_day=options.day)
    print(f"day_results_compute (the task): {(time.perf_counter() - t) * 1000:,.0f} ms, {stored} results stored",
          flush=True)
    assert day_answer(options.day, casino_id=casino.pk).status == "current"

    client = Client(raise_request_exception=True)
    client.force_login(user_with_role("surveillance", "bench-advantage", casinos=[casino]))
    for url, query in (("/desk/advantage/", {}), ("/desk/advantage/", {"table": tables[0]}),
                       ("/api/v1/advantage-play/", {}), ("/api/v1/advantage-play/", {"table": tables[0]}),
                       ("/api/v1/advantage-play/", {"limit": 500}), ("/desk/advantage/", {"player": flagged}),
                       ("/desk/advantage/", {"player": clear})):
        query = {"gaming_day": options.day.isoformat(), **query}
        median, runs, response = _timed(lambda url=url, query=query: client.get(url, query))
        assert response.status_code == 200, response.status_code
        print(f"{url:26} {str({k: v for k, v in query.items() if k != 'gaming_day'}):22} median "
              f"{median * 1000:6.0f} ms (runs {', '.join(f'{s * 1000:.0f}' for s in runs)}) "
              f"{len(response.content) / 1e6:.2f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
