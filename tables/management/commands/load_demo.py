from django.core.management.base import BaseCommand, CommandError

from tables.services.demo import demo_floor_load


class Command(BaseCommand):
    help = "Load the demo floor and one demo user per role (never in production); prints the logins."

    def handle(self, *args, **options):
        try:
            logins = demo_floor_load()
        except RuntimeError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS("Demo floor ready: Demo Casino, Pit 1, one table of each game."))
        self.stdout.write("Demo logins (new passwords every time the demo is loaded):")
        for login in logins:
            self.stdout.write(f"  {login.role:<15} user: {login.username:<13} password: {login.password}")
