"""The advantage-play read: the count before every round of a gaming day, and per player the
pairs (true count, bet) with r, its 95% interval, the bet spread and a signal; beside them the
two play signals of the player's priced decisions (plays.py: hole-card play, play against the
count), read from audit/decisions' SeatDecisions.

Bounded to one gaming day (one table or all the reader's tables): never all of history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cached_property

from django.conf import settings

from audit.advantage.count import CountedRound, RoundCards, walk
from audit.advantage.lines import line_cards, lines_bets
from audit.advantage.models import CountLine
from audit.advantage.plays import FLAG as PLAY_FLAG
from audit.advantage.plays import PlayFigures, SeatPlay, play_figures
from audit.advantage.serializers import deviation_rows, deviations_json
from audit.advantage.stats import Correlation, NoVariation, correlation_interval
from audit.decisions.models import SeatDecisions
from casino.scoping import narrow
from tables.games.blackjack.strategy_math import Rules
from tables.models import RulesetVersion

CENT = Decimal("0.01")
#: The true counts the two mean bets are taken at (a counter bets small at <= 0, big at >= +2).
LOW_COUNT, HIGH_COUNT = 0.0, 2.0

FLAG, WATCH, CLEAR, FLAT_BET, COUNT_CONSTANT, TOO_FEW = (
    "flag", "watch", "clear", "flat_bet", "count_constant", "too_few_rounds")
#: Rows whose rounds the page lists without being asked (results.py keeps them made).
OPEN_SIGNALS = (FLAG, WATCH)
SIGNAL_WORDS = {
    FLAG: "Flag: the bet follows the count",
    WATCH: "Watch: the bet follows the count, too few rounds to flag",
    CLEAR: "No flag",
    FLAT_BET: "No flag: flat bet",
    COUNT_CONSTANT: "No flag: the count never changed",
    TOO_FEW: "Too few rounds",
}


@dataclass(frozen=True, slots=True)
class Thresholds:
    lower_bound: float
    min_rounds: int
    play_alpha: float  # the play signals' one-sided level (plays.py)
    play_min: int  # ... and their minimum deviations

    @classmethod
    def from_settings(cls) -> Thresholds:
        return cls(settings.ADVANTAGE_FLAG_LOWER_BOUND, settings.ADVANTAGE_FLAG_MIN_ROUNDS,
                   settings.ADVANTAGE_PLAY_FLAG_P, settings.ADVANTAGE_PLAY_FLAG_MIN_DEVIATIONS)


@dataclass(frozen=True, slots=True)
class Pair:
    round_id: int
    table_label: str
    sequence: int
    shoe: int
    running_count: int
    decks_remaining: float
    true_count: float
    bet: Decimal


@dataclass
class PlayerRow:
    """A player's rounds of the day as counted, with the player's bet in each. The pairs are made
    from them when they are shown (a busy day is ~100,000 pairs; a page shows a few players')."""

    player: str
    counted: list[CountedRound] = field(default_factory=list)
    bets: list[Decimal] = field(default_factory=list)
    correlation: Correlation | None = None
    signal: str = TOO_FEW
    #: The two play signals of the player's priced decisions (none priced: empty figures).
    plays: PlayFigures = field(default_factory=PlayFigures)

    @property
    def opened(self) -> bool:
        """The page lists this row's rounds without being asked: watched or flagged by any signal."""
        return row_opened(self.signal, self.plays.hole.signal, self.plays.count.signal)

    @cached_property
    def deviations_text(self) -> str:
        """The player's deviations as the API gives them (serializers.deviations_json)."""
        where = {c.round.round_id: (c.round.table_label, c.round.sequence) for c in self.counted}
        return deviations_json(self.plays.deviations, where)

    @property
    def deviation_rows(self) -> list[dict]:
        """The deviations as the page lists them (the API's JSON read back: one definition)."""
        return deviation_rows(self.deviations_text)

    @cached_property
    def pairs(self) -> list[Pair]:
        return [Pair(round_id=c.round.round_id, table_label=c.round.table_label, sequence=c.round.sequence,
                     shoe=c.shoe, running_count=c.running_count, decks_remaining=c.decks_remaining,
                     true_count=c.true_count, bet=bet)
                for c, bet in zip(self.counted, self.bets, strict=True)]

    @property
    def n(self) -> int:
        return len(self.bets)

    @property
    def min_bet(self) -> Decimal:
        return min(self.bets)

    @property
    def max_bet(self) -> Decimal:
        return max(self.bets)

    @property
    def spread(self) -> Decimal:
        """Largest bet / smallest bet (bets are above zero: the engine refuses others)."""
        return (self.max_bet / self.min_bet).quantize(CENT)

    def _mean(self, keep) -> Decimal | None:
        bets = [bet for c, bet in zip(self.counted, self.bets, strict=True) if keep(c.true_count)]
        return (sum(bets) / len(bets)).quantize(CENT) if bets else None

    @property
    def mean_bet_low(self) -> Decimal | None:
        return self._mean(lambda tc: tc <= LOW_COUNT)

    @property
    def mean_bet_high(self) -> Decimal | None:
        return self._mean(lambda tc: tc >= HIGH_COUNT)

    @property
    def signal_words(self) -> str:
        return SIGNAL_WORDS[self.signal]


@dataclass
class AdvantageDay:
    gaming_day: date
    thresholds: Thresholds
    rows: list[PlayerRow]
    rounds: int
    shoes: int


def day_rounds(gaming_day: date, *, casinos, table_id: int | None = None) -> list[RoundCards]:
    """The day's active rounds of the assessed games, current revision only, in table and round
    order. A voided round is left out: its cards do not count.

    Read from the count lines (models.CountLine, kept by lines.py as rounds are recorded,
    corrected and voided): one small row per round, not the revision's whole JSON."""
    lines = narrow(CountLine.objects, casinos, "table__pit__casino").filter(gaming_day=gaming_day, active=True)
    if table_id is not None:
        lines = lines.filter(table_id=table_id)
    rows = list(lines.order_by("table_id", "sequence").values_list(
        "round_id", "table_id", "table__label", "sequence", "session_id", "dealer_id", "decks", "cards", "bets"))
    bets = lines_bets([row[8] for row in rows])
    return [RoundCards(round_id, table, label, sequence, session, dealer, decks, line_cards(cards), its_bets)
            for (round_id, table, label, sequence, session, dealer, decks, cards, _), its_bets
            in zip(rows, bets, strict=True)]


def row_opened(signal: str, hole_signal: str, count_signal: str) -> bool:
    return signal in OPEN_SIGNALS or PLAY_FLAG in (hole_signal, count_signal)


def row_rank(signal: str, hole_signal: str, count_signal: str) -> int:
    """The page's order: flagged by any signal, then watched, then the others."""
    if signal == FLAG or PLAY_FLAG in (hole_signal, count_signal):
        return 0
    return 1 if signal == WATCH else 2


def day_plays(gaming_day: date, *, casinos, table_id: int | None = None) -> dict[int, list[SeatPlay]]:
    """The day's priced seats with a player (audit/decisions' SeatDecisions), by round id: what the
    play signals read. One query, and one for the rulesets' versions."""
    rows = narrow(SeatDecisions.objects, casinos, "casino").filter(gaming_day=gaming_day).exclude(player="")
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    got = list(rows.order_by("round_id", "seat").values_list(
        "round_id", "player", "ruleset_version_id", "upcard", "hole", "decisions"))
    configs = {v.pk: v.rules() for v in RulesetVersion.objects.filter(pk__in={g[2] for g in got})}
    rules = {pk: Rules.of(config) for pk, config in configs.items()}
    out: dict[int, list[SeatPlay]] = {}
    for round_id, player, version, upcard, hole, decisions in got:
        out.setdefault(round_id, []).append(
            SeatPlay(round_id, player, rules[version], upcard, hole, decisions, configs[version]))
    return out


def player_rows(counted: list[CountedRound], thresholds: Thresholds,
                plays: dict[int, list[SeatPlay]] | None = None) -> list[PlayerRow]:
    """Per player identifier: the rounds and bets, r and its interval, the signal, and the play
    signals of the player's seats in ``plays`` (by round id). Flagged by any signal first, then
    watched, then by the interval's lower bound, then by the player."""
    by_player: dict[str, PlayerRow] = {}
    for c in counted:
        for player, bet in c.round.bets:
            row = by_player.get(player)
            if row is None:
                row = by_player[player] = PlayerRow(player=player)
            row.counted.append(c)
            row.bets.append(bet)
    rows = list(by_player.values())
    for row in rows:
        row.correlation, row.signal = judge([c.true_count for c in row.counted], list(map(float, row.bets)),
                                            thresholds)
        if plays:
            seats = [(seat, c.true_count) for c in row.counted for seat in plays.get(c.round.round_id, ())
                     if seat.player == row.player]
            if seats:
                row.plays = play_figures(seats, alpha=thresholds.play_alpha, min_deviations=thresholds.play_min)
    rows.sort(key=lambda r: (row_rank(r.signal, r.plays.hole.signal, r.plays.count.signal),
                             -(r.correlation.low if r.correlation else -2.0), r.player))
    return rows


def judge(counts: list[float], bets: list[float], thresholds: Thresholds) -> tuple[Correlation | None, str]:
    """r between the true counts and the bets with its interval, and the plain signal (see SIGNAL_WORDS)."""
    try:
        corr = correlation_interval(counts, bets)
    except NoVariation as exc:
        return None, FLAT_BET if exc.which == "bet" else COUNT_CONSTANT
    if corr is None:
        return None, TOO_FEW
    if corr.low > thresholds.lower_bound:
        return corr, FLAG if len(bets) >= thresholds.min_rounds else WATCH
    return corr, CLEAR


def advantage_day(gaming_day: date, *, casinos, table_id: int | None = None,
                  thresholds: Thresholds | None = None) -> AdvantageDay:
    """Everything the page and the API show for a gaming day (one table or all)."""
    thresholds = thresholds or Thresholds.from_settings()
    counted = list(walk(day_rounds(gaming_day, casinos=casinos, table_id=table_id)))
    return day_of(gaming_day, counted, thresholds, day_plays(gaming_day, casinos=casinos, table_id=table_id))


def day_of(gaming_day: date, counted: list[CountedRound], thresholds: Thresholds,
           plays: dict[int, list[SeatPlay]] | None = None) -> AdvantageDay:
    """The day's figures from its counted rounds. A table's rounds counted in a walk of many
    tables are counted as in a walk of that table alone (the walk starts each table afresh), so
    results.py counts a day once and takes each table's figures from its part."""
    return AdvantageDay(
        gaming_day=gaming_day, thresholds=thresholds, rows=player_rows(counted, thresholds, plays),
        rounds=len(counted),
        shoes=sum(1 for c in counted if c.new_shoe_reason is not None))
