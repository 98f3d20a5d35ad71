"""Realistic Hold'em Blackjack hands for tests, benchmarks and demo data.

Players follow a simple policy: they judge their cards (an Ace or a ten-value is a
good start; 19 to 21, a 10 or 11 to draw to, a soft hand are good in round 2; the final
hand's rank at the end), then fold weak hands to a bet now and then, raise strong ones
while the cap allows, call the rest and go all in when a call or raise takes all their
chips. Stacks are mostly deep, sometimes short, so side pots are common. The dealer
follows the card exactly unless ``inject`` names errors to make (see :data:`INJECTIONS`);
each injected error makes :func:`tables.games.holdem.game.audit` report at least the
finding named there.

The awards are the engine's own pot division (:func:`tables.games.holdem.pots.settle_pots`)
on the simulated contributions: the hand-worked tests are what pin that division down.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..settings.rulesets import HoldemBlackjackRules
from ..vocabulary import catalogue as cat
from ..vocabulary.base import SIMULATORS
from ..vocabulary.cards import BJ_POINTS, RANK, TEN_VALUE, TEXT
from . import state as hs
from .pots import hand_key, money_text_cents, settle_pots
from .state import Action, State, compiled

#: injectable error -> the finding code it produces
INJECTIONS: dict[str, str] = {
    "ante_missing": cat.ANTE_MISSING,
    "ante_amount": cat.ANTE_WRONG_AMOUNT,
    "blind_amount": cat.BLIND_WRONG_AMOUNT,
    "blind_seat": cat.BLIND_WRONG_SEAT,
    "out_of_turn": cat.OUT_OF_TURN,
    "check_facing_bet": cat.CHECK_FACING_BET,
    "call_amount": cat.CALL_WRONG_AMOUNT,
    "bet_size": cat.BET_WRONG_SIZE,
    "final_spread": cat.FINAL_BET_OUT_OF_SPREAD,
    "raise_cap": cat.RAISE_CAP_EXCEEDED,
    "betting_not_complete": cat.BETTING_NOT_COMPLETE,
    "hit_on_bust": cat.HIT_ON_BUST,
    "hit_past_max": cat.HIT_PAST_MAX_CARDS,
    "overpay": cat.PAY_ABOVE_EXPECTED,
    "underpay": cat.PAY_BELOW_EXPECTED,
    "rake": cat.RAKE_ABOVE_EXPECTED,
}
#: What ``inject`` accepts, the name every simulator gives it (``tables.games.game_module``).
INJECT_KINDS = frozenset(INJECTIONS)


class _Sim:
    """One hand being dealt. Amounts in cents; seats as table numbers.

    Every action is recorded in the JSON log and applied to a
    :class:`~tables.games.holdem.state.State`, the audit's own: whose turn it is, what is
    owed and whether a bet or raise is still legal are the State's answers (its
    ``can_*``), never a second copy of the rules. The policy only chooses among them.
    """

    def __init__(
        self, rng: random.Random, rules: HoldemBlackjackRules, seats: int, inject: Iterable[str]
    ):
        unknown = set(inject) - set(INJECTIONS)
        if unknown:
            raise ValueError(f"unknown injections: {', '.join(sorted(unknown))}")
        if not 2 <= seats <= rules.max_seats:
            raise ValueError(f"seats must be 2 to {rules.max_seats}")
        self.rng = rng
        self.st = st = compiled(rules)
        self.todo = set(inject)
        numbers = sorted(rng.sample(range(1, st.max_seats + 1), seats))
        self.button = rng.choice(numbers)
        bb = st.bb
        self.stack = {}
        for s in numbers:
            deep = rng.random() < 0.8
            self.stack[s] = bb * (
                rng.randint(30, 150) if deep else rng.randint(2, 20)
            ) + rng.choice((0, 0, st.ante))
        self.state = State(st, self.button, list(self.stack.items()))
        self.clock = self.state.clock
        self.log: list[dict] = []
        shoe = [c for c in range(52) for _ in range(st.decks)]
        rng.shuffle(shoe)
        self.shoe = shoe
        self.lucky = rng.choice(numbers) if "hit_past_max" in self.todo else None

    # -- small helpers --------------------------------------------------------------------
    def take(self, kind: str) -> bool:
        """Use up an injection the first time the chance arises."""
        if kind in self.todo:
            self.todo.discard(kind)
            return True
        return False

    def record(self, kind: str, seat: int = 0, cents: int = 0, card: int = -1) -> None:
        """Log the action and apply it to the State (injected errors are findings there)."""
        self.state.apply(Action(kind, seat, cents, card))
        item: dict = {"action": kind}
        if seat:
            item["seat"] = seat
        if kind in _WITH_AMOUNT:
            item["amount"] = money_text_cents(cents)
        if card >= 0:
            item["card"] = TEXT[card]
        self.log.append(item)

    def deal(self, kind: str, seat: int) -> None:
        if seat == self.lucky:
            card = min(self.shoe, key=lambda c: BJ_POINTS[c])  # a low card: builds a 7-card hand
            self.shoe.remove(card)
        else:
            card = self.shoe.pop()
        self.record(kind, seat, card=card)

    def left(self, seat: int) -> int:
        return self.state.chips_left(seat)

    def live(self) -> list[int]:
        state = self.state
        return [s for j, s in enumerate(self.clock) if state.state[j] != hs.FOLDED]

    def strength(self, s: int, r: int) -> float:
        cards = self.state.cards[self.state.pos[s]]
        if r == 1:
            c = cards[0]
            return 0.9 if RANK[c] == 1 else 0.7 if TEN_VALUE[c] else 0.25 + 0.03 * BJ_POINTS[c]
        key = hand_key(cards, self.st.max_cards)
        if r == 2:
            if key >= 19 or key in (10, 11):
                return 0.8
            return 0.55 if RANK[cards[0]] == 1 or RANK[cards[1]] == 1 else 0.2 + key / 60
        if key < 0:
            return 0.05
        return 1.0 if key > 21 else max(0.05, (key - 14) / 7)

    # -- the hand ---------------------------------------------------------------------------
    def run(self) -> dict:
        st = self.st
        clock = self.clock
        skip_ante = self.rng.choice(clock) if self.take("ante_missing") else None
        wrong_ante = self.rng.choice(clock) if self.take("ante_amount") else None
        if st.ante or wrong_ante:
            for s in clock:
                due = min(st.ante, self.left(s))
                if s == skip_ante:
                    continue
                if s == wrong_ante and self.left(s) > due + 1:
                    due += 1  # a cent too much
                if due:
                    self.record(hs.ANTE, s, due)
        sb_seat, bb_seat = self.state.sb_seat, self.state.bb_seat
        if self.take("blind_seat"):
            sb_seat, bb_seat = bb_seat, sb_seat
        sb_amt = st.sb * 2 if self.take("blind_amount") else st.sb
        self.record(hs.SMALL_BLIND, sb_seat, min(sb_amt, self.left(sb_seat)))
        self.record(hs.BIG_BLIND, bb_seat, min(st.bb, self.left(bb_seat)))
        for s in clock:
            self.deal(hs.HOLE, s)
        self.betting(1)
        if len(self.live()) > 1:
            for s in self.live():
                self.deal(hs.UP, s)
            self.betting(2)
        if len(self.live()) > 1:
            self.complete()
            self.betting(3)
        if len(self.live()) > 1:
            self.record(hs.SHOWDOWN)
        self.award()
        return {
            "button": self.button,
            "seats": [
                {"seat": s, "player": f"P-{s:03d}", "stack": money_text_cents(self.stack[s])}
                for s in sorted(self.stack)
            ],
            "actions": self.log,
        }

    def betting(self, r: int) -> None:  # noqa: C901 - the policy, one choice after another
        st = self.st
        rng = self.rng
        state = self.state
        state.advance((hs.P_R1, hs.P_R2, hs.P_FINAL)[r - 1])
        extra_raise = False
        while True:
            seat = state.to_act()
            if seat is None:
                return
            j = state.pos[seat]
            owe = state.owed(seat)
            left = self.left(seat)
            live = self.live()
            others = [
                state.clock[q]
                for q in range(state.n)
                if q != j
                and state.state[q] == hs.CAN_ACT
                and (state.need[q] or state.inr[q] < state.bet)
            ]
            if others and len(live) >= 3 and self.take("out_of_turn"):
                self.record(hs.FOLD, others[0])
                continue  # the turn stays with the player skipped, who acts next, in turn
            if owe > 0 and len(live) >= 2 and r >= 2 and self.take("betting_not_complete"):
                return  # the dealer moves on with a player still to act
            strength = self.strength(seat, r)
            roll = rng.random()
            if seat == self.lucky or "raise_cap" in self.todo:
                strength = 1.0  # the rigged player stays in; a capped pot needs raisers
            # injected raises only where the player can afford them in full (not an all in)
            bet = state.bet
            deep = bet + st.fmax + st.bb - state.inr[j] < left
            low, high = state.raise_sizes()
            kind = hs.RAISE if bet else hs.BET
            cap_left = state.can_bet(kind, seat, min(owe + low, left)) or (
                deep and not extra_raise and self.take("raise_cap")
            )
            if cap_left and not state.can_bet(kind, seat, min(owe + low, left)):
                extra_raise = True
            if owe > 0 and self.take("check_facing_bet"):
                self.record(hs.CHECK, seat)
                continue
            if owe > 0 and roll < (1 - strength) * 0.5:
                self.record(hs.FOLD, seat)
                continue
            if cap_left and (roll > 1 - strength * 0.45 or extra_raise):
                if r < 3:
                    inc = low + (st.bb if deep and self.take("bet_size") else 0)
                else:
                    inc = st.bb * rng.randint(low // st.bb, high // st.bb)
                    if deep and self.take("final_spread"):
                        inc = high + st.bb
                amount = owe + inc
                if amount >= left:
                    self.record(hs.ALL_IN, seat, left)
                else:
                    self.record(kind, seat, amount)
                continue
            if owe <= 0:
                self.record(hs.CHECK, seat)
            elif owe >= left:
                self.record(hs.ALL_IN, seat, left)
            else:
                wrong = st.bb if self.take("call_amount") and owe + st.bb < left else 0
                self.record(hs.CALL, seat, owe + wrong)

    def complete(self) -> None:
        st = self.st
        state = self.state
        state.advance(hs.P_COMPLETE)
        for s in self.live():
            while True:
                cards = state.cards[state.pos[s]]
                if not state.can_hit(s):  # busted, or a full hand: the State says only stand
                    if self.take(
                        "hit_on_bust" if hand_key(cards, st.max_cards) < 0 else "hit_past_max"
                    ):
                        self.deal(hs.HIT, s)
                    break
                stand_on = 17 if self.rng.random() < 0.7 else self.rng.randint(12, 18)
                if s == self.lucky or hand_key(cards, st.max_cards) < stand_on:
                    self.deal(hs.HIT, s)
                    continue
                break
            self.record(hs.STAND, s)

    def award(self) -> None:
        st = self.st
        state = self.state
        clock = self.clock
        live = self.live()
        # the State's cards: illegal hits are not in them
        legal = {s: hand_key(state.cards[state.pos[s]], st.max_cards) for s in live}
        result = settle_pots(
            clock,
            dict(zip(clock, state.contrib, strict=True)),
            legal,
            percent=st.percent,
            cap=st.cap,
            rakeable=state.up_dealt,
            antes=dict(zip(clock, state.ante, strict=True)),
        )
        received = dict(result.received)
        winners = [s for s in clock if received.get(s)]
        if self.take("overpay"):
            received[winners[0]] += st.bb
        if self.take("underpay") and received[winners[0]] > 1:
            received[winners[0]] -= min(st.bb, received[winners[0]] - 1)
        for s in clock:
            if received.get(s):
                self.record(hs.AWARD, s, received[s])
        rake = result.rake + (st.bb if self.take("rake") else 0)
        if rake or st.percent:
            self.record(hs.RAKE, 0, rake)


_WITH_AMOUNT = frozenset(k for k, keys in hs.ACTIONS.items() if "amount" in keys)


def simulate_hand(
    rng: random.Random,
    rules: HoldemBlackjackRules,
    *,
    seats: int = 6,
    inject: Iterable[str] = frozenset(),
) -> dict:
    """One hand in JSON form (see :mod:`tables.games.holdem.game`). Errors in ``inject``
    are made at the first chance the hand offers; a hand may offer none (nobody reaches
    the final round, nobody busts), so callers check which findings they got."""
    return _Sim(rng, rules, seats, inject).run()


SIMULATORS[cat.HOLDEM_BLACKJACK] = simulate_hand
