"""What a round sets off besides its own rows, as two typed protocols, and the one list of them.

Recording, correcting and voiding a round (``tables.services.rounds``) write the round, its
revision, wagers, findings and chain link themselves. Two kinds of listeners follow, in the
recording's transaction, in the order the settings list them (``casino/settings.py``, the root
wiring, the one place that names the apps above the floor):

- :class:`RoundLedger` (``ROUND_LEDGERS``): a ledger that moves with the rounds and may refuse
  one (the jackpot banks: a round is audited against a bank's meters, and a void that would
  reverse a paid award is refused). Asked before the audit, posted to after the round's rows.
- :class:`RoundProjection` (``ROUND_PROJECTIONS``): figures derived from the rounds and kept as
  they change (the desk's rollups, the advantage-play count lines, the players' rating sessions).
  Each can be rebuilt from the rounds; the tests hold derived == rebuilt.

The floor never imports the apps that implement them: it reads the dotted paths once.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from functools import cache
from typing import Any, Protocol, runtime_checkable

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

from tables.games.vocabulary.base import Audit, AuditContext


@runtime_checkable
class RoundLedger(Protocol):
    """A ledger fed by rounds. ``bank`` is whatever :meth:`bank_of` answered for the table (None:
    the table feeds none of this ledger's accounts), handed back to the other calls."""

    def bank_required(self, table) -> None:
        """Refuse to open ``table`` (``ValidationError``) while its game needs an account it lacks."""

    def bank_of(self, table, *, earlier_round=None) -> Any:
        """The account ``table`` feeds now, or fed when ``earlier_round`` was played."""

    def context_for_round(self, *, table, version, context: AuditContext | None, bank, round=None,  # noqa: A002
                          lock: bool = True) -> AuditContext | None:
        """The audit context with what the engine needs from the ledger (the meters), read
        locked (``lock``) when the round is about to post."""

    def priced_by_meters(self, audit: Audit, context: AuditContext | None) -> bool:
        """Whether ``audit`` paid something priced by the ledger (then it is audited again, locked)."""

    def round_posted(self, *, round, revision, audit: Audit, author, at, bank) -> None:  # noqa: A002
        """A revision was posted (recorded, or a correction): post its movements, or raise to refuse."""

    def round_voided(self, *, round, author, reason: str, at) -> None:  # noqa: A002
        """``round`` was voided: reverse its movements, or raise to refuse."""


@runtime_checkable
class RoundProjection(Protocol):
    """Figures derived from rounds, kept in step with them."""

    def changing(self, round_ids: Iterable[int]) -> AbstractContextManager[None]:
        """Wrapped around a correction or void of ``round_ids`` (their findings, status and
        revision change inside it), for a projection that adds the difference."""

    def round_posted(self, *, round, revision, casino_id: int | None) -> None:  # noqa: A002
        """A revision was posted: revision 1 of a new round (its ``wager_rows`` and
        ``finding_rows`` are what was just written) or a correction's."""

    def round_voided(self, *, round) -> None:  # noqa: A002
        """``round`` was voided (its status is saved)."""


@cache
def round_ledgers() -> tuple[RoundLedger, ...]:
    return tuple(_made(path, RoundLedger) for path in settings.ROUND_LEDGERS)


@cache
def round_projections() -> tuple[RoundProjection, ...]:
    return tuple(_made(path, RoundProjection) for path in settings.ROUND_PROJECTIONS)


def _made(path: str, protocol: type) -> Any:
    listener = import_string(path)()
    if not isinstance(listener, protocol):
        raise TypeError(f"{path} does not implement {protocol.__name__}")
    return listener


def _settings_changed(*, setting, **kwargs) -> None:
    # A test that lists other listeners (override_settings) gets them on its next round.
    if setting in ("ROUND_LEDGERS", "ROUND_PROJECTIONS"):
        round_ledgers.cache_clear()
        round_projections.cache_clear()


setting_changed.connect(_settings_changed, dispatch_uid="tables.round_effects")
