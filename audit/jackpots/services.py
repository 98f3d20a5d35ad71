"""Every write of the jackpot app: banks and their configuration, the recording hooks,
award payment and adjustments. Keyword-only arguments, one transaction each.

Lock order: whoever locks a bank's meters locks all of them, in pk order, after any
table or round lock it holds; nothing locks a table or a round after the meters. So two
writers can wait for each other but never deadlock, and no increment is lost: every
balance is read after the lock is granted.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from audit.jackpots.ledger import ZERO, Book, bank_accounts_ensure
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
    JackpotBankTable,
    JackpotLineConfig,
    JackpotMeter,
    LedgerAccount,
    LedgerLeg,
    LedgerTransaction,
    W2GThreshold,
)
from audit.jackpots.rules import (
    adjustment_legs,
    apply,
    contribution_legs,
    floor_of,
    hit_legs,
    payment_legs,
    reversal_legs,
    tax_legs,
    top_up_legs,
)
from casino.audit_guard import allow_audit_write
from casino.local_time import local_time_text
from casino.roles import FINANCE, GAMING_MANAGER, PIT_BOSS, has_role
from tables.games.settings.paytables import JACKPOT_LINE_NAMES, JACKPOT_LINES
from tables.games.vocabulary.base import AuditContext
from tables.games.vocabulary.catalogue import (
    TAXPAYERS_FORTUNE_JACKPOT,
    TAXPAYERS_FORTUNE_TAX,
    UPCARD_LUCK_21,
)
from tables.models import Round, Table

GAME = UPCARD_LUCK_21
TAX_WAGER = TAXPAYERS_FORTUNE_TAX
JACKPOT_WAGER = TAXPAYERS_FORTUNE_JACKPOT

M, R = LedgerAccount.METER, LedgerAccount.RESERVE


def _line_words(line: str) -> str:
    """A line as memos and messages name it: ``"dealer busts with 5 cards, unsuited blackjack" line``."""
    return f'"{JACKPOT_LINE_NAMES.get(line, line)}" line'


def _require_role(user, *roles: str, what: str) -> None:
    if not has_role(user, *roles):
        raise ValidationError(
            {"author": [f"{what} needs the role: {', '.join(r.replace('_', ' ') for r in roles)}"]}
        )


def _require_reason(reason: str, field: str = "reason") -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({field: ["A reason is required; it is kept with your name"]})
    return reason


def meters_lock(bank: JackpotBank) -> list[JackpotMeter]:
    """Lock every meter of ``bank`` in pk order (the one lock order of this app)."""
    return list(JackpotMeter.objects.select_for_update().filter(bank=bank).order_by("pk"))


def active_configs(bank: JackpotBank) -> dict[str, JackpotLineConfig]:
    return {
        c.line: c
        for c in JackpotLineConfig.objects.filter(bank=bank, status=JackpotLineConfig.ACTIVE)
    }


# --------------------------------------------------------------------------------------
# Banks and configuration


@transaction.atomic
def jackpot_bank_create(
    *,
    casino,
    name: str,
    author,
    reason: str,
    defer_changes_until_hit: bool = True,
    tables=(),
    amount_max=None,
    at=None,
) -> JackpotBank:
    """A bank with a meter and ledger accounts for every line; every line starts fixed.
    ``amount_max``: the bank's plausibility bound (None: the model's default)."""
    _require_role(author, GAMING_MANAGER, what="Creating a jackpot bank")
    reason = _require_reason(reason)
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": ["A bank needs a name"]})
    if JackpotBank.objects.filter(casino=casino, name=name).exists():
        raise ValidationError({"name": [f'{casino} already has a jackpot bank named "{name}"']})
    bank = JackpotBank(casino=casino, name=name, defer_changes_until_hit=defer_changes_until_hit)
    if amount_max is not None:
        bank.amount_max = _amount_max_checked(amount_max)
    bank._history_user, bank._change_reason = author, reason
    bank.save()
    JackpotMeter.objects.bulk_create([JackpotMeter(bank=bank, line=line) for line in JACKPOT_LINES])
    bank_accounts_ensure(bank)
    for table in tables:
        jackpot_bank_table_add(bank=bank, table=table, author=author, reason=reason, at=at)
    return bank


def _amount_max_checked(value) -> Decimal:
    most = JackpotBank._meta.get_field("amount_max")
    try:
        value = Decimal(str(value))
    except ArithmeticError:
        raise ValidationError({"amount_max": [f'"{value}" is not an amount']}) from None
    limit = Decimal(10) ** (most.max_digits - most.decimal_places) - Decimal("0.01")
    if not value.is_finite() or value != value.quantize(Decimal("0.01")) or not Decimal("0.01") <= value <= limit:
        raise ValidationError({"amount_max": [f"must be 0.01 to {limit:,.2f} in whole cents"]})
    return value


@transaction.atomic
def jackpot_bank_amount_max_set(*, bank: JackpotBank, amount_max, author, reason: str) -> JackpotBank:
    """A gaming manager sets the bank's plausibility bound, with a reason (kept in its history).
    It applies to what is entered from then on (a request awaiting approval is checked again
    when it is decided); it never changes what is posted."""
    _require_role(author, GAMING_MANAGER, what="Setting a jackpot bank's largest figure")
    reason = _require_reason(reason)
    value = _amount_max_checked(amount_max)
    meters_lock(bank)  # as every writer: a request is checked against one bound, not a moving one
    bank = JackpotBank.objects.get(pk=bank.pk)
    bank.amount_max = value
    bank._history_user, bank._change_reason = author, reason
    bank.save(update_fields=["amount_max"])
    return bank


@transaction.atomic
def jackpot_bank_table_add(
    *, bank: JackpotBank, table: Table, author, reason: str, at=None
) -> JackpotBankTable:
    _require_role(author, GAMING_MANAGER, what="Linking a table to a jackpot bank")
    reason = _require_reason(reason)
    if table.game != GAME:
        raise ValidationError(
            {
                "table": [
                    f"Table {table.label} deals {table.get_game_display()}; only Upcard Luck 21 "
                    "tables have Taxpayer's Fortune jackpots"
                ]
            }
        )
    if table.pit.casino_id != bank.casino_id:
        raise ValidationError(
            {"table": [f"Table {table.label} is in another casino than bank {bank}"]}
        )
    existing = JackpotBankTable.objects.filter(table=table).select_related("bank").first()
    if existing is not None:
        raise ValidationError(
            {"table": [f"Table {table.label} is already in jackpot bank {existing.bank}"]}
        )
    member = JackpotBankTable(
        bank=bank, table=table, added_by=author, added_at=at or timezone.now()
    )
    member._history_user, member._change_reason = author, reason
    member.save()
    return member


def _above_bank_max(bank: JackpotBank, value: Decimal) -> str | None:
    """The bank's plausibility bound (``JackpotBank.amount_max``, set per bank by a gaming
    manager): a figure beyond it is a typing mistake, refused before it reaches the ledger."""
    if abs(value) > bank.amount_max:
        return (f"{abs(value):,.2f} is more than the largest figure bank {bank} takes "
                f"({bank.amount_max:,.2f}); a gaming manager sets it per bank")
    return None


def _validate_line(*, bank, line, progressive, reset, increment_rate, hidden_rate, cap) -> dict:
    errors: dict[str, list[str]] = {}
    if line not in JACKPOT_LINES:
        errors["line"] = [f'"{line}" is not a jackpot line; lines: {", ".join(JACKPOT_LINES)}']
    values = {}
    for field, value, allow_none in (
        ("reset", reset, False),
        ("increment_rate", increment_rate, False),
        ("hidden_rate", hidden_rate, False),
        ("cap", cap, True),
    ):
        if value in (None, "") and allow_none:
            values[field] = None
            continue
        try:
            values[field] = Decimal(str(value if value not in (None, "") else "0"))
        except ArithmeticError:
            errors[field] = [f'"{value}" is not a number']
            continue
        if not values[field].is_finite() or values[field] < 0:
            errors[field] = ["must be 0 or more"]
    if not errors:
        if values["reset"] != values["reset"].quantize(Decimal("0.01")):
            errors["reset"] = ["must be whole cents"]
        for field in ("reset", "cap"):
            problem = values[field] is not None and _above_bank_max(bank, values[field])
            if problem:
                errors[field] = [problem]
        for rate in ("increment_rate", "hidden_rate"):
            if values[rate] > 1:
                errors[rate] = ["is a share of each tax: at most 1"]
        if values["increment_rate"] + values["hidden_rate"] > 1:
            errors["hidden_rate"] = [
                "increment_rate + hidden_rate cannot exceed 1 (all of the tax)"
            ]
        if values["cap"] is not None and values["cap"] < values["reset"]:
            errors["cap"] = [f"must not be below the reset value {values['reset']}"]
        if (
            progressive
            and values["increment_rate"] == 0
            and values["hidden_rate"] == 0
            and values["reset"] == 0
        ):
            errors["increment_rate"] = ["a progressive line needs a reset value or an increment"]
    if errors:
        raise ValidationError(errors)
    if not progressive:
        values = {"reset": ZERO, "increment_rate": ZERO, "hidden_rate": ZERO, "cap": None}
    return values


def _top_up(
    book: Book,
    *,
    line: str,
    config: JackpotLineConfig | None,
    kind: str,
    memo: str,
    author,
    at,
    round=None,
    revision=None,
):  # noqa: A002
    """Bring a progressive meter up to its reset value: from the line's hidden reserve
    first, the house pays the rest."""
    legs = top_up_legs(line, floor_of(config), book.balance[(M, line)], book.balance[(R, line)])
    if not legs:
        return None
    return book.post(
        kind=kind,
        line=line,
        memo=memo,
        author=author,
        at=at,
        round=round,
        revision=revision,
        legs=legs,
    )


def _activate(config: JackpotLineConfig, *, author, at, round=None) -> None:  # noqa: A002
    allow_audit_write()
    old = JackpotLineConfig.objects.filter(
        bank=config.bank, line=config.line, status=JackpotLineConfig.ACTIVE
    )
    for previous in old:
        previous.status = JackpotLineConfig.SUPERSEDED
        previous._history_user, previous._change_reason = author, f"superseded by v{config.number}"
        previous.save(update_fields=["status"])
    config.status, config.activated_at, config.activated_by_round = (
        JackpotLineConfig.ACTIVE,
        at,
        round,
    )
    # Where in the ledger's sequence this took effect (the meters are locked, so the
    # sequence of transaction ids is the order of posting): the recomputation replays by it.
    config.ledger_position = (
        LedgerTransaction.objects.filter(bank=config.bank)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        or 0
    )
    config._history_user = author
    config._change_reason = f"activated after the hit of round {round}" if round else "activated"
    config.save(update_fields=["status", "activated_at", "activated_by_round", "ledger_position"])


@transaction.atomic
def jackpot_line_configure(
    *,
    bank: JackpotBank,
    line: str,
    progressive: bool,
    author,
    reason: str,
    reset=ZERO,
    increment_rate=ZERO,
    hidden_rate=ZERO,
    cap=None,
    at=None,
) -> JackpotLineConfig:
    """A new version of one line's configuration (gaming manager, with a reason).

    When the line is an active progressive and the bank defers changes, the version waits
    (pending) until the line's current jackpot is won; otherwise it takes effect now, and a
    progressive meter below its reset value is seeded up to it.
    """
    _require_role(author, GAMING_MANAGER, what="Changing a jackpot line")
    reason = _require_reason(reason)
    values = _validate_line(
        bank=bank,
        line=line,
        progressive=progressive,
        reset=reset,
        increment_rate=increment_rate,
        hidden_rate=hidden_rate,
        cap=cap,
    )
    at = at or timezone.now()
    meters_lock(bank)
    allow_audit_write()
    current = active_configs(bank).get(line)
    number = (
        JackpotLineConfig.objects.filter(bank=bank, line=line)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    defer = bank.defer_changes_until_hit and current is not None and current.progressive
    for pending in JackpotLineConfig.objects.filter(
        bank=bank, line=line, status=JackpotLineConfig.PENDING
    ):
        pending.status = JackpotLineConfig.SUPERSEDED
        pending._history_user, pending._change_reason = (
            author,
            f"replaced by v{number} before it took effect",
        )
        pending.save(update_fields=["status"])
    config = JackpotLineConfig(
        bank=bank,
        line=line,
        number=number,
        progressive=progressive,
        reason=reason,
        created_by=author,
        created_at=at,
        status=JackpotLineConfig.PENDING,
        **values,
    )
    config._history_user, config._change_reason = author, reason
    config.save()
    if not defer:
        _activate(config, author=author, at=at)
        _top_up(
            Book(bank),
            line=line,
            config=config,
            kind=LedgerTransaction.SEED,
            author=author,
            at=at,
            memo=f"{_line_words(line)} seeded to its reset value {config.reset} (config v{number})",
        )
    return config


# --------------------------------------------------------------------------------------
# Recording hooks (called by tables.services.rounds inside the round's transaction)


#: What a gaming manager must do with a table that takes markers but is in no bank.
LINK_TABLE_TO_BANK = "link the table to a jackpot bank (Jackpots → Banks)"


def takes_taxpayers_fortune(table, rules=None) -> bool:
    """Does ``table``'s ruleset take Taxpayer's Fortune markers (and so collect its tax)?"""
    if table.game != GAME:
        return False
    rules = rules if rules is not None else table.ruleset.rules()
    return bool(getattr(rules, "taxpayers_fortune", False))


def jackpot_bank_required(table, rules=None, *, before: str = "it opens") -> None:
    """The tax a Taxpayer's Fortune marker pays is owed to a jackpot bank's meters: a table
    whose ruleset takes markers opens (and records) only as a member of a bank (no tax is
    collected with no liability behind it)."""
    if takes_taxpayers_fortune(table, rules) and not JackpotBankTable.objects.filter(
        table_id=table.pk
    ).exists():
        raise ValidationError(
            {
                "table": [
                    f"Table {table.label} runs ruleset {table.ruleset}, which takes Taxpayer's Fortune "
                    f"markers, but the table is in no jackpot bank: a gaming manager must "
                    f"{LINK_TABLE_TO_BANK} before {before}"
                ]
            }
        )


# ``bank=LOOK_UP`` (the default of the hooks below): the hook finds the table's bank
# itself. A recording that calls two hooks finds it once (jackpot_bank_of) and passes it.
LOOK_UP = object()


def jackpot_bank_of(table, *, earlier_round: Round | None = None) -> JackpotBank | None:
    """The bank whose meters a round at ``table`` feeds: None for a table in no bank and,
    for a correction or void (``earlier_round``), when the round was recorded before the
    table joined the bank and so never fed its meters."""
    if table.game != GAME:
        return None
    # A table is in at most one bank: no ordering (Meta's would join the tables).
    member = next(iter(JackpotBankTable.objects.filter(table_id=table.pk).select_related("bank__casino")
                       .order_by()[:1]), None)
    if member is None:
        return None
    if (
        earlier_round is not None
        and earlier_round.recorded_at < member.added_at
        and not LedgerTransaction.objects.filter(round=earlier_round).exists()
    ):
        return None
    return member.bank


def _live_awards(rnd: Round) -> list[JackpotAward]:
    return list(
        JackpotAward.objects.filter(round=rnd)
        .exclude(status=JackpotAward.REVERSED)
        .order_by("line", "seat")
    )


def jackpot_context_for_round(
    *, table, version, context: AuditContext | None = None, round: Round | None = None,  # noqa: A002
    bank=LOOK_UP, lock: bool = True,
) -> AuditContext | None:
    """Lock the bank's meters and give the engine their values.

    ``lock=False`` reads them without the lock, for a new round's first audit: its pays
    depend on a meter only when it wins a progressive line (:func:`priced_by_meters`), and
    then the recorder audits it again with the meters locked. Its postings always lock them
    (:func:`jackpot_round_posted`), so tables of one bank wait for each other only while
    posting, not while the engine settles and the round is written.

    A table in no bank keeps the caller's context. A line the bank meters must be
    progressive in the round's ruleset too, or the round is refused (the engine would pay
    the fixed column while the ledger pays the meter). A line the ruleset calls
    progressive but the bank pays fixed is given its fixed column amount. A correction
    (``round``) keeps the amounts its round already won.
    """
    if bank is LOOK_UP:
        bank = jackpot_bank_of(table, earlier_round=round)
    if bank is None:
        # A session opened before this rule (or a ruleset changed under an open table)
        # still records no tax outside a bank; a round from before the table joined its
        # bank is corrected as it was recorded.
        if round is None:
            jackpot_bank_required(table, version.rules(), before="rounds are recorded here")
        progressive = set(getattr(version.rules(), "progressive_lines", None) or ())
        unpriced = sorted(progressive - set(context.jackpot_amounts if context else ()))
        if unpriced:
            raise ValidationError({"table": [
                f"Table {table.label} runs ruleset {version}, which pays {', '.join(unpriced)} from a progressive "
                "meter, but the table is in no jackpot bank; a gaming manager must add it to one"]})
        return context
    if lock:
        meters_lock(bank)
    rules = version.rules()
    configs = active_configs(bank)
    metered = {line for line, c in configs.items() if c.progressive}
    missing = sorted(metered - set(rules.progressive_lines))
    if missing:
        raise ValidationError(
            {
                "table": [
                    f"Table {table.label} is in jackpot bank {bank}, which pays {', '.join(missing)} from its meters, but "
                    f"ruleset {version} pays them from the fixed column; a gaming manager must add them to the ruleset's "
                    "progressive_lines before rounds can be recorded here"
                ]
            }
        )
    book = Book(bank)
    column = rules.jackpot_columns.get(rules.decks, {})
    amounts = {}
    for line in rules.progressive_lines:
        amounts[line] = (
            book.balance[(M, line)] if line in metered else Decimal(column.get(line, ZERO))
        )
    if round is not None:
        # A correction first reverses this round's tax and contributions (by the same rule):
        # the meter it sees is the meter after those reversals.
        after = book.balance.copy()
        for txn in _live_round_postings(round):
            apply(after, _reversal_legs(book, txn, balance=after))
        for line in amounts:
            if line in metered:
                amounts[line] = after[(M, line)]
        for award in _live_awards(round):
            amounts[award.line] = award.amount
    return AuditContext(
        jackpot_amounts=amounts, previous_hand=context.previous_hand if context else None
    )


def priced_by_meters(audit, context: AuditContext | None) -> bool:
    """Whether a settled round won a line whose pay came from the context's meter values."""
    metered = set(context.jackpot_amounts) if context is not None else set()
    return any(s.wager == JACKPOT_WAGER and s.net > 0 and s.line in metered for s in audit.settlements)


def _round_taxes(audit) -> tuple[Decimal, dict[int, Decimal]]:
    markers = {}
    total = ZERO
    for s in audit.settlements:
        if s.wager == TAX_WAGER:
            markers[s.seat] = s.stake
            total += -s.net
    return total, markers


def _post_tax_and_contributions(
    book: Book, *, rnd, revision, tax: Decimal, configs, author, at
) -> None:
    if tax <= 0:
        return
    where = f"{rnd.table.label} round {rnd.sequence} r{revision.number}"
    book.post(
        kind=LedgerTransaction.TAX,
        memo=f"tax collected, {where}",
        author=author,
        at=at,
        round=rnd,
        revision=revision,
        contribution_base=tax,
        legs=tax_legs(tax),
    )
    legs = []
    for line in JACKPOT_LINES:
        config = configs.get(line)
        if config is None or not config.progressive:
            continue
        legs += contribution_legs(tax, line, config, book.balance[(M, line)])
    book.post(
        kind=LedgerTransaction.CONTRIBUTION,
        memo=f"contributions from tax {tax}, {where}",
        author=author,
        at=at,
        round=rnd,
        revision=revision,
        contribution_base=tax,
        legs=legs,
    )


def _post_hit(
    book: Book, *, rnd, revision, line, amount, first: bool, progressive: bool, seat, author, at
):
    """Move the award to payable. The first winner of a line in a round is paid from the
    meter (the house covers any shortfall); a simultaneous second winner on the same line
    is settled by the engine at the same meter value and is paid by the house."""
    return book.post(
        kind=LedgerTransaction.HIT,
        line=line,
        round=rnd,
        revision=revision,
        author=author,
        at=at,
        memo=f"{_line_words(line)} won at {rnd.table.label} round {rnd.sequence} seat {seat}: {amount}",
        legs=hit_legs(line, amount, book.balance[(M, line)], first=first, progressive=progressive),
    )


def _after_hit(book: Book, *, bank, line, rnd, revision, author, at) -> None:
    """A pending configuration takes effect once the line's jackpot is won; then the meter
    resets (is topped up) to the reset value of the configuration now active."""
    pending = JackpotLineConfig.objects.filter(
        bank=bank, line=line, status=JackpotLineConfig.PENDING
    ).first()
    if pending is not None:
        _activate(pending, author=author, at=at, round=rnd)
    config = active_configs(bank).get(line)
    _top_up(
        book,
        line=line,
        config=config,
        kind=LedgerTransaction.RESET,
        author=author,
        at=at,
        round=rnd,
        revision=revision,
        memo=f"{_line_words(line)} reset after the hit at {rnd.table.label} round {rnd.sequence}",
    )


def _w2g_required(amount: Decimal, wager: Decimal, day) -> bool:
    """The IRS W-2G test for a table-game win, by the rule in force on the award's gaming day
    (:class:`W2GThreshold`); a day before every row needs no W-2G."""
    rule = W2GThreshold.in_force(day)
    return rule is not None and amount >= rule.min_amount and wager > 0 and amount >= rule.min_multiple * wager


def jackpot_round_posted(*, round: Round, revision, audit, author, at=None, bank=LOOK_UP) -> None:  # noqa: A002
    """Post a recorded (or corrected) round: tax, contributions, hits -> pending awards and
    meter resets. For a correction the previous revision's tax and contributions are
    reversed; awards already won are kept when the corrected round still wins them, a
    pending award it no longer wins is reversed (meter restored), and a paid one refuses
    the correction."""
    rnd = round
    if bank is LOOK_UP:
        bank = jackpot_bank_of(rnd.table, earlier_round=rnd if revision.number > 1 else None)
    if bank is None:
        return
    at = at or timezone.now()
    allow_audit_write()
    meters_lock(bank)
    book = Book(bank)
    configs = active_configs(bank)
    corrected = revision.number > 1  # a new round has no postings or awards of its own yet
    for txn in _live_round_postings(rnd) if corrected else ():
        _reverse(book, txn, author=author, at=at, memo=f"round corrected (r{revision.number})")
    tax, markers = _round_taxes(audit)
    players = {s["seat"]: s.get("player") or "" for s in revision.data.get("seats", [])}
    won: dict[str, list] = {}
    for s in audit.settlements:
        if s.wager == JACKPOT_WAGER and s.net > 0:
            won.setdefault(s.line, []).append(s)
    old: dict[str, list[JackpotAward]] = {}
    for award in _live_awards(rnd) if corrected else ():
        old.setdefault(award.line, []).append(award)
    for line in JACKPOT_LINES:
        wins, kept = sorted(won.get(line, []), key=lambda s: s.seat), old.get(line, [])
        for award, s in zip(kept, wins, strict=False):
            if award.amount != s.net or award.seat != s.seat:
                if award.status == JackpotAward.PAID:
                    raise ValidationError(
                        {
                            "round": [
                                f"The {_line_words(line)} award of {award.amount} to seat {award.seat} was paid at {local_time_text(award.paid_at, award.bank)}; "
                                f"the correction would make it {s.net} to seat {s.seat}. A paid jackpot cannot change: record "
                                "the difference as an approved adjustment and a finding instead"
                            ]
                        }
                    )
                award.amount, award.seat, award.player = s.net, s.seat, players.get(s.seat, "")
                award.wager = markers.get(s.seat, award.wager)
                award.w2g_required = _w2g_required(award.amount, award.wager, award.gaming_day)
            award.revision = revision
            award._history_user, award._change_reason = (
                author,
                f"carried to revision {revision.number}",
            )
            award.save()
        for award in kept[len(wins) :]:
            if award.status == JackpotAward.PAID:
                raise ValidationError(
                    {
                        "round": [
                            f"The {_line_words(line)} award of {award.amount} to seat {award.seat} was paid at {local_time_text(award.paid_at, award.bank)}; "
                            "a correction or void cannot make a paid jackpot vanish"
                        ]
                    }
                )
            _award_reverse(
                book,
                award=award,
                author=author,
                at=at,
                why=f"not won in revision {revision.number}",
            )
        first = not kept
        for s in wins[len(kept) :]:
            progressive = line in configs and configs[line].progressive
            hit = _post_hit(
                book,
                rnd=rnd,
                revision=revision,
                line=line,
                amount=s.net,
                first=first,
                progressive=progressive,
                seat=s.seat,
                author=author,
                at=at,
            )
            first = False
            wager = markers.get(s.seat, ZERO)
            award = JackpotAward(
                bank=bank,
                round=rnd,
                revision=revision,
                table=rnd.table,
                seat=s.seat,
                player=players.get(s.seat, ""),
                line=line,
                progressive=progressive,
                amount=s.net,
                wager=wager,
                won_at=at,
                gaming_day=hit.gaming_day,
                hit_transaction=hit,
                w2g_required=_w2g_required(s.net, wager, hit.gaming_day),
            )
            award._history_user, award._change_reason = author, "won"
            award.save()
        if len(wins) > len(kept):
            _after_hit(book, bank=bank, line=line, rnd=rnd, revision=revision, author=author, at=at)
    # The winning round's own contribution goes onto the freshly reset meter (the award is
    # the meter as it stood when the round was dealt, which is what the engine paid).
    _post_tax_and_contributions(
        book,
        rnd=rnd,
        revision=revision,
        tax=tax,
        configs=active_configs(bank) if won else configs,  # a hit may activate a waiting configuration
        author=author,
        at=at,
    )


def _paid_out_since(txn: LedgerTransaction):
    """``paid_out(line)`` for :func:`reversal_legs`: has a hit posted after ``txn``, and not
    reversed, paid the line's meter out since?"""

    def paid_out(line: str) -> bool:
        return LedgerLeg.objects.filter(
            account__bank_id=txn.bank_id,
            account__kind=M,
            account__line=line,
            amount__gt=0,
            transaction__kind=LedgerTransaction.HIT,
            transaction__pk__gt=txn.pk,
            transaction__reverses__isnull=True,
            transaction__reversed_by__isnull=True,
        ).exists()

    return paid_out


def _reversal_legs(book: Book, txn: LedgerTransaction, balance=None) -> list:
    configs = active_configs(book.bank)
    return reversal_legs(
        book.legs_of(txn),
        balance=book.balance if balance is None else balance,
        floor=lambda line: floor_of(configs.get(line)),
        paid_out=_paid_out_since(txn),
    )


def _reverse(book: Book, txn: LedgerTransaction, *, author, at, memo: str):
    """Undo ``txn`` by the rule of rules.reversal_legs (README, "Voids and corrections")."""
    return book.reverse(txn, author=author, at=at, memo=memo, legs=_reversal_legs(book, txn))


def _live_round_postings(rnd: Round):
    """The round's tax and contributions that stand (neither reversed nor a reversal)."""
    return (
        LedgerTransaction.objects.filter(
            round=rnd,
            kind__in=(LedgerTransaction.TAX, LedgerTransaction.CONTRIBUTION),
            reversed_by__isnull=True,
            reverses__isnull=True,
        )
        .order_by("pk")
        .prefetch_related("legs")
    )


def _award_reverse(book: Book, *, award: JackpotAward, author, at, why: str) -> None:
    _reverse(book, award.hit_transaction, author=author, at=at, memo=why)
    remaining = (
        JackpotAward.objects.filter(round=award.round, line=award.line)
        .exclude(status=JackpotAward.REVERSED)
        .exclude(pk=award.pk)
    )
    if not remaining.exists():
        # The line was not won after all: give back its reset top-up too, so the meter
        # holds again what it held before plus what came in since.
        for reset in LedgerTransaction.objects.filter(
            round=award.round,
            line=award.line,
            kind=LedgerTransaction.RESET,
            reversed_by__isnull=True,
            reverses__isnull=True,
        ):
            _reverse(book, reset, author=author, at=at, memo=why)
    award.status = JackpotAward.REVERSED
    award._history_user, award._change_reason = author, why
    award.save(update_fields=["status"])


def jackpot_round_voided(*, round: Round, author, reason: str, at=None) -> None:  # noqa: A002
    """Reverse a voided round's postings. A paid award refuses the void."""
    rnd = round
    bank = jackpot_bank_of(rnd.table, earlier_round=rnd)
    if bank is None:
        return
    at = at or timezone.now()
    allow_audit_write()
    meters_lock(bank)
    book = Book(bank)
    awards = _live_awards(rnd)
    for award in awards:
        if award.status == JackpotAward.PAID:
            raise ValidationError(
                {
                    "round": [
                        f"Round {rnd} won a {_line_words(award.line)} jackpot of {award.amount} that was paid at {local_time_text(award.paid_at, award.bank)}; "
                        "a round with a paid jackpot cannot be voided"
                    ]
                }
            )
    for txn in _live_round_postings(rnd):
        _reverse(book, txn, author=author, at=at, memo=f"round voided: {reason}")
    for award in awards:
        _award_reverse(book, award=award, author=author, at=at, why=f"round voided: {reason}")


# --------------------------------------------------------------------------------------
# Paying awards


@transaction.atomic
def jackpot_award_pay(
    *,
    award: JackpotAward,
    author,
    w2g_reference: str = "",
    winner_name: str = "",
    winner_id_reference: str = "",
    federal_withholding=ZERO,
    at=None,
) -> JackpotAward:
    """The attendant (pit boss or gaming manager) pays a pending award and closes it."""
    _require_role(author, PIT_BOSS, GAMING_MANAGER, what="Paying a jackpot")
    at = at or timezone.now()
    allow_audit_write()
    meters_lock(award.bank)  # meters before the award: the order every writer uses
    award = (
        JackpotAward.objects.select_for_update()
        .select_related("bank__casino", "round")
        .get(pk=award.pk)
    )
    if award.status != JackpotAward.PENDING:
        raise ValidationError(
            {"award": [f"This award is {award.get_status_display()}; only a pending award is paid"]}
        )
    w2g_reference, winner_name = (w2g_reference or "").strip(), (winner_name or "").strip()
    try:
        withholding = Decimal(str(federal_withholding or "0"))
    except ArithmeticError:
        raise ValidationError(
            {"federal_withholding": [f'"{federal_withholding}" is not an amount']}
        ) from None
    errors = {}
    if award.w2g_required:
        if not w2g_reference:
            errors["w2g_reference"] = [
                f"A win of {award.amount} paying {award.odds_multiple} to 1 needs a W-2G: "
                "enter its reference before the award is paid"
            ]
        if not winner_name:
            errors["winner_name"] = ["The W-2G needs the winner's name"]
    if not withholding.is_finite() or withholding < 0 or withholding > award.amount:
        errors["federal_withholding"] = [f"must be between 0 and the award {award.amount}"]
    if errors:
        raise ValidationError(errors)
    book = Book(award.bank)
    txn = book.post(
        kind=LedgerTransaction.PAYMENT,
        line=award.line,
        author=author,
        at=at,
        round=award.round,
        memo=f"{award.line} award of {award.amount} paid at {award.table.label} seat {award.seat}",
        legs=payment_legs(award.amount),
    )
    award.status, award.paid_by, award.paid_at, award.payment_transaction = (
        JackpotAward.PAID,
        author,
        at,
        txn,
    )
    award.w2g_reference, award.winner_name, award.winner_id_reference = (
        w2g_reference,
        winner_name,
        (winner_id_reference or "").strip(),
    )
    award.federal_withholding = withholding.quantize(Decimal("0.01"))
    award._history_user, award._change_reason = author, "paid"
    award.save()
    return award


# --------------------------------------------------------------------------------------
# Adjustments: request by finance or a gaming manager, approval by another gaming manager


def _adjustment_floor_error(
    book: Book, *, bank, line: str, target: str, amount: Decimal
) -> str | None:
    """Why ``amount`` cannot move the account now: below its floor, or (an increase) above the
    bank's largest figure; checked at the request and again at the approval."""
    problem = _above_bank_max(bank, amount)
    if problem:
        return problem
    config = active_configs(bank).get(line)
    floor = floor_of(config) if target == M else ZERO
    after = book.balance[(target, line)] + amount
    what = "meter" if target == M else "hidden reserve"
    if after < floor:
        return (
            f"the {line} {what} holds {book.balance[(target, line)]}; {amount} would take it to {after}, below "
            f"its floor of {floor}" + (" (its reset value)" if target == M else "")
        )
    if amount > 0 and after > bank.amount_max:
        return (f"the {line} {what} holds {book.balance[(target, line)]}; {amount} would take it to {after:,.2f}, "
                f"above the largest figure bank {bank} takes ({bank.amount_max:,.2f}); a gaming manager sets it "
                "per bank")
    return None


@transaction.atomic
def jackpot_adjustment_request(
    *,
    bank: JackpotBank,
    line: str,
    amount,
    reason: str,
    note: str,
    author,
    target: str = LedgerAccount.METER,
    at=None,
) -> JackpotAdjustment:
    _require_role(author, FINANCE, GAMING_MANAGER, what="Requesting a jackpot adjustment")
    errors = {}
    if line not in JACKPOT_LINES:
        errors["line"] = [f'"{line}" is not a jackpot line']
    if reason not in dict(JackpotAdjustment.REASONS):
        errors["reason"] = [
            f'"{reason}" is not one of: {", ".join(dict(JackpotAdjustment.REASONS))}'
        ]
    if target not in (M, R):
        errors["target"] = ['must be "meter" or "reserve"']
    try:
        amount = Decimal(str(amount))
        if not amount.is_finite() or amount == 0 or amount != amount.quantize(Decimal("0.01")):
            errors["amount"] = ["must be a non-zero amount in whole cents (negative reduces)"]
        elif _above_bank_max(bank, amount):
            errors["amount"] = [_above_bank_max(bank, amount)]
    except ArithmeticError:
        errors["amount"] = [f'"{amount}" is not an amount']
    note = (note or "").strip()
    if not note:
        errors["note"] = ["Explain the adjustment; the note is kept with your name"]
    if errors:
        raise ValidationError(errors)
    meters_lock(bank)
    problem = _adjustment_floor_error(
        Book(bank), bank=bank, line=line, target=target, amount=amount
    )
    if problem:
        raise ValidationError({"amount": [problem]})
    adjustment = JackpotAdjustment(
        bank=bank,
        line=line,
        target=target,
        amount=amount,
        reason=reason,
        note=note,
        requested_by=author,
        requested_at=at or timezone.now(),
    )
    adjustment._history_user, adjustment._change_reason = author, "requested"
    adjustment.save()
    return adjustment


@transaction.atomic
def jackpot_adjustment_decide(
    *, adjustment: JackpotAdjustment, approve: bool, author, note: str = "", at=None
) -> JackpotAdjustment:
    """A second person, a gaming manager, approves (posts) or rejects a request."""
    _require_role(author, GAMING_MANAGER, what="Approving a jackpot adjustment")
    at = at or timezone.now()
    allow_audit_write()
    meters_lock(adjustment.bank)  # meters before the request row: the order every writer uses
    adjustment = (
        JackpotAdjustment.objects.select_for_update()
        .select_related("bank__casino")
        .get(pk=adjustment.pk)
    )
    if adjustment.status != JackpotAdjustment.REQUESTED:
        raise ValidationError(
            {"adjustment": [f"This adjustment is already {adjustment.get_status_display()}"]}
        )
    if adjustment.requested_by_id == author.pk:
        raise ValidationError(
            {
                "author": [
                    "The person who requested an adjustment cannot approve or reject it; "
                    "a second gaming manager must"
                ]
            }
        )
    bank, line, target, amount = (
        adjustment.bank,
        adjustment.line,
        adjustment.target,
        adjustment.amount,
    )
    if approve:
        book = Book(bank)
        problem = _adjustment_floor_error(book, bank=bank, line=line, target=target, amount=amount)
        if problem:
            raise ValidationError({"amount": [problem]})
        adjustment.transaction = book.post(
            kind=LedgerTransaction.ADJUSTMENT,
            line=line,
            author=author,
            at=at,
            memo=f"{adjustment.get_reason_display()}: {line} {target} {amount} (requested by "
            f"{adjustment.requested_by}, approved by {author})",
            legs=adjustment_legs(target, line, amount),
        )
    adjustment.status = JackpotAdjustment.APPROVED if approve else JackpotAdjustment.REJECTED
    adjustment.decided_by, adjustment.decided_at, adjustment.decision_note = (
        author,
        at,
        (note or "").strip(),
    )
    adjustment._history_user, adjustment._change_reason = author, adjustment.status
    adjustment.save()
    return adjustment
