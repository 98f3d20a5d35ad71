"""Every setting of every game, with the rule cards' figures as defaults.

A ruleset is a frozen dataclass; :mod:`tables.games.settings.config` parses it from JSON with
field-level errors and serialises it back. A recorded round keeps the JSON snapshot of
the exact ruleset version it was played under.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from ..vocabulary.base import Compilable, Errors, join_path
from ..vocabulary.money import ROUNDING_DIRECTIONS
from . import paytables as pt
from .config import setting

BLACKJACK_PAYS = {"3:2": Decimal("1.5"), "6:5": Decimal("1.2")}
DOUBLE_ON = ("any_two", "9_10_11", "10_11")
UPCARD_LUCK_TABLES = ("A", "B", "C")
LINE_MODES = ("fixed", "progressive")


def _check_paytable(table: Mapping, path: str, errors: Errors) -> None:
    for name, odds in table.items():
        if odds < 0:
            errors.add(join_path(path, name), f"a pay cannot be negative, got {odds}")


def _check_rounding(rs, errors: Errors, path: str) -> None:
    if rs.rounding_unit <= 0:
        errors.add(join_path(path, "rounding_unit"), "must be more than 0 (0.01 pays exact to the cent)")
    elif rs.rounding_unit != rs.rounding_unit.quantize(Decimal("0.01")):
        errors.add(join_path(path, "rounding_unit"), "must be a whole number of cents")


@dataclass(frozen=True, slots=True)
class BlackjackRules(Compilable):
    """The blackjack shared by Ante Up 21, Upcard Luck 21 and Blackjack Tie (RULINGS.md)."""

    decks: int = setting(6, "Decks in the shoe.", min=1, max=8)
    dealer_hits_soft_17: bool = setting(True, "Dealer hits soft 17 (H17). Off = stands on all 17s.")
    dealer_peeks: bool = setting(True, "Dealer peeks for blackjack with an Ace or ten-value up.")
    blackjack_pays: str = setting("3:2", "What a natural pays on the 21 bet.", choices=tuple(BLACKJACK_PAYS))
    double_on: str = setting("any_two", "Which first two cards may be doubled (one card only).", choices=DOUBLE_ON)
    double_after_split: bool = setting(True, "Double after split allowed.")
    split_any_ten_values: bool = setting(True, "Any two ten-values may be split (off = equal ranks only).")
    max_split_hands: int = setting(4, "Most hands a player may split to.", min=1, max=8)
    resplit_aces: bool = setting(False, "Split Aces may be split again.")
    hit_split_aces: bool = setting(False, "Split Aces may take more than one card.")
    insurance: bool = setting(True, "Insurance (2 to 1, at most half the 21 bet) offered.")
    rounding_unit: Decimal = setting(Decimal("0.01"), "Fractional pays are rounded to this unit.")
    rounding_direction: str = setting("down", "Round fractional pays down or to the nearest unit.",
                                      choices=ROUNDING_DIRECTIONS)

    @property
    def natural_odds(self) -> Decimal:
        return BLACKJACK_PAYS[self.blackjack_pays]

    def check(self, errors: Errors, path: str) -> None:
        _check_rounding(self, errors, path)


@dataclass(frozen=True, slots=True)
class AnteUp21Rules(BlackjackRules):
    poker_bonus_amount: Decimal = setting(Decimal(pt.POKER_BONUS_AMOUNT), "The fixed Poker Bonus bet.", positive=True)
    poker_bonus_paytable: Mapping[str, Decimal] = setting(
        pt.POKER_BONUS_PAYTABLE,
        "Poker Bonus pays, N to 1. The card gives no table: the default is illustrative, the house must set it.",
        keys=pt.POKER_BONUS_CATEGORIES, required_keys=pt.POKER_BONUS_CATEGORIES,
    )

    def check(self, errors: Errors, path: str) -> None:
        BlackjackRules.check(self, errors, path)
        _check_paytable(self.poker_bonus_paytable, join_path(path, "poker_bonus_paytable"), errors)


@dataclass(frozen=True, slots=True)
class ProgressiveLine:
    """A Taxpayer's Fortune line whose amount comes from a meter (see issue 7's ledger)."""

    reset: Decimal = setting(Decimal("0"), "Meter value after a hit.", min=0)
    increment_rate: Decimal = setting(Decimal("0"), "Share of each tax collected added to the meter.", min=0, max=1)
    hidden_rate: Decimal = setting(Decimal("0"), "Share of each tax that funds the next reset.", min=0, max=1)
    cap: Decimal | None = setting(None, "Meter never grows past this; the excess overflows. Empty = no cap.", min=0)


@dataclass(frozen=True, slots=True)
class UpcardLuck21Rules(BlackjackRules):
    upcard_luck_paytable: str = setting("A", "Upcard Luck pay table from the card.", choices=UPCARD_LUCK_TABLES)
    taxpayers_fortune: bool = setting(True, "Taxpayer's Fortune offered.")
    taxpayers_fortune_marker: Decimal = setting(Decimal(pt.TAXPAYERS_FORTUNE_MARKER),
                                                "The Taxpayer's Fortune marker (the minimum tax).", positive=True)
    tax_schedule: Mapping[str, Decimal] = setting(
        pt.TAX_SCHEDULE, "Tax due by the player's first two cards (dealer 2-7 up).",
        keys=pt.TAX_CATEGORIES, required_keys=pt.TAX_CATEGORIES, min=0,
    )
    jackpot_columns: Mapping[int, Mapping[str, Decimal]] = setting(
        pt.JACKPOT_COLUMNS, "Jackpot dollars by decks in the shoe, per line.",
        values={"keys": pt.JACKPOT_LINES, "required_keys": pt.JACKPOT_LINES, "min": 0},
    )
    progressive_lines: Mapping[str, ProgressiveLine] = setting(
        {}, "Lines paid from a progressive meter instead of the fixed column.", keys=pt.JACKPOT_LINES,
    )

    @property
    def upcard_luck_odds(self) -> Mapping[str, Decimal]:
        return {k: Decimal(v) for k, v in pt.UPCARD_LUCK_PAYTABLES[self.upcard_luck_paytable].items()}

    def check(self, errors: Errors, path: str) -> None:
        BlackjackRules.check(self, errors, path)
        if self.taxpayers_fortune and self.decks not in self.jackpot_columns:
            errors.add(
                join_path(path, "jackpot_columns"),
                f"has no column for a {self.decks}-deck shoe (columns: "
                f"{', '.join(str(d) for d in sorted(self.jackpot_columns))}); add one before a table opens with it",
            )
        for line, cfg in self.progressive_lines.items():
            if cfg.cap is not None and cfg.cap < cfg.reset:
                errors.add(join_path(path, f"progressive_lines.{line}.cap"), "must not be below the reset value")


@dataclass(frozen=True, slots=True)
class BlackjackTieRules(BlackjackRules):
    tie_paytable: Mapping[str, Decimal] = setting(
        pt.TIE_PAYTABLE, "Tie bonus pays, N to 1.", keys=pt.TIE_BETS, required_keys=pt.TIE_BETS,
    )

    def check(self, errors: Errors, path: str) -> None:
        BlackjackRules.check(self, errors, path)
        _check_paytable(self.tie_paytable, join_path(path, "tie_paytable"), errors)


@dataclass(frozen=True, slots=True)
class PokerOrBustRules(Compilable):
    decks: int = setting(6, "Decks in the shoe.", min=1, max=8)
    odds_paytable: Mapping[str, Decimal] = setting(
        pt.POKER_OR_BUST_ODDS_PAYTABLE,
        "Odds pays, N to 1, for a pair of Jacks or better. The card says 'see layout': "
        "the default is illustrative, the house must set it.",
        keys=tuple(pt.POKER_OR_BUST_ODDS_PAYTABLE),
    )
    rounding_unit: Decimal = setting(Decimal("0.01"), "Fractional pays are rounded to this unit.")
    rounding_direction: str = setting("down", "Round fractional pays down or to the nearest unit.",
                                      choices=ROUNDING_DIRECTIONS)

    def check(self, errors: Errors, path: str) -> None:
        _check_rounding(self, errors, path)
        _check_paytable(self.odds_paytable, join_path(path, "odds_paytable"), errors)


@dataclass(frozen=True, slots=True)
class HoldemBlackjackRules(Compilable):
    decks: int = setting(1, "Decks in the shoe.", min=1, max=8)
    big_blind: Decimal = setting(Decimal("2"), "Big blind = the round 1 bet (stakes 'A/B/C-D': A).", positive=True)
    small_blind_override: Decimal | None = setting(None, "Small blind; empty = half the big blind.", positive=True)
    ante_override: Decimal | None = setting(None, "Ante from every player; empty = half the small blind, 0 = none.", min=0)
    round2_multiple: int = setting(2, "Round 2 fixed bet, in big blinds.", min=1)
    final_min_multiple: int = setting(2, "Final round spread: smallest bet, in big blinds.", min=1)
    final_max_multiple: int = setting(10, "Final round spread: largest bet, in big blinds.", min=1)
    max_raises: int = setting(3, "Raises allowed after the bet in each round.", min=0)
    max_seats: int = setting(6, "Seats at the table.", min=2, max=6)
    max_cards: int = setting(7, "Most cards in a hand (7-card Charlie).", min=2, max=7)
    rake_percent: Decimal = setting(Decimal("0"), "House rake as a percent of the pot (0 = none).", min=0, max=100)
    rake_cap: Decimal = setting(Decimal("0"), "Most rake from one pot (0 = no cap).", min=0)

    @property
    def small_blind(self) -> Decimal:
        if self.small_blind_override is not None:
            return self.small_blind_override
        return self.big_blind / 2

    @property
    def ante(self) -> Decimal:
        if self.ante_override is not None:
            return self.ante_override
        return self.small_blind / 2

    def check(self, errors: Errors, path: str) -> None:
        if self.final_max_multiple < self.final_min_multiple:
            errors.add(join_path(path, "final_max_multiple"), "must not be below final_min_multiple")
        if self.small_blind > self.big_blind:
            errors.add(join_path(path, "small_blind_override"), "must not be above the big blind")
