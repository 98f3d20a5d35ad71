"""Settings come from the environment; production refuses insecure defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k" * 20 + "Zq8-x_" * 8


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items()
            if k not in {"DJANGO_ENV", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL",
                         "CSRF_TRUSTED_ORIGINS", "CASINO_TIME_ZONE", "SECURE_HSTS_SECONDS",
                         "DJANGO_ALLOW_ASYNC_UNSAFE"}}  # the browser tests set it for Playwright
    base.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=base,
                          capture_output=True, text=True, timeout=120)


def _production(**extra: str) -> dict[str, str]:
    env = {"DJANGO_ENV": "production", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "tables.example.com",
           "CSRF_TRUSTED_ORIGINS": "https://tables.example.com"}
    env.update(extra)
    return env


def test_production_passes_check_deploy_without_warnings():
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **_production())
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("env", "named"),
    [
        (_production(SECRET_KEY=""), "SECRET_KEY"),
        (_production(SECRET_KEY="django-insecure-" + "x" * 60), "SECRET_KEY"),
        (_production(DEBUG="true"), "DEBUG"),
        (_production(ALLOWED_HOSTS=""), "ALLOWED_HOSTS"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV"),
        ({"CASINO_TIME_ZONE": "Mars/Olympus_Mons"}, "CASINO_TIME_ZONE"),
        ({"CSRF_TRUSTED_ORIGINS": "tables.example.com"}, "CSRF_TRUSTED_ORIGINS"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS"),
        ({"DATABASE_URL": "nosuchdb://x"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://casino@db.example.com/casino", "DATABASE_PREPARED": "perhaps"},
         "DATABASE_PREPARED"),
    ],
)
def test_wrong_environment_stops_startup_naming_the_variable(env, named):
    result = _run(["check"], **env)
    assert result.returncode != 0
    assert named in result.stderr
    assert "Traceback" not in result.stderr.splitlines()[-1]


def test_development_defaults_work_without_any_environment():
    result = _run(["check"])
    assert result.returncode == 0, result.stderr


def test_no_broker_means_eager_tasks(settings):
    from django.conf import settings as live

    if os.environ.get("CELERY_BROKER_URL"):
        assert live.CELERY_TASK_ALWAYS_EAGER is False
    else:
        assert live.CELERY_TASK_ALWAYS_EAGER is True


@pytest.mark.parametrize(("extra", "options"), [
    ({}, "{'server_side_binding': True, 'prepare_threshold': 5, "
         "'cursor_factory': <class 'casino.prepared.PreparingCursor'>}"),
    ({"DATABASE_PREPARED": "false"}, "{}"),
])
def test_postgresql_prepares_statements_unless_told_not_to(extra, options):
    show = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS', {}))"
    result = _run(["shell", "-c", show], DATABASE_URL="postgres://casino@db.example.com/casino", **extra)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == options
