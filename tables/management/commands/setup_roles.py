from django.core.management.base import BaseCommand

from casino.roles import ROLE_GROUPS, sync_role_groups


class Command(BaseCommand):
    help = "Create the role groups (pit boss, surveillance, finance, gaming manager) with their permissions."

    def handle(self, *args, **options):
        sync_role_groups()
        self.stdout.write("Role groups ready: " + ", ".join(ROLE_GROUPS.values()))
