"""Input means what it says: each JSON value taken as the type it is, filters that refuse what
they cannot read, PUT as a whole replacement, plain decimals for money and chips, the schema
saying what the API answers, and the size limits answered as JSON on every endpoint; each
through a real ``Authorization: Token`` header as well as a session."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from casino.api_fields import StrictBooleanField, StrictCharField
from casino.models import Casino
from casino.roles import GAMING_MANAGER, PIT_BOSS
from casino.tokens import api_token_issue
from tables.accounting.models import ChipSlip
from tables.models import Dealer, Ruleset
from tables.players.models import Player
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {api_token_issue(user=user, author=None, name='t')[1]}")


def session_client(user) -> APIClient:
    """A browser's session: logged in, CSRF checked as production checks it (cookie + header)."""
    client = APIClient(enforce_csrf_checks=True, HTTP_X_CSRFTOKEN="c" * 32)
    client.force_login(user)
    client.cookies["csrftoken"] = "c" * 32
    return client


@pytest.fixture(params=["token", "session"])
def client_for(request):
    """``client_for(user)``: the user's client through a token header or a session login."""
    return token_client if request.param == "token" else session_client


def _field_error(response, field: str) -> list[str]:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    assert field in response.json(), response.json()
    return response.json()[field]


# --- JSON types -------------------------------------------------------------------------------


@pytest.mark.parametrize("field, value", [("identifier", 7), ("loyalty_number", 0), ("name", 12.5),
                                          ("name", True), ("loyalty_number", ["L-1"]), ("name", {"a": 1})])
def test_text_fields_refuse_other_json_types(client_for, field, value):
    body = {"identifier": "P-1", field: value}
    assert "string" in _field_error(client_for(user_with_role(PIT_BOSS)).post(
        reverse("player-list"), body, format="json"), field)[0]
    assert not Player.objects.exists()


def test_a_reason_of_0_is_not_the_reason_0(client_for):
    manager = user_with_role(GAMING_MANAGER)
    casino = Casino.objects.get()
    response = client_for(manager).post(reverse("dealer-list"), {
        "casino": casino.pk, "employee_number": "E-9", "name": "Dee", "reason": 0}, format="json")
    _field_error(response, "reason")
    assert not Dealer.objects.filter(employee_number="E-9").exists()


@pytest.mark.parametrize("value", ["false", "true", 0, 1, "no", None])
def test_booleans_are_json_true_or_false(client_for, value):
    manager = user_with_role(GAMING_MANAGER)
    dealer = DealerFactory()
    response = client_for(manager).patch(reverse("dealer-detail", args=[dealer.pk]),
                                         {"active": value, "reason": "typed"}, format="json")
    _field_error(response, "active")
    dealer.refresh_from_db()
    assert dealer.active


def test_true_and_false_still_work(client_for):
    dealer = DealerFactory()
    response = client_for(user_with_role(GAMING_MANAGER)).patch(
        reverse("dealer-detail", args=[dealer.pk]), {"active": False, "reason": "left"}, format="json")
    assert response.status_code == 200 and response.json()["active"] is False


def _api_serializers():
    """Every serializer class the API's views and schema use, loaded through the URLconf."""
    import casino.urls  # noqa: F401 - imports every API module

    def walk(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    return {cls for cls in walk(serializers.BaseSerializer)
            if cls.__module__.split(".")[0] in ("casino", "tables", "audit")}


_STRICT = ((serializers.CharField, StrictCharField), (serializers.BooleanField, StrictBooleanField))


def _loose_fields(serializer, path=""):
    for name, field in serializer.fields.items():
        where = f"{path}{name}"
        if field.read_only:
            continue
        if isinstance(field, serializers.ListField | serializers.DictField):
            field = field.child
        if isinstance(field, serializers.BaseSerializer):
            child = getattr(field, "child", field)
            yield from _loose_fields(child, where + ".")
        elif any(isinstance(field, loose) and not isinstance(field, strict) for loose, strict in _STRICT):
            yield where, type(field).__name__


def test_every_writable_text_and_boolean_field_of_the_api_is_strict():
    """The rule holds for serializers added later: each takes text and booleans strictly."""
    loose = []
    for cls in _api_serializers():
        try:
            instance = cls()
            instance.fields  # noqa: B018 - builds them
        except Exception:  # noqa: S112 - one that needs arguments to build is not an input serializer
            continue
        loose += [f"{cls.__module__}.{cls.__name__}.{where}: {kind}" for where, kind in _loose_fields(instance)]
    assert len(_api_serializers()) > 50
    assert loose == []


# --- query parameters -------------------------------------------------------------------------


@pytest.mark.parametrize("url_name, param", [("table-list", "is_open"), ("dealer-list", "active"),
                                             ("round-list", "has_findings"), ("finding-list", "reopened")])
@pytest.mark.parametrize("value", ["null", "yes", "maybe", "2"])
def test_a_boolean_filter_refuses_what_is_not_true_or_false(client_for, url_name, param, value):
    response = client_for(user_with_role(GAMING_MANAGER)).get(reverse(url_name), {param: value})
    assert "true or false" in _field_error(response, param)[0]


def test_boolean_filters_filter(client_for):
    TableFactory(is_open=True)
    closed = TableFactory(is_open=False)
    client = client_for(user_with_role(GAMING_MANAGER))
    for value in ("false", "False", "0"):
        assert [t["id"] for t in client.get(reverse("table-list"), {"is_open": value}).json()["results"]] == [closed.pk]
    assert len(client.get(reverse("table-list"), {"is_open": "true"}).json()["results"]) == 1
    assert len(client.get(reverse("table-list")).json()["results"]) == 2  # left out: not filtered


@pytest.mark.parametrize("url_name, param", [
    ("round-list", "gaming_day"), ("round-revisions", "gaming_day"), ("round-list", "has_findings"),
    ("round-list", "table"), ("finding-list", "ordering"), ("finding-list", "gaming_day"),
    ("buyin-list", "gaming_day"), ("buyin-estimated-drop", "gaming_day"), ("dailyreport-list", "gaming_day"),
    ("dailyreport-list", "since"), ("table-list", "is_open"), ("dealer-list", "active"),
])
@pytest.mark.parametrize("value", ["", " "])
def test_a_filter_given_empty_is_a_field_error(client_for, url_name, param, value):
    """``?gaming_day=`` is not "every day": a client whose variable was empty would read the whole
    list as if it were the day's. Every filter, of every type, refuses an empty value."""
    table = TableFactory()
    manager = user_with_role(GAMING_MANAGER, casinos=(table.pit.casino,))
    args = []
    if url_name == "round-revisions":
        from tables.services.rounds import round_record
        from tables.services.sessions import table_session_open
        from tests.tables.rounds_data import ROUNDS

        pit_boss = user_with_role(PIT_BOSS, casinos=(table.pit.casino,))
        table_session_open(table=table, dealer=DealerFactory(casino=table.pit.casino), author=pit_boss)
        args = [round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pit_boss).round.pk]
    errors = _field_error(client_for(manager).get(reverse(url_name, args=args), {param: value}), param)
    assert value or "empty" in errors[0]  # blanks: "empty", or the type's own error (not a date)


def test_the_estimated_drop_claims_no_list_filter_it_does_not_read():
    """It answered ``?table=null`` (and ``?table=3``) with every table: the schema said it filtered."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    operation = document["paths"]["/api/v1/buy-ins/estimated-drop/"]["get"]
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["gaming_day"]


def test_the_mtl_of_a_casino_not_yours_is_a_field_error_not_a_404(client_for):
    other = CasinoFactory(name="Another Casino")
    response = client_for(user_with_role("compliance")).get(reverse("complianceday-mtl"), {"casino": other.pk})
    assert f"No casino {other.pk}" in _field_error(response, "casino")[0]
    nobody = client_for(user_with_role("compliance", username="nowhere", casinos=())).get(reverse("complianceday-mtl"))
    _field_error(nobody, "casino")


# --- PUT replaces -----------------------------------------------------------------------------


def test_put_without_a_required_field_is_refused_patch_is_partial(client_for):
    ruleset = RulesetFactory(game="ante_up_21")
    client = client_for(user_with_role(GAMING_MANAGER))
    url = reverse("ruleset-detail", args=[ruleset.pk])
    body = {"casino": ruleset.casino_id, "game": "ante_up_21", "name": "Renamed", "reason": "tidy"}
    _field_error(client.put(url, body, format="json"), "config")
    ruleset.refresh_from_db()
    assert ruleset.name != "Renamed" and ruleset.version == 1
    assert client.put(url, {**body, "config": {}}, format="json").status_code == 200
    assert client.patch(url, {"name": "Patched", "reason": "tidy"}, format="json").status_code == 200
    assert Ruleset.objects.get(pk=ruleset.pk).name == "Patched"


def test_the_schema_documents_put_with_its_required_fields():
    document = SchemaGenerator().get_schema(request=None, public=True)
    put = document["paths"]["/api/v1/rulesets/{id}/"]["put"]["requestBody"]["content"]["application/json"]["schema"]
    component = document["components"]["schemas"][put["$ref"].rsplit("/", 1)[1]]
    assert "config" in component["required"]
    post = document["paths"]["/api/v1/rulesets/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "config" not in document["components"]["schemas"][post["$ref"].rsplit("/", 1)[1]].get("required", [])


# --- plain decimals ---------------------------------------------------------------------------


@pytest.mark.parametrize("denomination", ["2.5e1", "25E0", "0x19", "NaN", 25.0, "25.001"])
def test_a_denomination_is_plain_decimals(client_for, denomination):
    from tests.accounting.helpers import floor, opener

    f = floor()
    opener(f, {"25": 10})
    response = client_for(f.boss).post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": denomination, "count": 2}]}, format="json")
    _field_error(response, "counts[0].denomination")
    assert not ChipSlip.objects.exists()
    assert client_for(f.boss).post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": "25", "count": 2}]},
        format="json").status_code == 201


def test_a_chip_set_takes_plain_decimals_only(client_for):
    from tests.accounting.helpers import floor

    f = floor()
    response = client_for(user_with_role(GAMING_MANAGER)).post(reverse("chipset-list"), {
        "casino": f.casino.pk, "name": "House", "denominations": ["5", "2.5e1"], "reason": "new"}, format="json")
    _field_error(response, "denominations[1]")


# --- sizes ------------------------------------------------------------------------------------

BIG = b'{"table": 1, "round": {"x": "' + b"a" * (1024 * 1024) + b'"}}'


def _write_operations():
    """Every write of the API, as (method, path with each {id} an existing-looking 1)."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in document["paths"].items():
        for method in ("post", "put", "patch"):
            if method in item:
                yield method, re.sub(r"\{[^}]+\}", "1", path)


@pytest.mark.parametrize("debug", [False, True])
def test_a_body_over_the_limit_is_json_413_on_every_endpoint(client_for, debug):
    """Django refuses the body wherever it is first read (the session's CSRF check reads it
    before the parser): every endpoint answers the parser's JSON 413, under DEBUG too."""
    client = client_for(user_with_role("superuser"))
    client.raise_request_exception = False
    answered = {}
    with override_settings(DEBUG=debug):
        for method, path in _write_operations():
            response = getattr(client, method)(path, BIG, content_type="application/json")
            assert response["Content-Type"].startswith("application/json"), (method, path, response.status_code)
            answered[(method, path)] = response.status_code
    assert set(answered.values()) <= {413, 404, 405}, {k: v for k, v in answered.items() if v not in (413, 404, 405)}
    assert sum(1 for v in answered.values() if v == 413) > 40


# --- the schema says what the API does --------------------------------------------------------


def test_report_downloads_are_documented_with_the_media_types_they_are_served_with():
    from audit.reports.exporters import FORMATS

    document = SchemaGenerator().get_schema(request=None, public=True)
    download = document["paths"]["/api/v1/reports/{id}/download/"]["get"]["responses"]["200"]["content"]
    assert set(download) == {content_type.split(";")[0] for _, content_type in FORMATS.values()}
    assert "application/octet-stream" not in download
    liability = document["paths"]["/api/v1/jackpot-liability/csv/"]["get"]["responses"]["200"]["content"]
    assert set(liability) == {"text/csv"}


def test_a_liability_csv_is_served_as_documented(client_for):
    response = client_for(user_with_role("finance")).get(reverse("jackpot-liability-csv"))
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"].split(";")[0] == "text/csv"


@pytest.mark.parametrize("url_name, param", [("round-list", "pit"), ("finding-list", "table"),
                                             ("buyin-list", "seat")])
def test_a_whole_number_filter_refuses_fractions(client_for, url_name, param):
    response = client_for(user_with_role(GAMING_MANAGER)).get(reverse(url_name), {param: "0.5"})
    _field_error(response, param)
