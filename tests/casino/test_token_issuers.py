"""Who a token may be issued for (issue #14, review): a token acts with all of its user's
authority, so a gaming manager issues one for themselves or for a service account of their
casinos (no password, no role but pit boss, not staff), never for a colleague; the reviewer
made manager B's token as manager A and approved A's own jackpot adjustment with it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from casino.models import ApiToken
from casino.tokens import api_token_issue, token_issue_refusal, token_users_for
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db


def service_account(username="tablet-1", *, is_staff=False, **kwargs):
    """A pit boss login that cannot sign in with a password: a tablet's or a job's."""
    user = user_with_role("pit_boss", username=username, **kwargs)
    user.set_unusable_password()
    user.is_staff = is_staff
    user.save()
    return user


def issue_on_page(manager, user):
    return api_as(manager).post(reverse("api-tokens"), {"user": user.pk, "name": "x", "days": "7"},
                                format="multipart")


def assert_refused(manager, user):
    """Refused on the page (a field error on "user", no token) and in the service."""
    response = issue_on_page(manager, user)
    assert response.status_code == 400
    assert response.context["form"].errors.get("user"), response.context["form"].errors
    assert not ApiToken.objects.filter(user=user).exists()
    with pytest.raises(ValidationError) as refused:
        api_token_issue(user=user, author=manager, name="x", days=7)
    assert refused.value.message_dict.get("user"), refused.value.message_dict
    assert not ApiToken.objects.filter(user=user).exists()
    assert user not in token_users_for(manager)


def test_a_manager_cannot_issue_a_token_for_another_gaming_manager():
    manager_a = user_with_role("gaming_manager", username="manager-a")
    manager_b = user_with_role("gaming_manager", username="manager-b")
    assert_refused(manager_a, manager_b)
    with pytest.raises(ValidationError) as refused:
        api_token_issue(user=manager_b, author=manager_a)
    assert "gaming manager" in " ".join(refused.value.message_dict["user"])


def test_the_two_person_rule_cannot_be_met_with_a_colleagues_token():
    """The reviewer's scenario: A requested an adjustment and wants a token of B, the second
    gaming manager the approval needs; A gets none, so B's signature cannot be forged."""
    from tests.jackpots.helpers import linked_bank

    bank, _tables, manager_a, _pitboss = linked_bank(1)
    manager_b = user_with_role("gaming_manager", username="gm2", casinos=[bank.casino])
    response = issue_on_page(manager_a, manager_b)
    assert response.status_code == 400 and response.context["issued_key"] is None
    assert not ApiToken.objects.filter(user=manager_b).exists()


@pytest.mark.parametrize("role", ["surveillance", "finance"])
def test_a_manager_cannot_issue_a_token_for_a_colleague_of_another_role(role):
    manager = user_with_role("gaming_manager", username="manager-a")
    assert_refused(manager, user_with_role(role))


def test_a_manager_cannot_issue_a_token_for_a_superuser_with_a_membership():
    from casino.models import CasinoMembership

    manager = user_with_role("gaming_manager", username="manager-a")
    root = user_with_role("superuser")
    CasinoMembership.objects.create(user=root, casino=CasinoFactory())
    assert_refused(manager, root)


def test_a_manager_cannot_issue_for_a_user_of_another_casino_or_of_several():
    manager = user_with_role("gaming_manager", username="manager-a")
    here, elsewhere = CasinoFactory(), CasinoFactory(name="Elsewhere Casino")
    assert_refused(manager, service_account("tablet-elsewhere", casinos=[elsewhere]))
    assert_refused(manager, service_account("tablet-both", casinos=[here, elsewhere]))


def test_a_manager_cannot_issue_for_a_pit_boss_who_signs_in_or_a_staff_account():
    manager = user_with_role("gaming_manager", username="manager-a")
    assert_refused(manager, user_with_role("pit_boss", username="pat"))  # a person: has a password
    assert_refused(manager, service_account("tablet-staff", is_staff=True))
    two_roles = service_account("tablet-finance")
    two_roles.groups.add(*user_with_role("finance").groups.all())
    assert_refused(manager, two_roles)


def test_a_manager_issues_for_themselves_and_for_a_service_account_of_their_casinos():
    manager = user_with_role("gaming_manager", username="manager-a")
    tablet = service_account()
    assert set(token_users_for(manager)) == {manager, tablet}
    for user in (manager, tablet):
        response = issue_on_page(manager, user)
        assert response.status_code == 200 and response.context["issued_key"]
        client = APIClient(HTTP_AUTHORIZATION=f"Token {response.context['issued_key']}")
        assert client.get(reverse("round-list")).status_code == 200
    assert ApiToken.objects.filter(user=tablet, created_by=manager).count() == 1
    assert ApiToken.objects.filter(user=manager, created_by=manager).count() == 1


def test_only_a_gaming_manager_issues_for_someone_else_and_anyone_for_themselves():
    boss = user_with_role("pit_boss", username="pat")
    with pytest.raises(ValidationError) as refused:
        api_token_issue(user=service_account(), author=boss)
    assert refused.value.message_dict.get("user")
    assert api_token_issue(user=boss, author=boss)[0].user == boss


def test_a_superuser_follows_the_same_rule_for_others():
    root = user_with_role("superuser")
    assert_refused(root, user_with_role("gaming_manager", username="manager-b"))
    assert_refused(root, user_with_role("superuser", username="root-2"))
    assert api_token_issue(user=service_account(), author=root)[0]
    assert api_token_issue(user=root, author=root)[0]


def test_the_page_choices_and_the_service_agree():
    here, elsewhere = CasinoFactory(), CasinoFactory(name="Elsewhere Casino")
    manager = user_with_role("gaming_manager", username="manager-a")
    users = [manager, user_with_role("gaming_manager", username="manager-b"), user_with_role("surveillance"),
             user_with_role("finance"), user_with_role("pit_boss"), user_with_role(None),
             user_with_role("superuser"), service_account(), service_account("t-else", casinos=[elsewhere]),
             service_account("t-both", casinos=[here, elsewhere]), service_account("t-staff", is_staff=True),
             service_account("t-none", casinos=())]
    listed = set(token_users_for(manager))
    for user in users:
        assert (user in listed) == (token_issue_refusal(manager, user) is None), user.username


def _revoke(client, token):
    """The confirmed revoke (the page asks first: tests/casino/test_token_revoke_confirm.py)."""
    return client.post(reverse("api-token-revoke", args=[token.pk]), {"confirm": "yes"}, format="multipart")


def test_a_manager_revokes_tokens_of_users_they_may_issue_for_their_own_and_those_they_issued():
    manager_a = user_with_role("gaming_manager", username="manager-a")
    manager_b = user_with_role("gaming_manager", username="manager-b")
    watcher = user_with_role("surveillance")
    tablet = service_account()
    own = api_token_issue(user=manager_a, author=manager_a)[0]
    for_tablet = api_token_issue(user=tablet, author=None)[0]
    issued_before = api_token_issue(user=tablet, author=manager_a)[0]
    ApiToken.objects.filter(pk=issued_before.pk).update(user=watcher)  # issued under an older rule
    of_b = api_token_issue(user=manager_b, author=manager_b)[0]
    of_watcher = api_token_issue(user=watcher, author=None)[0]
    client = api_as(manager_a)
    listed = {t.pk for t in client.get(reverse("api-tokens")).context["tokens"]}
    assert listed == {own.pk, for_tablet.pk, issued_before.pk}
    for token in (of_b, of_watcher):
        assert _revoke(client, token).status_code == 404
        token.refresh_from_db()
        assert token.revoked_at is None
    for token in (own, for_tablet, issued_before):
        assert _revoke(client, token).status_code == 302
        token.refresh_from_db()
        assert token.revoked_by == manager_a


def test_a_superuser_lists_and_revokes_every_token():
    root = user_with_role("superuser")
    elsewhere = user_with_role("gaming_manager", username="manager-else", casinos=[CasinoFactory(name="Else")])
    token = api_token_issue(user=elsewhere, author=elsewhere)[0]
    client = api_as(root)
    assert token.pk in {t.pk for t in client.get(reverse("api-tokens")).context["tokens"]}
    assert _revoke(client, token).status_code == 302
    token.refresh_from_db()
    assert token.revoked_by == root
