"""The seeded assumptions' notes say where the figure comes from, not "illustrative only".

Only a note still as seeded (0002_default_assumptions) is reworded: a note the house wrote is
its own. Edges and variances are not touched.
"""

from django.db import migrations

_OLD = "illustrative only: no engine figure (player decisions); the house must set it"
_NEW = ("starting figure shipped with the system, not the engine's: the wager turns on player decisions; "
        "the house sets its own")
NOTES = {
    ("ante_up_21", "ante"): ("Ante, {}", ""),
    ("ante_up_21", "bet"): ("Bet, {}", ""),
    **{("blackjack_tie", f"tie_{b}"): (f"Tie bonus {b}, {{}}", " (variance from the pay table)")
       for b in ("LS", "RS", "17", "18", "19", "20", "21", "blackjack")},
}


def _reword(apps, schema_editor, old: str, new: str) -> None:
    model = apps.get_model("reports", "TheoreticalAssumption")
    for (game, wager), (text, tail) in NOTES.items():
        model.objects.filter(game=game, wager=wager, note=text.format(old) + tail).update(
            note=text.format(new) + tail)


def forwards(apps, schema_editor):
    _reword(apps, schema_editor, _OLD, _NEW)


def backwards(apps, schema_editor):
    _reword(apps, schema_editor, _NEW, _OLD)


class Migration(migrations.Migration):
    dependencies = [("reports", "0008_month_table_lines")]
    operations = [migrations.RunPython(forwards, backwards)]
