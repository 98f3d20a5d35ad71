from django.apps import AppConfig


class RollupsConfig(AppConfig):
    name = "audit.rollups"
    label = "rollups"
    verbose_name = "Rollups: the desk's daily dealer and pattern figures"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.services.round_ledgers import round_posted

        from .writer import round_recorded

        round_posted.connect(round_recorded, dispatch_uid="rollups.round_recorded")
