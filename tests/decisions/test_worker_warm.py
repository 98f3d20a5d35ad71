"""A real Celery worker with a prefork pool, as deploy/systemd runs it, warming the decisions'
tables before it forks (``DECISIONS_WARM_SECONDS``): it says which rulesets it warmed, and its
child, forked after the warm-up on a connection of its own, prices a round recorded at the
table as the engine prices it."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from audit.decisions.models import DecisionPending, SeatDecisions
from audit.decisions.tasks import price_pending_task
from tables.games import GAMES
from tables.games.blackjack.decisions import round_prices
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, table_with_decks
from tests.factories import user_with_role
from tests.real_worker import MARKS, celery_worker, database_url, until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = MARKS


@pytest.mark.django_db(transaction=True)
def test_a_prefork_worker_warms_before_forking_and_its_child_prices(tmp_path):
    # One deck: the smallest shoe, so the warm-up takes seconds.
    table, dealer = table_with_decks(1, game="blackjack_tie")
    pitboss = user_with_role("pit_boss")
    table_session_open(table=table, dealer=dealer, author=pitboss)
    log = tmp_path / "worker.log"
    with celery_worker("warm", pool="prefork", concurrency=1, log=log,
                       env={"DATABASE_URL": database_url(), "DECISIONS_WARM_SECONDS": "60"}):
        until(lambda: "ready." in log.read_text(), 180, "the worker to be ready")
        text = log.read_text()
        assert f"decisions' tables warmed for {table.ruleset.name} in" in text
        assert text.index("decisions' tables warmed") < text.index("ready.")
        # The warm tables are out of the children's collections (casino/collector.py): frozen by
        # the parent, in the process production runs, before it forks its pool.
        frozen = re.search(r"; (\d+) objects frozen before the fork", text)
        assert frozen and int(frozen.group(1)) > 100_000
        rnd = round_record(table=table, data=blackjack_round(["TH", "7C"], [("P-1", "100.00", ["TS", "2D"])]),
                           author=pitboss).round
        assert DecisionPending.objects.filter(round_id=rnd.pk).exists()
        price_pending_task.delay()
        row = until(lambda: SeatDecisions.objects.filter(round_id=rnd.pk).first(), 60, "the round priced")
        rules = rnd.ruleset_version.rules()
        want = round_prices(GAMES[rnd.game].module.parse_round(rnd.revisions.get().data, rules), rules)
        assert row.cost == sum((d.cost_money for d in want.decisions), Decimal(0))
        assert [d["action"] for d in row.decisions] == ["stand"] and row.decisions[0]["best"] == "hit"
        assert not DecisionPending.objects.filter(round_id=rnd.pk).exists()
        assert "Traceback" not in log.read_text()
