"""The soft count of a drop box: entering a revision (first counter) and signing it (a second,
different counter), which posts the box's drop to the chip ledger.

The posting of a signed revision (kind ``count``, on the box's gaming day):

* the table's ``table_result`` account is credited the drop (currency + chips + markers):
  what the players put into the game, so after the closer's posting its balance for the
  day is minus the table's statistical win;
* the table's ``drop`` account is debited the currency and markers (legs with no chip);
* the ``cage`` account is debited the chips found in the box, by denomination: the count
  team hands them to the cage, so the cage's chip balance includes them.

A later revision posts only its difference from the revision it replaces (the two sets of
legs, the old one negated, merged): the ledger's balances always equal the current count.
Coupons are counted and kept but are not drop and post nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.double_entry import ZERO
from casino.models import Casino
from tables.accounting.ledger import account_for, ledger_post
from tables.accounting.models import (
    Account,
    BoxDrop,
    CountSignature,
    DropBox,
    SoftCount,
    SoftCountLine,
    Transaction,
)
from tables.accounting.services.counts import chip_counts, counts_total, value_counts
from tables.accounting.services.drop_boxes import counter_check
from tables.accounting.signals import count_signed, money_written
from tables.closed_days import refuse_closed_day

#: Notes the count sorts, per casino currency (US notes; a casino in another currency needs
#: its list here before it can count).
CURRENCY_NOTES = {"USD": tuple(Decimal(v) for v in (1, 2, 5, 10, 20, 50, 100))}
CENT = Decimal("0.01")


def _currency(casino: Casino, raw) -> list[tuple[Decimal, int]]:
    notes = CURRENCY_NOTES.get(casino.currency)
    if notes is None:
        raise ValidationError({"currency": [f"no list of {casino.currency} notes to count yet"]})
    return value_counts(raw or [], {n: n for n in notes}, field="currency", noun="note",
                        where=f"{casino.currency} notes")


def _amount(raw, field: str) -> Decimal:
    try:
        value = Decimal(str(raw if raw not in (None, "") else "0"))
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value < 0 or value != value.quantize(CENT):
        raise ValidationError({field: [f"{raw!r} is not an amount of 0 or more in whole cents"]})
    return value


def box_locked(box: DropBox) -> DropBox:
    """The box, locked; refused when its gaming day is closed (a count's entry and signature start here)."""
    box = DropBox.objects.select_for_update().select_related("table__pit__casino").get(pk=box.pk)
    refuse_closed_day(box.casino_id, box.gaming_day)
    return box


@transaction.atomic
def soft_count_enter(*, box: DropBox, author, currency=None, chips=None, markers=ZERO, coupons=ZERO,
                     reason: str = "", at=None) -> SoftCount:
    """The next revision of ``box``'s count, entered (and so first signed) by ``author``. The
    box must have been dropped; after the first revision a reason is required. An unsigned
    revision may be replaced this way before anyone signs it; it stays, never signed."""
    box = box_locked(box)
    casino = box.table.pit.casino
    counter_check(author, casino, field="counted_by")
    if not BoxDrop.objects.filter(box=box).exists():
        raise ValidationError({"box": [f"the box of {box.table.label} for {box.gaming_day} was never dropped; "
                                       "drop it before counting"]})
    errors = {}
    parsed = {}
    for name, parse in (
        ("currency", lambda: _currency(casino, currency)),
        ("chips", lambda: chip_counts(casino, chips, field="chips", allow_empty=True) if chips else []),
        ("markers", lambda: _amount(markers, "markers")),
        ("coupons", lambda: _amount(coupons, "coupons")),
    ):
        try:
            parsed[name] = parse()
        except ValidationError as exc:
            errors.update(exc.message_dict)
    last = box.counts.order_by("-revision").first()
    reason = (reason or "").strip()
    if last is not None and not reason:
        errors["reason"] = [f"revision {last.revision + 1} of this count needs a reason"]
    if errors:
        raise ValidationError(errors)
    currency_total = sum((value * n for value, n in parsed["currency"]), ZERO)
    chips_total = counts_total(parsed["chips"])
    count = SoftCount.objects.create(
        box=box, revision=(last.revision + 1) if last else 1, reason=reason, counted_by=author,
        counted_at=at or timezone.now(), currency=currency_total, chips=chips_total,
        markers=parsed["markers"], coupons=parsed["coupons"],
        drop=currency_total + chips_total + parsed["markers"])
    SoftCountLine.objects.bulk_create(
        [SoftCountLine(count=count, kind=SoftCountLine.CURRENCY, value=value, quantity=n, amount=value * n)
         for value, n in parsed["currency"]]
        + [SoftCountLine(count=count, kind=SoftCountLine.CHIPS, value=c.denomination.value, denomination=c.denomination,
                         quantity=c.count, amount=c.amount) for c in parsed["chips"]])
    money_written.send(type(count), kind="softcount", instance=count)  # with its lines
    return count


def count_legs(count: SoftCount) -> Iterator[tuple[Account, Decimal, object]]:
    """The ledger legs of ``count`` standing alone (see the module's docstring)."""
    table = count.box.table
    casino = table.pit.casino
    yield account_for(casino, Account.TABLE_RESULT, table), -count.drop, None
    yield account_for(casino, Account.DROP, table), count.currency + count.markers, None
    cage = account_for(casino, Account.CAGE)
    for line in count.lines.filter(kind=SoftCountLine.CHIPS).select_related("denomination"):
        yield cage, line.amount, line.denomination


def _net(legs) -> list[tuple[Account, Decimal, object]]:
    total: dict[tuple, Decimal] = defaultdict(lambda: ZERO)
    keyed = {}
    for account, amount, denomination in legs:
        key = (account.pk, denomination.pk if denomination else None)
        keyed[key] = (account, denomination)
        total[key] += amount
    return [(keyed[k][0], v, keyed[k][1]) for k, v in total.items() if v != 0]


def current_count(box: DropBox) -> SoftCount | None:
    """The box's count as it stands: its latest signed revision."""
    return box.counts.filter(signature__isnull=False).order_by("-revision").first()


@transaction.atomic
def soft_count_sign(*, count: SoftCount, author, at=None) -> CountSignature:
    """The second signature on ``count`` (the box's latest revision), by a counter other than
    the one who entered it; posts the revision's drop, or its difference from the count it
    replaces, to the ledger."""
    box = box_locked(count.box)
    count = SoftCount.objects.select_related("box__table__pit__casino").get(pk=count.pk)
    counter_check(author, box.table.pit.casino, field="signed_by")
    latest = box.counts.order_by("-revision").first()
    if CountSignature.objects.filter(count=count).exists():
        raise ValidationError({"count": [f"revision {count.revision} is already signed"]})
    if latest.pk != count.pk:
        raise ValidationError({"count": [f"revision {count.revision} was replaced by revision "
                                         f"{latest.revision} before it was signed; sign that one"]})
    if count.counted_by_id == author.pk:
        raise ValidationError({"signed_by": [f"{author} entered this count; a second counter signs it"]})
    previous = current_count(box)
    legs = list(count_legs(count))
    if previous is not None:
        legs += [(a, -amount, d) for a, amount, d in count_legs(previous)]
    legs = _net(legs)
    at = at or timezone.now()
    txn = None
    if legs:
        txn = ledger_post(
            casino=box.table.pit.casino, kind=Transaction.COUNT, table=box.table, legs=legs, author=author,
            at=at, gaming_day=box.gaming_day,
            reference=f"count {box.table.label} {box.gaming_day} rev {count.revision}")
    signature = CountSignature.objects.create(count=count, entered_by_id=count.counted_by_id, signed_by=author,
                                              signed_at=at, transaction=txn)
    casino = box.table.pit.casino
    transaction.on_commit(lambda: count_signed.send(sender=CountSignature, casino=casino,
                                                    gaming_day=box.gaming_day, signature=signature))
    return signature
