"""A casino's chip set, set by a gaming manager (admin and API), with a reason in the history."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from casino.models import Casino
from tables.accounting.models import ChipSet, Denomination
from tables.games.vocabulary.money import MoneyError, to_money

MAX_CHIP = Decimal("9999999999.99")


def denomination_values(raw, field: str = "denominations") -> list[Decimal]:
    """Chip values as a gaming manager gives them: positive, whole cents, each once."""
    if not isinstance(raw, list) or not raw:
        raise ValidationError({field: ["give at least one chip value"]})
    errors, values = {}, []
    for i, item in enumerate(raw):
        try:
            value = to_money(item)  # the money rule: plain decimals, whole cents, never "2.5e1"
        except MoneyError as exc:
            errors[f"{field}[{i}]"] = [f"{item!r}: {exc}"]
            continue
        if value <= 0 or value != value.quantize(Decimal("0.01")) or value > MAX_CHIP:
            errors[f"{field}[{i}]"] = [f"{item}: a chip is worth 0.01 to {MAX_CHIP:,} in whole cents"]
        elif value in values:
            errors[f"{field}[{i}]"] = [f"{value} is given twice"]
        else:
            values.append(value)
    if errors:
        raise ValidationError(errors)
    return sorted(values)


@transaction.atomic
def chip_set_save(*, casino: Casino, name: str, denominations, author, reason: str) -> ChipSet:
    """Create or change ``casino``'s chip set: values not yet in it are added, values left out
    are retired (never deleted: slips and legs name them), retired values given again return."""
    if not (reason or "").strip():
        raise ValidationError({"reason": ["say why the chips change"]})
    if not (name or "").strip():
        raise ValidationError({"name": ["name the chip set"]})
    values = denomination_values(denominations)
    chip_set = ChipSet.objects.select_for_update().filter(casino=casino).first()
    if chip_set is None:
        chip_set = ChipSet(casino=casino)
    if chip_set.pk is None or chip_set.name != name:
        chip_set.name = name
        chip_set._history_user, chip_set._change_reason = author, reason
        chip_set.save()
    have = {d.value: d for d in chip_set.denominations.all()}
    for value in set(values) | set(have):
        denomination = have.get(value) or Denomination(chip_set=chip_set, value=value, active=False)
        wanted = value in values
        if denomination.pk is None or denomination.active != wanted:
            denomination.active = wanted
            denomination._history_user, denomination._change_reason = author, reason
            denomination.save()
    return chip_set
