"""factory-boy factories for the floor and users with roles."""

from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from casino.models import Casino, CasinoMembership
from casino.roles import ROLE_GROUPS, sync_role_groups
from tables.games import GAMES
from tables.models import Dealer, Pit, Ruleset, RulesetVersion, Table

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = "Test"
    last_name = factory.Sequence(lambda n: f"User{n}")

    @factory.post_generation
    def password(obj, create, extracted, **kwargs):  # noqa: N805
        obj.set_password(extracted or PASSWORD)
        if create:
            obj.save()


def user_with_role(role: str | None, username: str | None = None, *, casinos=None, **extra):
    """A user in the role's group (``None``: a user with no role; ``"superuser"``: a superuser).

    The user works at ``casinos`` (default: the factories' default casino, which every
    factory-made object belongs to unless told otherwise); pass ``casinos=[other]`` for a user
    of another casino, ``casinos=()`` for a user of none. Superusers see every casino.
    """
    if not Group.objects.filter(name=ROLE_GROUPS["pit_boss"]).exists():
        sync_role_groups()
    if role == "superuser":
        return UserFactory(username=username or "root", is_superuser=True, is_staff=True, **extra)
    user = UserFactory(username=username or (role or "norole"), is_staff=role == "gaming_manager", **extra)
    if role:
        user.groups.add(Group.objects.get(name=ROLE_GROUPS[role]))
    for casino in (CasinoFactory(),) if casinos is None else casinos:
        CasinoMembership.objects.get_or_create(user=user, casino=casino)
    return user


class CasinoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Casino
        django_get_or_create = ("name",)

    name = "Test Casino"
    time_zone = "America/New_York"
    gaming_day_start_hour = 6


class PitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pit

    casino = factory.SubFactory(CasinoFactory)
    name = factory.Sequence(lambda n: f"Pit {n + 1}")


class DealerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Dealer

    casino = factory.SubFactory(CasinoFactory)
    employee_number = factory.Sequence(lambda n: f"E{n:04d}")
    name = factory.Sequence(lambda n: f"Dealer {n}")


class RulesetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ruleset
        skip_postgeneration_save = True

    casino = factory.SubFactory(CasinoFactory)
    game = "ante_up_21"
    name = factory.Sequence(lambda n: f"Ruleset {n}")
    config = factory.LazyAttribute(lambda o: GAMES[o.game].rules_to_dict(GAMES[o.game].default_rules()))
    version = 1

    @factory.post_generation
    def first_version(obj, create, extracted, **kwargs):  # noqa: N805
        if create:
            RulesetVersion.objects.create(ruleset=obj, number=1, game=obj.game, config=obj.config, reason="factory")


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    pit = factory.SubFactory(PitFactory)
    label = factory.Sequence(lambda n: f"T{n + 1:02d}")
    game = "ante_up_21"
    ruleset = factory.SubFactory(RulesetFactory, game=factory.SelfAttribute("..game"),
                                 casino=factory.SelfAttribute("..pit.casino"))
    min_bet = Decimal("10.00")
    max_bet = Decimal("500.00")


def jackpot_bank_for(*tables, at=None):
    """A new jackpot bank of the tables' casino holding those of ``tables`` whose ruleset
    takes Taxpayer's Fortune markers (every line fixed until configured); None when none
    does. Such a table opens only as a member of a bank (issue #14)."""
    from audit.jackpots.models import JackpotBank
    from audit.jackpots.services import jackpot_bank_create, takes_taxpayers_fortune

    marked = [t for t in tables if takes_taxpayers_fortune(t)]
    if not marked:
        return None
    casino = marked[0].pit.casino
    return jackpot_bank_create(
        casino=casino,
        name=f"Test bank {JackpotBank.objects.filter(casino=casino).count() + 1}",
        author=user_with_role("gaming_manager", username="bank-manager"),
        reason="test floor",
        tables=marked,
        at=at,
    )


DEFAULT_CHIPS = ("1", "2.50", "5", "25", "100", "500", "1000", "5000")


def chip_set_for(casino, values=DEFAULT_CHIPS):
    """The casino's chip set (table accounting), made through the gaming manager's service."""
    from tables.accounting.services.chips import chip_set_save

    return chip_set_save(casino=casino, name=f"{casino.name} chips", denominations=list(values),
                         author=user_with_role("gaming_manager", username="chips-manager"), reason="test chips")


def player_for(casino, identifier: str, *, name: str = "", loyalty_number: str = "", author=None):
    """A registered player of ``casino`` (through the service, so the history holds its author)."""
    from tables.players.services.register import player_register

    return player_register(casino=casino, identifier=identifier, name=name, loyalty_number=loyalty_number,
                           author=author or UserFactory())
