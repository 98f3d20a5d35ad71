from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them).
ROLE_PERMISSIONS = {
    "gaming_manager": {
        "theoreticalassumption": ("view", "add", "change"),
        "dailyreport": ("view",),
    },
    "finance": {"theoreticalassumption": ("view",), "dailyreport": ("view",)},
}


def grant_report_permissions(sender=None, **kwargs) -> None:
    """post_migrate: give the role groups this app's model permissions (idempotent)."""
    from django.contrib.auth.models import Group, Permission

    from casino.roles import ROLE_GROUPS

    for role, models in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        for model, actions in models.items():
            perms = Permission.objects.filter(
                content_type__app_label="reports", codename__in=[f"{a}_{model}" for a in actions]
            )
            group.permissions.add(*perms)


class ReportsConfig(AppConfig):
    name = "audit.reports"
    label = "reports"
    verbose_name = "Reports: daily reconciliation for finance"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        post_migrate.connect(
            grant_report_permissions, sender=self, dispatch_uid="reports.grant_permissions"
        )

        from audit.reports.services.runs import count_signed_rerun
        from tables.accounting.signals import count_signed

        count_signed.connect(count_signed_rerun, dispatch_uid="reports.count_signed_rerun")

        from .closing import report_finished_hook
        from .signals import report_finished

        report_finished.connect(report_finished_hook, dispatch_uid="reports.closing.report_finished")
