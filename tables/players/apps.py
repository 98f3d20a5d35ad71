from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "tables.players"
    label = "players"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"
