from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "audit.jackpots"
    label = "jackpots"
    verbose_name = "Jackpots: banks, meters, ledger and liabilities"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Recording (tables) never imports the ledger: it asks the registered meters and announces.
        from audit.jackpots.meters import JackpotMeters, round_posted_hook, round_voided_hook
        from tables.services.round_ledgers import meters_register, round_posted, round_voided

        meters_register(JackpotMeters())
        round_posted.connect(round_posted_hook, dispatch_uid="jackpots.round_posted")
        round_voided.connect(round_voided_hook, dispatch_uid="jackpots.round_voided")
