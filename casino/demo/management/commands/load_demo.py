from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.demo.accounting import (
    demo_accounting_day,
    demo_past_day_close,
    demo_past_day_count,
    demo_past_day_open,
    demo_table_open,
)
from casino.demo.floor import DEMO_CASINO, demo_floor_load, demo_rounds_load
from casino.demo.fluctuations import demo_investigation
from casino.demo.story import demo_reports_load
from casino.demo.title31 import demo_title31
from casino.models import Casino

User = get_user_model()


class Command(BaseCommand):
    help = "Load the demo floor and one demo user per role (never in production); prints the logins."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=60,
                            help="simulated rounds per demo table today, and a third as many the gaming day "
                                 "before (0: the floor only); tables with rounds are kept")

    def handle(self, *args, **options):
        try:
            logins = demo_floor_load()
        except RuntimeError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Demo floor ready: {DEMO_CASINO}, Pit 1, one table of each game."))
        demo_accounting_day()
        if options["rounds"]:
            count = demo_rounds_load(rounds_per_table=options["rounds"], open_table=demo_table_open,
                                     open_past_day=demo_past_day_open, close_past_day=demo_past_day_close)
            if count:
                demo_past_day_count()
                self.stdout.write(f"Recorded {count} simulated rounds (some with dealer errors) at the demo tables"
                                  " over two gaming days; the tables are open.")
            casino = Casino.objects.get(name=DEMO_CASINO)
            for report in demo_reports_load(casino=casino):
                self.stdout.write(f"Daily report of {report.gaming_day}: {report.status}"
                                  f"{' - ' + report.error if report.error else ''}")
                investigation = demo_investigation(casino, report.gaming_day, User.objects.get(username="manager"))
                if investigation is not None:
                    self.stdout.write(f"Hold investigation opened: {investigation}")
            demo_title31(casino)  # today: a patron on the MTL and one who needs a CTR (audit/compliance)
        self.stdout.write("Demo logins (new passwords every time the demo is loaded):")
        for login in logins:
            self.stdout.write(f"  {login.role:<15} user: {login.username:<13} password: {login.password}")
