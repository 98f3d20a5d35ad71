"""The core every app stands on, and the root wiring.

Holds the tenant (``Casino``) and who works where (``CasinoMembership``), roles and scoping,
money, the gaming day and local time, API tokens, the task outbox, the glossary of words for
people (``field_words``), and the helpers the apps share (rows, lookups, pagination, throttling).
The root wiring (``settings``, ``urls``, ``celery``, ``wsgi``) is the one place that names every
app: ``urls`` includes them, ``settings`` lists them (INSTALLED_APPS, ROUND_LEDGERS,
ROUND_PROJECTIONS).

Imports: the engine (``tables.games``) only; nothing of ``tables`` or ``audit``, except the root
wiring (``casino.urls``), which sits above every layer. The demo (``casino.demo``) sits on top.
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
