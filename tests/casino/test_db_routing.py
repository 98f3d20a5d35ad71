"""The read-replica router's rules that need no replica (casino/db_routing.py); the routing
against a real replica is tests/casino/test_read_replica.py."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.http import HttpResponse
from django.test import RequestFactory

from casino import db_routing
from casino.db_routing import (
    PIN_COOKIE,
    PRIMARY,
    REPLICA,
    PrimaryReplicaRouter,
    ReplicaPinMiddleware,
)
from casino.models import ApiToken, CasinoMembership
from tables.models import Finding, Round

router = PrimaryReplicaRouter()


def _serve(request, view):
    """``request`` through the middleware to ``view``; the response."""
    return ReplicaPinMiddleware(view)(request)


def test_unmarked_reads_and_every_write_go_to_the_primary():
    assert router.db_for_read(Finding) == PRIMARY  # a task, a command: no request at all
    seen = {}

    def view(request):
        seen["read"] = router.db_for_read(Round)
        seen["write"] = router.db_for_write(Round)
        return HttpResponse()

    _serve(RequestFactory().get("/"), view)  # a request no view marked
    assert seen == {"read": PRIMARY, "write": PRIMARY}


def test_who_is_logged_in_is_read_on_the_primary_even_in_a_marked_request():
    seen = {}

    def view(request):
        with db_routing.replica_reads_for(request):
            seen.update({m._meta.label: router.db_for_read(m)
                         for m in (get_user_model(), Session, ApiToken, CasinoMembership)})
        return HttpResponse()

    _serve(RequestFactory().get("/desk/"), view)
    assert set(seen.values()) == {PRIMARY}, seen


def test_only_a_get_or_head_is_marked_and_only_within_the_view():
    marks = []

    def view(request):
        with db_routing.replica_reads_for(request):
            marks.append(db_routing._current.get().replica_safe)
        marks.append(db_routing._current.get().replica_safe)
        return HttpResponse()

    factory = RequestFactory()
    for request in (factory.get("/"), factory.head("/"), factory.post("/"), factory.put("/")):
        _serve(request, view)
    assert marks == [True, False, True, False, False, False, False, False]
    with db_routing.replica_reads_for(factory.get("/")):  # outside a request the middleware follows
        assert db_routing._current.get() is None


def test_a_write_sends_the_rest_of_the_request_to_the_primary_and_pins_it(settings):
    settings.REPLICA_PIN_SECONDS = 7
    seen = []

    def view(request):
        with db_routing.replica_reads_for(request):
            router.db_for_write(Finding)
            seen.append(router.db_for_read(Finding))  # never asks the replica
        return HttpResponse()

    response = _serve(RequestFactory().get("/reports/"), view)
    assert seen == [PRIMARY]
    assert response.cookies[PIN_COOKIE]["max-age"] == 7 and response.cookies[PIN_COOKIE]["httponly"]


def test_the_pin_is_a_signed_cookie_that_runs_out(settings):
    settings.REPLICA_PIN_SECONDS = 5
    response = _serve(RequestFactory().post("/"), lambda request: HttpResponse())
    factory = RequestFactory()
    pinned = factory.get("/", HTTP_COOKIE=f"{PIN_COOKIE}={response.cookies[PIN_COOKIE].value}")
    assert db_routing.pinned(pinned)
    assert not db_routing.pinned(factory.get("/", HTTP_COOKIE=f"{PIN_COOKIE}=1"))  # forged
    assert not db_routing.pinned(factory.get("/"))
    settings.REPLICA_PIN_SECONDS = 0  # pinning off: the replica for everyone
    assert not db_routing.pinned(pinned)


def test_migrations_only_on_the_primary_relations_across_both():
    assert router.allow_migrate(PRIMARY, "tables", "round") is True
    assert router.allow_migrate(REPLICA, "tables", "round") is False
    one, other = Round(), Finding()
    one._state.db, other._state.db = PRIMARY, REPLICA
    assert router.allow_relation(one, other) is True
    other._state.db = "elsewhere"
    assert router.allow_relation(one, other) is None
