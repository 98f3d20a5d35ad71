"""Idempotency-Key handling for round creation: a retried request never makes a second round."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connections, router, transaction
from django.utils import timezone

from casino.prepared import PREPARED
from casino.rows import RowInserter
from tables.models import IdempotencyKey

# Round recording is the hot path: its key's row is looked up and written with SQL built once.
_KEYS = RowInserter(IdempotencyKey, ("key", "user_id", "request_hash", "response_status", "response_body",
                                     "round_id", "created_at"), returning_pk=False)


class IdempotencyMismatch(Exception):  # noqa: N818 - the API answers 422
    def __init__(self, key: str):
        super().__init__(f'Idempotency-Key "{key}" was already used with a different request body')


@dataclass(frozen=True)
class StoredResponse:
    status: int
    body: dict
    replayed: bool


def request_hash(body: object) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


def _key_used(user, key: str) -> bool:
    table = IdempotencyKey._meta.db_table
    with connections[router.db_for_read(IdempotencyKey)].cursor() as cursor:
        cursor.execute(f'{PREPARED}SELECT 1 FROM {table} WHERE user_id = %s AND "key" = %s', [user.pk, key])  # noqa: S608
        return cursor.fetchone() is not None


KEY_HEADER = "Idempotency-Key"
_KEY_LENGTH = IdempotencyKey._meta.get_field("key").max_length


def _check_key(key: str) -> None:
    """A key is 1 to 200 printable ASCII characters (what the column holds; a UUID is 36)."""
    if len(key) > _KEY_LENGTH:
        raise ValidationError({KEY_HEADER: [f"must be at most {_KEY_LENGTH} characters, got {len(key):,}"]})
    if not (key.isascii() and key.isprintable()):
        raise ValidationError({KEY_HEADER: ["must be printable ASCII characters (a UUID is best)"]})


def idempotent_call(*, user, key: str | None, body: object,
                    produce: Callable[[], tuple[int, dict, object]]) -> StoredResponse:
    """Run ``produce`` once per (user, key): later calls with the same body replay its response.

    ``produce`` returns (status, body, round) and always runs inside a transaction of this
    function's (with the key's row, when there is a key), rolled back whole if it fails:
    a failure stores neither. Two concurrent first calls: the database's unique key
    lets one win; the other's work is rolled back and it replays the winner's response.
    A key the column cannot hold is refused (ValidationError on the header) before any work.
    """
    if not key:
        with transaction.atomic():  # produce may rely on it (see round_record's savepoint)
            status, data, _ = produce()
        return StoredResponse(status, data, replayed=False)
    _check_key(key)
    digest = request_hash(body)
    existing = IdempotencyKey.objects.filter(user=user, key=key).first() if _key_used(user, key) else None
    if existing is None:
        try:
            with transaction.atomic():
                status, data, rnd = produce()
                _KEYS.insert([(key, user.pk, digest, status, data, getattr(rnd, "pk", None), timezone.now())])
            return StoredResponse(status, data, replayed=False)
        except IntegrityError:
            existing = IdempotencyKey.objects.filter(user=user, key=key).first()
            if existing is None:
                raise
    if existing.request_hash != digest:
        raise IdempotencyMismatch(key)
    return StoredResponse(existing.response_status, existing.response_body, replayed=True)
