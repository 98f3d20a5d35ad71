from django.apps import AppConfig


class AdvantageConfig(AppConfig):
    name = "audit.advantage"
    label = "advantage"
    verbose_name = "Advantage play: bet spread against the count"

    def ready(self) -> None:
        from audit.reports.signals import report_finished

        from .tasks import count_after_report

        # Each report of a day (the provisional one every REPORTS_PROVISIONAL_MINUTES, the final
        # one at the close) queues the day's recount (results.py), so the desk finds it counted.
        report_finished.connect(count_after_report, dispatch_uid="advantage.count_after_report")
