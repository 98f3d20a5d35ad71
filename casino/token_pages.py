"""The gaming manager's API token page: issue (the key shown once), list, revoke; who a token
may be issued for, and whose tokens are listed and revoked, is casino.tokens' rule."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from casino.models import Casino
from casino.permissions import role_required
from casino.roles import GAMING_MANAGER
from casino.scoping import scope
from casino.tokens import api_token_issue, api_token_revoke, token_users_for, tokens_revocable_by


class IssueForm(forms.Form):
    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        help_text="Yourself, or a service account of your casinos (no password, pit boss role only).",
        error_messages={"invalid_choice": "Not a user you may issue a token for: a token acts with all of "
                                          "its user's authority, so it is issued for yourself or for a "
                                          "service account of your casinos (no password, no role but pit "
                                          "boss), never for another person"})
    name = forms.CharField(max_length=120, required=False, help_text="What it is for (a tablet, a job).")
    days = forms.IntegerField(min_value=1)

    def __init__(self, *args, viewer, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = token_users_for(viewer).order_by("username")
        self.fields["days"] = forms.IntegerField(min_value=1, max_value=settings.API_TOKEN_MAX_LIFETIME_DAYS,
                                                 initial=settings.API_TOKEN_LIFETIME_DAYS)


def _viewer_zone(viewer) -> str:
    """A token belongs to a login, not to a casino: its times are shown in the zone of the
    manager's own (first) casino, or UTC for one with none (the label says which)."""
    casinos = Casino.objects
    return scope(casinos.order_by("pk"), viewer, "pk").values_list("time_zone", flat=True).first() or "UTC"


def _tokens(viewer):
    return tokens_revocable_by(viewer).select_related("user", "created_by", "revoked_by")


@role_required(GAMING_MANAGER)
def tokens(request):
    issued_key, status = None, 200
    form = IssueForm(request.POST or None, viewer=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                token, issued_key = api_token_issue(user=form.cleaned_data["user"], author=request.user,
                                                    name=form.cleaned_data["name"], days=form.cleaned_data["days"])
            except ValidationError as exc:
                for field, problems in exc.message_dict.items():
                    for problem in problems:
                        form.add_error(field if field in form.fields else None, problem)
                status = 400
            else:
                form = IssueForm(viewer=request.user)
        else:
            status = 400
    return render(request, "casino/tokens.html", {
        "form": form, "issued_key": issued_key, "tokens": _tokens(request.user)[:200],
        "default_days": settings.API_TOKEN_LIFETIME_DAYS, "zone": _viewer_zone(request.user)}, status=status)


@require_http_methods(["GET", "POST"])
@role_required(GAMING_MANAGER)
def token_revoke(request, pk: int):
    """Revoke in two steps: this page says whose token stops working and that it cannot be
    undone; a POST with ``confirm=yes`` revokes it (a POST without it shows the same page)."""
    token = get_object_or_404(_tokens(request.user), pk=pk)
    if request.method == "POST" and request.POST.get("confirm") == "yes" and token.revoked_at is None:
        api_token_revoke(token=token, author=request.user)
        messages.success(request, f"Revoked {token.prefix}… of {token.user}.")
        return redirect("api-tokens")
    return render(request, "casino/token_revoke_confirm.html", {"token": token, "zone": _viewer_zone(request.user)})
