"""The admin pages that name users are scoped like the floor's: a gaming manager is offered,
sees and deletes only what belongs to users of their casinos (superusers: everything)."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.urls import reverse
from django.utils import timezone

from casino.models import CasinoMembership
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    here, other = CasinoFactory(), CasinoFactory(name="Elsewhere Casino")
    return {"here": here, "other": other,
            "manager": user_with_role("gaming_manager", username="manager-here", casinos=[here]),
            "colleague": user_with_role("pit_boss", username="colleague-here", casinos=[here]),
            "stranger": user_with_role("pit_boss", username="stranger-elsewhere", casinos=[other]),
            "root": user_with_role("superuser")}


def _attempt(username: str) -> AccessAttempt:
    return AccessAttempt.objects.create(username=username, ip_address="10.0.0.7", user_agent="tablet",
                                        http_accept="*/*", path_info="/accounts/login/", get_data="",
                                        post_data="", failures_since_start=5, attempt_time=timezone.now())


def test_the_membership_form_offers_only_users_of_the_managers_casinos(people):
    manager = api_as(people["manager"])
    url = reverse("admin:casino_casinomembership_add")
    page = manager.get(url).content.decode()
    assert "colleague-here" in page and "stranger-elsewhere" not in page
    # Naming another casino's user anyway is the form's field error; nothing is stored.
    before = CasinoMembership.objects.count()
    refused = manager.post(url, {"user": people["stranger"].pk, "casino": people["here"].pk}, format="multipart")
    assert refused.status_code == 200 and "user" in refused.context["adminform"].form.errors
    assert CasinoMembership.objects.count() == before
    assert "stranger-elsewhere" in api_as(people["root"]).get(url).content.decode()


def test_login_attempts_of_another_casinos_users_are_neither_shown_nor_deleted(people):
    mine, theirs, guess = _attempt("colleague-here"), _attempt("stranger-elsewhere"), _attempt("nobody-at-all")
    manager = api_as(people["manager"])
    listing = manager.get(reverse("admin:axes_accessattempt_changelist")).content.decode()
    assert "colleague-here" in listing and "stranger-elsewhere" not in listing and "nobody-at-all" not in listing
    for view in ("change", "delete"):
        response = manager.get(reverse(f"admin:axes_accessattempt_{view}", args=[theirs.pk]))
        assert response.status_code == 302 and response["Location"] == reverse("admin:index"), view
    manager.post(reverse("admin:axes_accessattempt_delete", args=[theirs.pk]), {"post": "yes"}, format="multipart")
    manager.post(reverse("admin:axes_accessattempt_changelist"),
                 {"action": "delete_selected", "_selected_action": [theirs.pk, guess.pk, mine.pk], "post": "yes"},
                 format="multipart")
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"stranger-elsewhere", "nobody-at-all"}
    assert "cleanup_expired_attempts" not in manager.get(
        reverse("admin:axes_accessattempt_changelist")).content.decode()
    # A superuser sees every record, a guessed user name's too.
    everything = api_as(people["root"]).get(reverse("admin:axes_accessattempt_changelist")).content.decode()
    assert "stranger-elsewhere" in everything and "nobody-at-all" in everything


def test_the_failure_log_is_scoped_too(people):
    for username in ("colleague-here", "stranger-elsewhere"):
        AccessFailureLog.objects.create(username=username, ip_address="10.0.0.7", user_agent="tablet",
                                        http_accept="*/*", path_info="/accounts/login/", locked_out=False,
                                        attempt_time=timezone.now())
    listing = api_as(people["manager"]).get(reverse("admin:axes_accessfailurelog_changelist")).content.decode()
    assert "colleague-here" in listing and "stranger-elsewhere" not in listing
