"""Token authentication that reads the user and their roles in one statement.

DRF's ``TokenAuthentication`` loads the token with its user, and the role check then
loads the user's groups: two ORM queries on every API call, which on the round-recording
path cost more than recording the round's rows. This reads the user's id, flags and group
names in one statement; the other user fields are deferred (loaded only if a view reads
them), and the roles are cached on the user as :func:`casino.roles.user_roles` expects.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connections, router
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from casino.prepared import PREPARED
from casino.roles import ALL_ROLES, role_of_group


def _sql() -> str:
    user_model = get_user_model()
    groups = user_model._meta.get_field("groups").remote_field.through._meta.db_table
    # Identifiers come from the models' metadata; the key is a parameter.
    return (f"{PREPARED}SELECT u.id, u.is_active, u.is_superuser, g.name FROM {Token._meta.db_table} t "  # noqa: S608
            f"JOIN {user_model._meta.db_table} u ON u.id = t.user_id "
            f"LEFT JOIN {groups} ug ON ug.user_id = u.id "
            f"LEFT JOIN {Group._meta.db_table} g ON g.id = ug.group_id WHERE t.key = %s")


class RoleTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        user_model = get_user_model()
        alias = router.db_for_read(user_model)
        with connections[alias].cursor() as cursor:
            cursor.execute(_sql(), [key])
            rows = cursor.fetchall()
        if not rows:
            raise AuthenticationFailed("Invalid token.")
        user_id, is_active, is_superuser = rows[0][0], bool(rows[0][1]), bool(rows[0][2])
        if not is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        user = user_model.from_db(alias, ["id", "is_active", "is_superuser"], [user_id, is_active, is_superuser])
        if is_superuser:
            user._casino_roles = frozenset(ALL_ROLES)
        else:
            user._casino_roles = frozenset(r for r in (role_of_group(name) for _, _, _, name in rows) if r)
        return user, Token(key=key, user=user)
