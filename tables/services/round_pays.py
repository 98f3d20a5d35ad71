"""The rule for a round's pays: each settled wager's pay is recorded, or the pit boss attests
"paid as shown" for those not recorded; a round with neither is refused, a field error per
missing pay (docs/floor/recording-rounds.md).

Why a refusal and not a finding: a pay nobody recorded cannot be judged, and counting it as
paid correctly hid every pay error of a rushed entry. An attested pay is stored as such
(``RoundRevision.pays_attested``, the wager's ``recorded_net`` left empty) and the dealer
pages and the daily report count it apart from the recorded pays.
"""

from __future__ import annotations

from collections.abc import Mapping

from tables.games import GAMES
from tables.games.vocabulary.base import Audit, FieldError, InvalidInput, Settlement
from tables.games.vocabulary.catalogue import HOLDEM_BLACKJACK, WAGER_LABELS
from tables.games.vocabulary.money import money_text

#: How the interfaces (the API, the tablet) ask for a round's pays: every pay recorded, or
#: those not recorded attested. Without either (the demo, loads of rounds recorded elsewhere)
#: nothing is checked; the report still counts every unrecorded pay as not recorded.
PAYS_RECORDED, PAYS_ATTESTED = "recorded", "attested"
PAYS_CHOICES = (PAYS_RECORDED, PAYS_ATTESTED)
_HOLDEM_PAYS = frozenset({"award", "rake"})


def _where(settlement: Settlement) -> str:
    if settlement.seat == 0:
        return "the house"
    return f"seat {settlement.seat}" + (f" hand {settlement.hand + 1}" if settlement.hand is not None else "")


def unrecorded_pays(*, game: str, canonical: Mapping, result: Audit, rules) -> list[Settlement]:
    """The settlements of a round whose pay was not recorded.

    Hold'em Blackjack records the pot's pushes and the rake as the log's ``award`` and ``rake``
    actions, judged as a whole (a seat with no award received nothing), so its pays are all
    recorded or all missing. Progressive jackpot lines are paid by the cage (an award with its
    own record), not by the dealer, and are left out.
    """
    if game == HOLDEM_BLACKJACK:
        if any(a.get("action") in _HOLDEM_PAYS for a in canonical.get("actions", ())):
            return []
        return list(result.settlements)
    recorded = GAMES[game].module.recorded_nets(canonical)
    progressive = getattr(rules, "progressive_lines", None) or {}
    return [s for s in result.settlements if s.key not in recorded and not (s.line and s.line in progressive)]


def round_pays_check(*, game: str, canonical: Mapping, result: Audit, rules, pays: str | None) -> bool:
    """Whether the revision is stored as attested; refused (``InvalidInput``, paths under the
    round's JSON) when ``pays`` is ``"recorded"`` and a pay is missing."""
    if pays is None:
        return False
    if pays not in PAYS_CHOICES:
        raise InvalidInput([FieldError("pays", f'must be "{PAYS_RECORDED}" or "{PAYS_ATTESTED}", not {pays!r}')])
    missing = unrecorded_pays(game=game, canonical=canonical, result=result, rules=rules)
    if not missing:
        return False
    if pays == PAYS_ATTESTED:
        return True
    index = {seat.get("seat"): i for i, seat in enumerate(canonical.get("seats", ()))}
    errors = []
    for s in missing:
        if game == HOLDEM_BLACKJACK:
            path = "round.actions"
            what, due = ("rake", s.net) if s.seat == 0 else ("award (chips pushed)", s.stake + s.net)
        else:
            path = f"round.seats[{index.get(s.seat, 0)}].paid"
            what, due = f"pay of the {WAGER_LABELS.get(s.wager, s.wager)}", s.net
        errors.append(FieldError(
            path, f"{_where(s).capitalize()}: no {what} recorded (the engine says {money_text(due)}); record what "
                  'the dealer did, or attest "paid as shown" for the pays not recorded'))
    raise InvalidInput(errors)
