"""Idempotency-Key handling for round creation: a retried request never makes a second round."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from tables.models import IdempotencyKey


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


def idempotent_call(*, user, key: str | None, body: object,
                    produce: Callable[[], tuple[int, dict, object]]) -> StoredResponse:
    """Run ``produce`` once per (user, key): later calls with the same body replay its response.

    ``produce`` returns (status, body, round) and runs in the same transaction as the key's
    row, so a failure stores neither. Two concurrent first calls: the database's unique key
    lets one win; the other's work is rolled back and it replays the winner's response.
    """
    if not key:
        status, data, _ = produce()
        return StoredResponse(status, data, replayed=False)
    digest = request_hash(body)
    existing = IdempotencyKey.objects.filter(user=user, key=key).first()
    if existing is None:
        try:
            with transaction.atomic():
                status, data, rnd = produce()
                IdempotencyKey.objects.create(user=user, key=key, request_hash=digest, response_status=status,
                                              response_body=data, round=rnd)
            return StoredResponse(status, data, replayed=False)
        except IntegrityError:
            existing = IdempotencyKey.objects.filter(user=user, key=key).first()
            if existing is None:
                raise
    if existing.request_hash != digest:
        raise IdempotencyMismatch(key)
    return StoredResponse(existing.response_status, existing.response_body, replayed=True)
