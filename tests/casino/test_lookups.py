"""``AnyOf(F(field), values)`` selects what ``field__in=values`` selects, on both databases and
for both kinds of values: integers (on PostgreSQL one array text made by the lookup) and others
(psycopg's array)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from casino.lookups import AnyOf
from casino.models import Casino
from tests.factories import CasinoFactory

pytestmark = pytest.mark.django_db


def test_any_of_selects_what_in_selects_for_ids_and_for_texts():
    made = [CasinoFactory(name=f"Casino {i}, \"quoted\" {{braced}}") for i in range(5)]
    ids = [c.pk for c in made[1:4]] + [10**12]  # one id no row has, beyond 32 bits
    names = [c.name for c in made[:2]]
    with CaptureQueriesContext(connection) as queries:
        by_ids = set(Casino.objects.filter(AnyOf(F("pk"), ids)).values_list("pk", flat=True))
        by_names = set(Casino.objects.filter(AnyOf(F("name"), names)).values_list("pk", flat=True))
    assert by_ids == set(Casino.objects.filter(pk__in=ids).values_list("pk", flat=True)) == {c.pk for c in made[1:4]}
    assert by_names == {c.pk for c in made[:2]}
    if connection.vendor == "postgresql":
        assert "::bigint[]" in queries[0]["sql"] and "::bigint[]" not in queries[1]["sql"]
    assert not Casino.objects.filter(AnyOf(F("pk"), []))
