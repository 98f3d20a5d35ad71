"""Hash chains over the records money and the regulator's figures are computed from.

The chip ledger (transactions with their legs), buy-ins and their voids, opener and closer
slips (with their lines), fills and credits (each state of the slip, a history row, with its
lines), drop boxes and their drops, soft counts (with their lines) and their signatures, the
Title 31 records (cash-outs and their voids, patron identifications, CTR exceptions, MTL
sign-offs) and gaming-day closes and reopens.

One chain per casino and gaming day, ``money:<casino>:<YYYY-MM-DD>``, serialised by a
PostgreSQL advisory lock of its own key space (taken by :func:`link`, held to the end of the
transaction). Closes and reopens go to the casino's ``money:<casino>:closes`` (its own lock):
a day is closed after its final report printed the day's head, so a day's own chain would
move the head the report printed; a close is covered by the head of the day it happened in. The link is written in the transaction that writes the record: for a record with
lines (once its lines are written) and for each state of a fill or credit, by the receiver
of the accounting's ``money_written`` signal, which the service sends; for a record of one
row, by a ``post_save`` receiver (both installed by :func:`connect`). The accounting and
the close import nothing from audit. A day's chain head
(``audit.chain_verify.day_heads``) includes the day's money chain whole, so the final report,
printed once the day is closed (when its counts are in and its records refuse changes),
covers every money record of the day.

Records written before these chains existed were sealed by the upgrade (migration audit
0012) into ``money:<casino>:sealed``, which no day's head covers: the reports printed before
never covered them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.apps import apps
from django.db import connections
from django.db.models.signals import post_save

from casino.gaming_day import gaming_day_of
from casino.models import Casino
from tables import chain
from tables.accounting.signals import money_written
from tables.models import ChainLink

#: The advisory-lock key space of the money chains (closing uses 0x7C1, reports 0x3A7, 0x5E1C).
_CHAIN_LOCK_SPACE = 0x7C3


@dataclass(frozen=True)
class Kind:
    """A kind of money record: its model, where its casino, gaming day and event time are,
    and its lines (model, foreign key to the record, columns), if it has any."""

    kind: str
    model: str
    casino: str
    day: str | None
    at: str
    lines: tuple[str, str, tuple[str, ...]] | None = None
    history: bool = False  # each link covers a history row of the model (a record whose state moves)
    exclude: tuple[str, ...] = ()  # columns set once after the link (their own record is chained)
    on_save: bool = False  # one row, no lines: linked by the post_save receiver
    closes: bool = False  # in the casino's chain of closes and reopens, not the day's

    def model_class(self):
        model = apps.get_model(self.model)
        return model.history.model if self.history else model

    def columns(self) -> list[str]:
        model = self.model_class()
        return [f.attname for f in model._meta.concrete_fields if f.attname not in self.exclude]

    @property
    def key(self) -> str:
        return "history_id" if self.history else "pk"


KINDS: dict[str, Kind] = {k.kind: k for k in (
    Kind("chiptxn", "accounting.Transaction", "casino_id", "gaming_day", "created_at",
         lines=("accounting.Leg", "transaction_id", ("account_id", "denomination_id", "amount"))),
    Kind("buyin", "accounting.BuyIn", "casino_id", "gaming_day", "recorded_at", on_save=True),
    Kind("buyinvoid", "accounting.BuyInVoid", "buy_in__casino_id", "buy_in__gaming_day", "voided_at", on_save=True),
    Kind("invslip", "accounting.InventorySlip", "casino_id", "gaming_day", "recorded_at",
         lines=("accounting.InventoryLine", "slip_id", ("denomination_id", "count", "amount")),
         exclude=("transaction_id",)),
    Kind("chipslip", "accounting.ChipSlip", "casino_id", "gaming_day", "history_date", history=True,
         lines=("accounting.ChipSlipLine", "slip_id", ("denomination_id", "count", "amount"))),
    Kind("dropbox", "accounting.DropBox", "casino_id", "gaming_day", "created_at", on_save=True),
    Kind("boxdrop", "accounting.BoxDrop", "box__casino_id", "box__gaming_day", "dropped_at", on_save=True),
    Kind("softcount", "accounting.SoftCount", "box__casino_id", "box__gaming_day", "counted_at",
         lines=("accounting.SoftCountLine", "count_id", ("kind", "value", "denomination_id", "quantity", "amount"))),
    Kind("countsign", "accounting.CountSignature", "count__box__casino_id", "count__box__gaming_day", "signed_at",
         on_save=True),
    Kind("cashout", "compliance.CashOut", "casino_id", "gaming_day", "recorded_at", on_save=True),
    Kind("cashoutvd", "compliance.CashOutVoid", "cash_out__casino_id", "cash_out__gaming_day", "voided_at",
         on_save=True),
    Kind("patronid", "compliance.PatronIdentification", "player__casino_id", None, "recorded_at", on_save=True),
    Kind("ctrexcept", "compliance.CtrException", "casino_id", "gaming_day", "recorded_at", on_save=True),
    Kind("mtlsignoff", "compliance.MtlSignOff", "casino_id", "gaming_day", "signed_at", on_save=True),
    Kind("dayclose", "closing.DayClose", "casino_id", "gaming_day", "closed_at", on_save=True, closes=True),
    Kind("dayreopen", "closing.DayReopen", "casino_id", "gaming_day", "reopened_at", on_save=True, closes=True),
)}

CHOICES = [(k, f"{KINDS[k].model} record") for k in KINDS]


def money_chain(casino_id: int, day: date | str) -> str:
    return f"money:{casino_id}:{day}"


def sealed_chain(casino_id: int) -> str:
    return f"money:{casino_id}:sealed"


def closes_chain(casino_id: int) -> str:
    return f"money:{casino_id}:closes"


def closes_head(casino_id: int, day: date, end) -> str | None:
    """The casino's chain of closes and reopens as the day's head covers it: its links made
    before the day's ``end``, up to the first that closes or reopens ``day`` or a later day
    (a day's final report prints its head before the day is closed)."""
    links = list(ChainLink.objects.filter(chain=closes_chain(casino_id), created_at__lt=end).order_by("id")
                 .values_list("kind", "ref", "digest"))
    days = {}
    for kind in {k for k, _, _ in links}:
        spec = KINDS[kind]
        days[kind] = dict(apps.get_model(spec.model).objects.filter(pk__in=[r for k, r, _ in links if k == kind])
                          .values_list("pk", spec.day))
    head = None
    for kind, ref, digest in links:
        closed = days[kind].get(ref)
        if closed is not None and closed >= day:
            break
        head = digest
    return head


def _lock(casino_id: int, day: date | None, using: str) -> None:
    """The chain's lock: per casino and gaming day; ordinal 0 for the casino's closes."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return  # SQLite serialises writers
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)",
                       [(_CHAIN_LOCK_SPACE << 48) | (int(casino_id) << 20) | (day.toordinal() if day else 0)])


def records(kind: str, refs: Iterable[int], *, using: str = "default") -> dict[int, tuple[str, int, date, object]]:
    """Each ref's canonical text as the database holds it now, with its casino, gaming day
    and event time (missing refs absent). The writer and the verifier both read here, so a
    link's text is the database's, not the caller's objects'."""
    spec = KINDS[kind]
    refs = list(refs)
    if not refs:
        return {}
    model = spec.model_class()
    columns = spec.columns()
    place = [spec.casino, spec.at] + ([spec.day] if spec.day else [])
    rows = model.objects.using(using).filter(**{f"{spec.key}__in": refs}).values_list(spec.key, *place, *columns)
    out = {}
    owners = {}
    for row in rows:
        ref, casino_id, at, *rest = row
        day = rest.pop(0) if spec.day else None
        values = dict(zip(columns, rest, strict=True))
        out[ref] = [casino_id, day, at, values]
        owners[ref] = values["id"]
    lines: dict[int, list] = {}
    if spec.lines:
        line_model, fk, fields = spec.lines
        for owner, *values in apps.get_model(line_model).objects.using(using).filter(
                **{f"{fk}__in": set(owners.values())}).order_by("id").values_list(fk, *fields):
            lines.setdefault(owner, []).append(values)
    if spec.day is None:
        _days_of(out, using)
    result = {}
    for ref, (casino_id, day, at, values) in out.items():
        body = [values[c] for c in columns]
        if spec.lines:
            body.append(lines.get(owners[ref], []))
        result[ref] = (chain.canonical(body), casino_id, day, at)
    return result


def _days_of(out: dict, using: str) -> None:
    """Gaming days of records that carry none (a patron's identification): of their time."""
    casinos = {c.pk: c for c in Casino.objects.using(using).filter(pk__in={v[0] for v in out.values()})}
    for value in out.values():
        casino = casinos[value[0]]
        value[1] = gaming_day_of(value[2], casino.time_zone, casino.gaming_day_start_hour)


def link(kind: str, refs: Iterable[int], *, using: str = "default") -> None:
    """Link these records (rows of ``kind``, or history rows for a kind kept by history) to
    their casino's gaming-day money chain, in this transaction, under the chain's lock."""
    found = records(kind, refs, using=using)
    closes = KINDS[kind].closes
    by_chain: dict[tuple[int, date | None], list] = {}
    for ref in sorted(found):
        text, casino_id, day, at = found[ref]
        if isinstance(day, str):
            day = date.fromisoformat(day)
        by_chain.setdefault((casino_id, None if closes else day), []).append((kind, ref, text, at))
    for casino_id, day in sorted(by_chain, key=lambda k: (k[0], k[1] or date.min)):
        _lock(casino_id, day, using)
        name = closes_chain(casino_id) if day is None else money_chain(casino_id, day)
        # Read after the lock is held, in its own statement (see chain.head_subquery).
        chain.append(name, chain.chain_head(name, using=using), by_chain[(casino_id, day)], using=using)


def link_state(kind: str, instance, *, using: str | None = None) -> None:
    """Link the newest history row of ``instance`` (a record whose state moves, as a fill does)."""
    history = KINDS[kind].model_class()
    using = using or instance._state.db or "default"
    newest = history.objects.using(using).filter(id=instance.pk).order_by("-history_id").values_list(
        "history_id", flat=True).first()
    link(kind, [newest], using=using)


def _on_written(sender, *, kind, instance, **kwargs) -> None:
    if kind in KINDS and KINDS[kind].history:
        link_state(kind, instance)
    else:
        link(kind, [instance.pk], using=instance._state.db or "default")


def _on_save(sender, instance, created, using, **kwargs) -> None:
    kind = _SAVED.get(sender)
    if kind is not None and created:
        link(kind, [instance.pk], using=using)


_SAVED: dict = {}


def connect() -> None:
    """Install the receivers that link money records when they are written (AppConfig.ready):
    the accounting's ``money_written`` for records with lines and fills' states, ``post_save``
    for records of one row."""
    money_written.connect(_on_written, dispatch_uid="money_chain_written")
    for spec in KINDS.values():
        if spec.on_save:
            model = apps.get_model(spec.model)
            _SAVED[model] = spec.kind
            post_save.connect(_on_save, sender=model, dispatch_uid=f"money_chain_{spec.kind}")


# --- Verifying and sealing ---------------------------------------------------------------


def texts(kind: str, refs: list[int]) -> dict[int, str]:
    return {ref: value[0] for ref, value in records(kind, refs).items()}


def unlinked(linked: dict[str, set[int]]) -> list[str]:
    """Money records no link covers, and fills or credits not in the state their last
    linked history row gives them."""
    problems = []
    for spec in KINDS.values():
        model = spec.model_class()
        have = linked.get(spec.kind, set())
        for ref in model.objects.exclude(**{f"{spec.key}__in": have}).values_list(spec.key, flat=True):
            problems.append(f"{spec.model} {'history row ' if spec.history else ''}{ref} has no link: "
                            "written behind the app's back")
        if spec.history:
            problems.extend(_states_differ(spec, have))
    return problems


def _states_differ(spec: Kind, linked_history: set[int]) -> list[str]:
    model = apps.get_model(spec.model)
    columns = [f.attname for f in model._meta.concrete_fields]
    last = {}
    for row in spec.model_class().objects.filter(history_id__in=linked_history).order_by("history_id") \
            .values_list("id", *columns):
        last[row[0]] = row[1:]
    problems = []
    for row in model.objects.values_list("id", *columns).iterator(chunk_size=2000):
        if last.get(row[0]) != row[1:]:
            problems.append(f"{spec.model} {row[0]} is not in the state its last linked history row records")
    return problems


def seal_existing() -> int:
    """Link every money record written before these chains, per casino in the order it
    happened, into ``money:<casino>:sealed`` (run once, by migration audit 0012)."""
    events: dict[int, list[tuple]] = {}
    for order, spec in enumerate(KINDS.values()):
        refs = list(spec.model_class().objects.values_list(spec.key, flat=True))
        for start in range(0, len(refs), 2000):
            for ref, (text, casino_id, _day, at) in records(spec.kind, refs[start:start + 2000]).items():
                events.setdefault(casino_id, []).append((at, order, ref, spec.kind, text))
    written = 0
    for casino_id in sorted(events):
        name = sealed_chain(casino_id)
        if ChainLink.objects.filter(chain=name).exists():
            raise RuntimeError(f"{name} already has links: the seal runs once")
        previous = chain.GENESIS
        ordered = sorted(events[casino_id], key=lambda e: e[:3])
        for start in range(0, len(ordered), 1000):
            previous = chain.append(name, previous, [(kind, ref, text, at)
                                                     for at, _, ref, kind, text in ordered[start:start + 1000]])
        written += len(ordered)
    return written
