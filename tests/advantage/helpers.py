"""A table to record rounds at, and rounds dealt from a real shoe for the advantage tests."""

from __future__ import annotations

import random

from audit.advantage.count import HI_LO
from tables.games import GAMES
from tables.games.vocabulary.cards import TEXT, Shoe
from tests.factories import DealerFactory, RulesetFactory, TableFactory


def table_with_decks(decks: int, *, game: str = "ante_up_21", **extra):
    config = GAMES[game].rules_to_dict(GAMES[game].default_rules())
    config["decks"] = decks
    table = TableFactory(game=game, **extra)
    table.ruleset = RulesetFactory(casino=table.pit.casino, game=game, config=config)
    table.save()
    return table, DealerFactory(casino=table.pit.casino)


def blackjack_round(dealer: list[str], seats: list[tuple[str | None, str, list[str]]]) -> dict:
    """A round whose seats (player, 21 bet, two cards) stand on their first two cards."""
    data = {"dealer": {"cards": dealer}, "seats": []}
    for number, (player, bet, cards) in enumerate(seats, start=1):
        seat = {"seat": number, "wagers": {"21": bet}, "hands": [{"cards": cards, "actions": ["stand"]}]}
        if player:
            seat["player"] = player
        data["seats"].append(seat)
    return data


def counter_bet(true_count: float) -> str:
    """A counter's ramp: 10 at a count of +1 or less, then 25, 50, 100 from +2, +3, +4."""
    for at_least, bet in ((4, "100.00"), (3, "50.00"), (2, "25.00")):
        if true_count >= at_least:
            return bet
    return "10.00"


def _rich_then_poor(cards: list[int], rng: random.Random) -> list[int]:
    """A shuffled shoe whose first 120 cards lean to low cards (the count climbs, then falls back
    over the rest), so a counter's bet has something to follow."""
    pools = {tag: [c for c in cards if HI_LO[c] == tag] for tag in (1, 0, -1)}
    for pool in pools.values():
        rng.shuffle(pool)
    order = []
    for _ in range(120):
        tag = rng.choices((1, 0, -1), weights=(2, 1, 1))[0]
        order.append(pools[tag].pop())
    rest = pools[1] + pools[0] + pools[-1]
    rng.shuffle(rest)
    return order + rest


def dealt_day(rounds: int, *, seed: int, decks: int = 6):
    """``rounds`` rounds dealt from one shuffled shoe to a counter (seat 1), a flat bettor (seat
    2) and a player who bets at random (seat 3), each standing on two cards; the dealer takes two.

    The counter's bet follows the true count this helper keeps itself (tags summed over the
    cards dealt, divided by the decks left): the selector must find the same count to see it.
    """
    rng = random.Random(seed)
    shoe = _rich_then_poor(Shoe(decks).cards(), rng)
    dealt, out = 0, []
    for _ in range(rounds):
        running = sum(HI_LO[c] for c in shoe[:dealt])
        true = running / max((52 * decks - dealt) / 52, 0.5)
        cards = [TEXT[c] for c in shoe[dealt:dealt + 8]]
        dealt += 8
        out.append(blackjack_round(cards[6:8], [
            ("P-COUNTER", counter_bet(true), cards[0:2]),
            ("P-FLAT", "25.00", cards[2:4]),
            ("P-RANDOM", rng.choice(["10.00", "25.00", "50.00", "100.00"]), cards[4:6]),
        ]))
    return out
