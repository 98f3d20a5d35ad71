"""Schemathesis against the OpenAPI schema: no 500s, no responses that break the schema.

Bounded (a few examples per operation) so it runs in CI on every change. The schema is
generated in-process by drf-spectacular (the same document /api/schema/ serves) and the
requests go to the WSGI app in-process, authenticated as a superuser so that every
operation is reached.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings

from casino.tokens import api_token_issue
from casino.wsgi import application
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS


def _schema():
    document = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(document, cls=DjangoJSONEncoder)))
    loaded.app = application
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


@pytest.fixture
def superuser_token(db, _keep_test_connection):
    user = user_with_role("superuser", username="schemathesis")
    table = TableFactory()
    table_session_open(table=table, dealer=DealerFactory(casino=table.pit.casino), author=user)
    round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=user)
    return api_token_issue(user=user, author=None, name="schemathesis")[1]


@schema.parametrize()
@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_schema(case, superuser_token):
    # Excluded, with reasons: an id that does not exist is rightly refused although the
    # schema only says "integer" (positive_data_acceptance); DRF's pagination and
    # django-filter ignore a malformed optional query parameter instead of refusing it, and
    # DRF reads an empty multipart field as "not sent" (negative_data_rejection) -- bodies
    # the API refuses are tested field by field elsewhere; the token is passed as a plain
    # header, so schemathesis's own tampering with the other (cookie) scheme cannot
    # unauthenticate the call (ignored_auth) -- anonymous access to every endpoint is
    # covered by tests/test_permission_matrix.py instead.
    case.call_and_validate(headers={"Authorization": f"Token {superuser_token}"},
                           excluded_checks=[schemathesis.checks.positive_data_acceptance,
                                            schemathesis.checks.negative_data_rejection,
                                            schemathesis.checks.ignored_auth])
