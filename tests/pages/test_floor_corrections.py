"""The floor's forms on the tablet: a refused slip keeps what was typed, badge fields bring up a
keyboard with letters, the slip path opens and closes a table by default, and the slip-less
path asks why and keeps the reason."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.accounting.models import ChipSet, ChipSlip, InventorySlip
from tables.models import TableSession
from tables.services.sessions import table_session_open
from tests.accounting.helpers import floor, opener

pytestmark = pytest.mark.django_db


def _inputs(html: str, prefix: str) -> dict[str, str]:
    """The chip inputs of one form: id -> value ("" when empty)."""
    out = {}
    for tag in re.findall(rf'<input[^>]*id="{prefix}-count-[^"]*"[^>]*>', html):
        value = re.search(r'value="([^"]*)"', tag)
        out[re.search(r'id="([^"]*)"', tag).group(1)] = value.group(1) if value else ""
    return out


def _counts(casino, **by_value):
    """The chip form's fields, blank but for ``v100="7"`` (the 100 chip) and the like."""
    denominations = ChipSet.objects.get(casino=casino).denominations.all()
    fields = {f"count-{d.pk}": "" for d in denominations}
    for d in denominations:
        name = f"{d.value:f}".rstrip("0").rstrip(".").replace(".", "_")
        typed = by_value.get(f"v{name}")
        if typed is not None:
            fields[f"count-{d.pk}"] = typed
    return fields


def test_a_refused_closer_keeps_every_typed_count_and_the_dealer(client):
    f = floor()
    opener(f, [{"denomination": "100", "count": "10"}], at=timezone.now())
    client.force_login(f.boss)
    typed = _counts(f.casino, v100="7", v25="12", v5="40")
    response = client.post(reverse("tablet-chips-closer", args=[f.table.pk]),
                           {**typed, "dealer": f.dealer.pk, "dealer_badge": "D9999"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "dealer_badge" in html  # the refusal says where
    values = _inputs(html, "closer")
    assert values["closer-count-100"] == "7" and values["closer-count-25"] == "12" and values["closer-count-5"] == "40"
    assert values["closer-count-1"] == ""
    # Only the refused form is filled in; the fill and credit forms stay empty.
    assert set(_inputs(html, "fill").values()) == {""}
    assert re.search(rf'<option value="{f.dealer.pk}" selected>', html)
    assert not InventorySlip.objects.filter(kind="closer").exists()


def test_a_refused_opener_and_a_refused_fill_keep_what_was_typed(client):
    f = floor()
    client.force_login(f.boss)
    typed = _counts(f.casino, v100="10", v500="2")
    response = client.post(reverse("tablet-chips-opener", args=[f.table.pk]),
                           {**typed, "dealer": f.dealer.pk, "dealer_badge": "nope"})
    assert response.status_code == 400
    values = _inputs(response.content.decode(), "opener")
    assert values["opener-count-100"] == "10" and values["opener-count-500"] == "2"
    assert not TableSession.objects.exists()
    opener(f, [{"denomination": "100", "count": "10"}], at=timezone.now())
    response = client.post(reverse("tablet-chips-fill", args=[f.table.pk]), _counts(f.casino, v100="-3", v25="4"))
    assert response.status_code == 400
    values = _inputs(response.content.decode(), "fill")
    assert values["fill-count-100"] == "-3" and values["fill-count-25"] == "4"
    assert not ChipSlip.objects.exists()


def test_badge_fields_bring_up_a_keyboard_with_letters(client):
    f = floor()
    client.force_login(f.boss)
    html = client.get(reverse("tablet-chips", args=[f.table.pk])).content.decode()
    badges = re.findall(r'<input[^>]*name="dealer_badge"[^>]*>', html)
    assert badges
    for tag in badges:
        assert 'inputmode="text"' in tag and "numeric" not in tag, tag


def test_the_slip_path_opens_by_default_and_the_slipless_path_asks_why(client):
    f = floor()
    client.force_login(f.boss)
    page = client.get(reverse("tablet-table", args=[f.table.pk])).content.decode()
    primary = re.search(r'<a class="([^"]*)" id="table-chips"[^>]*>Open with an opener</a>', page)
    assert primary and "primary" in primary.group(1)
    button = re.search(r'<button type="submit"([^>]*) id="open-table">', page)
    assert button and "primary" not in button.group(1)
    url = reverse("tablet-table-open", args=[f.table.pk])
    refused = client.post(url, {"dealer": f.dealer.pk}, follow=True).content.decode()
    assert "Reason: Say why the table opens without an opener slip" in refused
    assert not TableSession.objects.exists()
    client.post(url, {"dealer": f.dealer.pk, "reason": "opener slip printer down"})
    session = TableSession.objects.get()
    assert session.history.earliest().history_change_reason == "table opened without an opener: opener slip printer down"


def test_the_close_confirmation_mentions_the_closer_and_closing_without_one_asks_why(client):
    f = floor()
    session = table_session_open(table=f.table, dealer=f.dealer, author=f.boss)
    client.force_login(f.boss)
    close = reverse("tablet-table-close", args=[f.table.pk])
    page = client.get(close).content.decode()
    assert "closes with its <strong>closer</strong>" in page
    assert re.search(r'class="btn primary big" id="close-with-closer" href="[^"]*/chips/#closer"', page)
    refused = client.post(close, {"confirm": "yes", "session": session.pk}).content.decode()
    assert "Reason: Say why the table closes without a closer slip" in refused
    session.refresh_from_db()
    assert session.closed_at is None
    client.post(close, {"confirm": "yes", "session": session.pk, "reason": "closer counted on paper"})
    session.refresh_from_db()
    assert session.closed_at is not None
    assert session.history.latest().history_change_reason == "table closed without a closer: closer counted on paper"
