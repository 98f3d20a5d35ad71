"""The header's one line: a few shortcuts per role, every other page of the role in "More"."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from casino.context_processors import NAVIGATION, SHORTCUTS, SHORTCUTS_SHOWN, navigation
from casino.roles import ALL_ROLES
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


def _menu(user, path: str = "/") -> dict:
    request = RequestFactory().get(path)
    request.user = user
    return navigation(request)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_each_page_of_a_role_is_in_the_line_or_the_menu_once(role):
    menu = _menu(user_with_role(role))
    names = [item["name"] for item in menu["nav_shortcuts"] + menu["nav_more"]]
    assert sorted(names) == sorted(item["name"] for item in menu["nav_items"])
    assert [item["name"] for item in menu["nav_shortcuts"]] == list(SHORTCUTS[role])[:SHORTCUTS_SHOWN]


def test_a_shortcut_is_a_page_its_role_sees():
    allowed = {name: roles for _label, name, roles in NAVIGATION}
    for role, names in SHORTCUTS.items():
        assert all(role in allowed[name] for name in names), role


def test_someone_with_every_role_still_gets_one_line():
    user = user_with_role(ALL_ROLES[0])
    for role in ALL_ROLES[1:]:
        user.groups.add(user_with_role(role).groups.get())
    menu = _menu(user, reverse("jackpots-board"))
    assert len(menu["nav_shortcuts"]) == SHORTCUTS_SHOWN
    assert menu["nav_more_current"]  # "More" is marked: the page open is in it
