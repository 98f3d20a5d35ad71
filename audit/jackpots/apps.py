from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "audit.jackpots"
    label = "jackpots"
    verbose_name = "Jackpots: banks, meters, ledger and liabilities"
    default_auto_field = "django.db.models.BigAutoField"
