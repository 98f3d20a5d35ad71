"""The seeded assumptions' notes say they serve only until the engine's exact figure is stored.

The engine now prices every wager of the blackjack games exactly per ruleset version
(``services.odds``), so "no engine figure" and "average player" no longer describe these rows.
Only a note still as seeded (0002, reworded by 0009) changes: a note the house wrote is its own.
Edges and variances are not touched.
"""

from django.db import migrations

_UNTIL = "starting figure, used only until the engine's exact figure for the ruleset version is stored"
_OLD_21 = "21 bet, average player (assumption; set the house's own figure)"
_OLD_STARTING = ("starting figure shipped with the system, not the engine's: the wager turns on player decisions; "
                 "the house sets its own")
BLACKJACK = ("ante_up_21", "upcard_luck_21", "blackjack_tie")
#: (game, wager) -> (seeded note, new note)
NOTES = {
    **{(g, "21"): (_OLD_21, f"21 bet, {_UNTIL}") for g in BLACKJACK},
    ("ante_up_21", "ante"): (f"Ante, {_OLD_STARTING}", f"Ante, {_UNTIL}"),
    ("ante_up_21", "bet"): (f"Bet, {_OLD_STARTING}", f"Bet, {_UNTIL}"),
    **{("blackjack_tie", f"tie_{b}"): (f"Tie bonus {b}, {_OLD_STARTING} (variance from the pay table)",
                                       f"Tie bonus {b}, {_UNTIL} (variance from the pay table)")
       for b in ("LS", "RS", "17", "18", "19", "20", "21", "blackjack")},
}


def forwards(apps, schema_editor):
    model = apps.get_model("reports", "TheoreticalAssumption")
    for (game, wager), (old, new) in NOTES.items():
        model.objects.filter(game=game, wager=wager, note=old).update(note=new)


def backwards(apps, schema_editor):
    model = apps.get_model("reports", "TheoreticalAssumption")
    for (game, wager), (old, new) in NOTES.items():
        model.objects.filter(game=game, wager=wager, note=new).update(note=old)


class Migration(migrations.Migration):
    dependencies = [("reports", "0010_casino_in_the_core")]
    operations = [migrations.RunPython(forwards, backwards)]
