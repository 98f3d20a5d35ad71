from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import db_roles  # noqa: F401 - registers the deploy check on the database role
        from .api_fields import use_strict_model_fields
        from .roles import sync_role_groups

        post_migrate.connect(sync_role_groups, dispatch_uid="casino.sync_role_groups")
        use_strict_model_fields()
