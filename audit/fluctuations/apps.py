from django.apps import AppConfig

#: Model permissions this app gives the role groups (the admin reads them): the gaming manager
#: edits the bounds; investigations are written through the pages and the API only.
ROLE_PERMISSIONS = {
    "gaming_manager": {"fluctuationsettings": ("view", "add", "change"), "investigation": ("view",)},
    "finance": {"fluctuationsettings": ("view",), "investigation": ("view",)},
}


def grant_fluctuation_permissions(sender=None, **kwargs) -> None:
    """post_migrate: give the role groups this app's model permissions (idempotent)."""
    from django.contrib.auth.models import Group, Permission

    from casino.roles import ROLE_GROUPS

    for role, models in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        for model, actions in models.items():
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label="fluctuations", codename__in=[f"{a}_{model}" for a in actions]))


class FluctuationsConfig(AppConfig):
    name = "audit.fluctuations"
    label = "fluctuations"
    verbose_name = "Hold fluctuations: bounds and investigations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from audit.fluctuations.tasks import check_after_final_report
        from audit.reports.signals import report_finished

        post_migrate.connect(grant_fluctuation_permissions, sender=self,
                             dispatch_uid="fluctuations.grant_permissions")
        report_finished.connect(check_after_final_report, dispatch_uid="fluctuations.check_after_final_report")
