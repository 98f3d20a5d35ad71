from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "audit.decisions"
    label = "decisions"
    verbose_name = "Decisions: the price of every recorded player decision"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 - registers the pricing task for an eager run
