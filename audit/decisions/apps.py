from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "audit.decisions"
    label = "decisions"
    verbose_name = "Decisions: the price of every recorded player decision"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.games.poker_or_bust import draw_prices

        from . import tasks  # noqa: F401 - registers the pricing task for an eager run
        from .draw_tables import stored

        # Poker or Bust's rounds are priced from the tables the long solve stored in the database.
        draw_prices.use_source(stored)
