"""The rounds recorded before the decisions' prices existed are queued for the workers' pricing
(beat's ``decisions.price_pending``); ``manage.py decisions_price`` prices them at once."""

from django.db import migrations

PRICED_GAMES = ("ante_up_21", "upcard_luck_21", "blackjack_tie")  # tables.games.decision_prices at the time


def queue(apps, schema_editor):
    Round = apps.get_model("tables", "Round")
    DecisionPending = apps.get_model("decisions", "DecisionPending")
    rows = Round.objects.filter(game__in=PRICED_GAMES).order_by().values_list("id", "gaming_day")
    batch = []
    for round_id, day in rows.iterator(chunk_size=5000):
        batch.append(DecisionPending(round_id=round_id, gaming_day=day, stamp=1))
        if len(batch) >= 5000:
            DecisionPending.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    DecisionPending.objects.bulk_create(batch, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("decisions", "0001_initial"), ("tables", "0016_findings_and_chain_links_on_the_floor")]

    operations = [migrations.RunPython(queue, migrations.RunPython.noop)]
