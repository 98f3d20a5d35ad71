"""Hold'em Blackjack: what may happen next in a hand that is being recorded.

The tablet records a hand action by action (the JSON log of :mod:`.game`).
After each action it asks :func:`next_step` what the table expects now: which posts are
due, whose card comes next, whose turn it is to bet and which betting actions are legal,
and with what amounts. The tablet offers those as buttons; it still accepts any other
action (a dealer's mistake must be recordable), and :func:`.game.audit` judges
the finished hand. This module only *suggests*: it never refuses anything.

It decides no rule itself: the log so far is replayed through the audit's own
:class:`~.state.State` and the options offered are the ones its ``can_*`` allow
(the one copy of the betting rules). The replay is lenient: an item that cannot be read,
or an action the State finds impossible, is skipped; what breaks a rule is applied as
recorded (amounts as recorded; after an action out of turn the turn goes back to the
first player skipped, as RULINGS.md rules).

What the tablet chooses to show, among the legal actions (house decisions, tables/games/README.md):
fold only when there are chips to call (folding for free is legal but never suggested);
a call that would take every chip is shown as ``all_in``; a bet or raise that would take
every chip is shown as ``all_in`` too; in the final round every whole multiple of the big
blind within the spread is offered.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from ..settings.rulesets import HoldemBlackjackRules
from ..vocabulary.cards import BJ_POINTS, CardError, parse_card
from ..vocabulary.hands import soft_total
from .pots import money_text_cents
from .state import (
    ACTIONS,
    ALL_IN,
    ALL_IN_STATE,
    BET,
    CALL,
    CHECK,
    DEFAULT_RULES,
    FOLD,
    FOLDED,
    HIT,
    HOLE,
    P_COMPLETE,
    P_FINAL,
    P_HOLE,
    P_POST,
    P_R1,
    P_R2,
    P_SHOWDOWN,
    P_UP,
    RAISE,
    STAND,
    UP,
    Action,
    Illegal,
    State,
    compiled,
)

POSTS, HOLE_PHASE, ROUND1, UP_PHASE, ROUND2, COMPLETE, FINAL, SHOWDOWN, AWARDS = (
    "posts",
    "hole",
    "round1",
    "up",
    "round2",
    "complete",
    "final",
    "showdown",
    "awards",
)


def _cents(value: object) -> int:
    try:
        return max(int((Decimal(str(value)) * 100).to_integral_value()), 0)
    except (InvalidOperation, ValueError, TypeError):
        return 0


def _total(cards: list[int]) -> int:
    """Best blackjack total (an Ace counts 11 when that does not pass 21)."""
    return soft_total(sum(BJ_POINTS[c] for c in cards), any(BJ_POINTS[c] == 1 for c in cards))[0]


def _state(data: Mapping, rules: HoldemBlackjackRules) -> State | None:
    """The log so far through the State, leniently; None without two seats."""
    seats: dict[int, int] = {}
    for s in data.get("seats", ()) if isinstance(data.get("seats"), list) else ():
        if isinstance(s, Mapping) and type(s.get("seat")) is int and s["seat"] not in seats:
            seats[s["seat"]] = _cents(s.get("stack"))
    if len(seats) < 2:
        return None
    button = data.get("button")
    if type(button) is not int or button not in seats:
        button = max(seats)  # clockwise from the lowest seat
    state = State(compiled(rules), button, list(seats.items()))
    raw = data.get("actions")
    for item in raw if isinstance(raw, list) else ():
        action = _action(item, seats)
        if action is None:
            continue
        try:
            state.apply(action)
        except Illegal:
            continue
    return state


def _action(item: object, seats: Mapping[int, int]) -> Action | None:
    if not isinstance(item, Mapping):
        return None
    kind = item.get("action")
    keys = ACTIONS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        return None
    seat = item.get("seat") if "seat" in keys else 0
    if "seat" in keys and (type(seat) is not int or seat not in seats):
        return None
    card = -1
    if "card" in keys:
        try:
            card = parse_card(item.get("card"))
        except CardError:
            return None
    return Action(kind, seat, _cents(item.get("amount")) if "amount" in keys else 0, card)


def _betting_options(state: State, seat: int) -> list[dict]:
    owed = state.owed(seat)
    left = state.chips_left(seat)
    out: list[dict] = []
    if owed == 0:
        if state.can_bet(CHECK, seat):
            out.append({"action": CHECK})
    else:
        if state.can_bet(FOLD, seat):
            out.append({"action": FOLD})
        if left > owed and state.can_bet(CALL, seat, owed):
            out.append({"action": CALL, "amount": money_text_cents(owed)})
    kind = RAISE if state.bet else BET
    low, high = state.raise_sizes()
    bb = state.st.bb
    for inc in range(low, high + 1, bb) if bb > 0 else (low,):
        amount = owed + inc
        if amount < left and state.can_bet(kind, seat, amount):
            out.append({"action": kind, "amount": money_text_cents(amount)})
    if left > 0 and state.can_bet(ALL_IN, seat, left):
        out.append({"action": ALL_IN, "amount": money_text_cents(left)})
    return out


def _deal_due(state: State, kind: str) -> int | None:
    dealt = state.hole if kind == HOLE else state.up
    for j in range(state.n):
        if state.state[j] != FOLDED and not dealt[j]:
            return state.clock[j]
    return None


def next_step(data: Mapping, rules: HoldemBlackjackRules | None = None) -> dict:  # noqa: C901, PLR0911 - one answer per phase
    """What the table expects next in the partly recorded hand ``data``.

    Returns ``{"phase", "posts", "deal", "to_act", "options", "totals", "pot"}``:

    * ``posts``: the antes and blinds still due, as log actions (phase ``posts``);
    * ``deal``: ``{"action": "hole"|"up", "seat": n}`` when a card is due to a seat;
    * ``to_act`` and ``options``: the seat whose turn it is and its legal actions, with the
      amounts to record (``amount`` = chips this action puts in); in hand completion the
      options are ``hit`` and ``stand`` (only ``stand`` for a busted hand or a full one);
    * ``totals``: each seat's blackjack total so far; ``pot``: chips in so far.
    """
    rules = rules or DEFAULT_RULES
    state = _state(data if isinstance(data, Mapping) else {}, rules)
    result: dict = {
        "phase": POSTS,
        "posts": [],
        "deal": None,
        "to_act": None,
        "options": [],
        "totals": {},
        "folded": [],
        "all_in": [],
        "pot": money_text_cents(0),
    }
    if state is None:
        return result
    clock = state.clock
    result["totals"] = {
        str(s): _total(state.cards[j]) for j, s in enumerate(clock) if state.cards[j]
    }
    result["folded"] = sorted(s for j, s in enumerate(clock) if state.state[j] == FOLDED)
    result["all_in"] = sorted(s for j, s in enumerate(clock) if state.state[j] == ALL_IN_STATE)
    result["pot"] = money_text_cents(sum(state.contrib))

    def phase(name: str) -> dict:
        result["phase"] = name
        return result

    def deal(kind: str, name: str) -> dict | None:
        """The next card of ``kind`` still to deal, shown as phase ``name``; None when all are."""
        seat = _deal_due(state, kind)
        if seat is None:
            return None
        result["deal"] = {"action": kind, "seat": seat}
        return phase(name)

    # Walk the phases as the dealer would, stopping at the first thing still due.
    if state.phase == P_POST:
        due = state.posts_due()
        if due:
            result["posts"] = [a.to_dict() for a in due]
            return phase(POSTS)
        state.advance(P_HOLE)
    if state.phase == P_HOLE:
        shown = deal(HOLE, HOLE_PHASE)
        if shown is not None:
            return shown
        state.advance(P_R1)
    for betting, name, then in (
        (P_R1, ROUND1, P_UP),
        (P_R2, ROUND2, P_COMPLETE),
        (P_FINAL, FINAL, P_SHOWDOWN),
    ):
        if state.live <= 1 or state.phase >= P_SHOWDOWN:
            return phase(AWARDS)
        if state.phase == P_UP:
            shown = deal(UP, UP_PHASE)
            if shown is not None:
                return shown
            state.advance(P_R2)
        if state.phase == P_COMPLETE:
            seat = state.completing()
            if seat is not None:
                result["to_act"] = seat
                options = [{"action": HIT}] if state.can_hit(seat) else []
                result["options"] = [*options, {"action": STAND}]
                return phase(COMPLETE)
            state.advance(P_FINAL)
        if state.phase == betting:
            seat = state.to_act()
            if seat is not None:
                result["to_act"] = seat
                result["options"] = _betting_options(state, seat)
                return phase(name)
            state.advance(then)
    return phase(AWARDS if state.live <= 1 or state.phase > P_SHOWDOWN else SHOWDOWN)
