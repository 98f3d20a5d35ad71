"""The jackpot ledger's side of recording: a ``tables.round_effects.RoundLedger`` (listed in
``ROUND_LEDGERS``). It answers for the meters a round is audited against and posts what a
round won or reverses what a void takes back, or refuses."""

from __future__ import annotations

from audit.jackpots import services


class JackpotMeters:
    """The jackpot banks as a ledger of the recorded rounds."""

    def bank_required(self, table) -> None:
        services.jackpot_bank_required(table)

    def bank_of(self, table, *, earlier_round=None):
        return services.jackpot_bank_of(table, earlier_round=earlier_round)

    def context_for_round(self, *, table, version, context, bank, round=None, lock=True):  # noqa: A002
        return services.jackpot_context_for_round(table=table, version=version, context=context, round=round,
                                                  bank=bank, lock=lock)

    def priced_by_meters(self, audit, context) -> bool:
        return services.priced_by_meters(audit, context)

    def round_posted(self, *, round, revision, audit, author, at, bank) -> None:  # noqa: A002
        services.jackpot_round_posted(round=round, revision=revision, audit=audit, author=author, at=at, bank=bank)

    def round_voided(self, *, round, author, reason, at) -> None:  # noqa: A002
        services.jackpot_round_voided(round=round, author=author, reason=reason, at=at)
