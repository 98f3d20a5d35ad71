"""Seed the theoretical assumptions with the documented defaults (audit/reports/README.md).

The figures are copied here (not imported) so that this migration never changes meaning.
"""

from django.db import migrations

_21 = ("0.015", "1.3", "21 bet, average player (assumption; set the house's own figure)")
_INS = ("0.074", "1.92", "insurance, 6 decks, the player's cards ignored (2:1 on p = 96/311)")
_ILL = "illustrative only: no engine figure (player decisions); the house must set it"
_POB = ("engine's Poker or Bust math (gamemath poker-or-bust, reference player, Monte Carlo "
        "1,000,000 rounds, 6 decks, default Odds table)")
DEFAULTS = {
    **{(g, "21"): _21 for g in ("ante_up_21", "upcard_luck_21", "blackjack_tie")},
    **{(g, "insurance"): _INS for g in ("ante_up_21", "upcard_luck_21", "blackjack_tie")},
    ("ante_up_21", "ante"): ("0.02", "1.0", f"Ante, {_ILL}"),
    ("ante_up_21", "bet"): ("0.02", "1.0", f"Bet, {_ILL}"),
    ("poker_or_bust", "ante"): ("0.00016", "0.997219", f"Ante, {_POB}: 0.016% +/- 0.100%"),
    ("poker_or_bust", "odds"): ("0.06096", "1.816432", f"Odds, {_POB}: 6.096% +/- 0.135%"),
    **{("blackjack_tie", f"tie_{b}"): ("0.05", v, f"Tie bonus {b}, {_ILL} (variance from the pay table)")
       for b, v in {"LS": "17", "RS": "24", "17": "50", "18": "55", "19": "55", "20": "26", "21": "220",
                    "blackjack": "370"}.items()},
}


def seed(apps, schema_editor):
    model = apps.get_model("reports", "TheoreticalAssumption")
    for (game, wager), (edge, variance, note) in DEFAULTS.items():
        model.objects.get_or_create(game=game, wager=wager,
                                    defaults={"house_edge": edge, "variance": variance, "note": note})


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_daily_reports")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
