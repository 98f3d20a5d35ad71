"""Blackjack Tie's bonus math (tables/games/blackjack/tie_math.py) against a seeded simulation
dealt card by card and judged by the engine's tie rule, and the bonuses' pays from the card."""

from __future__ import annotations

import random

import pytest

from tables.games import GAMES
from tables.games.blackjack import blackjack_tie as game
from tables.games.blackjack import tie_math as tm
from tables.games.blackjack.checks import dealer_facts, dealer_must_draw
from tables.games.blackjack.rounds import Hand
from tables.games.blackjack.strategy_math import (
    ACE_INDEX,
    DOUBLE,
    HIT,
    PTS,
    SPLIT,
    STAND,
    TEN_INDEX,
    Rules,
)
from tables.games.vocabulary.cards import RANK, make_card
from tables.games.vocabulary.hands import blackjack_total

RULES = GAMES["blackjack_tie"].rules_from_dict({})


def _r10(card: int) -> int:
    return min(RANK[card], 10) - 1


def _simulate(c1: int, c2: int, up: int, n: int, seed: int) -> dict[str | None, float]:
    """Tie frequencies of the first hand, dealt in table order: hole card, peek, the first hand
    played as the math's strategy says (split hands: the first hand, resplitting as it does)."""
    rng = random.Random(seed)
    r = Rules.of(RULES)
    u = tm._Upcard(r, up)
    t = u.t
    shoe = [make_card(rank, s) for rank in range(1, 14) for s in range(4) for _ in range(r.decks)]
    for rank10 in (c1, c2, up):
        shoe.remove(next(c for c in shoe if _r10(c) == rank10))
    counts: dict[str | None, float] = {}
    for _ in range(n):
        deck = rng.sample(shoe, 24)
        hole = deck.pop()
        dealer = [make_card(up + 1, 0), hole]
        d_natural = blackjack_total(dealer)[0] == 21
        removed = [0] * 10
        removed[c1] += 1
        removed[c2] += 1
        natural = {c1, c2} == {ACE_INDEX, TEN_INDEX}
        hand: Hand | None = None
        if natural:
            hand = Hand((), (), 21, False, False, True, False, 0)
        elif d_natural and t.peeked:
            hand = Hand((), (), 0, False, False, False, False, 0)
        else:
            hard, ace = PTS[c1] + PTS[c2], ACE_INDEX in (c1, c2)
            plays = t.two_card(tuple(removed), hard, ace, after_split=False)
            if c1 == c2 and c1 != TEN_INDEX:
                plays[SPLIT] = t.split(tuple(removed), c1)
            action = max(plays, key=lambda k: plays[k][0])
            split_aces = False
            if action == SPLIT:
                hands, split_aces = 2, c1 == ACE_INDEX
                while True:
                    c = _r10(deck.pop())
                    removed[c] += 1
                    resplit = r.max_split_hands > 2 and not split_aces
                    if c == c1 and resplit and hands < r.max_split_hands:
                        hands += 1
                        continue
                    break
                hard, ace = PTS[c1] + PTS[c], ace or c == ACE_INDEX
                plays = t.two_card(tuple(removed), hard, ace, after_split=True, split_aces=split_aces)
                action = max(plays, key=lambda k: plays[k][0])
            if action in (HIT, DOUBLE):
                while True:
                    c = _r10(deck.pop())
                    removed[c] += 1
                    hard += PTS[c]
                    ace = ace or c == ACE_INDEX
                    best = hard + 10 if ace and hard <= 11 else hard
                    if action == DOUBLE or best >= 21 or not t.hs(tuple(removed), hard, ace)[2]:
                        break
            assert action in (STAND, HIT, DOUBLE)
            best = hard + 10 if ace and hard <= 11 else hard
            hand = Hand((), (), best, False, best > 21, False, False, 0)
        while not d_natural:
            total, soft = blackjack_total(dealer)
            if not dealer_must_draw(total, soft, r.h17):
                break
            dealer.append(deck.pop())
        tie = game.tie_of(hand, dealer_facts(tuple(dealer), RULES, False))
        counts[tie] = counts.get(tie, 0) + 1 / n
    return counts


@pytest.mark.parametrize(("c1", "c2", "up"), [(9, 6, 6), (4, 5, 5), (7, 7, 9), (6, 9, 9), (0, 9, 0), (0, 0, 5),
                                              (0, 6, 8)])
def test_tie_odds_of_a_hand_agree_with_a_seeded_simulation(c1, c2, up):
    """T-7 v 7 stands, 5-6 v 6 doubles, 8-8 v T splits (and resplits), 7-T v T stands, A-T v A
    (a natural ties only a natural), A-A v 6 (split Aces + ten is 21, not blackjack), A-7 v 9 hits."""
    u = tm._Upcard(Rules.of(RULES), up)
    u.deal(c1, c2, 1.0)
    assert sum(u.ties.values()) == pytest.approx(1.0, abs=1e-12)
    n = 4000
    got = _simulate(c1, c2, up, n, seed=1000 * c1 + 10 * c2 + up)
    for tie in set(got) | set(u.ties):
        p = u.ties.get(tie, 0.0)
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(got.get(tie, 0.0) - p) < 4 * se, (tie, p, got.get(tie))
    if c1 == c2 == ACE_INDEX:
        assert "blackjack" not in u.ties and u.ties["21"] > 0


def test_bonuses_pay_the_cards_table_on_their_ties(monkeypatch):
    ties = {None: 0.9, "17": 0.02, "18": 0.02, "19": 0.02, "20": 0.03, "21": 0.006, "blackjack": 0.004}
    examples = {
        None: (Hand((), (), 16, False, False, False, False, 0), tm._dealer(5, 1)),
        **{str(t): (Hand((), (), t, False, False, False, False, 0), tm._dealer(5, t - 17)) for t in range(17, 22)},
        "blackjack": (Hand((), (), 21, False, False, True, False, 0), tm._dealer(0, tm.NATURAL)),
    }
    monkeypatch.setattr(tm, "_ties", lambda r: (ties, examples))
    out = tm.bonus_edges(RULES)
    pays = RULES.tie_paytable
    ls = float(pays["LS"]) * 0.06 - 0.94
    assert out["tie_LS"]["house_edge"] == pytest.approx(-ls, abs=1e-12)
    rs = float(pays["RS"]) * 0.04 - 0.96
    assert out["tie_RS"]["house_edge"] == pytest.approx(-rs, abs=1e-12)
    assert out["tie_21"]["house_edge"] == pytest.approx(-(float(pays["21"]) * 0.006 - 0.994), abs=1e-12)
    assert out["tie_blackjack"]["house_edge"] == pytest.approx(-(float(pays["blackjack"]) * 0.004 - 0.996),
                                                               abs=1e-12)
