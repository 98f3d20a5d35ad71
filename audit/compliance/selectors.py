"""Reads of Title 31 (README.md beside this package): a gaming day's cash transactions per
patron, the multiple transaction log, the CTRs it requires, structuring flags, unidentified
transactions, and the digest a sign-off keeps.

Cash in is the day's buy-ins of kind cash (markers are credit instruments, chips from another
table are not currency), voided ones excluded; cash out is the cage's cash-outs, voided ones
excluded. The two directions are aggregated separately (31 CFR 1021.313) and never netted.
Both thresholds are strict: a day's total must be *over* the MTL threshold ("over $3,000") and
*more than* the CTR threshold ("more than $10,000", 31 CFR 1021.311) — exactly 3,000.00 or
10,000.00 is neither.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.urls import reverse

from casino.gaming_day import gaming_day_bounds
from casino.models import Casino
from tables.accounting.models import BuyIn
from tables.players.selectors import players_by_identifier

from .models import (
    CASH_IN,
    CASH_OUT,
    CashOut,
    ComplianceSettings,
    CtrException,
    MtlSignOff,
    PatronIdentification,
)

#: A gaming day's three shifts of eight hours from its start hour (day, swing, graveyard): a patron
#: who stays under a threshold in each but passes it over the day is split "across shifts".
SHIFT_HOURS = 8
#: What a CTR (FinCEN Form 112, Part I) needs of the person, with the words shown when missing.
CTR_FIELDS = (("last_name", "last name"), ("first_name", "first name"), ("address", "address"),
              ("date_of_birth", "date of birth"), ("tin", "SSN/TIN"), ("document_type", "identity document type"),
              ("document_number", "identity document number"), ("document_issuer", "identity document issuer"))


def settings_for(casino: Casino) -> ComplianceSettings:
    """The casino's settings, or the defaults (unsaved) when it has none."""
    return ComplianceSettings.objects.filter(casino=casino).first() or ComplianceSettings(casino=casino)


@dataclass(frozen=True)
class Txn:
    source: str  # "buy-in" or "cash-out"
    pk: int
    direction: str
    amount: Decimal
    identifier: str | None
    place: str  # the table's label, or "cage"
    seat: int | None
    recorded_at: datetime
    shift: int

    @property
    def ref(self) -> str:
        return f"{self.source} {self.pk}"


def _shift(at: datetime, start: datetime) -> int:
    return min(3, max(1, int((at - start).total_seconds() // (SHIFT_HOURS * 3600)) + 1))


def day_transactions(casino: Casino, gaming_day: date) -> list[Txn]:
    """Every cash transaction of the day, in time order (voided ones excluded)."""
    start, _ = gaming_day_bounds(gaming_day, casino.time_zone, casino.gaming_day_start_hour)
    # Rows as tuples, not model instances: a busy day's buy-ins run to tens of thousands, and the
    # day's close reads them all.
    txns = [Txn("buy-in", pk, CASH_IN, amount, identifier, label, seat, at, _shift(at, start))
            for pk, amount, identifier, label, seat, at in
            BuyIn.objects.filter(casino=casino, gaming_day=gaming_day, kind=BuyIn.CASH, void__isnull=True)
            .values_list("pk", "amount", "player_identifier", "table__label", "seat", "recorded_at")]
    txns += [Txn("cash-out", pk, CASH_OUT, amount, identifier, "cage", None, at, _shift(at, start))
             for pk, amount, identifier, at in
             CashOut.objects.filter(casino=casino, gaming_day=gaming_day, void__isnull=True)
             .values_list("pk", "amount", "player_identifier", "recorded_at")]
    return sorted(txns, key=lambda t: (t.recorded_at, t.source, t.pk))


def _by_patron(txns, *, by_direction: bool = True) -> dict:
    """The identified transactions per (identifier, direction), or per identifier with
    ``by_direction`` False, in the day's order: grouped once, so that a day of thousands of patrons
    over a threshold is not a pass over every transaction for each."""
    grouped: dict = defaultdict(list)
    for t in txns:
        if t.identifier:
            grouped[(t.identifier, t.direction) if by_direction else t.identifier].append(t)
    return grouped


def _totals(txns) -> dict[tuple[str, str], Decimal]:
    return {key: sum((t.amount for t in own), Decimal(0)) for key, own in _by_patron(txns).items()}


@dataclass
class MtlPatron:
    identifier: str
    name: str
    cash_in: Decimal
    cash_out: Decimal
    over_in: bool
    over_out: bool
    transactions: list[Txn] = field(default_factory=list)


def mtl(casino: Casino, gaming_day: date, *, txns=None, rules=None) -> list[MtlPatron]:
    """Patrons whose cash in or cash out of the day is over the MTL threshold, each with every
    cash transaction of theirs that day (both directions), by identifier."""
    rules = rules or settings_for(casino)
    txns = day_transactions(casino, gaming_day) if txns is None else txns
    totals = _totals(txns)
    over = sorted({i for (i, _d), total in totals.items() if total > rules.mtl_threshold})
    players = players_by_identifier(casino.pk, over)
    mine = _by_patron(txns, by_direction=False)
    patrons = []
    for identifier in over:
        cash_in = totals.get((identifier, CASH_IN), Decimal("0.00"))
        cash_out = totals.get((identifier, CASH_OUT), Decimal("0.00"))
        patrons.append(MtlPatron(identifier, players[identifier].name if identifier in players else "",
                                 cash_in, cash_out, cash_in > rules.mtl_threshold, cash_out > rules.mtl_threshold,
                                 mine[identifier]))
    return patrons


def current_identifications(casino_id: int, identifiers) -> dict[str, PatronIdentification]:
    """Each of ``identifiers``' current identification (their newest row), for those who have one,
    in one query."""
    wanted = list(identifiers)
    if not wanted:
        return {}
    out: dict[str, PatronIdentification] = {}
    for ident in (PatronIdentification.objects.filter(player__casino_id=casino_id, player__identifier__in=wanted)
                  .select_related("player").order_by("player_id", "-recorded_at", "-id")):
        out.setdefault(ident.player.identifier, ident)
    return out


def current_identification(casino_id: int, identifier: str) -> PatronIdentification | None:
    return current_identifications(casino_id, [identifier]).get(identifier)


def identification_missing(ident: PatronIdentification | None, gaming_day: date) -> list[str]:
    """What a CTR still lacks of the patron ([] when complete)."""
    if ident is None:
        return ["identification (none recorded)"]
    missing = [words for name, words in CTR_FIELDS if not getattr(ident, name)]
    if ident.document_expiry is not None and ident.document_expiry < gaming_day:
        missing.append(f"an unexpired identity document (expired {ident.document_expiry})")
    return missing


@dataclass
class Ctr:
    subject: str  # the identifier, or "buy-in 12" for a transaction without one
    identifier: str | None
    direction: str
    total: Decimal
    identification: PatronIdentification | None
    missing: list[str]
    exception: CtrException | None
    transactions: list[Txn]

    @property
    def waiting(self) -> bool:
        return bool(self.missing) and self.exception is None


def ctrs(casino: Casino, gaming_day: date, *, txns=None, rules=None) -> list[Ctr]:
    """The day's required CTRs: a patron's cash in, or cash out, over the CTR threshold (each
    direction its own CTR), and any single transaction over it recorded without an identifier."""
    rules = rules or settings_for(casino)
    txns = day_transactions(casino, gaming_day) if txns is None else txns
    exceptions = {(e.subject, e.direction): e for e in
                  CtrException.objects.filter(casino=casino, gaming_day=gaming_day).order_by("recorded_at", "id")}
    over = [(key, total) for key, total in sorted(_totals(txns).items()) if total > rules.ctr_threshold]
    idents = current_identifications(casino.pk, {identifier for (identifier, _d), _t in over})
    mine = _by_patron(txns)
    found = []
    for (identifier, direction), total in over:
        ident = idents.get(identifier)
        found.append(Ctr(identifier, identifier, direction, total, ident, identification_missing(ident, gaming_day),
                         exceptions.get((identifier, direction)), mine[(identifier, direction)]))
    for t in txns:
        if not t.identifier and t.amount > rules.ctr_threshold:
            found.append(Ctr(t.ref, None, t.direction, t.amount, None, ["the patron's identifier and identification"],
                             exceptions.get((t.ref, t.direction)), [t]))
    return found


@dataclass
class Flag:
    identifier: str
    direction: str
    kind: str  # "near" or "split"
    threshold: str  # "MTL" or "CTR"
    detail: str
    transactions: list[Txn]


def structuring_flags(casino: Casino, gaming_day: date, *, txns=None, rules=None) -> list[Flag]:
    """Patterns compliance looks at (31 CFR 1021.320 asks casinos to report suspicious ones):

    * *near*: ``near_count`` or more transactions of a patron in one direction, each within
      ``band_pct`` % under a threshold (at or below it);
    * *split*: a patron's day total in one direction over a threshold while every table (or the
      cage) in every shift stays at or under it: the threshold is passed only when summed across
      tables or shifts.
    """
    rules = rules or settings_for(casino)
    txns = day_transactions(casino, gaming_day) if txns is None else txns
    thresholds = (("MTL", rules.mtl_threshold), ("CTR", rules.ctr_threshold))
    flags = []
    for (identifier, direction), own in sorted(_by_patron(txns).items()):
        total = sum((t.amount for t in own), Decimal(0))
        for name, limit in thresholds:
            floor = limit * (1 - rules.band_pct / 100)
            near = [t for t in own if floor <= t.amount <= limit]
            if len(near) >= rules.near_count:
                flags.append(Flag(identifier, direction, "near", name,
                                  f"{len(near)} transactions between {floor:,.2f} and {limit:,.2f} (within "
                                  f"{rules.band_pct}% under the {name} threshold)", near))
            groups: dict[tuple[str, int], Decimal] = defaultdict(Decimal)
            for t in own:
                groups[(t.place, t.shift)] += t.amount
            if total > limit and len(groups) > 1 and max(groups.values()) <= limit:
                places = sorted({p for p, _s in groups})
                shifts = sorted({s for _p, s in groups})
                flags.append(Flag(identifier, direction, "split", name,
                                  f"{total:,.2f} over the {name} threshold of {limit:,.2f} only summed across "
                                  f"{', '.join(places)} (shifts {', '.join(map(str, shifts))}); none passes it alone",
                                  own))
    return flags


def unidentified(casino: Casino, gaming_day: date, *, txns=None, rules=None) -> list[Txn]:
    """Transactions recorded without an identifier that are over the MTL threshold on their own."""
    rules = rules or settings_for(casino)
    txns = day_transactions(casino, gaming_day) if txns is None else txns
    return [t for t in txns if not t.identifier and t.amount > rules.mtl_threshold]


def mtl_digest(patrons: list[MtlPatron]) -> str:
    """SHA-256 of the MTL's contents: each patron's transactions (what, amount, direction, where,
    when). A void, a new transaction or a changed threshold that changes the log changes it."""
    body = [[p.identifier, [[t.ref, str(t.amount), t.direction, t.place, t.seat, t.recorded_at.isoformat()]
                            for t in p.transactions]] for p in patrons]
    return hashlib.sha256(json.dumps(body, separators=(",", ":")).encode()).hexdigest()


def latest_sign_off(casino_id: int, gaming_day: date) -> MtlSignOff | None:
    return (MtlSignOff.objects.filter(casino_id=casino_id, gaming_day=gaming_day).select_related("signed_by")
            .order_by("-signed_at", "-id").first())


@dataclass
class ComplianceDay:
    casino: Casino
    gaming_day: date
    rules: ComplianceSettings
    mtl: list[MtlPatron]
    ctrs: list[Ctr]
    flags: list[Flag]
    unidentified: list[Txn]
    digest: str
    sign_off: MtlSignOff | None

    @property
    def signed(self) -> bool:
        return self.sign_off is not None

    @property
    def changed_since_signed(self) -> bool:
        return self.sign_off is not None and self.sign_off.digest != self.digest


def compliance_day(casino: Casino, gaming_day: date) -> ComplianceDay:
    rules = settings_for(casino)
    txns = day_transactions(casino, gaming_day)
    patrons = mtl(casino, gaming_day, txns=txns, rules=rules)
    return ComplianceDay(casino, gaming_day, rules, patrons, ctrs(casino, gaming_day, txns=txns, rules=rules),
                         structuring_flags(casino, gaming_day, txns=txns, rules=rules),
                         unidentified(casino, gaming_day, txns=txns, rules=rules), mtl_digest(patrons),
                         latest_sign_off(casino.pk, gaming_day))


def ctr_close_place(casino_id: int, gaming_day: date) -> tuple[str, str]:
    """Where the close's CTR reasons are settled: the day's compliance page."""
    return (f"{reverse('compliance-day')}?casino={casino_id}&gaming_day={gaming_day:%Y-%m-%d}",
            "Record the identification or an exception on the compliance page")


def ctr_close_check(casino_id: int, gaming_day: date) -> list[str]:
    """The gaming-day close's Title 31 check (registered in apps.py): one line per required CTR
    whose patron is not fully identified and for which compliance recorded no exception."""
    casino = Casino.objects.get(pk=casino_id)
    return [f"a CTR for {c.subject} ({'cash in' if c.direction == CASH_IN else 'cash out'} {c.total:,.2f}) "
            f"lacks {', '.join(c.missing)}: compliance records the identification or an exception"
            for c in ctrs(casino, gaming_day) if c.waiting]
