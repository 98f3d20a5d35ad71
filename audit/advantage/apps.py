from django.apps import AppConfig


class AdvantageConfig(AppConfig):
    name = "audit.advantage"
    label = "advantage"
    verbose_name = "Advantage play: bet spread against the count"
