"""Schemathesis against the OpenAPI schema, with every one of its checks: no 5xx, no
response that breaks the schema, every status code and content type documented.

Every operation, every role, both ways in: each generated case is sent once with an
``Authorization: Token`` header and once with a session (cookie and CSRF header, as a browser
sends them); the roles (all seven) take turns case by case, so each operation is called by
each of them. A case whose path names a record is sent once more at a record that exists
(random ids are nearly always 404, which would leave the detail endpoints' answers
unchecked). The floor behind it has one of everything, including what makes nullable fields
null (a pending award, an undecided adjustment).

Bounded so that it fits in CI on every change: ``SCHEMA_EXAMPLES`` generated cases per
operation (default 4), derandomized (the same cases every run). The schema is generated
in-process by drf-spectacular (the same document /api/schema/ serves) and the requests go
to the WSGI app in-process. ``SCHEMA_REPORT=<file>`` writes the run's counts (cases,
requests, 5xx, failed) there as JSON.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import re
from pathlib import Path

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.serializers.json import DjangoJSONEncoder
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings

from casino.roles import ALL_ROLES
from casino.tokens import api_token_issue
from casino.wsgi import application
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

EXAMPLES = int(os.environ.get("SCHEMA_EXAMPLES", "4"))


def _schema():
    document = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(document, cls=DjangoJSONEncoder)))
    loaded.app = application
    # The test sends real credentials itself (a token, a session): schemathesis's own random
    # values for the security schemes would ride along with them and read as "accepted".
    loaded.config.generation.update(with_security_parameters=False)
    return loaded


schema = _schema()


@pytest.fixture
def _keep_test_connection():
    """Requests go straight to the WSGI app, not through Django's test client, so switch off
    what the test client switches off: closing the (mid-transaction) test connection after
    each request."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


#: The first part of a path under /api/v1/ -> the record of the floor its {id} names.
_RESOURCE = re.compile(r"^/api/v1/([a-z-]+)/\{id\}/")


@pytest.fixture
def api_floor(db, _keep_test_connection):
    """One of everything, and a token per role."""
    from tests.accounting.matrix_objects import accounting_matrix_objects
    from tests.closing.matrix_objects import closing_matrix_objects
    from tests.jackpots.matrix_objects import jackpot_matrix_objects
    from tests.reports.matrix_objects import report_matrix_objects

    users = {role: user_with_role(role, username=f"schema-{role}") for role in ALL_ROLES}
    table = TableFactory()
    dealer = DealerFactory(casino=table.pit.casino)
    session = table_session_open(table=table, dealer=dealer, author=users["pit_boss"])
    audited = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=users["pit_boss"])
    jackpots = jackpot_matrix_objects()
    ids = {"casinos": table.pit.casino_id, "pits": table.pit_id, "tables": table.pk, "dealers": dealer.pk,
           "rulesets": table.ruleset_id, "sessions": session.pk, "rounds": audited.round.pk,
           "findings": audited.round.findings.first().pk, "jackpot-banks": jackpots["jackpot-bank"].pk,
           "jackpot-awards": jackpots["jackpot-award"].pk,
           "jackpot-adjustments": jackpots["jackpot-adjustment"].pk,
           "reports": report_matrix_objects(table.pit.casino)["dailyreport"].pk}
    accounting = accounting_matrix_objects(table, users["pit_boss"])
    ids.update({"chip-sets": accounting["chipset"].pk, "inventory-slips": accounting["inventoryslip"].pk,
                "chip-slips": accounting["chipslip"].pk, "accounting-findings": accounting["accountingfinding"].pk,
                "buy-ins": accounting["buyin"].pk, "drop-boxes": accounting["dropbox"].pk,
                "soft-counts": accounting["softcount"].pk,
                "gaming-day-closes": closing_matrix_objects(table.pit.casino)["dayclose"].pk})
    from tests.fluctuations.matrix_objects import fluctuation_matrix_objects

    fluctuations = fluctuation_matrix_objects(table)
    ids.update({"fluctuation-settings": fluctuations["fluctuationsettings"].pk,
                "investigations": fluctuations["investigation"].pk})
    from tests.factories import player_for

    ids["players"] = player_for(table.pit.casino, "P-7", name="Schema Player").pk  # the round's player: rated
    return _ways_in(users), ids, itertools.count()


#: Any 32 letters: Django's CSRF check wants the cookie and the header to match.
_CSRF = "schemathesis" + "x" * 20


def _ways_in(users) -> dict[tuple[str, str], dict[str, str]]:
    """(role, "token" | "session") -> the headers a client of that role sends: a real token
    issued to the user, or the cookie of a real session login and its CSRF header."""
    ways = {}
    for role, user in users.items():
        ways[role, "token"] = {"Authorization": f"Token {api_token_issue(user=user, author=None, name='schemathesis')[1]}"}
        browser = Client()
        browser.force_login(user)
        session = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
        ways[role, "session"] = {
            "Cookie": f"{django_settings.SESSION_COOKIE_NAME}={session}; {django_settings.CSRF_COOKIE_NAME}={_CSRF}",
            "X-CSRFToken": _CSRF,
        }
    return ways


#: What the run did, written to SCHEMA_REPORT when set (see the module docstring).
COUNTS: collections.Counter = collections.Counter()


@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    yield
    target = os.environ.get("SCHEMA_REPORT")
    if target:
        Path(target).write_text(json.dumps(dict(COUNTS), sort_keys=True))


# Every check schemathesis has runs, and any failure fails the test, but one, with its reason:
# positive_data_acceptance expects every schema-valid request to be accepted, and a valid
# request can name a record that does not exist (``?table=0``, ``{"table": 12345}``) or one
# whose state refuses the write (a second void): the API rightly answers 400 with the field,
# which the schema's "integer" cannot foresee. negative_data_rejection runs: a query parameter
# the schema says is invalid, an empty one included (``?gaming_day=``), is a field 400. The
# refusals that are rules are tested field by field as well (tests/casino/test_api_input.py,
# tests/casino/test_api_typed_input.py).
EXCLUDED = [schemathesis.checks.positive_data_acceptance]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_schema(case, api_floor):
    ways, ids, turn = api_floor
    COUNTS["cases"] += 1

    def call():
        for way in ("token", "session"):
            role = ALL_ROLES[next(turn) % len(ALL_ROLES)]  # the roles take turns, case by case
            COUNTS["requests"] += 1
            COUNTS[f"requests_{way}"] += 1
            response = case.call(headers=ways[role, way])
            COUNTS["5xx"] += response.status_code >= 500
            try:
                case.validate_response(response, headers=ways[role, way], excluded_checks=EXCLUDED)
            except Exception:
                COUNTS["failed"] += 1
                raise

    call()
    resource = _RESOURCE.match(case.path)
    if resource and isinstance(case.path_parameters, dict) and "id" in case.path_parameters:
        case.path_parameters = {**case.path_parameters, "id": ids[resource.group(1)]}
        call()
