"""Ante Up 21's ANTE and BET math (tables/games/blackjack/ante_up_math.py) against brute force
and a seeded simulation that deals real cards and settles them with the engine."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from tables.games import GAMES
from tables.games.blackjack import ante_up_21 as game
from tables.games.blackjack import ante_up_math as m
from tables.games.blackjack.checks import dealer_facts, dealer_must_draw
from tables.games.blackjack.rounds import Hand, Seat
from tables.games.blackjack.strategy_math import DOUBLE, HIT, SPLIT
from tables.games.vocabulary.cards import RANK, make_card, parse_card
from tables.games.vocabulary.catalogue import ANTE, BET, W21
from tables.games.vocabulary.hands import blackjack_total

RULES = GAMES["ante_up_21"].rules_from_dict({})


def _dealer_brute(up: int, shoe: list[int], h17: bool) -> dict[tuple[int, bool], float]:
    """Every order the dealer can draw from ``shoe`` (13 rank counts), by the engine's rule."""
    out: dict[tuple[int, bool], float] = {}

    def walk(cards: list[int], left: list[int], p: float) -> None:
        total, soft = blackjack_total(cards)
        if len(cards) >= 2 and not dealer_must_draw(total, soft, h17):
            natural = len(cards) == 2 and total == 21
            key = (game.poker_value(cards), natural)
            out[key] = out.get(key, 0.0) + p
            return
        n = sum(left)
        for i, k in enumerate(left):
            if k:
                left[i] -= 1
                walk([*cards, make_card(i + 1, 0)], left, p * k / n)
                left[i] += 1

    walk([make_card(up, 0)], list(shoe), 1.0)
    return out


@pytest.mark.parametrize(("up", "h17"), [(13, True), (6, True), (1, False), (10, True)])
def test_dealer_poker_hand_matches_every_order_of_a_small_shoe(up, h17):
    shoe = [2, 1, 2, 1, 2, 1, 2, 1, 2, 2, 1, 2, 1]  # the ten-values unequal on purpose
    dp = m._DealerPoker(up, h17)
    got = dict.fromkeys(dp.classes, 0.0)
    for key, p in zip(dp.classes, dp.distribution(shoe), strict=True):
        got[key] += p
    want = _dealer_brute(up, shoe, h17)
    for key in set(got) | set(want):
        assert got.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


def _simulate(hand: tuple[str, str], upcard: str, n: int, seed: int) -> tuple[float, float]:
    """Mean and standard error of ANTE + BET (the player bets), dealt card by card in table order:
    hole card, peek, the player's draws (the 21 bet's best play), the dealer's draws."""
    rng = random.Random(seed)
    r = m.Rules.of(RULES)
    c1, c2, up = parse_card(hand[0]), parse_card(hand[1]), parse_card(upcard)
    g = m._Game(RULES, r, RANK[up])
    shoe = [c for c in range(52) for _ in range(r.decks)]
    for c in (c1, c2, up):
        shoe.remove(c)
    a, b = sorted((RANK[c1], RANK[c2]))
    action = g.first_action(a, b)
    wagers = {W21: Decimal(1), ANTE: Decimal(1), BET: Decimal(1)}
    total = total2 = 0.0
    for _ in range(n):
        deck = rng.sample(shoe, 16)
        hole = deck.pop()
        dealer = [up, hole]
        cards = [c1, c2]
        natural = blackjack_total(dealer)[0] == 21
        split = action == SPLIT
        if not (natural and g.peeked) and action in (HIT, DOUBLE):
            while True:
                cards.append(deck.pop())
                hard = sum(min(RANK[c], 10) for c in cards)
                ace = any(RANK[c] == 1 for c in cards)
                removed = [0] * 10
                for c in cards:
                    removed[min(RANK[c], 10) - 1] += 1
                best = hard + 10 if ace and hard <= 11 else hard
                if action == DOUBLE or hard > 21 or best >= 21 or not g.table.hs(tuple(removed), hard, ace)[2]:
                    break
        while not natural:
            t, soft = blackjack_total(dealer)
            if not dealer_must_draw(t, soft, r.h17):
                break
            dealer.append(deck.pop())
        hands = (Hand(tuple(cards), (), 0, False, False, False, False, 0),)
        if split:
            hands = (Hand((c1,), (), 0, False, False, False, False, 0), Hand((c2,), (), 0, False, False, False,
                                                                                False, 0))
        seat = Seat(1, None, wagers, False, hands, (), (c1, c2), 0, False)
        d = dealer_facts(tuple(dealer), RULES, False)
        out: list = []
        game._settle_seat(seat, d, RULES, out, game._round_facts(d, RULES))
        x = float(sum(s.net for s in out if s.wager in (ANTE, BET)))
        total += x
        total2 += x * x
    mean = total / n
    return mean, ((total2 / n - mean * mean) / n) ** 0.5


@pytest.mark.parametrize(("hand", "upcard"), [(("9S", "7H"), "7D"), (("2S", "3H"), "KD"), (("5C", "6D"), "6H"),
                                              (("QS", "4H"), "AD")])
def test_bet_value_agrees_with_a_seeded_simulation(hand, upcard):
    want = m.fold_decision_evs(RULES, [parse_card(c) for c in hand], parse_card(upcard))
    mean, se = _simulate(hand, upcard, 4000, seed=sum(map(ord, "".join(hand) + upcard)))
    assert abs(want["bet"] - mean) < 4 * se, (want, mean, se)


def test_the_fold_price_and_best_play():
    aces = m.fold_decision_evs(RULES, [parse_card("AS"), parse_card("AH")], parse_card("6D"))
    assert aces["fold"] == -1.0  # the engine's fold: the ANTE is lost
    assert aces["best"] == "bet" and aces["bet"] > 1
    weak = m.fold_decision_evs(RULES, [parse_card("4S"), parse_card("9H")], parse_card("AD"))
    assert weak["best"] == "fold" and weak["bet"] < -1
    with pytest.raises(ValueError):
        m.fold_decision_evs(RULES, [parse_card("4S")], parse_card("AD"))


def test_draws_count_only_when_the_hand_draws():
    """A hand that stands plays its two cards either way; a hand that hits improves its poker hand."""
    g = m._Game(RULES, m.Rules.of(RULES), 7)
    g2 = m._Game(RULES, m.Rules.of(RULES), 7, draws_count=False)
    assert g.bet_value(10, 13) == pytest.approx(g2.bet_value(10, 13), abs=1e-12)  # T-K stands
    assert sum(g.bet_value(2, 3)[:2]) > sum(g2.bet_value(2, 3)[:2])  # 2-3 hits


def test_the_fold_price_from_card_text_names_a_bad_card():
    from tables.games.vocabulary.base import InvalidInput

    out = m.fold_decision_json(RULES, "4S,9H", "AD")
    assert out["best"] == "fold" and out["actions"]["fold"] == -1.0
    with pytest.raises(InvalidInput) as exc:
        m.fold_decision_json(RULES, "4S,ZZ", "AD")
    assert list(exc.value.as_dict()) == ["hand[1]"]


class _FirstHandRemoved(m._Game):
    """A split deals the dealer from the shoe less the first split hand's cards as well."""

    def finals(self, a, b):
        if not (a == b and self.first_action(a, b) == SPLIT):
            return super().finals(a, b)
        out: dict = {}
        pair = m._r10(a)
        self._first(out, m._add(m._add(m.EMPTY13, a), b), m._plus(m._plus(m.ZERO, pair), pair), pair, 2, 1.0)
        return out

    def _first(self, out, cards, removed, pair, hands, p):
        left = [s - c for s, c in zip(self.shoe13, cards, strict=True)]
        n = sum(left)
        for rank in range(1, 14):
            if not left[rank - 1]:
                continue
            q = p * left[rank - 1] / n
            c, nxt = m._r10(rank), m._add(cards, rank)
            child = m._plus(removed, c)
            if c == pair and hands < self.r.max_split_hands and pair != m.ACE_INDEX:
                self._first(out, nxt, child, pair, hands + 1, q)
                continue
            hard, ace = m.PTS[pair] + m.PTS[c], m.ACE_INDEX in (pair, c)
            plays = self.table.two_card(child, hard, ace, after_split=True, split_aces=pair == m.ACE_INDEX)
            action = max(plays, key=lambda k: plays[k][0])
            drawn = {(nxt, False): q}
            if action != m.STAND:
                drawn = {}
                self._draw(drawn, nxt, child, hard, ace, q, once=action == DOUBLE)
            for (cc, _split), v in drawn.items():
                out[(cc, True)] = out.get((cc, True), 0.0) + v


@pytest.mark.parametrize(("pair", "up"), [(8, 13), (2, 7), (1, 6)])
def test_the_split_hands_draws_do_not_move_the_poker_wagers(pair, up):
    """Optional stopping: the dealer's cards after the split hands' draws have the law they had before."""
    r = m.Rules.of(RULES)
    plain, removed = m._Game(RULES, r, up), _FirstHandRemoved(RULES, r, up)
    assert plain.first_action(pair, pair) == SPLIT
    assert len(removed.finals(pair, pair)) > 1
    assert removed.bet_value(pair, pair) == pytest.approx(plain.bet_value(pair, pair), abs=1e-12)
