"""Hold'em Blackjack showdown ranking, pots, side pots, odd chips and rake — in whole cents.

Kept apart from the hand log (:mod:`tables.games.holdem.game`) because it is the
part finance and the simulator both need, and because it is pure arithmetic on a few
small dicts: contributions per seat in, chips per seat and the house's rake out.

Everything here works on int cents so a hand settles in microseconds; callers turn
the results into ``Decimal`` once at the edge.

House rulings implemented here (RULINGS.md, "Hold'em Blackjack"; written down in the
module docstring of :mod:`tables.games.holdem.game`):

* Ranking: a hand of ``max_cards`` (7) cards not over 21 is a 7-card Charlie, best of
  all, and all Charlies tie; then 21, 20, ... (Aces 1 or 11 to the player's advantage);
  any unbusted hand beats any busted hand; among busted hands the lower total wins.
* Chips that went into the pot stay in the pot: only a bet or raise that nobody called
  goes back — the part of the one highest bet (blinds and betting, antes never count)
  above the next highest — and it is not part of any pot and is never raked. The rest
  is layered from each player's total contribution (antes included), as in poker.
  Layers with the same players eligible are merged, so the first pot is the main pot
  and the rest are side pots in the order they were formed. Chips above everyone
  else's that are not an uncalled bet can only be an ante of the wrong amount: dead
  money in the main pot, where antes go (RULINGS.md).
* The chip unit is the cent. A split pot is divided equally in cents and the odd cents
  all go to the first tied player clockwise from the button (the player on the button
  is last), as the card says.
* Rake: ``rake_percent`` of the whole amount contested (all pots together, uncalled
  bets excluded), rounded down to the cent, capped at ``rake_cap`` (0 = no cap); taken
  from the main pot first, then from side pots in order. No rake when the hand ends in
  round 1 ("no flop, no drop"): the caller says whether the hand may be raked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..vocabulary.cards import BJ_POINTS, RANK, TEXT
from ..vocabulary.hands import soft_total

_POINTS = BJ_POINTS.__getitem__
_TEXT = TEXT.__getitem__

#: Showdown key of a 7-card Charlie; any unbusted total is at most 21, busted totals are negative.
CHARLIE_KEY = 100


def hand_key(cards: Sequence[int], max_cards: int = 7) -> int:
    """Showdown strength of a hand: higher wins, equal ties.

    ``CHARLIE_KEY`` for a Charlie, the total (2..21) for an unbusted hand, minus the
    total for a busted one (so 22 beats 23 and every busted hand loses to any unbusted).
    """
    total = sum(map(_POINTS, cards))
    if total > 21:
        return -total
    if len(cards) >= max_cards:
        return CHARLIE_KEY
    return soft_total(total, bool(cards) and min(cards) < 4)[0]  # an Ace is one of cards 0..3


def key_text(key: int) -> str:
    """``CHARLIE_KEY`` -> ``"7-card Charlie"``; ``20`` -> ``"20"``; ``-24`` -> ``"busted 24"``."""
    if key == CHARLIE_KEY:
        return "7-card Charlie"
    if key < 0:
        return f"busted {-key}"
    return str(key)


def hand_text(cards: Sequence[int], max_cards: int = 7) -> str:
    """``"21 (7H-5D-9C)"``: what the floor says about a hand at the showdown."""
    key = hand_key(cards, max_cards)
    label = f"{max_cards}-card Charlie" if key == CHARLIE_KEY else key_text(key)
    return f"{label} ({'-'.join(map(_TEXT, cards))})"


def short_cards(cards: Sequence[int]) -> str:
    """``"Q-7"``: ranks only, for quick reading."""
    return "-".join("A23456789TJQK"[RANK[c] - 1] for c in cards)


def money_text_cents(cents: int) -> str:
    """``250`` -> ``"2.50"``; ``-5`` -> ``"-0.05"``: the JSON form of an amount."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole}.{frac:02d}"


def chips_text(cents: int) -> str:
    """``400`` -> ``"4"``, ``250`` -> ``"2.50"``: how a dealer says an amount."""
    if cents % 100 == 0:
        return str(cents // 100)
    return money_text_cents(cents)


def to_decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


def to_cents(amount: Decimal) -> int:
    """A whole-cent Decimal from a ruleset -> int cents (exact; refuses fractions of a cent)."""
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"{amount} has fractions of a cent")
    return int(cents)


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot as the engine settles it. Amounts in cents; seats in clockwise order from the button."""

    index: int  # 0 = main pot, 1.. = side pots in the order they were formed
    amount: int  # chips in the pot before rake
    eligible: tuple[int, ...]
    rake: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]  # what each winner receives, same order as winners

    @property
    def name(self) -> str:
        return "main pot" if self.index == 0 else f"side pot {self.index}"


@dataclass(frozen=True, slots=True)
class PotSettlement:
    """The whole division of a hand: pots, uncalled bets returned, rake, and each seat's chips."""

    pots: tuple[Pot, ...]
    returned: Mapping[int, int]  # seat -> uncalled chips given back
    received: Mapping[int, int]  # seat -> every chip pushed to the seat (pots and returns)
    rake: int


def layer_pots(
    clock: Sequence[int],
    contrib: Mapping[int, int],
    live: Iterable[int],
    antes: Mapping[int, int] | None = None,
) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int]]:
    """Main and side pots from contributions: ``([(amount, eligible seats), ...], returned)``.

    ``clock`` lists the seats clockwise from the button's left (button last), so each
    pot's eligible seats come in the order odd chips are given. ``antes`` (by seat) are
    the part of each contribution that was ante: never returned as an uncalled bet. A pot
    whose contributors all folded (only possible in an irregular hand) goes to the live
    players who put in the most.
    """
    live_set = set(live)
    # Fast path, most hands: the live players put in the same amount, nobody put in more
    # and the antes are equal (so nothing is uncalled and nothing is dead).
    live_in = {contrib.get(s, 0) for s in live_set}
    if len(live_in) == 1 and (not antes or len({antes.get(s, 0) for s in clock}) == 1):
        top = live_in.pop()
        total = sum(contrib.values())
        if top and len(live_set) > 1 and max(contrib.values()) == top:
            return [(total, tuple(s for s in clock if s in live_set))], {}
    return _layers(
        clock,
        [contrib.get(s, 0) for s in clock],
        [j for j, s in enumerate(clock) if s in live_set],
        [antes.get(s, 0) for s in clock] if antes else None,
    )


def _layers(
    clock: Sequence[int], contrib: Sequence[int], live: Sequence[int], antes: Sequence[int] | None
) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int]]:
    """The one layering of pots (:func:`layer_pots` and :func:`settle_ring` call it), on
    ring positions: ``contrib``/``antes`` in ``clock`` order, ``live`` the positions still in."""
    n = len(clock)
    contrib = list(contrib)
    returned: dict[int, int] = {}
    # Only a bet or raise nobody called comes back: the one highest bet's part above the
    # next highest (RULINGS.md: an ante goes to the pot whole).
    top, best, second = -1, 0, 0
    for j in range(n):
        b = contrib[j] - antes[j] if antes else contrib[j]
        if b > best:
            top, best, second = j, b, best
        elif b > second:
            second = b
    if top >= 0 and best > second:
        contrib[top] -= best - second
        returned[clock[top]] = best - second
    layers: list[tuple[int, tuple[int, ...]]] = []
    live_set = set(live)
    prev = dead = 0
    for level in sorted({c for c in contrib if c > 0}):
        amount = 0
        contributors: list[int] = []
        for j in range(n):
            c = contrib[j]
            if c > prev:
                amount += (level if c > level else c) - prev
                contributors.append(j)
        prev = level
        if len(contributors) == 1:
            # not an uncalled bet (that came back above): an ante of the wrong amount,
            # dead money in the main pot
            dead += amount
            continue
        eligible = tuple([clock[j] for j in contributors if j in live_set])
        if not eligible:
            most = max([contrib[j] for j in live])
            eligible = tuple([clock[j] for j in live if contrib[j] == most])
        if layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + amount, eligible)
        else:
            layers.append((amount, eligible))
    if dead:
        if layers:
            layers[0] = (layers[0][0] + dead, layers[0][1])
        else:  # nobody else has chips in this pot: it goes to the live players who put in most
            most = max([contrib[j] for j in live])
            layers.append((dead, tuple([clock[j] for j in live if contrib[j] == most])))
    return layers, returned


def rake_due(contested: int, percent: Fraction, cap: int) -> int:
    """``percent`` of ``contested`` cents, rounded down to the cent, capped (cap 0 = none)."""
    if percent <= 0 or contested <= 0:
        return 0
    rake = contested * percent.numerator // (100 * percent.denominator)
    if cap and rake > cap:
        rake = cap
    return rake


def settle_pots(
    clock: Sequence[int],
    contrib: Mapping[int, int],
    keys: Mapping[int, int],
    *,
    percent: Fraction = Fraction(0),
    cap: int = 0,
    rakeable: bool = True,
    antes: Mapping[int, int] | None = None,
) -> PotSettlement:
    """Divide the chips: ``keys`` holds the showdown key of every live (not folded) seat.

    With one live seat that seat takes every pot (a walk or everyone folded). ``antes``:
    each seat's ante chips (part of ``contrib``), see :func:`layer_pots`.
    """
    pots, returned, received, rake, _ = settle_ring(
        clock,
        [contrib.get(s, 0) for s in clock],
        [j for j, s in enumerate(clock) if s in keys],
        keys,
        percent,
        cap,
        rakeable,
        [antes.get(s, 0) for s in clock] if antes else None,
    )
    return PotSettlement(tuple(Pot(*pot) for pot in pots), returned, received, rake)


#: A pot as :func:`settle_ring` gives it: the fields of :class:`Pot`, in that order.
PotTuple = tuple[int, int, tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]


def settle_ring(
    clock: Sequence[int],
    contrib: Sequence[int],
    live: Sequence[int],
    keys: Mapping[int, int],
    percent: Fraction,
    cap: int,
    rakeable: bool,
    antes: Sequence[int] | None = None,
) -> tuple[list[PotTuple], dict[int, int], dict[int, int], int, int]:
    """:func:`settle_pots` for the audit's hot path, without building dataclasses.

    ``contrib`` lists each seat's chips in ``clock`` order, ``live`` the ring positions
    (indexes into ``clock``, rising) of the players still in, ``keys`` their showdown keys
    by seat, ``antes`` each seat's ante chips (part of ``contrib``) in ``clock`` order.
    Returns ``(pots, returned, received, rake, contested)`` with each pot a plain tuple of
    :class:`Pot`'s fields. The one division of the chips: :func:`settle_pots` wraps it.
    """
    returned: dict[int, int] = {}
    top = contrib[live[0]] if live else 0
    if (
        len(live) > 1
        and top
        and max(contrib) == top
        and min(map(contrib.__getitem__, live)) == top
        and (not antes or min(antes) == max(antes))
    ):
        # Most hands: the live players put in the same amount, nobody put in more and the
        # antes are equal.
        contested = sum(contrib)
        layers = [(contested, tuple(map(clock.__getitem__, live)))]
    else:
        layers, returned = _layers(clock, contrib, live, antes)
        contested = sum([a for a, _ in layers])
    rake = rake_due(contested, percent, cap) if rakeable else 0
    received = dict(returned)
    pots: list[PotTuple] = []
    rake_left = rake
    for index, (amount, eligible) in enumerate(layers):
        taken = amount if rake_left > amount else rake_left
        rake_left -= taken
        net = amount - taken
        if len(eligible) == 1:
            winners = eligible
        else:
            best = max([keys[s] for s in eligible])
            winners = tuple([s for s in eligible if keys[s] == best])
        if len(winners) == 1:
            w = winners[0]
            shares: tuple[int, ...] = (net,)
            received[w] = received.get(w, 0) + net
        else:
            share, odd = divmod(net, len(winners))
            shares = (share + odd,) + (share,) * (len(winners) - 1)
            for s, got in zip(winners, shares, strict=True):
                received[s] = received.get(s, 0) + got
        pots.append((index, amount, eligible, taken, winners, shares))
    return pots, returned, received, rake, contested
