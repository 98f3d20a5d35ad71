"""A rating as the API, the CSV file and the pages give it: money as strings, minutes as integers,
the player's name only for the roles that may read it."""

from __future__ import annotations

from tables.players.roles import may_see_names

from .selectors import cents

#: The CSV file for the loyalty system: one row per player and gaming day.
CSV_COLUMNS = [
    ("gaming_day", "Gaming day"), ("casino", "Casino id"), ("identifier", "Identifier"),
    ("player", "Player id"), ("name", "Name"), ("loyalty_number", "Loyalty number"), ("rounds", "Rounds"),
    ("minutes", "Time on game (minutes)"), ("sessions", "Sessions"), ("stake", "Total wagered"),
    ("average_bet", "Average bet per round"), ("theo", "Theoretical win"), ("actual", "Actual win (house)"),
    # The players' decisions (audit/decisions/figures.py): decision theo = theo + decisions' cost.
    ("decision_cost", "Decisions' cost"), ("decision_theo", "Decision theo"), ("priced_handle", "Priced handle"),
    ("play_quality", "Play quality (% of priced handle)"),
]


def wager_dict(total) -> dict:
    return {"game": total.game, "wager": total.wager, "count": total.count, "stake": str(total.stake),
            "average": str(total.average), "theo": str(cents(total.theo)),
            "actual": str(cents(total.actual))}


def _figures(figures, *, wagers: bool = True) -> dict:
    out = {"rounds": figures.rounds, "minutes": figures.minutes, "stake": str(figures.stake),
           "average_bet": str(figures.average_bet), "theo": str(figures.theo), "actual": str(figures.actual)}
    if wagers:
        out["wagers"] = [wager_dict(w) for w in figures.wager_list()]
    return out


def _decisions(rating) -> dict:
    """A day's or a session's priced decisions (audit/decisions/figures.py)."""
    quality = rating.play_quality
    return {"decision_cost": str(rating.decision_cost), "decision_theo": str(rating.decision_theo),
            "priced_handle": str(cents(rating.priced_handle)), "play_quality": None if quality is None else str(quality)}


def session_dict(session) -> dict:
    return {"table": session.table_id, "table_label": session.table_label, "game": session.game,
            "start": session.start.isoformat().replace("+00:00", "Z"),
            "end": session.end.isoformat().replace("+00:00", "Z"), **_figures(session), **_decisions(session)}


def day_dict(rating, user, *, sessions: bool = True, wagers: bool = True) -> dict:
    player = rating.player
    out = {"gaming_day": rating.gaming_day.isoformat(), "casino": rating.casino_id, "identifier": rating.identifier,
           "player": player.pk if player else None, "registered": player is not None}
    if may_see_names(user):
        out["name"] = player.name if player else ""
        out["loyalty_number"] = player.loyalty_number if player else ""
    out.update(_figures(rating, wagers=wagers))
    out.update(_decisions(rating))
    out["sessions"] = [session_dict(s) for s in rating.sessions] if sessions else rating.session_count
    return out


def csv_rows(ratings, user) -> list[dict]:
    # One row per player and day: the CSV has no per-wager columns, so none are made.
    return [day_dict(rating, user, sessions=False, wagers=False) for rating in ratings]

