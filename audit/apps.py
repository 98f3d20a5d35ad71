from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit: findings, ledgers and reports"

    def ready(self):
        from audit import money_chain

        # One-row money records are linked when written, in the writer's transaction.
        money_chain.connect()
