from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them): the gaming manager
#: edits the bounds; investigations are written through the pages and the API only.
ROLE_PERMISSIONS = {
    "gaming_manager": {"fluctuationsettings": ("view", "add", "change"), "investigation": ("view",)},
    "finance": {"fluctuationsettings": ("view",), "investigation": ("view",)},
}


class FluctuationsConfig(AppConfig):
    name = "audit.fluctuations"
    label = "fluctuations"
    verbose_name = "Hold fluctuations: bounds and investigations"
    default_auto_field = "django.db.models.BigAutoField"
    role_permissions = ROLE_PERMISSIONS

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from audit.fluctuations.tasks import check_after_final_report
        from audit.reports.signals import report_finished
        from casino.roles import app_role_permissions_grant

        post_migrate.connect(app_role_permissions_grant, sender=self, dispatch_uid="fluctuations.grant_permissions")
        report_finished.connect(check_after_final_report, dispatch_uid="fluctuations.check_after_final_report")
