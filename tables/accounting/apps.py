from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "tables.accounting"
    label = "accounting"
    verbose_name = "Table accounting: chips, slips and the chip ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.accounting.services.inventory import inventory_roll_over_hook
        from tables.services.sessions import session_rolled_over

        session_rolled_over.connect(inventory_roll_over_hook, dispatch_uid="accounting.inventory_roll_over")
