"""Realistic Hold'em Blackjack hands for tests, benchmarks and demo data.

Players follow a simple policy: they judge their cards (an Ace or a ten-value is a
good start; 19 to 21, a 10 or 11 to draw to, a soft hand are good in round 2; the final
hand's rank at the end), then fold weak hands to a bet now and then, raise strong ones
while the cap allows, call the rest and go all in when a call or raise takes all their
chips. Stacks are mostly deep, sometimes short, so side pots are common. The dealer
follows the card exactly unless ``inject`` names errors to make (see :data:`INJECTIONS`);
each injected error makes :func:`tables.games.holdem_blackjack.audit` report at least the
finding named there.

The awards are the engine's own pot division (:func:`tables.games.holdem_pots.settle_pots`)
on the simulated contributions: the hand-worked tests are what pin that division down.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .cards import BJ_POINTS, RANK, TEN_VALUE, TEXT
from .holdem_pots import hand_key, money_text_cents, settle_pots
from .holdem_state import compiled
from .rulesets import HoldemBlackjackRules

#: injectable error -> the finding code it produces
INJECTIONS: dict[str, str] = {
    "ante_missing": "ANTE_MISSING",
    "ante_amount": "ANTE_WRONG_AMOUNT",
    "blind_amount": "BLIND_WRONG_AMOUNT",
    "blind_seat": "BLIND_WRONG_SEAT",
    "out_of_turn": "OUT_OF_TURN",
    "check_facing_bet": "CHECK_FACING_BET",
    "call_amount": "CALL_WRONG_AMOUNT",
    "bet_size": "BET_WRONG_SIZE",
    "final_spread": "FINAL_BET_OUT_OF_SPREAD",
    "raise_cap": "RAISE_CAP_EXCEEDED",
    "betting_not_complete": "BETTING_NOT_COMPLETE",
    "hit_on_bust": "HIT_ON_BUST",
    "hit_past_max": "HIT_PAST_MAX_CARDS",
    "overpay": "PAY_ABOVE_EXPECTED",
    "underpay": "PAY_BELOW_EXPECTED",
    "rake": "RAKE_ABOVE_EXPECTED",
}


class _Sim:
    """One hand being dealt. Amounts in cents; seats as table numbers."""

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
        b = numbers.index(self.button)
        self.clock = numbers[b + 1 :] + numbers[: b + 1]
        bb = st.bb
        self.stack = {}
        for s in numbers:
            deep = rng.random() < 0.8
            self.stack[s] = bb * (
                rng.randint(30, 150) if deep else rng.randint(2, 20)
            ) + rng.choice((0, 0, st.ante))
        self.left = dict(self.stack)
        self.contrib = dict.fromkeys(numbers, 0)
        self.antes = dict.fromkeys(numbers, 0)
        self.in_round = dict.fromkeys(numbers, 0)
        self.folded: set[int] = set()
        self.cards: dict[int, list[int]] = {s: [] for s in numbers}
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

    def deal(self, seat: int) -> int:
        if seat == self.lucky:
            card = min(self.shoe, key=lambda c: BJ_POINTS[c])  # a low card: builds a 7-card hand
            self.shoe.remove(card)
            return card
        return self.shoe.pop()

    def put(self, seat: int, action: str, cents: int) -> None:
        self.left[seat] -= cents
        self.contrib[seat] += cents
        if action == "ante":
            self.antes[seat] += cents
        else:
            self.in_round[seat] += cents
        self.log.append({"action": action, "seat": seat, "amount": money_text_cents(cents)})

    def live(self) -> list[int]:
        return [s for s in self.clock if s not in self.folded]

    def can_act(self, s: int) -> bool:
        return s not in self.folded and self.left[s] > 0

    def strength(self, s: int, r: int) -> float:
        cards = self.cards[s]
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
                due = min(st.ante, self.left[s])
                if s == skip_ante:
                    continue
                if s == wrong_ante and self.left[s] > due + 1:
                    due += 1  # a cent too much
                if due:
                    self.put(s, "ante", due)
        sb_seat, bb_seat = (clock[1], clock[0]) if len(clock) == 2 else (clock[0], clock[1])
        if self.take("blind_seat"):
            sb_seat, bb_seat = bb_seat, sb_seat
        sb_amt = st.sb * 2 if self.take("blind_amount") else st.sb
        self.put(sb_seat, "small_blind", min(sb_amt, self.left[sb_seat]))
        self.put(bb_seat, "big_blind", min(st.bb, self.left[bb_seat]))
        for s in clock:
            card = self.deal(s)
            self.cards[s].append(card)
            self.log.append({"action": "hole", "seat": s, "card": TEXT[card]})
        self.betting(1, bb_seat)
        if len(self.live()) > 1:
            for s in self.live():
                card = self.deal(s)
                self.cards[s].append(card)
                self.log.append({"action": "up", "seat": s, "card": TEXT[card]})
            self.betting(2, self.button)
        if len(self.live()) > 1:
            self.complete()
            self.betting(3, self.button)
        if len(self.live()) > 1:
            self.log.append({"action": "showdown"})
        self.award()
        return {
            "button": self.button,
            "seats": [
                {"seat": s, "player": f"P-{s:03d}", "stack": money_text_cents(self.stack[s])}
                for s in sorted(self.stack)
            ],
            "actions": self.log,
        }

    def betting(self, r: int, start: int) -> None:
        st = self.st
        rng = self.rng
        clock = self.clock
        n = len(clock)
        if r > 1:
            self.in_round = dict.fromkeys(clock, 0)
        bet = max(self.in_round.values())
        if r == 1 and bet < st.bb:
            bet = st.bb  # a big blind all in for less does not lower the bet (RULINGS.md)
        bets = 1 if r == 1 else 0
        size = st.bb if r == 1 else st.r2
        need = {s: self.can_act(s) for s in clock}
        pos = clock.index(start)
        extra_raise = False
        while True:
            live = self.live()
            actors = [s for s in live if self.left[s] > 0]
            if len(live) <= 1 or not actors:
                return
            if len(actors) == 1 and self.in_round[actors[0]] >= bet:
                return
            seat = None
            for j in range(1, n + 1):
                s = clock[(pos + j) % n]
                if self.can_act(s) and (need[s] or self.in_round[s] < bet):
                    seat = s
                    break
            if seat is None:
                return
            owe = bet - self.in_round[seat]
            others = [s for s in actors if s != seat and (need[s] or self.in_round[s] < bet)]
            if others and len(live) >= 3 and self.take("out_of_turn"):
                jumper = others[0]
                self.folded.add(jumper)
                need[jumper] = False
                self.log.append({"action": "fold", "seat": jumper})
                continue  # the skipped player acts next (out of turn too, after the fold)
            if owe > 0 and len(live) >= 2 and r >= 2 and self.take("betting_not_complete"):
                return  # the dealer moves on with a player still to act
            pos = clock.index(seat)
            need[seat] = False
            strength = self.strength(seat, r)
            roll = rng.random()
            if seat == self.lucky or "raise_cap" in self.todo:
                strength = 1.0  # the rigged player stays in; a capped pot needs raisers
            # injected raises only where the player can afford them in full (not an all in)
            deep = bet + st.fmax + st.bb - self.in_round[seat] < self.left[seat]
            cap_left = bets < st.max_bets or (deep and not extra_raise and self.take("raise_cap"))
            if bets >= st.max_bets and cap_left:
                extra_raise = True
            if owe > 0 and self.take("check_facing_bet"):
                self.log.append({"action": "check", "seat": seat})
                continue
            if owe > 0 and roll < (1 - strength) * 0.5:
                self.folded.add(seat)
                self.log.append({"action": "fold", "seat": seat})
                continue
            if cap_left and (roll > 1 - strength * 0.45 or extra_raise):
                if r < 3:
                    inc = size + (st.bb if deep and self.take("bet_size") else 0)
                else:
                    inc = st.bb * rng.randint(st.fmin // st.bb, st.fmax // st.bb)
                    if deep and self.take("final_spread"):
                        inc = st.fmax + st.bb
                to = bet + inc
                amt = to - self.in_round[seat]
                if amt >= self.left[seat]:
                    amt = self.left[seat]
                    self.put(seat, "all_in", amt)
                    if self.in_round[seat] - bet >= (size if r < 3 else st.fmin):
                        bets += 1
                        for s in clock:
                            need[s] = s != seat and self.can_act(s)
                else:
                    self.put(seat, "raise" if bet else "bet", amt)
                    bets += 1
                    for s in clock:
                        need[s] = s != seat and self.can_act(s)
                bet = max(bet, self.in_round[seat])
                continue
            if owe <= 0:
                self.log.append({"action": "check", "seat": seat})
                continue
            if owe >= self.left[seat]:
                self.put(seat, "all_in", self.left[seat])
            else:
                wrong = st.bb if self.take("call_amount") and owe + st.bb < self.left[seat] else 0
                self.put(seat, "call", owe + wrong)

    def complete(self) -> None:
        st = self.st
        for s in self.live():
            while True:
                key = hand_key(self.cards[s], st.max_cards)
                n = len(self.cards[s])
                if key < 0:
                    if self.take("hit_on_bust"):
                        self.hit(s)
                    break
                if n >= st.max_cards:
                    if self.take("hit_past_max"):
                        self.hit(s)
                    break
                stand_on = 17 if self.rng.random() < 0.7 else self.rng.randint(12, 18)
                if s == self.lucky or key < stand_on:
                    self.hit(s)
                    continue
                break
            self.log.append({"action": "stand", "seat": s})

    def hit(self, s: int) -> None:
        card = self.deal(s)
        self.cards[s].append(card)
        self.log.append({"action": "hit", "seat": s, "card": TEXT[card]})

    def award(self) -> None:
        st = self.st
        live = self.live()
        legal = {}
        for s in live:
            cards: list[int] = []
            for c in self.cards[s]:
                if len(cards) < st.max_cards and hand_key(cards, st.max_cards) >= 0:
                    cards.append(c)
            legal[s] = hand_key(cards, st.max_cards)
        rakeable = any(e["action"] == "up" for e in self.log)
        result = settle_pots(
            self.clock,
            self.contrib,
            legal,
            percent=st.percent,
            cap=st.cap,
            rakeable=rakeable,
            antes=self.antes,
        )
        received = dict(result.received)
        winners = [s for s in self.clock if received.get(s)]
        if self.take("overpay"):
            received[winners[0]] += st.bb
        if self.take("underpay") and received[winners[0]] > 1:
            received[winners[0]] -= min(st.bb, received[winners[0]] - 1)
        for s in self.clock:
            if received.get(s):
                self.log.append(
                    {"action": "award", "seat": s, "amount": money_text_cents(received[s])}
                )
        rake = result.rake + (st.bb if self.take("rake") else 0)
        if rake or st.percent:
            self.log.append({"action": "rake", "amount": money_text_cents(rake)})


def simulate_hand(
    rng: random.Random,
    rules: HoldemBlackjackRules,
    *,
    seats: int = 6,
    inject: Iterable[str] = frozenset(),
) -> dict:
    """One hand in JSON form (see :mod:`tables.games.holdem_blackjack`). Errors in ``inject``
    are made at the first chance the hand offers; a hand may offer none (nobody reaches
    the final round, nobody busts), so callers check which findings they got."""
    return _Sim(rng, rules, seats, inject).run()
