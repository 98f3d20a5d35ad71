from django.apps import AppConfig


class RollupsConfig(AppConfig):
    name = "audit.rollups"
    label = "rollups"
    verbose_name = "Rollups: the desk's daily dealer and pattern figures"
    default_auto_field = "django.db.models.BigAutoField"
