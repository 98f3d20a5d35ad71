"""Token authentication that reads the user, their roles and casinos in one statement.

DRF's ``TokenAuthentication`` loads the token with its user, and the role check then
loads the user's groups: two ORM queries on every API call, which on the round-recording
path cost more than recording the round's rows. This reads the token's state, the user's
id, flags, group names and casinos in one statement, looked up by the key's digest (only
the digest is stored, casino.models.ApiToken); the other user fields are deferred (loaded
only if a view reads them), and roles and casinos are cached on the user as
:func:`casino.roles.user_roles` and :func:`casino.scoping.user_casino_ids` expect.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connections, router
from django.utils.dateparse import parse_datetime
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from casino.models import ApiToken, CasinoMembership, token_state
from casino.prepared import PREPARED
from casino.roles import ALL_ROLES, role_of_group
from casino.tokens import key_digest


def _sql() -> str:
    user_model = get_user_model()
    groups = user_model._meta.get_field("groups").remote_field.through._meta.db_table
    memberships = CasinoMembership._meta.db_table
    # Identifiers come from the models' metadata; the digest is a parameter.
    return (f"{PREPARED}SELECT u.id, u.is_active, u.is_superuser, g.name, m.casino_id, t.id, t.expires_at, "  # noqa: S608
            f"t.revoked_at FROM {ApiToken._meta.db_table} t "
            f"JOIN {user_model._meta.db_table} u ON u.id = t.user_id "
            f"LEFT JOIN {groups} ug ON ug.user_id = u.id "
            f"LEFT JOIN {Group._meta.db_table} g ON g.id = ug.group_id "
            f"LEFT JOIN {memberships} m ON m.user_id = u.id WHERE t.digest = %s")


def _as_datetime(value):
    """A raw cursor's timestamp: PostgreSQL gives an aware datetime, SQLite a UTC string."""
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)
    return _as_datetime(parse_datetime(value))


def _partial(model, alias: str, values: dict):
    """An instance of ``model`` with only ``values`` loaded (the rest deferred), as a queryset's
    ``.only()`` builds it. ``Model.from_db`` pairs a partial row's values with the model's concrete
    fields *in the fields' order*, whatever order the names are given in, so the values are put
    in that order here: given out of order, ``is_superuser`` would take ``is_active``'s value."""
    names = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    if len(names) != len(values):
        raise ValueError(f"{model.__name__} has no concrete field(s) {sorted(set(values) - set(names))}")
    return model.from_db(alias, names, [values[name] for name in names])


class RoleTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        user_model = get_user_model()
        alias = router.db_for_read(user_model)
        with connections[alias].cursor() as cursor:
            cursor.execute(_sql(), [key_digest(key)])
            rows = cursor.fetchall()
        if not rows:
            raise AuthenticationFailed("Invalid token.")
        user_id, is_active, is_superuser, _, _, token_id, expires_at, revoked_at = rows[0]
        is_active, is_superuser = bool(is_active), bool(is_superuser)
        expires_at, revoked_at = _as_datetime(expires_at), _as_datetime(revoked_at)
        state = token_state(revoked_at=revoked_at, expires_at=expires_at)
        if state != "active":
            raise AuthenticationFailed(f"Token {state}.")
        if not is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        user = _partial(user_model, alias, {"id": user_id, "is_active": is_active, "is_superuser": is_superuser})
        if is_superuser:
            user._casino_roles = frozenset(ALL_ROLES)
        else:
            user._casino_roles = frozenset(r for r in (role_of_group(row[3]) for row in rows) if r)
        user._casino_ids = frozenset(row[4] for row in rows if row[4] is not None)
        token = _partial(ApiToken, alias, {"id": token_id, "user_id": user_id, "expires_at": expires_at,
                                           "revoked_at": revoked_at})
        return user, token
