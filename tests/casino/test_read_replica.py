"""Reads on a read replica (casino/db_routing.py): against a real streaming replica of the test
PostgreSQL (.ci/replica), which replays the test database the primary holds.

A test that routes reads to the replica is transactional (its rows committed, then replayed):
inside a TestCase's transaction every read stays on the primary, which is the rule under test
in ``test_inside_a_transaction_reads_stay_on_the_primary``.
"""

from __future__ import annotations

import logging
import socket
import time

import pytest
from django.core.management import call_command
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino import db_routing
from casino.db_routing import PIN_COOKIE, PRIMARY, REPLICA, PrimaryReplicaRouter
from casino.models import CasinoMembership
from tables.models import Finding, Round
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, RulesetFactory, TableFactory, user_with_role
from tests.replica import require_replica, wait_for_replay
from tests.tables.rounds_data import ROUNDS

UNDERPAY = ROUNDS["ante_up_21"]["underpay"][0]
# "__all__": the replica alias exists only with DATABASE_REPLICA_URL; without it the tests skip.
BOTH = pytest.mark.django_db(transaction=True, databases="__all__")
pytestmark = pytest.mark.replica_routing


@pytest.fixture
def replica(settings):
    require_replica()
    db_routing.reset_health()
    settings.REPLICA_PIN_SECONDS = 10
    yield
    db_routing.reset_health()


@pytest.fixture
def floor(replica):
    """A surveillance officer, a pit boss and one recorded underpaid round (so one finding),
    committed on the primary and replayed on the replica."""
    pitboss = user_with_role("pit_boss")
    table = TableFactory(ruleset=RulesetFactory())
    table_session_open(table=table, dealer=DealerFactory(), author=pitboss)
    rnd = round_record(table=table, data=UNDERPAY, author=pitboss).round
    floor = {"surveillance": user_with_role("surveillance"), "finance": user_with_role("finance"),
             "pitboss": pitboss, "round": rnd, "finding": rnd.findings.get()}
    assert wait_for_replay(), "the replica did not replay the test's rows in time"
    return floor


class Reads:
    """The SQL each alias ran during the block."""

    def __init__(self, aliases=(PRIMARY, REPLICA)):
        self.aliases = aliases

    def __enter__(self):
        self._captures = {alias: CaptureQueriesContext(connections[alias]) for alias in self.aliases}
        for capture in self._captures.values():
            capture.__enter__()
        return self

    def __exit__(self, *exc):
        for capture in self._captures.values():
            capture.__exit__(*exc)

    def of(self, alias: str, table: str) -> list[str]:
        return [q["sql"] for q in self._captures[alias].captured_queries if f'"{table}"' in q["sql"]]


@BOTH
def test_the_desk_and_the_reports_read_on_the_replica(client, floor):
    client.force_login(floor["surveillance"])
    with Reads() as reads:
        page = client.get(reverse("desk-queue"))
    assert page.status_code == 200 and "underpay" in page.content.decode().lower()
    assert reads.of(REPLICA, "audit_finding"), "the desk's queue did not read the replica"
    assert not reads.of(PRIMARY, "audit_finding")
    # Who is logged in, their role and casinos: always the primary.
    assert reads.of(PRIMARY, "django_session") and reads.of(PRIMARY, "tables_casinomembership")
    assert not reads.of(REPLICA, "django_session") and not reads.of(REPLICA, "auth_user")

    with Reads() as reads:
        assert client.get(reverse("desk-round", args=[floor["round"].pk])).status_code == 200
    assert reads.of(REPLICA, "tables_round") and not reads.of(PRIMARY, "tables_round")

    client.force_login(floor["finance"])
    with Reads() as reads:
        assert client.get(reverse("reports")).status_code == 200
        assert client.get(reverse("fluctuations-holds")).status_code == 200
    assert reads.of(REPLICA, "reports_dailyreport") and not reads.of(PRIMARY, "reports_dailyreport")
    assert reads.of(REPLICA, "reports_reportline") and not reads.of(PRIMARY, "reports_reportline")


@BOTH
def test_the_api_lists_read_on_the_replica_their_writes_do_not(client, floor):
    client.force_login(floor["surveillance"])
    with Reads() as reads:
        findings = client.get("/api/v1/findings/")
        rounds = client.get("/api/v1/rounds/")
    assert findings.status_code == 200 and findings.json()["count"] == 1
    assert rounds.status_code == 200 and rounds.json()["count"] == 1
    assert reads.of(REPLICA, "audit_finding") and reads.of(REPLICA, "tables_round")
    assert not reads.of(PRIMARY, "audit_finding") and not reads.of(PRIMARY, "tables_round")
    assert PIN_COOKIE not in client.cookies  # reading pins nobody

    # One finding by id is not a list: the primary.
    with Reads() as reads:
        assert client.get(f"/api/v1/findings/{floor['finding'].pk}/").status_code == 200
    assert reads.of(PRIMARY, "audit_finding") and not reads.of(REPLICA, "audit_finding")

    with Reads() as reads:
        review = client.post(f"/api/v1/findings/{floor['finding'].pk}/review/",
                             {"decision": "escalate", "note": "Camera check"}, content_type="application/json")
    assert review.status_code == 200, review.content
    assert not reads.of(REPLICA, "audit_finding")
    assert any(q.startswith("UPDATE") for q in reads.of(PRIMARY, "audit_finding"))


@BOTH
def test_a_write_pins_the_browser_and_the_user_to_the_primary(client, floor, settings):
    settings.REPLICA_PIN_SECONDS = 2
    client.force_login(floor["surveillance"])
    url = reverse("desk-finding-review", args=[floor["finding"].pk])
    response = client.post(url, {"decision": "escalate", "note": "Camera check needed"})
    assert response.status_code == 302
    assert PIN_COOKIE in client.cookies and client.cookies[PIN_COOKIE]["max-age"] == 2

    # Right after the write the lists read the primary, which has the decision at once.
    with Reads() as reads:
        assert client.get(reverse("desk-queue")).status_code == 200
        escalated = client.get("/api/v1/findings/", {"status": Finding.ESCALATED}).json()
    assert escalated["count"] == 1
    assert reads.of(PRIMARY, "audit_finding") and not reads.of(REPLICA, "audit_finding")

    # Without the cookie (a token client keeps none) the user is still pinned, by the cache.
    del client.cookies[PIN_COOKIE]
    with Reads() as reads:
        client.get("/api/v1/findings/")
    assert reads.of(PRIMARY, "audit_finding") and not reads.of(REPLICA, "audit_finding")

    # A forged cookie pins nothing; once the pin has run out, the replica again.
    time.sleep(2.1)
    client.cookies[PIN_COOKIE] = "1"
    assert wait_for_replay()
    with Reads() as reads:
        client.get(reverse("desk-queue"))
    assert reads.of(REPLICA, "audit_finding") and not reads.of(PRIMARY, "audit_finding")


@BOTH
def test_inside_a_transaction_reads_stay_on_the_primary(client, floor):
    client.force_login(floor["surveillance"])
    with transaction.atomic(), Reads() as reads:
        assert client.get(reverse("desk-queue")).status_code == 200
    assert reads.of(PRIMARY, "audit_finding") and not reads.of(REPLICA, "audit_finding")


@BOTH
def test_the_router_sends_only_marked_reads_to_the_replica(floor):
    router = PrimaryReplicaRouter()
    # Unmarked (a task, a command, a page not marked): the primary.
    assert router.db_for_read(Finding) == PRIMARY
    state = db_routing._Request(replica_safe=True)
    token = db_routing._current.set(state)
    try:
        assert router.db_for_read(Finding) == REPLICA
        assert router.db_for_read(Round) == REPLICA
        from django.contrib.auth import get_user_model
        from django.contrib.sessions.models import Session

        from casino.models import ApiToken
        for model in (get_user_model(), Session, ApiToken, CasinoMembership):
            assert router.db_for_read(model) == PRIMARY, model
        with transaction.atomic():
            assert router.db_for_read(Finding) == PRIMARY
        # A write, and every read of the request after it: the primary.
        assert router.db_for_write(Finding) == PRIMARY
        assert state.wrote and router.db_for_read(Finding) == PRIMARY
    finally:
        db_routing._current.reset(token)
    assert router.db_for_write(Finding) == PRIMARY
    assert router.allow_relation(floor["round"], floor["finding"]) is True
    assert router.allow_migrate(PRIMARY, "audit") is True and router.allow_migrate(REPLICA, "audit") is False


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@BOTH
def test_a_replica_that_is_down_falls_back_to_the_primary(client, floor, caplog, settings):
    connection = connections[REPLICA]
    working = connection.settings_dict
    connection.close()
    connection.settings_dict = {**working, "PORT": str(_closed_port())}
    client.force_login(floor["surveillance"])
    try:
        # Only the primary's queries: capturing the replica's would connect to it.
        with caplog.at_level(logging.WARNING, logger="casino.db_routing"), Reads([PRIMARY]) as reads:
            first = client.get(reverse("desk-queue"))
            second = client.get("/api/v1/findings/")
        assert first.status_code == 200 and second.status_code == 200
        assert second.json()["count"] == 1
        assert reads.of(PRIMARY, "audit_finding")
        # One warning, then the replica is left alone for REPLICA_RETRY_SECONDS.
        warnings = [r for r in caplog.records if "read replica unreachable" in r.getMessage()]
        assert len(warnings) == 1
    finally:
        connection.close()
        connection.settings_dict = working
    db_routing.reset_health()
    with Reads() as reads:
        client.get(reverse("desk-queue"))
    assert reads.of(REPLICA, "audit_finding")


@BOTH
def test_a_lagging_replica_is_skipped(client, floor, settings, caplog):
    settings.REPLICA_MAX_LAG_SECONDS = 1
    settings.REPLICA_LAG_CHECK_SECONDS = 1
    client.force_login(floor["surveillance"])
    # The primary is a whole cluster (other databases write too): "caught up" is momentary.
    assert wait_for_replay() and db_routing.replica_lag_seconds() < 1
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT pg_wal_replay_pause()")
    try:
        # A write the paused replica cannot replay: within a second or so it lags too far.
        user_with_role("finance", username="late")
        time.sleep(1.5)
        assert db_routing.replica_lag_seconds() > 1
        with caplog.at_level(logging.WARNING, logger="casino.db_routing"), Reads() as reads:
            assert client.get(reverse("desk-queue")).status_code == 200
        assert reads.of(PRIMARY, "audit_finding") and not reads.of(REPLICA, "audit_finding")
        assert any("read replica lags" in r.getMessage() for r in caplog.records)
    finally:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute("SELECT pg_wal_replay_resume()")
    time.sleep(1.1)  # past the lag check's interval
    settings.REPLICA_MAX_LAG_SECONDS = 5
    assert wait_for_replay() and db_routing.replica_lag_seconds() < 5
    with Reads() as reads:
        client.get(reverse("desk-queue"))
    assert reads.of(REPLICA, "audit_finding")


@BOTH
def test_migrate_never_touches_the_replica(replica):
    with CaptureQueriesContext(connections[REPLICA]) as on_replica:
        call_command("migrate", verbosity=0, interactive=False)
    assert on_replica.captured_queries == []


@pytest.mark.django_db(databases="__all__")
def test_check_deploy_refuses_the_owner_as_the_replicas_login(replica, settings):
    from casino.db_roles import app_role_owns_nothing

    settings.PRODUCTION = True
    errors = app_role_owns_nothing()  # the suite logs in to both as a superuser
    assert {e.id for e in errors} == {"casino.E101"}
    assert any(e.msg.startswith("DATABASE_REPLICA_URL:") for e in errors)
    assert any(e.msg.startswith("DATABASE_URL:") for e in errors)
