from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "audit.ratings"
    label = "ratings"
    verbose_name = "Ratings: players' rating sessions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.services.round_ledgers import round_posted, round_voided

        from .writer import round_posted_sessions, round_voided_sessions

        round_posted.connect(round_posted_sessions, dispatch_uid="ratings.round_posted")
        round_voided.connect(round_voided_sessions, dispatch_uid="ratings.round_voided")
