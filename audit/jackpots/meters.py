"""The jackpot ledger's side of recording (tables/services/round_ledgers.py): it answers for the
meters a round is audited against and posts what recording announces."""

from __future__ import annotations

from audit.jackpots import services


class JackpotMeters:
    """Registered with the recording service in ``JackpotsConfig.ready``."""

    def bank_required(self, table) -> None:
        services.jackpot_bank_required(table)

    def bank_of(self, table, *, earlier_round=None):
        return services.jackpot_bank_of(table, earlier_round=earlier_round)

    def context_for_round(self, *, table, version, context, bank, round=None, lock=True):  # noqa: A002
        return services.jackpot_context_for_round(table=table, version=version, context=context, round=round,
                                                  bank=bank, lock=lock)

    def priced_by_meters(self, audit, context) -> bool:
        return services.priced_by_meters(audit, context)


def round_posted_hook(sender, *, round, revision, audit, author, at, bank, **kwargs) -> None:  # noqa: A002
    services.jackpot_round_posted(round=round, revision=revision, audit=audit, author=author, at=at, bank=bank)


def round_voided_hook(sender, *, round, author, reason, at, **kwargs) -> None:  # noqa: A002
    services.jackpot_round_voided(round=round, author=author, reason=reason, at=at)
