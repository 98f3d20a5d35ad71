"""The ratings of the busiest property's day, built straight into rating sessions and day rows and timed.

``DATABASE_URL=... python -m tests.benchmarks.ratings_day [--players 3000] [--rebuild] [--profile]``

Not one of ``make bench``'s benchmarks (it writes into the database ``DATABASE_URL`` names, not a
scratch one): a tool for the two reads that rank a whole day, the ratings list API and the top
players page. Loading a million rounds to get there takes bench_history most of an hour; the reads
only see the rating sessions and day rows, so this writes those directly, through the writer's
own storing (``_store``, COPY) and day rule (``days_refresh``): 60 tables of the five games (two
ruleset versions each, the ruleset changed mid-day), each player at 2-4 tables with a session or
two at each and the wagers a player of that game places, Hold'em pots with rake shares that keep
every digit of their division. It then times each read as bench_history does (the median of 3
after a warm-up, Django's test client, the loaded objects frozen out of the GC), as a pit boss;
``--profile`` prints cProfile's heaviest functions of one more request of each.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import statistics
import sys
import time
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

SORT = "tottime"
DAY = date(2026, 11, 20)
CASINO = "Ratings Day Casino"
#: Per game: the wagers every player places, and side wagers some players add.
WAGERS = {
    "ante_up_21": (("ante", "bet", "21"), ("insurance", "poker_bonus")),
    "upcard_luck_21": (("21",), ("insurance", "upcard_luck", "taxpayers_fortune_tax")),
    "poker_or_bust": (("ante", "odds"), ()),
    "holdem_blackjack": (("pot",), ()),
    "blackjack_tie": (("21",), ("insurance", "tie_LS", "tie_17", "tie_blackjack")),
}


def _build(players: int, rng: random.Random):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from audit.ratings.models import RatingDay, RatingSession
    from audit.ratings.writer import _store, days_refresh, gap_threshold
    from casino.models import Casino, CasinoMembership
    from tables.models import RulesetVersion
    from tables.players.models import Player
    from tests.factories import (
        CasinoFactory,
        PitFactory,
        RulesetFactory,
        TableFactory,
        user_with_role,
    )
    from tests.reports.helpers import _config

    old = Casino.objects.filter(name=CASINO).first()
    if old is not None:
        RatingSession.objects.filter(table__pit__casino=old).delete()
        RatingDay.objects.filter(casino=old).delete()
        old.name = f"{CASINO} (old {old.pk})"
        old.save(update_fields=["name"])
    casino = CasinoFactory(name=CASINO, time_zone="America/New_York", gaming_day_start_hour=6)
    boss = get_user_model().objects.filter(username="ratings-day-boss").first()
    if boss is None:
        boss = user_with_role("pit_boss", username="ratings-day-boss", casinos=[casino])
    CasinoMembership.objects.filter(user=boss).delete()
    CasinoMembership.objects.create(user=boss, casino=casino)
    pits = [PitFactory(casino=casino, name=f"Pit {i}") for i in (1, 2)]
    tables = []
    for gi, game in enumerate(WAGERS):
        ruleset = RulesetFactory(game=game, casino=casino, config=_config(game))
        versions = [RulesetVersion.objects.get(ruleset=ruleset, number=1),
                    RulesetVersion.objects.create(ruleset=ruleset, number=2, game=game, config=ruleset.config,
                                                  reason="changed mid-day")]
        for k in range(12):
            table = TableFactory(pit=pits[(gi + k) % 2], game=game, ruleset=ruleset,
                                 label=f"{game[:2].upper()}-{k:02d}", seats=6 if game == "holdem_blackjack" else 7)
            tables.append((table, versions))
    opens = datetime.combine(DAY, datetime.min.time(), tzinfo=UTC) + timedelta(hours=11)
    units: dict = {}
    for i in range(1, players + 1):
        player = f"P-{i}"
        for table, versions in rng.sample(tables, rng.randint(2, 4)):
            at = opens + timedelta(minutes=rng.randint(0, 20 * 60))
            folds = []
            for _ in range(rng.randint(1, 2)):
                folds.append(_session(rng, table.game, versions, at))
                at = folds[-1].end + timedelta(minutes=rng.randint(16, 120))
            units[(DAY, table.pk, player)] = folds
    _store(units, "default")
    days_refresh(DAY, casino.pk, None, using="default")
    Player.objects.bulk_create(
        [Player(casino=casino, identifier=f"P-{i}", name=f"Player {i}", registered_at=timezone.now(),
                registered_by=boss) for i in range(1, players + 1) if i % 10], batch_size=2000)
    assert RatingDay.objects.filter(casino=casino, gaming_day=DAY, threshold=gap_threshold() // timedelta(
        microseconds=1)).count() == players
    return casino, boss


def _session(rng: random.Random, game: str, versions, at: datetime):
    from audit.ratings.writer import Fold

    rounds = rng.randint(4, 60)
    gaps = [rng.randint(40, 240) for _ in range(rounds - 1)]
    main, side = WAGERS[game]
    chosen = [*main, *(w for w in side if rng.random() < 0.4)]
    version = rng.choice(versions).pk
    unit = Decimal(rng.choice((5, 10, 25, 50, 100, 500)))
    wagers = {}
    for wager in chosen:
        placed = rounds if wager in main else rng.randint(1, rounds)
        stake = unit * placed * (Decimal(rng.randint(1, 4)) if wager in main else Decimal("0.2"))
        net = Decimal(rng.randint(-int(stake), int(stake)))
        due = taken = Decimal(0)
        if wager == "pot":
            # The player's share of each hand's rake, every digit of the division kept.
            due = Decimal("0.05") * stake * Decimal(rng.randint(1, 5)) / Decimal(rng.randint(6, 13))
            taken = due if rng.random() < 0.9 else due - Decimal("0.50")
        wagers[f"{version}:{wager}"] = [placed, stake, net, due, taken]
    end = at + timedelta(seconds=sum(gaps), microseconds=rng.randint(0, 999_999))
    return Fold(start=at, end=end, rounds=rounds, seconds=sum(gaps), longest_gap=max(gaps, default=0) * 1_000_000,
                wagers=wagers)


def _time(client, url: str, profile: bool) -> list[float]:
    t = time.perf_counter()
    assert client.get(url).status_code == 200, url  # the warm-up
    print(f"  warm-up {(time.perf_counter() - t) * 1000:.0f} ms", end="")
    seconds = []
    for _ in range(3):
        t = time.perf_counter()
        response = client.get(url)
        seconds.append(time.perf_counter() - t)
        assert response.status_code == 200
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        client.get(url)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(SORT).print_stats(45)
        print(out.getvalue())
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--rebuild", action="store_true", help="build the day again even if it is there")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--seed", type=int, default=20)
    options = parser.parse_args(argv)

    import django

    django.setup()
    import logging

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from audit.ratings.models import RatingDay
    from casino.models import Casino

    call_command("migrate", verbosity=0)
    logging.getLogger("django.request").setLevel(logging.ERROR)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    casino = Casino.objects.filter(name=CASINO).first()
    if options.rebuild or casino is None or RatingDay.objects.filter(
            casino=casino, gaming_day=DAY).count() != options.players:
        t = time.perf_counter()
        casino, boss = _build(options.players, random.Random(options.seed))
        with connection.cursor() as cur:
            cur.execute("VACUUM (ANALYZE) ratings_day")
            cur.execute("VACUUM (ANALYZE) ratings_session")
        print(f"built {options.players:,} players' day in {time.perf_counter() - t:.0f} s", flush=True)
    boss = get_user_model().objects.get(username="ratings-day-boss")
    keys = [len(w) for w in RatingDay.objects.filter(casino=casino, gaming_day=DAY).values_list("wagers", flat=True)]
    print(f"{len(keys):,} day rows on {DAY}: {statistics.mean(keys):.1f} keys a row on average, at most {max(keys)}")
    gc.collect()
    gc.freeze()
    client = Client()
    client.force_login(boss)
    failed = 0
    for label, url in (("ratings API ?limit=50", f"/api/v1/ratings/?gaming_day={DAY}&casino={casino.pk}&limit=50"),
                       ("top players page", f"/players/top/?gaming_day={DAY}&casino={casino.pk}")):
        seconds = _time(client, url, options.profile)
        ms = statistics.median(seconds) * 1000
        failed += ms > 300
        print(f"{label:<24} median {ms:7.1f} ms  ({', '.join(f'{s * 1000:.0f}' for s in seconds)})", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
