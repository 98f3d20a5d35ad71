"""House edge and variance per wager type: exact from the engine's game math, else an assumption.

Wager types: a settlement's ``wager`` key, except that Taxpayer's Fortune's two
settlements (``taxpayers_fortune_tax``, ``taxpayers_fortune_jackpot``) are one wager type,
``taxpayers_fortune``, whose handle is the marker and whose edge is the engine's expected
tax less expected jackpot per unit of marker. Hold'em Blackjack's player-to-player
``pot`` settlements are not house action at all; the house's wager type is ``rake``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tables.games import (
    ANTE_UP_21,
    BLACKJACK_TIE,
    ENGINE_VERSION,
    GAMES,
    POKER_OR_BUST,
)
from tables.games.blackjack.game_math import wager_odds_for_rules
from tables.games.edges import EDGE
from tables.games.vocabulary.catalogue import (
    ANTE,
    BET,
    BLACKJACK_GAMES,
    INSURANCE,
    ODDS,
    POT,
    RAKE,
    TAXPAYERS_FORTUNE,
    TAXPAYERS_FORTUNE_JACKPOT,
    TAXPAYERS_FORTUNE_TAX,
    TIE_WAGERS,
    W21,
)

from .models import ALL_PRICED, ASSUMPTION, EXACT, SIMULATED, TheoreticalAssumption, WagerOddsCache

TAX_KEY, JACKPOT_KEY, TF_TYPE = TAXPAYERS_FORTUNE_TAX, TAXPAYERS_FORTUNE_JACKPOT, TAXPAYERS_FORTUNE
POT_KEY, RAKE_KEY = POT, RAKE
#: Rake is what the engine says is due on each hand: the house risks nothing on it.
RAKE_BASIS = "exact (rake due)"
#: The games whose house wagers the engine prices exactly (``services.odds``): its registry's.
PRICED_GAMES = frozenset(EDGE)
#: Said of an assumed figure used for a wager whose exact one is still being computed.
PENDING = "the engine's exact figure is being computed (within minutes of a new ruleset version); until then: "

#: What each basis stored with a wager's odds (Odds.basis) is, in words: the report's pages and
#: every export say it alike.
BASIS_WORDS = {
    EXACT: "engine's exact figure",
    SIMULATED: "engine's simulated figure",
    ASSUMPTION: "house's assumed figure",
    RAKE_BASIS: "rake due (exact)",
}


def basis_words(basis: str) -> str:
    """``exact + assumption`` -> ``engine's exact figure + house's assumed figure``."""
    return " + ".join(BASIS_WORDS.get(b, b) for b in str(basis or "").split(" + ") if b)


def wager_type(wager: str) -> str:
    return TF_TYPE if wager in (TAX_KEY, JACKPOT_KEY) else wager


#: Said of a seeded default of a wager the engine prices (migration 0011 rewords the seeded rows
#: alike): it serves only until the version's exact figure is stored (``services.odds``).
_UNTIL = "starting figure, used only until the engine's exact figure for the ruleset version is stored"
_POB = (
    "engine's Poker or Bust math (gamemath poker-or-bust, reference player, Monte Carlo "
    "1,000,000 rounds, 6 decks, default Odds table)"
)

#: (game, wager) -> (house edge, variance per unit, note). Seeded into TheoreticalAssumption by a
#: migration; edited there by gaming managers. The code falls back to these if a row is missing.
DEFAULT_ASSUMPTIONS: dict[tuple[str, str], tuple[str, str, str]] = {}
for _game in BLACKJACK_GAMES:
    DEFAULT_ASSUMPTIONS[(_game, W21)] = ("0.015", "1.3", f"21 bet, {_UNTIL}")
    DEFAULT_ASSUMPTIONS[(_game, INSURANCE)] = (
        "0.074",
        "1.92",
        "insurance, 6 decks, the player's cards ignored (2:1 on p = 96/311)",
    )
DEFAULT_ASSUMPTIONS.update(
    {
        (ANTE_UP_21, ANTE): ("0.02", "1.0", f"Ante, {_UNTIL}"),
        (ANTE_UP_21, BET): ("0.02", "1.0", f"Bet, {_UNTIL}"),
        (POKER_OR_BUST, ANTE): ("0.00016", "0.997219", f"Ante, {_POB}: 0.016% +/- 0.100%"),
        (POKER_OR_BUST, ODDS): ("0.06096", "1.816432", f"Odds, {_POB}: 6.096% +/- 0.135%"),
    }
)
_TIE_VARIANCE = {
    "LS": "17",
    "RS": "24",
    "17": "50",
    "18": "55",
    "19": "55",
    "20": "26",
    "21": "220",
    "blackjack": "370",
}
for _bet, _var in _TIE_VARIANCE.items():
    DEFAULT_ASSUMPTIONS[(BLACKJACK_TIE, TIE_WAGERS[_bet])] = (
        "0.05",
        _var,
        f"Tie bonus {_bet}, {_UNTIL} (variance from the pay table)",
    )
#: Anything else: a neutral edge of 0 with unit variance, and the report says so.
FALLBACK = ("0", "1", "no figure configured: edge 0 assumed")


@dataclass(frozen=True)
class Odds:
    house_edge: Decimal
    variance: Decimal
    basis: str  # "exact", "assumption", "exact (rake due)"
    note: str = ""


def _exact_odds(version) -> dict[str, Odds]:
    """Exact odds of the no-decision wagers of a ruleset version, computed once and cached."""
    cached = {c.wager: c for c in WagerOddsCache.objects.filter(ruleset_version=version)}
    if not cached:
        rules = GAMES[version.game].rules_from_dict(version.config)
        rows = []
        for wager, odds in wager_odds_for_rules(rules).items():
            rows.append(
                WagerOddsCache(
                    ruleset_version=version,
                    wager=wager,
                    basis=EXACT,
                    house_edge=Decimal(odds.house_edge.numerator)
                    / Decimal(odds.house_edge.denominator),
                    variance=Decimal(odds.variance.numerator) / Decimal(odds.variance.denominator),
                    method="exact combinatorial (tables.games.blackjack.game_math)",
                    engine_version=ENGINE_VERSION,
                )
            )
        if rows:
            WagerOddsCache.objects.bulk_create(rows, ignore_conflicts=True)
        # A marker row records that this version has no exact wagers, so we do not recompute.
        WagerOddsCache.objects.get_or_create(
            ruleset_version=version,
            wager="",
            defaults={
                "basis": EXACT,
                "house_edge": 0,
                "variance": 0,
                "engine_version": ENGINE_VERSION,
                "method": "computed: the wagers of this version with exact math are the other rows",
            },
        )
        cached = {c.wager: c for c in WagerOddsCache.objects.filter(ruleset_version=version)}
    return _cached_odds(cached)


def _cached_odds(cached: dict) -> dict[str, Odds]:
    return {
        w: Odds(c.house_edge.quantize(Decimal("1e-10")), c.variance, EXACT, c.method)
        for w, c in cached.items()
        if w and w != ALL_PRICED
    }


def assumptions() -> dict[tuple[str, str], Odds]:
    out = {
        k: Odds(Decimal(e), Decimal(v), ASSUMPTION, n)
        for k, (e, v, n) in DEFAULT_ASSUMPTIONS.items()
    }
    for row in TheoreticalAssumption.objects.all():
        out[(row.game, row.wager)] = Odds(row.house_edge, row.variance, ASSUMPTION, row.note)
    return out


class OddsBook:
    """Odds per (ruleset version, wager type) for one run; exact where the engine has them."""

    def __init__(self) -> None:
        self._exact: dict[int, dict[str, Odds]] = {}
        self._priced: set[int] = set()  # versions whose every exact figure is stored
        self._assumed = assumptions()

    def preload(self, versions) -> None:
        """The exact odds of ``versions`` read at once (a day's ratings meet a dozen versions):
        one read of the cache; a version not in it yet is computed as :meth:`odds` would."""
        wanted = [v for v in versions if v.pk not in self._exact]
        cached: dict[int, dict] = {v.pk: {} for v in wanted}
        for row in WagerOddsCache.objects.filter(ruleset_version__in=[v.pk for v in wanted]):
            cached[row.ruleset_version_id][row.wager] = row
        for version in wanted:
            self._exact[version.pk] = _cached_odds(cached[version.pk]) if cached[version.pk] else _exact_odds(version)
            if ALL_PRICED in cached[version.pk]:
                self._priced.add(version.pk)

    def _load(self, version) -> None:
        self._exact[version.pk] = _exact_odds(version)
        if WagerOddsCache.objects.filter(ruleset_version=version, wager=ALL_PRICED).exists():
            self._priced.add(version.pk)

    def odds(self, version, wager: str) -> Odds:
        kind = wager_type(wager)
        if kind == RAKE_KEY:
            return Odds(Decimal(0), Decimal(0), RAKE_BASIS, "the rake the engine computed")
        if version.pk not in self._exact:
            self._load(version)
        exact = self._exact[version.pk].get(kind)
        if exact is not None:
            return exact
        found = self._assumed.get((version.game, kind))
        if found is not None and version.game in PRICED_GAMES and version.pk not in self._priced:
            return Odds(found.house_edge, found.variance, found.basis, PENDING + found.note)
        if found is not None:
            return found
        edge, var, note = FALLBACK
        return Odds(Decimal(edge), Decimal(var), ASSUMPTION, note)
