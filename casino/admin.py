"""DRF's plain-key tokens are not used (casino.models.ApiToken keeps digests): hide their admin,
where a key made would never work. Tokens are issued on the API tokens page (/tokens/).

django-axes' login records are scoped like every other admin page: a gaming manager sees, and
may delete (which unlocks a login), only the records of user names of their casinos' users. A
record of a user name that belongs to no user of theirs (another casino's, or nobody's: a
guess) is a superuser's to see."""

from __future__ import annotations

from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

from casino.scoping import user_casino_ids, users_visible_to

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


def login_records_visible_to(queryset, viewer):
    """``queryset`` of django-axes records narrowed to user names of ``viewer``'s casinos' users."""
    if user_casino_ids(viewer) is None:
        return queryset
    return queryset.filter(username__in=users_visible_to(viewer).values("username"))


class ScopedLoginRecordsMixin:
    def get_queryset(self, request):
        # The change, delete and bulk-delete views read through this too: another casino's record
        # is "not found" to them.
        return login_records_visible_to(super().get_queryset(request), request.user)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if user_casino_ids(request.user) is not None:
            # Axes' clean-up deletes expired records of every user name, not only the listed ones.
            actions.pop("cleanup_expired_attempts", None)
        return actions


class ScopedAccessAttemptAdmin(ScopedLoginRecordsMixin, AccessAttemptAdmin):
    pass


class ScopedAccessFailureLogAdmin(ScopedLoginRecordsMixin, AccessFailureLogAdmin):
    pass


for _model, _admin in ((AccessAttempt, ScopedAccessAttemptAdmin), (AccessFailureLog, ScopedAccessFailureLogAdmin)):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)
        admin.site.register(_model, _admin)
