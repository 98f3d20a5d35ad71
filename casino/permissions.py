"""Role checks for the API and the pages."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from .roles import ALL_ROLES, has_role


class RolePermission(BasePermission):
    """Reads need one of ``view.read_roles``, writes one of ``view.write_roles``.

    A view that declares neither is open to every role for reads and to nobody for
    writes: deny by default.
    """

    message = "Your role does not allow this."

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if request.method in SAFE_METHODS:
            roles = getattr(view, "read_roles", ALL_ROLES)
        else:
            action = getattr(view, "action", None)
            per_action = getattr(view, "action_roles", {})
            roles = per_action.get(action, getattr(view, "write_roles", ()))
        return has_role(user, *roles)


def role_required(*roles: str):
    """Page decorator: anonymous users go to the login page, other roles get 403."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied("Your role does not allow this page.")
            return view(request, *args, **kwargs)

        wrapper.required_roles = roles
        return wrapper

    return decorator
