"""Words for people: a round's field paths as the table reads them, and the glossary of codes.

The engine names a wrong field by its path in the round's JSON, counted from zero
(``round.seats[1].hands[0].cards``): clients keep those keys. People count from one and
know a seat by its number at the table, so the same error is also said as
``Seat 4, hand 1, cards: needs at least 2 cards`` — the seat's own ``seat`` number from the
posted round (the list index only when the seat has none), hands, cards, pays and actions
counted from one. This is the one translation; the API and the tablet both use it.

It is also the glossary: the one place a code becomes words (docs/floor/words.md). A game key,
a wager name, a finding code or kind, a jackpot line, a field name shown to people: each has a
label here (:data:`GLOSSARY`), read by :func:`label` and by the pages' ``{{ code|label }}``
(``{% load words %}``). The labels themselves are written once where the code is defined (the
games' names, the catalogue's wagers, the pay tables' jackpot lines); this module gathers them
and adds those that had none (finding codes, field names).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tables.games import GAME_CHOICES
from tables.games.settings.paytables import JACKPOT_LINE_NAMES
from tables.games.vocabulary.catalogue import (
    FINDINGS,
    OVERPAY,
    PROCEDURE,
    RULE_VIOLATION,
    UNDERPAY,
    W21,
    WAGER_LABELS,
)

KIND_WORDS = {
    OVERPAY: "Overpaid",
    UNDERPAY: "Underpaid",
    PROCEDURE: "Dealing procedure",
    RULE_VIOLATION: "Against the table's rules",
}


def wager_label(wager: str, hand: int | None = None, line: str | None = None) -> str:
    label = WAGER_LABELS.get(wager, wager.replace("_", " "))
    if hand is not None and wager == W21:
        label += f" (hand {hand + 1})"
    if line:
        label += f" — {JACKPOT_LINE_NAMES.get(line, line)}"
    return label


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
        return field_label(path)  # a field of the request itself (table, reason, pays): its label
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


#: A step of a revision's changed field (``tables.pages.present.data_diff``): ``seats[seat 3]``,
#: ``hands[0]``, ``wagers``.
_CHANGE_STEP = re.compile(r"([A-Za-z_0-9]+)|\[(seat \d+|\d+)\]")


def change_words(path: str) -> str:
    """A changed field of a revision as people read it: ``seats[seat 3].hands[0].cards`` ->
    ``Seat 3, hand 1, cards``; ``seats[seat 3].wagers.tie_LS`` -> ``Seat 3, Tie LS (17-19)``."""
    steps = [(m.group(1), m.group(2)) for m in _CHANGE_STEP.finditer(path)]
    words, i = [], 0
    while i < len(steps):
        name, _ = steps[i]
        following = steps[i + 1] if i + 1 < len(steps) else None
        if following is not None and following[0] is None:  # name[index]
            index = following[1]
            one = _COUNTED.get(name, name[:-1] if name.endswith("s") else name)
            words.append(index if index.startswith("seat ") else f"{one} {int(index) + 1}")
            i += 2
        elif name == "wagers" and following is not None:
            words.append(wager_label(following[0]))
            i += 2
        else:
            words.append(_NAMES.get(name, name.replace("_", " ")))
            i += 1
    text = ", ".join(words)
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


# --- the glossary: labels for codes --------------------------------------------------------

#: A finding code said in words where its words alone ("Pay above expected") would say less
#: than people need; every other code reads as its own words, sentence-cased.
_FINDING_WORDS = {
    "PAY_ABOVE_EXPECTED": "Paid more than the rules pay",
    "PAY_BELOW_EXPECTED": "Paid less than the rules pay",
    "RAKE_ABOVE_EXPECTED": "Rake above what is due",
    "RAKE_BELOW_EXPECTED": "Rake below what is due",
    "DEALER_STOOD_SOFT_17": "Dealer stood on soft 17",
    "DEALER_DREW_SOFT_18_PLUS": "Dealer drew on soft 18 or more",
    "ANTE_ABOVE_21_BET": "Ante above the 21 bet",
    "UPCARD_LUCK_ABOVE_21_BET": "Upcard Luck above the 21 bet",
    "TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK": "Taxpayer's Fortune without Upcard Luck",
    "TAXPAYERS_FORTUNE_WRONG_AMOUNT": "Taxpayer's Fortune of the wrong amount",
    "TAXPAYERS_FORTUNE_NOT_OFFERED": "Taxpayer's Fortune not offered",
    "WAGER_ABOVE_TABLE_MAX": "Wager above the table's maximum",
    "WAGER_BELOW_TABLE_MIN": "Wager below the table's minimum",
}


def _code_words(code: str) -> str:
    text = code.replace("_", " ").lower()
    return text[:1].upper() + text[1:]


#: Field names that reach people: the daily report's columns (their meaning is the report
#: legend's, audit/reports/legend.py), an investigation's figures, the CTR identification.
FIELD_LABELS = {
    # the daily report's columns
    "rounds": "Rounds",
    "seats_played": "Seats played",
    "handle": "Handle",
    "paid": "Paid",
    "win": "Win",
    "handle_hold_pct": "Hold % of handle",
    "expected_win": "Win if settled right",
    "theo_win": "Theo win",
    "ci": "95% interval",
    "error_cost": "Errors lost(+)/saved(-)",
    "taxes": "TF taxes",
    "jackpots": "TF jackpots",
    "findings": "Findings",
    "dealer_rate": "Dealer rate",
    "house_edge_pct": "Edge %",
    "opener": "Opener",
    "closer": "Closer",
    "fills": "Fills",
    "credits": "Credits",
    "drop": "Drop",
    "estimated_drop": "Estimated drop",
    "stat_win": "Statistical win",
    "drop_hold_pct": "Hold % (win / drop)",
    "cash_difference": "Cash - play",
    "cash_errors": "of which dealer errors",
    "cash_jackpots": "of which TF jackpots",
    "cash_unexplained": "Unexplained",
    "drop_gap": "Drop - buy-ins",
    "why": "Why it won or lost",
    # an investigation's figures when it was opened
    "period_start": "From",
    "period_end": "To",
    "table_days": "Table days",
    "table_days_incomplete": "Table days left out (incomplete)",
    "recorded_win": "Win of the recorded play",
    "theo_sd": "Theo win's standard deviation",
    "report_days": "Days with a daily report",
    "stat_minus_recorded": "Statistical win less recorded win",
    "compared_with": "Compared with (hold %)",
    "bound_low": "Lowest hold % allowed",
    "bound_high": "Highest hold % allowed",
    # a patron's identification (CTR, FinCEN Form 112)
    "last_name": "Last name",
    "first_name": "First name",
    "address": "Address",
    "date_of_birth": "Date of birth",
    "tin": "SSN or TIN",
    "occupation": "Occupation",
    "document_type": "ID document type",
    "document_number": "ID document number",
    "document_issuer": "ID issued by",
    "document_expiry": "ID expires",
    "reason": "Reason",
    # signatures and forms
    "dealer_badge": "Dealer's badge number",
    "counts": "Chip counts",
}

#: A jackpot bank's ledger accounts (audit/jackpots/models.py LedgerAccount) and its report's
#: rows besides the lines, in a word or two (the model's choices say them at length).
JACKPOT_ACCOUNT_LABELS = {
    "meter": "Meter",
    "reserve": "Hidden reserve",
    "payable": "Awards payable",
    "cash": "Cash",
    "tax_revenue": "Tax revenue",
    "house_funding": "House funding",
    "released": "Released by reductions",
    "contribution_base": "Tax collected (contribution base)",
    "total": "Total",
}

#: Hold'em Blackjack's log actions (tables/games/holdem/state.py ACTIONS) as the log shows them.
ACTION_LABELS = {
    "ante": "Ante", "small_blind": "Small blind", "big_blind": "Big blind", "hole": "Hole card",
    "up": "Up card", "hit": "Hit", "stand": "Stand", "check": "Check", "fold": "Fold", "bet": "Bet",
    "call": "Call", "raise": "Raise", "all_in": "All in", "showdown": "Showdown", "award": "Award",
    "rake": "Rake",
}

GAME_LABELS = dict(GAME_CHOICES)
FINDING_LABELS = {code: _FINDING_WORDS.get(code, _code_words(code)) for code in FINDINGS}
JACKPOT_LINE_LABELS = {line: name[:1].upper() + name[1:] for line, name in JACKPOT_LINE_NAMES.items()}

#: kind -> {code: label}. Looked up in this order when the kind is not given.
GLOSSARY: dict[str, Mapping[str, str]] = {
    "game": GAME_LABELS,
    "wager": WAGER_LABELS,
    "finding": FINDING_LABELS,
    "finding_kind": KIND_WORDS,
    "jackpot_line": JACKPOT_LINE_LABELS,
    "jackpot_account": JACKPOT_ACCOUNT_LABELS,
    "action": ACTION_LABELS,
    "field": FIELD_LABELS,
}


def label(code, kind: str | None = None) -> str:
    """A code's label: ``label("ante_up_21")`` -> ``Ante Up 21``, ``label("tie_LS", "wager")``
    -> ``Tie LS (17-19)``. A code the glossary does not know comes back as it is."""
    if code is None:
        return ""
    text = str(code)
    for words in (GLOSSARY[kind],) if kind else GLOSSARY.values():
        if text in words:
            return words[text]
    return text


def field_label(name: str) -> str:
    """A form field's name as a form's error says it: its label, "" for the errors of no one
    field, else its words (``w2g_reference`` -> ``W2g reference``)."""
    if name in _UNNAMED:
        return ""
    text = FIELD_LABELS.get(name) or name.replace("_", " ")
    return text[:1].upper() + text[1:]


def page_errors(exc) -> list[str]:
    """A refusal (a ``ValidationError`` or a form's ``errors``) as the sentences a page shows,
    one a field: ``Dealer's badge number: does not match the dealer``."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else exc if isinstance(exc, Mapping) else None
    if errors is None:
        return [" ".join(exc.messages)]
    out = []
    for name, problems in errors.items():
        text = " ".join(str(p) for p in (problems if isinstance(problems, list | tuple) else [problems]))
        where = field_label(name)
        out.append(f"{where}: {text}" if where else text[:1].upper() + text[1:])
    return out
