"""The app's database role, made and granted as ``manage.py grant_app_role`` does."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from casino.db_roles import grant_app_role


def app_role_name() -> str:
    return f"app_{connection.settings_dict['NAME']}"[:63]


@pytest.fixture
def app_role():
    if connection.vendor != "postgresql":
        pytest.skip("database roles exist on PostgreSQL only")
    name = app_role_name()
    with connection.cursor() as cursor:
        cursor.execute(f'DROP ROLE IF EXISTS "{name}"')
        cursor.execute(f'CREATE ROLE "{name}" LOGIN')
    grant_app_role(name)
    settings = connection.settings_dict
    app = psycopg.connect(host=settings["HOST"] or "127.0.0.1", port=settings["PORT"] or 5432,
                          dbname=settings["NAME"], user=name)
    yield app
    app.close()
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{name}"')
        cursor.execute(f'DROP ROLE "{name}"')
