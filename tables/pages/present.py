"""Presentation for the tablet and the desk: cards with suit symbols, wagers in plain words,
what changed between two revisions. Display only: no rule is decided here."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from casino.field_words import wager_label
from tables.games import HOLDEM_BLACKJACK, POKER_OR_BUST

SUITS = {"S": ("♠", False), "H": ("♥", True), "D": ("♦", True), "C": ("♣", False)}
RANK_TEXT = {"T": "10"}


def card_view(text: str) -> dict:
    text = str(text)
    rank, suit = text[:-1], text[-1:]
    symbol, red = SUITS.get(suit, (suit, False))
    return {"text": text, "rank": RANK_TEXT.get(rank, rank), "suit": symbol, "red": red}


def cards_view(cards) -> list[dict]:
    return [card_view(c) for c in cards or ()]


def dealer_did_words(recorded_net, *, wager: str, pays_attested: bool) -> str:
    """What the round's pages say the dealer did with a wager: the recorded pay, or why there
    is none. A pay nobody recorded is never shown as matching (docs/floor/recording-rounds.md)."""
    if recorded_net is not None:
        return net_words(recorded_net)
    if pays_attested:
        return 'attested "paid as shown", not recorded'
    if wager in ("pot", "rake"):  # Hold'em: the pushes are the log's award and rake actions
        return "as awarded in the log"
    return "not recorded"


def net_words(net) -> str:
    """A settlement's net as a floor supervisor says it: "pays 15.00", "takes 10.00", "push"."""
    if net is None:
        return "—"
    try:
        value = Decimal(str(net))
    except InvalidOperation:
        return str(net)
    if value > 0:
        return f"pays {value:,.2f}"
    if value < 0:
        return f"takes {-value:,.2f}"
    return "push"


def round_view(game: str, data: dict) -> dict:
    """The round's cards as dealt, shaped for the templates (one family per layout)."""
    if game == HOLDEM_BLACKJACK:
        actions = []
        for a in data.get("actions", []):
            item = dict(a)
            if "card" in a:
                item["card_view"] = card_view(a["card"])
            actions.append(item)
        return {
            "family": "holdem",
            "button": data.get("button"),
            "seats": data.get("seats", []),
            "actions": actions,
        }
    seats = []
    for s in data.get("seats", []):
        seat = {
            "seat": s.get("seat"),
            "player": s.get("player") or "",
            "even_money": s.get("even_money", False),
            "wagers": [(wager_label(k), v) for k, v in (s.get("wagers") or {}).items()],
        }
        if game == POKER_OR_BUST:
            seat["hands"] = [{"cards": cards_view(s.get("cards")), "actions": []}]
        else:
            seat["hands"] = [
                {"cards": cards_view(h.get("cards")), "actions": h.get("actions", [])}
                for h in s.get("hands", [])
            ]
        seats.append(seat)
    return {
        "family": "cards",
        "dealer": cards_view((data.get("dealer") or {}).get("cards")),
        "seats": seats,
    }


def _flatten(value, path: str, out: dict) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, item in enumerate(value):
            label = item.get("seat") if "seat" in item and path == "seats" else None
            _flatten(item, f"{path}[{'seat ' + str(label) if label is not None else i}]", out)
    elif isinstance(value, list):
        out[path] = " ".join(str(v) for v in value)
    else:
        out[path] = "" if value is None else str(value)


def data_diff(before: dict | None, after: dict) -> list[dict]:
    """What a revision changed: ``[{"path", "before", "after"}]`` over the flattened round JSON."""
    old: dict[str, str] = {}
    new: dict[str, str] = {}
    if before is not None:
        _flatten(before, "", old)
    _flatten(after, "", new)
    changes = []
    for path in sorted(set(old) | set(new)):
        if old.get(path) != new.get(path):
            changes.append(
                {"path": path, "before": old.get(path, "—"), "after": new.get(path, "—")}
            )
    return changes
