"""Hold'em Blackjack as a state machine: the one copy of the betting rules.

In the way PokerKit's ``state.py`` models a hand, a :class:`State` is built from the
hand's setup (the seats, their stacks, the button and the ruleset) and changed only by
operations — post, deal a hole or up card, check, fold, call, bet, raise, all in, hit,
stand, showdown, award, rake — each appended to :attr:`State.log`. For every operation:

* ``verify_*`` raises :class:`Illegal` with the reason when the operation *cannot have
  happened* (a card after a fold, more chips than the stack, a phase out of order): the
  audit turns the reason into a field error and stores nothing;
* ``can_*`` says whether the operation is *legal*: possible and breaking no rule of the
  card. What is possible but breaks a rule (out of turn, a wrong size, a fifth raise) is
  still applied, as it happened at the table, and reported as a
  :class:`~tables.games.vocabulary.base.Finding` in :attr:`State.findings`;
* the operation itself (:meth:`State.act` with the log's word, or :meth:`State.apply`
  with an :class:`Action`; ``bet_or_raise`` and ``all_in`` work out the word or the
  amount) verifies, judges and applies, and appends the action to the log.

Who uses it: the audit (:mod:`.game`) replays the recorded log through it;
the tablet (:mod:`.actions`) offers as buttons what its ``can_*`` allow; the
simulator (:mod:`.simulate`) picks a player's move among them. The
rules that judge an action (:meth:`State._judge_bet`, :meth:`State._judge_card`) take a
``report`` flag: reporting, they add every finding; not reporting, they answer whether
there would be none. So "legal" and "judged" can never disagree.

Amounts are int cents; seats are table numbers in the API and ring positions inside
(0 = left of the button, n-1 = the button). The ruleset is compiled once into
:class:`Stakes` (:func:`compiled`), which also owns the memos the parser uses.

Why this module is over 800 lines: it is the one copy of the betting rules, and every
operation's verify, judge and apply read and write the same fields of one State; split
across modules they would have to reach into each other's state. About a third of it is
the findings' wording (each Finding has ten fields, one a line).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from ..settings.rulesets import HoldemBlackjackRules
from ..vocabulary.base import (
    PROCEDURE,
    RULE_VIOLATION,
    CompiledRules,
    Errors,
    Finding,
    compiled_for,
)
from ..vocabulary.cards import TEXT
from ..vocabulary.catalogue import (  # the codes and the card's words quoted in findings
    ALL_IN_WRONG_AMOUNT,
    ANTE_MISSING,
    ANTE_WRONG_AMOUNT,
    BET_WRONG_SIZE,
    BETTING_NOT_COMPLETE,
    BLIND_MISSING,
    BLIND_WRONG_AMOUNT,
    BLIND_WRONG_SEAT,
    CALL_WRONG_AMOUNT,
    CHECK_FACING_BET,
    FINAL_BET_OUT_OF_SPREAD,
    HIT_ON_BUST,
    HIT_PAST_MAX_CARDS,
    OUT_OF_TURN,
    RAISE_CAP_EXCEEDED,
    RULE_BIG_BLIND,
    RULE_BUST,
    RULE_CAP,
    RULE_COMPLETION,
    RULE_HOLDEM_ANTE,
    RULE_MATCH,
    RULE_MAX_CARDS,
    RULE_ORDER_LATER,
    RULE_ORDER_R1,
    RULE_SMALL_BLIND,
)
from .pots import chips_text, hand_key, money_text_cents, to_cents, to_decimal

# --- the log's vocabulary -----------------------------------------------------------------

ANTE, SMALL_BLIND, BIG_BLIND = "ante", "small_blind", "big_blind"
HOLE, UP, HIT, STAND = "hole", "up", "hit", "stand"
CHECK, BET, CALL, RAISE, FOLD, ALL_IN = "check", "bet", "call", "raise", "fold", "all_in"
SHOWDOWN, AWARD, RAKE = "showdown", "award", "rake"

# Phases, in the order a hand goes through them.
P_POST, P_HOLE, P_R1, P_UP, P_R2, P_COMPLETE, P_FINAL, P_SHOWDOWN, P_AWARD = range(9)
PHASE_NAMES = (
    "posting",
    "the hole cards",
    "round 1",
    "the up cards",
    "round 2",
    "hand completion",
    "the final round",
    "the showdown",
    "the awards",
)

_SEAT, _AMOUNT, _CARD = "seat", "amount", "card"
#: action -> the keys it carries besides "action"
ACTIONS: dict[str, tuple[str, ...]] = {
    ANTE: (_SEAT, _AMOUNT),
    SMALL_BLIND: (_SEAT, _AMOUNT),
    BIG_BLIND: (_SEAT, _AMOUNT),
    HOLE: (_SEAT, _CARD),
    UP: (_SEAT, _CARD),
    HIT: (_SEAT, _CARD),
    STAND: (_SEAT,),
    CHECK: (_SEAT,),
    FOLD: (_SEAT,),
    BET: (_SEAT, _AMOUNT),
    CALL: (_SEAT, _AMOUNT),
    RAISE: (_SEAT, _AMOUNT),
    ALL_IN: (_SEAT, _AMOUNT),
    SHOWDOWN: (),
    AWARD: (_SEAT, _AMOUNT),
    RAKE: (_AMOUNT,),
}
PHASE_OF = {
    ANTE: P_POST,
    SMALL_BLIND: P_POST,
    BIG_BLIND: P_POST,
    HOLE: P_HOLE,
    UP: P_UP,
    HIT: P_COMPLETE,
    STAND: P_COMPLETE,
    SHOWDOWN: P_SHOWDOWN,
    AWARD: P_AWARD,
    RAKE: P_AWARD,
}
BETTING = frozenset((CHECK, BET, CALL, RAISE, FOLD, ALL_IN))
_CARDS = frozenset((HOLE, UP, HIT, STAND))
_POSTS = frozenset((ANTE, SMALL_BLIND, BIG_BLIND))
#: Betting belongs to the round whose cards were dealt last: phase -> the betting phase
#: (-1: before the hole cards, -2: after the final round).
BET_PHASE = (-1, P_R1, P_R1, P_R2, P_R2, P_FINAL, P_FINAL, -2, -2)
_VERBS = {
    CHECK: "checked",
    FOLD: "folded",
    CALL: "called",
    BET: "bet",
    RAISE: "raised",
    ALL_IN: "went all in",
}
ROUND_NAMES = {1: "round 1", 2: "round 2", 3: "the final round"}



class Action(NamedTuple):
    """One operation of the log. ``cents`` is the amount in cents (0 if none), ``card`` -1 if none."""

    action: str
    seat: int  # 0 for showdown and rake
    cents: int
    card: int

    @property
    def amount(self) -> Decimal | None:
        return to_decimal(self.cents) if _AMOUNT in ACTIONS[self.action] else None

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"action": self.action}
        keys = ACTIONS[self.action]
        if _SEAT in keys:
            out[_SEAT] = self.seat
        if _AMOUNT in keys:
            out[_AMOUNT] = money_text_cents(self.cents)
        if _CARD in keys:
            out[_CARD] = TEXT[self.card]
        return out


class Illegal(ValueError):
    """An operation that cannot have happened; ``field`` is "" or ".amount" (the path's end)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


# --- the ruleset compiled, with the memos that belong to it ---------------------------------


class Stakes(CompiledRules):
    """A ruleset in cents, compiled once per ruleset version (:func:`compiled`).

    The memos of the parser and the settlement (amount text -> cents, actions and
    settlements already made) live here (:meth:`~.base.CompiledRules.cache`), owned by the
    ruleset they were made under, bounded, never in module globals. Read-only once made.
    """

    __slots__ = ("ante", "bb", "cap", "decks", "fmax", "fmin", "max_bets", "max_cards", "max_seats", "percent",
                 "r2", "sb")

    def __init__(self, rules: HoldemBlackjackRules) -> None:
        super().__init__(rules)
        self.bb = bb = to_cents(rules.big_blind)
        # Half a blind may fall between cents (a 0.05 big blind): round down to the cent.
        self.sb = int(rules.small_blind * 100)
        self.ante = int(rules.ante * 100)
        self.r2 = bb * rules.round2_multiple
        self.fmin = bb * rules.final_min_multiple
        self.fmax = bb * rules.final_max_multiple
        self.max_bets = 1 + rules.max_raises  # the bet plus the raises
        self.max_cards = rules.max_cards
        self.max_seats = rules.max_seats
        self.decks = rules.decks
        self.percent = Fraction(rules.rake_percent)
        self.cap = to_cents(rules.rake_cap)


#: The card's own ruleset, for callers that name none: one object, so it is compiled once.
DEFAULT_RULES = HoldemBlackjackRules()


def compiled(rules: HoldemBlackjackRules) -> Stakes:
    """The ruleset's :class:`Stakes`, made on first use and kept by the ruleset."""
    return compiled_for(rules, Stakes)


def size_rule(st: Stakes, r: int) -> str:
    if r == 1:
        return "Betting is Fixed Limit. A bet/raise equals the Big Blind amount."
    if r == 2:
        return f"Betting is Fixed Limit. A bet/raise equals {st.r2 // st.bb}x the Big Blind amount."
    return (
        f"Betting is Spread Limit. A bet/raise must be between {st.fmin // st.bb}x and "
        f"{st.fmax // st.bb}x the Big Blind amount."
    )


def add_finding(
    findings: list[Finding],
    code: str,
    kind: str,
    message: str,
    where: int | str,
    rule: str,
    expected: str | None,
    recorded: str | None,
    amount: int,
    seat: int | None,
) -> None:
    path = f"actions[{where}]" if isinstance(where, int) else where
    findings.append(
        Finding(code, kind, message, path, rule, expected, recorded, to_decimal(amount), seat)
    )


# --- the state --------------------------------------------------------------------------------

CAN_ACT, ALL_IN_STATE, FOLDED = 0, 1, 2

# Compiled, the State's fields and the operations the replay calls for every action are
# typed in ``state.pxd`` beside this file (the operations as ``cpdef`` methods, so that
# they call each other in C). ``apply_all`` calls each operation by name for that reason,
# not through a table of functions. The build's manifest covers the .pxd with this file.


class State:
    """A hand in progress. Lists are by ring position (0 = left of the button)."""

    __slots__ = (
        "st",
        "button",
        "clock",
        "pos",
        "index",
        "n",
        "stack",
        "left",
        "contrib",
        "inr",
        "ante",
        "state",
        "need",
        "hole",
        "up",
        "stood",
        "cards",
        "fold_at",
        "fold_round",
        "allin_at",
        "sb_pos",
        "bb_pos",
        "blinds",
        "live",
        "active",
        "phase",
        "rno",
        "bet",
        "bets",
        "size",
        "cursor",
        "started",
        "up_dealt",
        "comp",
        "comp_last",
        "comp_early",
        "ended_at",
        "ended_round",
        "awards",
        "award_paths",
        "rake",
        "rake_path",
        "errors",
        "findings",
        "log",
        "k",
    )

    def __init__(self, st: Stakes, button: int, seats: list[tuple[int, int]]):
        """``seats``: (seat number, stack in cents) in the order the hand lists them."""
        self.st = st
        self.button = button
        order = sorted(s for s, _ in seats)
        b = order.index(button)
        clock = order[b + 1 :] + order[: b + 1]  # left of the button first, the button last
        n = len(clock)
        self.clock = clock
        self.n = n
        self.pos = pos = {s: i for i, s in enumerate(clock)}
        index = [0] * n
        left = [0] * n
        for i, (seat, stack) in enumerate(seats):
            j = pos[seat]
            index[j] = i
            left[j] = stack
        self.index = index
        self.left = left
        self.stack = left[:]
        self.contrib = [0] * n
        self.inr = [0] * n  # chips in the current betting round (blinds count in round 1)
        self.ante = [0] * n
        self.state = [CAN_ACT] * n
        self.need = [False] * n  # still owes an action since the last full bet or raise
        self.hole = [False] * n
        self.up = [False] * n
        self.stood = [False] * n
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.fold_at = [-1] * n
        self.fold_round = [0] * n
        self.allin_at = [-1] * n
        self.sb_pos, self.bb_pos = (1, 0) if n == 2 else (0, 1)  # heads-up: button posts SB
        self.blinds: list[tuple[int, str, int, int, int]] = []  # (k, kind, pos, cents, before)
        self.live = self.active = n
        self.phase = P_POST
        self.rno = self.bet = self.bets = self.size = 0
        self.cursor = n - 1
        self.started = [False] * 4
        self.up_dealt = False
        self.comp: dict[int, int] = {}  # ring position -> its turn in hand completion
        self.comp_last = -1  # who drew or stood last in hand completion
        # (k, position, turn, verb) of each run of hits and stand begun while a seat before
        # it had not stood: out of turn once that seat draws or stands after it
        self.comp_early: list[tuple[int, int, int, str]] = []
        self.ended_at = -1
        self.ended_round = 0
        self.awards: dict[int, int] = {}
        self.award_paths: dict[int, str] = {}
        self.rake: int | None = None
        self.rake_path = ""
        self.errors = Errors()  # impossible things found moving between phases
        self.findings: list[Finding] = []
        self.log: list[Action] = []
        self.k = 0  # the index the next operation has in the recorded log

    # -- what the audit reads -------------------------------------------------------------

    @property
    def folded(self) -> list[bool]:
        return [x == FOLDED for x in self.state]

    @property
    def sb_seat(self) -> int:
        return self.clock[self.sb_pos]

    @property
    def bb_seat(self) -> int:
        return self.clock[self.bb_pos]

    def seat_of(self, j: int) -> int:
        return self.clock[j]

    # -- queries ----------------------------------------------------------------------------

    def next_actor(self) -> int:
        """Ring position of who must act now, -1 when the round's betting is complete."""
        if self.live <= 1 or self.active == 0:
            return -1
        state, inr, bet, n = self.state, self.inr, self.bet, self.n
        if self.active == 1:
            for j in range(n):
                if state[j] == CAN_ACT:
                    return j if inr[j] < bet else -1
        need = self.need
        j = self.cursor
        for _ in range(n):
            j += 1
            if j == n:
                j = 0
            if state[j] == CAN_ACT and (need[j] or inr[j] < bet):
                return j
        return -1

    def to_act(self) -> int | None:
        """The seat whose turn it is to bet, None when nobody is due."""
        j = self.next_actor()
        return None if j < 0 else self.clock[j]

    def owed(self, seat: int) -> int:
        j = self.pos[seat]
        return max(self.bet - self.inr[j], 0)

    def chips_left(self, seat: int) -> int:
        return self.left[self.pos[seat]]

    def raise_sizes(self) -> tuple[int, int]:
        """(smallest, largest) legal increase of the bet in the current round."""
        if self.rno == 3:
            return self.st.fmin, self.st.fmax
        return self.size, self.size

    def completing(self) -> int | None:
        """The seat due to hit or stand in hand completion, None when all have stood: the
        first not to have stood, so after a seat completes early the turn goes back to the
        seat it skipped (RULINGS.md)."""
        stood = self.stood
        for j in self.comp:  # made in turn order
            if not stood[j]:
                return self.clock[j]
        return None

    # -- phases -------------------------------------------------------------------------------

    def _start_round(self, r: int) -> None:
        st, n = self.st, self.n
        self.rno = r
        self.started[r] = True
        if r == 1:
            inr = self.inr
            bet = max(inr)
            if bet < st.bb and any(x[1] == BIG_BLIND and x[3] == x[4] for x in self.blinds):
                # a big blind all in for less does not lower the bet (RULINGS.md)
                bet = st.bb
            bb_posts = [x[2] for x in self.blinds if x[1] == BIG_BLIND]
            self.bet = bet
            self.bets = 1 if bb_posts else 0  # the big blind is round 1's bet
            self.cursor = bb_posts[0] if bb_posts else self.bb_pos
            self.size = st.bb
        else:
            self.inr = [0] * n
            self.bet = self.bets = 0
            self.cursor = n - 1
            self.size = st.r2 if r == 2 else 0
        state = self.state
        self.need = [x == CAN_ACT for x in state]

    def _close_round(self, r: int, where: int | str) -> None:
        if not self.started[r]:
            self._start_round(r)
        j = self.next_actor()
        if j < 0:
            return
        seat = self.clock[j]
        owes = self.bet - self.inr[j]
        facing = f"facing {chips_text(owes)} to call" if owes > 0 else "with no action yet"
        add_finding(
            self.findings,
            BETTING_NOT_COMPLETE,
            PROCEDURE,
            f"Betting in {ROUND_NAMES[r]} ended before seat {seat} acted ({facing}).",
            where,
            RULE_MATCH,
            f"seat {seat} to act",
            "next phase",
            max(owes, 0),
            seat,
        )

    def advance(self, to: int, where: int | str | None = None) -> None:
        """The dealer moves the hand on to phase ``to``: every phase before it is closed."""
        if where is None:
            where = self.k
        while self.phase < to:
            ph = self.phase
            if ph == P_POST:
                self._check_posts()
            elif ph == P_HOLE:
                self._undealt(self.hole, False, where, f"was dealt no hole card before {PHASE_NAMES[ph + 1]}")
                self._start_round(1)
            elif ph == P_R1:
                self._close_round(1, where)
            elif ph == P_UP:
                if self.live > 1:
                    self._undealt(self.up, True, where, "is in the hand but was dealt no up card")
                self._start_round(2)
            elif ph == P_R2:
                self._close_round(2, where)
                self.comp = self._completion_order()
            elif ph == P_COMPLETE:
                self._start_round(3)
            elif ph == P_FINAL:
                self._close_round(3, where)
            self.phase = ph + 1

    def _undealt(self, dealt: list, in_hand_only: bool, where: int | str, words: str) -> None:
        """The dealer moves on without dealing a seat its card: the seat is named (only
        those still in the hand, when a fold may have come first)."""
        for j in range(self.n):
            if not dealt[j] and not (in_hand_only and self.state[j] == FOLDED):
                self.errors.add(f"actions[{where}]", f"seat {self.clock[j]} {words}")

    def finish(self) -> None:
        """The log ends here: what a hand needs to have a result, and the last phases closed."""
        if self.live > 1:
            missing = [
                self.clock[j] for j in range(self.n) if self.state[j] != FOLDED and not self.up[j]
            ]
            if missing:
                self.errors.add(
                    "actions",
                    "the hand stops before it has a result: "
                    f"seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                    "still in without an up card",
                )
            elif self.phase < P_SHOWDOWN:
                self.advance(P_SHOWDOWN, "actions")
        elif self.phase < P_R1:
            self.errors.add("actions", "the hand stops before any betting")

    def _over(self, what: str) -> None:
        if self.live <= 1:
            winner = next(self.clock[j] for j in range(self.n) if self.state[j] != FOLDED)
            raise Illegal(
                f"{what}: the hand was over at actions[{self.ended_at}], "
                f"when everyone but seat {winner} had folded"
            )

    # -- operations ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Verify, judge and apply one operation; append it to the log.

        Raises :class:`Illegal` when it cannot have happened (the state is then as before,
        except that phases the action moved the hand into stay entered).
        """
        self.apply_all((action,), None)

    def apply_all(self, actions: tuple[Action, ...] | list[Action], errors: Errors | None) -> None:
        """:meth:`apply` for each action of a recorded log in turn. With ``errors``, an
        action that cannot have happened is recorded there by its path (``actions[k]``)
        and the replay goes on, so that every such action of the log is reported."""
        targets, log = _TARGETS, self.log
        for action in actions:
            kind, seat, cents, card = action
            k = self.k
            self.k = k + 1
            try:
                phase = self.phase
                target = targets[kind][phase]
                if target != phase:
                    if target > phase:
                        self.advance(target, k)
                    elif kind not in BETTING:  # (betting before or after its rounds: verify says)
                        raise Illegal(
                            f"a {kind.replace('_', ' ')} cannot come after {PHASE_NAMES[phase]} began"
                        )
                if kind in BETTING:
                    self._betting(kind, seat, cents, k)
                elif kind in _CARDS:
                    self._op_card(kind, seat, card, k)
                elif kind in _POSTS:
                    self._op_post(kind, seat, cents, k)
                else:
                    self._op_award(kind, seat, cents, k)
            except Illegal as exc:
                if errors is None:
                    raise
                errors.add(f"actions[{k}]{exc.field}", exc.message)
                continue
            log.append(action)

    def act(self, kind: str, seat: int = 0, cents: int = 0, card: int = -1) -> Action:
        """The operation ``kind`` (the log's word: ``CHECK``, ``CALL``, ``HOLE``...) by ``seat``,
        verified, judged and applied; returns the action logged."""
        action = Action(kind, seat, cents, card)
        self.apply(action)
        return action

    # The operations that work something out, named as PokerKit names them; every other
    # operation is ``act(kind, ...)`` with the log's word (``act(CHECK, seat)``).
    def bet_or_raise(self, seat: int, cents: int) -> Action:
        return self.act(RAISE if self.bet else BET, seat, cents)

    def all_in(self, seat: int) -> Action:
        return self.act(ALL_IN, seat, self.left[self.pos[seat]])

    # -- betting: verify, judge, apply ----------------------------------------------------

    def verify_betting(self, kind: str, seat: int, cents: int) -> int:
        """Raise :class:`Illegal` if ``seat`` cannot make this betting action now (the phase
        it belongs to must have been entered); its ring position otherwise."""
        if BET_PHASE[self.phase] != self.phase:
            raise Illegal(
                f"a {kind.replace('_', ' ')} "
                + (
                    "before the hole cards were dealt"
                    if BET_PHASE[self.phase] == -1
                    else f"after {PHASE_NAMES[self.phase]}"
                )
            )
        if self.live <= 1:
            self._over(f"{kind.replace('_', ' ')} by seat {seat}")
        j = self.pos[seat]
        s_j = self.state[j]
        if s_j:
            if s_j == FOLDED:
                raise Illegal(f"seat {seat} acted after folding at actions[{self.fold_at[j]}]")
            raise Illegal(
                f"seat {seat} has been all in since actions[{self.allin_at[j]}] and cannot act"
            )
        if cents > self.left[j]:
            raise Illegal(
                f"seat {seat} puts in {chips_text(cents)} but has only {chips_text(self.left[j])} left",
                ".amount",
            )
        return j

    def can_bet(self, kind: str, seat: int, cents: int = 0) -> bool:
        """Whether ``seat`` may make this betting action now without breaking a rule."""
        target = BET_PHASE[self.phase]
        if target < 0 or target != self.phase:
            return False
        try:
            j = self.verify_betting(kind, seat, cents)
        except Illegal:
            return False
        return self._judge_bet(kind, j, cents, False, 0, self.next_actor())

    def can_raise(self, seat: int, cents: int) -> bool:
        return self.can_bet(RAISE if self.bet else BET, seat, cents)

    def can_all_in(self, seat: int) -> bool:
        j = self.pos[seat]
        return self.can_bet(ALL_IN, seat, self.left[j])

    def _betting(self, kind: str, seat: int, cents: int, k: int) -> None:
        j = self.pos[seat]
        if self.state[j] or cents > self.left[j] or self.live <= 1 or BET_PHASE[self.phase] < 0:
            self.verify_betting(kind, seat, cents)  # raises with the reason
        nxt = self.next_actor()
        self._judge_bet(kind, j, cents, True, k, nxt)
        # apply. Out of turn, the action stands but the turn stays with the player skipped
        # (RULINGS.md): the cursor moves only when the player due acts (or acts again after
        # the round was complete, re-opening it from there).
        if nxt == j or nxt < 0:
            self.cursor = j
        self.need[j] = False
        if kind == CHECK:
            return
        if kind == FOLD:
            self.state[j] = FOLDED
            self.fold_at[j] = k
            self.fold_round[j] = self.rno
            self.live -= 1
            self.active -= 1
            if self.live == 1:
                self.ended_at = k
                self.ended_round = self.rno
            return
        left = self.left
        left[j] -= cents
        self.contrib[j] += cents
        inr = self.inr
        inr[j] += cents
        if left[j] == 0:
            self.state[j] = ALL_IN_STATE
            self.allin_at[j] = k
            self.active -= 1
        if kind == CALL:
            return
        total = inr[j]
        bet = self.bet
        if total <= bet:  # raises nothing: judged above; an all-in call for less
            return
        if self._full_raise(j, total - bet):
            self.bets += 1
            state = self.state
            self.need = [q != j and state[q] == CAN_ACT for q in range(self.n)]
        self.bet = total

    def _full_raise(self, j: int, inc: int) -> bool:
        """A raise by ``inc`` counts toward the cap and re-opens the betting, unless it is an
        all-in for less than a full bet or raise (house ruling 2)."""
        if self.state[j] != ALL_IN_STATE:
            return True
        return inc >= (self.size if self.rno < 3 else self.st.fmin)

    def _judge_bet(self, kind: str, j: int, cents: int, report: bool, k: int, nxt: int) -> bool:  # noqa: C901, PLR0911, PLR0912, PLR0913 - one rule after another
        """The card's betting rules on an action that can happen (``nxt``: who is due, from
        :meth:`next_actor`). Reporting, every rule it breaks becomes a finding; otherwise
        returns whether it breaks none."""
        st = self.st
        inr, bet, rno = self.inr, self.bet, self.rno
        seat = self.clock[j]
        findings = self.findings
        ok = True
        if nxt != j:
            if not report:
                return False
            ok = False
            _out_of_turn(findings, k, kind, seat, rno, -1 if nxt < 0 else self.clock[nxt], cents)
        owes = bet - inr[j]
        if kind == CHECK:
            if owes > 0:
                if not report:
                    return False
                add_finding(
                    findings,
                    CHECK_FACING_BET,
                    PROCEDURE,
                    f"Seat {seat} checked facing a bet of {chips_text(bet)} in {ROUND_NAMES[rno]} "
                    f"({chips_text(owes)} to call).",
                    k,
                    RULE_MATCH,
                    f"call {chips_text(min(owes, self.left[j]))} or fold",
                    "check",
                    owes,
                    seat,
                )
                return False
            return ok
        if kind == FOLD:
            return ok
        had = self.left[j]
        if kind == ALL_IN and cents != had:
            if not report:
                return False
            ok = False
            add_finding(
                findings,
                ALL_IN_WRONG_AMOUNT,
                PROCEDURE,
                f"Seat {seat} was recorded all in for {chips_text(cents)} with {chips_text(had)} in front of them.",
                k,
                RULE_MATCH,
                chips_text(had),
                chips_text(cents),
                had - cents,
                seat,
            )
        if kind == CALL:
            due = min(owes, had) if owes > 0 else 0
            if cents != due:
                if not report:
                    return False
                _wrong_call(findings, k, seat, rno, cents, due)
                return False
            return ok
        total = inr[j] + cents
        all_in = cents == had
        if total <= bet:  # a bet or raise that raises nothing; an all-in call for less
            if kind != ALL_IN:
                if not report:
                    return False
                add_finding(
                    findings,
                    BET_WRONG_SIZE,
                    RULE_VIOLATION,
                    f"Seat {seat} {_VERBS[kind]} to {chips_text(total)} in {ROUND_NAMES[rno]}, "
                    f"which does not raise the bet of {chips_text(bet)}.",
                    k,
                    size_rule(st, rno),
                    f"more than {chips_text(bet)}",
                    chips_text(total),
                    0,
                    seat,
                )
                return False
            return ok
        inc = total - bet
        if self.bets >= st.max_bets:
            if not report:
                return False
            ok = False
            _raise_cap(findings, st, k, seat, rno, bet, total, owes, had)
        if rno < 3:
            if inc != self.size and not (all_in and inc < self.size):
                if not report:
                    return False
                ok = False
                _wrong_size(findings, st, k, seat, rno, bet, total, self.size)
        elif not (inc < st.fmin and all_in) and (inc < st.fmin or inc > st.fmax):
            if not report:
                return False
            ok = False
            _out_of_spread(findings, st, k, seat, bet, total)
        return ok

    # -- everything but betting -------------------------------------------------------------

    def verify_card(self, kind: str, seat: int) -> int:
        """Raise :class:`Illegal` if ``seat`` cannot be dealt (hole, up) or draw (hit) now."""
        j = self.pos[seat]
        if kind == HOLE:
            if self.hole[j]:
                raise Illegal(f"seat {seat} already has its hole card")
            return j
        self._over(f"up card to seat {seat}" if kind == UP else f"{kind} by seat {seat}")
        if kind == UP:
            if self.state[j] == FOLDED:
                raise Illegal(
                    f"seat {seat} dealt an up card after folding at actions[{self.fold_at[j]}]"
                )
            if not self.hole[j]:
                raise Illegal(f"seat {seat} gets an up card without a hole card")
            if self.up[j]:
                raise Illegal(f"seat {seat} already has its up card")
            return j
        if self.state[j] == FOLDED:
            raise Illegal(
                f"seat {seat} {'drew a card' if kind == HIT else 'stood'} "
                f"after folding at actions[{self.fold_at[j]}]"
            )
        if not self.up[j]:
            raise Illegal(
                f"seat {seat} {'draws' if kind == HIT else 'stands'} before being dealt an up card"
            )
        return j

    def can_hit(self, seat: int) -> bool:
        return self._can_complete(HIT, seat)

    def can_stand(self, seat: int) -> bool:
        return self._can_complete(STAND, seat)

    def _can_complete(self, kind: str, seat: int) -> bool:
        if self.phase not in (P_R2, P_UP, P_COMPLETE) or (
            self.phase != P_COMPLETE and BET_PHASE[self.phase] != P_R2
        ):
            return False
        try:
            j = self.verify_card(kind, seat)
        except Illegal:
            return False
        comp = self.comp if self.phase == P_COMPLETE else self._completion_order()
        return self._judge_completion(kind, j, seat, -1, False, 0, comp)

    def _completion_order(self) -> dict[int, int]:
        state = self.state
        return {j: i for i, j in enumerate(j for j in range(self.n) if state[j] != FOLDED)}

    def _judge_completion(  # noqa: PLR0913
        self,
        kind: str,
        j: int,
        seat: int,
        card: int,
        report: bool,
        k: int,
        comp: dict[int, int],
    ) -> bool:
        """Hand completion's rules (in turn; a busted or full hand only stands). Reporting,
        breaches become findings and the return says whether the card counts.

        In turn = every seat before it has stood. A seat that draws or stands while one
        before it has not is out of turn only once that seat draws or stands after it:
        until then the earlier seat may simply have stood without the stand being
        recorded. Then the finding is on the early seat, at its first early action, and
        the seat it skipped completes in turn, its cards counting (RULINGS.md)."""
        findings = self.findings
        verb = f"drew {TEXT[card]}" if kind == HIT else "stood"
        stood = self.stood
        if stood[j]:
            if not report:
                return False
            self.comp_last = j
            add_finding(
                findings,
                OUT_OF_TURN,
                PROCEDURE,
                f"Seat {seat} {verb} after standing.",
                k,
                RULE_COMPLETION,
                "no action after stand",
                verb,
                0,
                seat,
            )
        elif report:
            early = self.comp_early
            if early:
                self._early_found(comp[j], seat)
            if self.comp_last != j:
                self.comp_last = j
                for q in comp:  # made in turn order: the first seat not to have stood
                    if not stood[q]:
                        if q != j:
                            early.append((k, j, comp[j], verb))
                        break
        else:
            for q in comp:
                if not stood[q]:
                    if q != j:
                        return False  # a seat before it has not stood
                    break
        if kind == STAND:
            return True
        max_cards = self.st.max_cards
        held = self.cards[j]
        if len(held) >= max_cards:
            if not report:
                return False
            add_finding(
                findings,
                HIT_PAST_MAX_CARDS,
                RULE_VIOLATION,
                f"Seat {seat} drew {TEXT[card]} to a {len(held)}-card hand; a hand stops at {max_cards} cards. "
                "The card does not count.",
                k,
                RULE_MAX_CARDS,
                f"at most {max_cards} cards",
                f"{len(held) + 1} cards",
                0,
                seat,
            )
            return False
        key = hand_key(held, max_cards)
        if key < 0:
            if not report:
                return False
            add_finding(
                findings,
                HIT_ON_BUST,
                RULE_VIOLATION,
                f"Seat {seat} drew {TEXT[card]} on a busted {-key}; a busted hand may only stand. "
                "The card does not count.",
                k,
                RULE_BUST,
                "stand",
                "hit",
                0,
                seat,
            )
            return False
        return True

    def _early_found(self, turn: int, seat: int) -> None:
        """``seat`` (its turn ``turn``) draws or stands: every run of a later seat begun
        before it had stood was out of turn, one finding each, on that later seat."""
        early_runs = self.comp_early
        keep = []
        for run in early_runs:
            k, q, t, verb = run
            if t <= turn:
                keep.append(run)
                continue
            early = self.clock[q]
            add_finding(
                self.findings,
                OUT_OF_TURN,
                PROCEDURE,
                f"Seat {early} {verb} before seat {seat} had completed; hands are completed "
                "clockwise from the button's left.",
                k,
                RULE_COMPLETION,
                f"seat {seat}",
                f"seat {early}",
                0,
                early,
            )
        early_runs[:] = keep

    def _op_card(self, kind: str, seat: int, card: int, k: int) -> None:
        j = self.pos[seat]
        if kind == HOLE:
            if self.hole[j]:
                self.verify_card(kind, seat)  # raises with the reason
            self.hole[j] = True
            self.cards[j].append(card)
            return
        if self.live <= 1 or self.state[j] == FOLDED or (self.up[j] != (kind != UP)):
            self.verify_card(kind, seat)  # raises with the reason
        if kind == UP:
            if not self.hole[j]:
                self.verify_card(kind, seat)
            self.up[j] = self.up_dealt = True
            self.cards[j].append(card)
        elif self._judge_completion(kind, j, seat, card, True, k, self.comp):
            if kind == STAND:
                self.stood[j] = True
            else:
                self.cards[j].append(card)

    def _op_post(self, kind: str, seat: int, cents: int, k: int) -> None:
        j = self.pos[seat]
        left = self.left
        if cents > left[j]:
            raise Illegal(
                f"seat {seat} posts {chips_text(cents)} but has only {chips_text(left[j])}",
                ".amount",
            )
        if kind == ANTE:
            self.ante[j] += cents
        else:
            self.blinds.append((k, kind, j, cents, left[j]))
            self.inr[j] += cents
        left[j] -= cents
        self.contrib[j] += cents
        if left[j] == 0:
            self.state[j] = ALL_IN_STATE
            self.allin_at[j] = k
            self.active -= 1

    def _op_award(self, kind: str, seat: int, cents: int, k: int) -> None:
        """An award or the rake; the showdown (a marker of the phase only) changes nothing."""
        if kind == AWARD:
            self.awards[seat] = self.awards.get(seat, 0) + cents
            if seat not in self.award_paths:
                self.award_paths[seat] = f"actions[{k}]"
        elif kind == RAKE:
            self.rake = (self.rake or 0) + cents
            self.rake_path = self.rake_path or f"actions[{k}]"

    def posts_due(self) -> list[Action]:
        """The antes and blinds the card asks for that the log does not hold yet."""
        st, clock, left = self.st, self.clock, self.left
        due: list[Action] = []
        if self.phase != P_POST:
            return due
        if st.ante:
            due += [
                Action(ANTE, clock[j], min(st.ante, left[j]), -1)
                for j in range(self.n)
                if not self.ante[j]
            ]
        posted = {x[1] for x in self.blinds}
        for kind, j, size in ((SMALL_BLIND, self.sb_pos, st.sb), (BIG_BLIND, self.bb_pos, st.bb)):
            if kind not in posted:
                due.append(Action(kind, clock[j], min(size, left[j]), -1))
        return due

    def _check_posts(self) -> None:
        st, clock, index, stack, ante = self.st, self.clock, self.index, self.stack, self.ante
        findings = self.findings
        if st.ante or any(ante):
            for j, s in enumerate(clock):
                due = min(st.ante, stack[j])
                if ante[j] == due:
                    continue
                if ante[j] == 0:
                    add_finding(
                        findings,
                        ANTE_MISSING,
                        RULE_VIOLATION,
                        f"Seat {s} posted no ante; the ante is {chips_text(due)}.",
                        f"seats[{index[j]}]",
                        RULE_HOLDEM_ANTE,
                        chips_text(due),
                        "0",
                        due,
                        s,
                    )
                else:
                    add_finding(
                        findings,
                        ANTE_WRONG_AMOUNT,
                        RULE_VIOLATION,
                        f"Seat {s} anted {chips_text(ante[j])}; the ante is {chips_text(due)}.",
                        f"seats[{index[j]}]",
                        RULE_HOLDEM_ANTE,
                        chips_text(due),
                        chips_text(ante[j]),
                        abs(ante[j] - due),
                        s,
                    )
        for kind, due_pos, size, rule, name in (
            (SMALL_BLIND, self.sb_pos, st.sb, RULE_SMALL_BLIND, "small blind"),
            (BIG_BLIND, self.bb_pos, st.bb, RULE_BIG_BLIND, "big blind"),
        ):
            due_seat = clock[due_pos]
            posts = [x for x in self.blinds if x[1] == kind]
            if not posts:
                add_finding(
                    findings,
                    BLIND_MISSING,
                    RULE_VIOLATION,
                    f"No {name} was posted; seat {due_seat} owed {chips_text(size)}.",
                    "actions",
                    rule,
                    f"seat {due_seat} posts {chips_text(size)}",
                    None,
                    0,
                    due_seat,
                )
            for k, _, j, posted, before in posts:
                seat = clock[j]
                if j != due_pos:
                    add_finding(
                        findings,
                        BLIND_WRONG_SEAT,
                        RULE_VIOLATION,
                        f"Seat {seat} posted the {name}; with the button at seat {self.button} it is seat {due_seat}'s.",
                        k,
                        rule,
                        f"seat {due_seat}",
                        f"seat {seat}",
                        0,
                        seat,
                    )
                due = min(size, before)
                if posted != due:
                    add_finding(
                        findings,
                        BLIND_WRONG_AMOUNT,
                        RULE_VIOLATION,
                        f"Seat {seat} posted a {name} of {chips_text(posted)}; the {name} is {chips_text(size)}.",
                        k,
                        rule,
                        chips_text(due),
                        chips_text(posted),
                        abs(posted - due),
                        seat,
                    )


#: action -> the phase it belongs to, by the phase the hand is in (betting belongs to the
#: round whose cards were dealt last; -1, -2: no betting now)
_TARGETS = {
    kind: BET_PHASE if kind in BETTING else (PHASE_OF[kind],) * len(BET_PHASE) for kind in ACTIONS
}


# --- findings' words, out of the hot path -----------------------------------------------------


def _out_of_turn(
    findings: list[Finding], k: int, kind: str, seat: int, r: int, due: int, cents: int
) -> None:
    verb = _VERBS[kind]
    if due < 0:
        msg = f"Seat {seat} {verb} after betting in {ROUND_NAMES[r]} was complete."
        exp = "no action"
    else:
        msg = f"Seat {seat} {verb} out of turn in {ROUND_NAMES[r]}; seat {due} was next to act."
        exp = f"seat {due}"
    add_finding(
        findings,
        OUT_OF_TURN,
        PROCEDURE,
        msg,
        k,
        RULE_ORDER_R1 if r == 1 else RULE_ORDER_LATER,
        exp,
        f"seat {seat}",
        cents,
        seat,
    )


def _wrong_call(findings: list[Finding], k: int, seat: int, r: int, cents: int, due: int) -> None:
    msg = (
        f"Seat {seat} called {chips_text(cents)} in {ROUND_NAMES[r]} with nothing to call."
        if due == 0
        else f"Seat {seat} called {chips_text(cents)} in {ROUND_NAMES[r]}, where the call was {chips_text(due)}."
    )
    add_finding(
        findings,
        CALL_WRONG_AMOUNT,
        PROCEDURE,
        msg,
        k,
        RULE_MATCH,
        chips_text(due),
        chips_text(cents),
        abs(cents - due),
        seat,
    )


def _raise_cap(
    findings: list[Finding],
    st: Stakes,
    k: int,
    seat: int,
    r: int,
    bet: int,
    total: int,
    owes: int,
    had: int,
) -> None:
    word = "bet" if bet == 0 else "raised to"
    add_finding(
        findings,
        RAISE_CAP_EXCEEDED,
        RULE_VIOLATION,
        f"Seat {seat} {word} {chips_text(total)} in {ROUND_NAMES[r]}, a bet or raise past the cap "
        f"(one bet and {st.max_bets - 1} raises).",
        k,
        RULE_CAP,
        f"call {chips_text(min(max(owes, 0), had))} or fold",
        f"{word} {chips_text(total)}",
        total - bet,
        seat,
    )


def _wrong_size(
    findings: list[Finding], st: Stakes, k: int, seat: int, r: int, bet: int, total: int, size: int
) -> None:
    word = "bet" if bet == 0 else "raised to"
    what = "a bet" if bet == 0 else "a raise"
    add_finding(
        findings,
        BET_WRONG_SIZE,
        RULE_VIOLATION,
        f"Seat {seat} {word} {chips_text(total)} in {ROUND_NAMES[r]}, where {what} is {chips_text(size)}.",
        k,
        size_rule(st, r),
        f"{word} {chips_text(bet + size)}",
        f"{word} {chips_text(total)}",
        abs(total - bet - size),
        seat,
    )


def _out_of_spread(
    findings: list[Finding], st: Stakes, k: int, seat: int, bet: int, total: int
) -> None:
    inc = total - bet
    spread = f"{chips_text(st.fmin)} to {chips_text(st.fmax)}"
    if bet == 0:
        msg = f"Seat {seat} bet {chips_text(inc)} in the final round, where a bet or raise is {spread}."
    else:
        msg = (
            f"Seat {seat} raised by {chips_text(inc)} (to {chips_text(total)}) in the final round, "
            f"where a bet or raise is {spread}."
        )
    add_finding(
        findings,
        FINAL_BET_OUT_OF_SPREAD,
        RULE_VIOLATION,
        msg,
        k,
        size_rule(st, 3),
        spread,
        chips_text(inc),
        inc - st.fmax if inc > st.fmax else st.fmin - inc,
        seat,
    )
