from django.core.management.base import BaseCommand, CommandError

from tables.services.demo import demo_floor_load, demo_rounds_load


class Command(BaseCommand):
    help = "Load the demo floor and one demo user per role (never in production); prints the logins."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=60,
                            help="simulated rounds per demo table (0: the floor only); tables with rounds are kept")

    def handle(self, *args, **options):
        try:
            logins = demo_floor_load()
        except RuntimeError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS("Demo floor ready: Demo Casino, Pit 1, one table of each game."))
        if options["rounds"]:
            count = demo_rounds_load(rounds_per_table=options["rounds"])
            if count:
                self.stdout.write(f"Recorded {count} simulated rounds (some with dealer errors) at the demo tables;"
                                  " the tables are open.")
        self.stdout.write("Demo logins (new passwords every time the demo is loaded):")
        for login in logins:
            self.stdout.write(f"  {login.role:<15} user: {login.username:<13} password: {login.password}")
