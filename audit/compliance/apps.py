from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them). Everything is written
#: through the services (pages and API); the admin only shows.
ROLE_PERMISSIONS = {
    "gaming_manager": {"compliancesettings": ("view",), "cashout": ("view",), "mtlsignoff": ("view",)},
    "compliance": {"compliancesettings": ("view",), "cashout": ("view",), "mtlsignoff": ("view",),
                   "patronidentification": ("view",), "ctrexception": ("view",)},
}


class ComplianceConfig(AppConfig):
    name = "audit.compliance"
    label = "compliance"
    verbose_name = "Title 31: multiple transaction log and CTRs"
    default_auto_field = "django.db.models.BigAutoField"
    role_permissions = ROLE_PERMISSIONS

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from audit.compliance.selectors import ctr_close_check, ctr_close_place
        from casino.roles import app_role_permissions_grant
        from tables.closing.services.close import close_check_register

        post_migrate.connect(app_role_permissions_grant, sender=self, dispatch_uid="compliance.grant_permissions")
        # A day with a required CTR whose patron is not identified does not close silently.
        close_check_register(ctr_close_check, where=ctr_close_place)
