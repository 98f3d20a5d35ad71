"""A round's field paths as people at the table read them.

The engine names a wrong field by its path in the round's JSON, counted from zero
(``round.seats[1].hands[0].cards``): clients keep those keys. People count from one and
know a seat by its number at the table, so the same error is also said as
``Seat 4, hand 1, cards: needs at least 2 cards`` — the seat's own ``seat`` number from the
posted round (the list index only when the seat has none), hands, cards, pays and actions
counted from one. This is the one translation; the API and the tablet both use it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tables.pages.present import wager_label

_STEP = re.compile(r"([A-Za-z_0-9]+)|\[(\d+)\]")
#: ``seats[2]`` or ``actions[5]`` written inside an engine message ("already used by seats[0]").
_IN_TEXT = re.compile(r"\b(seats|actions)\[(\d+)\]")
_COUNTED = {"hands": "hand", "cards": "card", "paid": "pay", "actions": "action", "players": "player"}
_NAMES = {"even_money": "even money"}
_UNNAMED = ("", "non_field_errors", "__all__")


def _item(container, index: int):
    return container[index] if isinstance(container, list) and 0 <= index < len(container) else None


def _seat_number(seat) -> int | None:
    number = seat.get("seat") if isinstance(seat, Mapping) else None
    return number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else None


def _seat_words(seat, index: int) -> str:
    number = _seat_number(seat)
    return f"seat {number}" if number is not None else f"seat entry {index + 1} (no seat number)"


def _action_words(action, index: int) -> str:
    number = _seat_number(action)
    return f"action {index + 1}" + (f" (seat {number})" if number is not None else "")


def path_words(path: str, round_data=None) -> str:
    """``round.seats[1].hands[0].cards[2]`` -> ``Seat 4, hand 1, card 3`` (with the posted
    round, where seats[1] is seat 4); ``""`` for a path that names no field."""
    if path in _UNNAMED:
        return ""
    if path != "round" and not path.startswith(("round.", "round[")):
        return path  # a field of the request itself (table, reason, a header): its own name
    steps = [(m.group(1), int(m.group(2)) if m.group(2) is not None else None) for m in _STEP.finditer(path)][1:]
    node, words = round_data, [] if steps else ["the round"]
    i = 0
    while i < len(steps):
        name, _ = steps[i]
        index = steps[i + 1][1] if i + 1 < len(steps) and steps[i + 1][0] is None else None
        child = node.get(name) if isinstance(node, Mapping) and name is not None else None
        if index is None:
            if name == "wagers" and i + 1 < len(steps):
                words.append(wager_label(steps[i + 1][0]))
                i += 2
                continue
            words.append(_NAMES.get(name, name.replace("_", " ")))
            node, i = child, i + 1
            continue
        item = _item(child, index)
        if name == "seats":
            words.append(_seat_words(item, index))
        elif name == "actions":
            words.append(_action_words(item, index))
        elif name == "paid" and isinstance(item, Mapping) and isinstance(item.get("wager"), str):
            hand = item.get("hand") if isinstance(item.get("hand"), int) else None
            words.append(f"pay for the {wager_label(item['wager'], hand)}")
        else:
            words.append(f"{_COUNTED.get(name, name)} {index + 1}")
        node, i = item, i + 2
    text = ", ".join(w for w in words if w)
    return text[:1].upper() + text[1:]


def message_words(message: str, round_data=None) -> str:
    """An engine message with the seats and actions it mentions said as the table says them."""
    seats = round_data.get("seats") if isinstance(round_data, Mapping) else None
    actions = round_data.get("actions") if isinstance(round_data, Mapping) else None

    def say(match: re.Match) -> str:
        index = int(match.group(2))
        if match.group(1) == "seats":
            return _seat_words(_item(seats, index), index)
        return _action_words(_item(actions, index), index)

    return _IN_TEXT.sub(say, message)


def error_words(errors: Mapping[str, list], round_data=None) -> list[str]:
    """Each ``{path: [message, ...]}`` error as one sentence: ``Seat 4, hand 1, cards: …``."""
    out = []
    for path, messages in errors.items():
        where = path_words(path, round_data)
        for message in messages if isinstance(messages, list) else [messages]:
            text = message_words(str(message), round_data)
            out.append(f"{where}: {text}" if where else text[:1].upper() + text[1:])
    return out


def with_words(errors: dict, round_data=None) -> dict:
    """The errors as they are, plus ``messages``: the same said in people's words."""
    return {**errors, "messages": error_words(errors, round_data)}
