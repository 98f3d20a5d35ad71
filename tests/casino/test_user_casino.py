"""casino.scoping.user_casino: the one reading of a page's or list's ``?casino=``."""

import pytest

from casino.scoping import user_casino
from tests.factories import CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db


def test_the_named_casino_of_the_user_else_their_first_and_none_for_anothers():
    b, a, other = CasinoFactory(name="B casino"), CasinoFactory(name="A casino"), CasinoFactory(name="Other")
    user = user_with_role("compliance", casinos=[b, a])
    assert user_casino(user, str(a.pk)) == a
    assert user_casino(user) == b  # the first by id
    assert user_casino(user, "", order="name") == a  # the first by name
    assert user_casino(user, str(other.pk)) is None  # another casino's id reads as none
    assert user_casino(user, "x1") is None
    assert user_casino(user_with_role("compliance", username="nowhere", casinos=[])) is None
