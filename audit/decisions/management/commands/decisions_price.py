"""``python manage.py decisions_price [--follow]``: price the queued rounds now, as the beat task
``decisions.price_pending`` does; ``--follow`` keeps doing it every few seconds (the quick start
runs it beside the server: it has no Celery worker)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ...pricing import price_all_pending

FOLLOW_SECONDS = 3.0


class Command(BaseCommand):
    help = "Price every round queued for its decisions' prices (--follow: keep doing it)."

    def add_arguments(self, parser):
        parser.add_argument("--follow", action="store_true", help="keep pricing new rounds every few seconds")

    def handle(self, *args, follow=False, **options):
        while True:
            taken = price_all_pending()
            if taken or not follow:
                self.stdout.write(f"{taken} rounds priced")
            if not follow:
                return
            time.sleep(FOLLOW_SECONDS)
