"""The ledgers that move with recorded rounds, reached without ``tables`` importing them.

Recording a round asks the meters first (the Taxpayer's Fortune jackpot is paid from a bank's
meters, so the engine needs their values to audit the round) and announces afterwards what was
posted or voided; the jackpot ledger (``audit.jackpots``) answers and listens, registering itself
in its ``AppConfig.ready``. Without it (a floor with no progressive app installed) no table feeds
a bank: the null meters below answer.

Announcements are Django signals sent inside the recording transaction (``send``, not
``send_robust``): a ledger that refuses (a paid award a void would reverse) rolls the round back.
"""

from __future__ import annotations

from django.dispatch import Signal

#: A revision of a round was posted (recorded, or a correction): kwargs ``round``, ``revision``,
#: ``audit`` (the engine's result), ``author``, ``at`` and ``bank`` (what :func:`meters` gave for it);
#: a new round also ``casino_id`` (its table's casino, read with the table's lock).
round_posted = Signal()
#: A round was voided: kwargs ``round``, ``author``, ``reason``, ``at``.
round_voided = Signal()


class NoMeters:
    """No bank: every table plays without progressive meters."""

    def bank_required(self, table) -> None:
        return None

    def bank_of(self, table, *, earlier_round=None):
        return None

    def context_for_round(self, *, table, version, context, bank, round=None, lock=True):  # noqa: A002
        return context

    def priced_by_meters(self, audit, context) -> bool:
        return False


_meters = NoMeters()


def meters_register(provider) -> None:
    """The jackpot ledger's AppConfig.ready hands its meters here (one provider per process)."""
    global _meters  # set once at start-up, read by every recording thread
    _meters = provider


def meters():
    return _meters
