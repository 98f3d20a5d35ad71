from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them).
ROLE_PERMISSIONS = {
    "gaming_manager": {
        "theoreticalassumption": ("view", "add", "change"),
        "dailyreport": ("view",),
    },
    "finance": {"theoreticalassumption": ("view",), "dailyreport": ("view",)},
}


class ReportsConfig(AppConfig):
    name = "audit.reports"
    label = "reports"
    verbose_name = "Reports: daily reconciliation for finance"
    default_auto_field = "django.db.models.BigAutoField"
    role_permissions = ROLE_PERMISSIONS

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from casino.roles import app_role_permissions_grant

        post_migrate.connect(app_role_permissions_grant, sender=self, dispatch_uid="reports.grant_permissions")

        from audit.reports.services.runs import count_signed_rerun
        from tables.accounting.signals import count_signed

        count_signed.connect(count_signed_rerun, dispatch_uid="reports.count_signed_rerun")

        from .closing import report_finished_hook
        from .signals import report_finished

        report_finished.connect(report_finished_hook, dispatch_uid="reports.closing.report_finished")

        # The runs queue their tasks by name (services/runs.py): registered here, so a process
        # without a broker (the tasks run eagerly, in it) finds them as a worker does.
        from . import tasks  # noqa: F401
