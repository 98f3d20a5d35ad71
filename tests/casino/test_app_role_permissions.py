"""Apps that keep their roles' model permissions beside them (``role_permissions`` on the
AppConfig) give them to the role groups after migrate, through casino.roles' one receiver."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group

from casino.roles import ROLE_GROUPS, app_role_permissions_grant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("label", ["reports", "fluctuations", "compliance"])
def test_each_apps_role_permissions_are_the_groups_after_migrate(label):
    config = apps.get_app_config(label)
    Group.objects.filter(name__in=[ROLE_GROUPS[r] for r in config.role_permissions]).delete()
    app_role_permissions_grant(config)
    app_role_permissions_grant(config)  # idempotent
    for role, models in config.role_permissions.items():
        held = set(Group.objects.get(name=ROLE_GROUPS[role]).permissions.filter(
            content_type__app_label=label).values_list("codename", flat=True))
        assert held == {f"{a}_{m}" for m, actions in models.items() for a in actions}, role
