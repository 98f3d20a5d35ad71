from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "audit.ratings"
    label = "ratings"
    verbose_name = "Ratings: players' rating sessions"
    default_auto_field = "django.db.models.BigAutoField"
