from django.apps import AppConfig


class AdvantageConfig(AppConfig):
    name = "audit.advantage"
    label = "advantage"
    verbose_name = "Advantage play: bet spread against the count"

    def ready(self) -> None:
        # The count lines follow the rounds (lines.py): recording announces, this app listens
        # (tables never imports it).
        from audit.reports.signals import report_finished
        from tables.services.round_ledgers import round_posted, round_voided

        from .lines import round_posted_hook, round_voided_hook
        from .tasks import count_after_report

        round_posted.connect(round_posted_hook, dispatch_uid="advantage.round_posted")
        round_voided.connect(round_voided_hook, dispatch_uid="advantage.round_voided")
        # Each report of a day (the provisional one every REPORTS_PROVISIONAL_MINUTES, the final
        # one at the close) queues the day's recount (results.py), so the desk finds it counted.
        report_finished.connect(count_after_report, dispatch_uid="advantage.count_after_report")
