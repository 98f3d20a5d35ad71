from django.apps import AppConfig


class AdvantageConfig(AppConfig):
    name = "audit.advantage"
    label = "advantage"
    verbose_name = "Advantage play: bet spread against the count"

    def ready(self) -> None:
        # The count lines follow the rounds (lines.py): recording announces, this app listens
        # (tables never imports it).
        from tables.services.round_ledgers import round_posted, round_voided

        from .lines import round_posted_hook, round_voided_hook

        round_posted.connect(round_posted_hook, dispatch_uid="advantage.round_posted")
        round_voided.connect(round_voided_hook, dispatch_uid="advantage.round_voided")
