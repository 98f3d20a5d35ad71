from django.apps import AppConfig


class ClosingConfig(AppConfig):
    name = "tables.closing"
    label = "closing"
    verbose_name = "Gaming-day close and reopen"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.accounting.signals import count_signed
        from tables.closing.services.close import count_signed_hook

        count_signed.connect(count_signed_hook, dispatch_uid="closing.count_signed")
