from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them). Everything is written
#: through the services (pages and API); the admin only shows.
ROLE_PERMISSIONS = {
    "gaming_manager": {"compliancesettings": ("view",), "cashout": ("view",), "mtlsignoff": ("view",)},
    "compliance": {"compliancesettings": ("view",), "cashout": ("view",), "mtlsignoff": ("view",),
                   "patronidentification": ("view",), "ctrexception": ("view",)},
}


def grant_compliance_permissions(sender=None, **kwargs) -> None:
    """post_migrate: give the role groups this app's model permissions (idempotent)."""
    from django.contrib.auth.models import Group, Permission

    from casino.roles import ROLE_GROUPS

    for role, models in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        for model, actions in models.items():
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label="compliance", codename__in=[f"{a}_{model}" for a in actions]))


class ComplianceConfig(AppConfig):
    name = "audit.compliance"
    label = "compliance"
    verbose_name = "Title 31: multiple transaction log and CTRs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from audit.compliance.selectors import ctr_close_check
        from tables.closing.services.close import close_check_register

        post_migrate.connect(grant_compliance_permissions, sender=self, dispatch_uid="compliance.grant_permissions")
        # A day with a required CTR whose patron is not identified does not close silently.
        close_check_register(ctr_close_check)
