"""The count room's page: dropping a box is an action that asks first (it cannot be undone), and a
count waiting for its second signature says who must sign instead of offering "Sign" to the
counter who entered it (the four-eyes rule would refuse it)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.gaming_day import current_gaming_day
from tables.accounting.models import BoxDrop, CountSignature
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.soft_count import soft_count_enter
from tests.accounting.drop_floor import drop_floor

pytestmark = pytest.mark.django_db


def _box(html: str, label: str) -> str:
    return html[html.index(f'id="box-{label}"'):].split("</section>")[0]


def test_the_drop_is_an_action_that_asks_first_and_cancel_records_nothing(client):
    f = drop_floor()
    day = current_gaming_day(f.casino, timezone.now())
    client.force_login(f.counter)
    box = _box(client.get(reverse("count-day")).content.decode(), f.table.label)
    assert "Record box drop…" in box and "Box dropped" not in box
    assert 'method="get"' in box  # the button only opens the confirmation
    asked = client.get(reverse("count-drop"), {"table": f.table.pk, "gaming_day": day.isoformat()})
    html = asked.content.decode()
    assert asked.status_code == 200 and f"Record the drop of {f.table.label}'s box?" in html
    assert f"<strong>{day:%Y-%m-%d}</strong>" in html and "This cannot be undone" in html
    assert 'name="confirm" value="yes"' in html and 'id="cancel-drop"' in html
    assert f'href="{reverse("count-day")}?day={day}"' in html  # Cancel goes back to the count
    # A POST without the confirmation (an old form, a double submit) shows the question again.
    again = client.post(reverse("count-drop"), {"table": f.table.pk, "gaming_day": day.isoformat()})
    assert again.status_code == 200 and "This cannot be undone" in again.content.decode()
    assert not BoxDrop.objects.exists()
    done = client.post(reverse("count-drop"), {"table": f.table.pk, "gaming_day": day.isoformat(), "confirm": "yes"},
                       follow=True)
    assert BoxDrop.objects.get().dropped_by == f.counter
    assert f"The box of {f.table.label} for {day} is dropped." in done.content.decode()
    told = client.get(reverse("count-drop"), {"table": f.table.pk, "gaming_day": day.isoformat()}).content.decode()
    assert "was already dropped" in told and 'value="yes"' not in told


def test_only_those_who_may_count_see_the_drop_action(client):
    f = drop_floor()
    client.force_login(f.manager)  # reads the count, never drops
    box = _box(client.get(reverse("count-day")).content.decode(), f.table.label)
    assert "Record box drop…" not in box and "Not dropped yet." in box


def test_the_counter_who_entered_a_count_sees_who_must_sign_not_sign(client):
    f = drop_floor()
    day = current_gaming_day(f.casino, timezone.now())
    box = drop_box_drop(table=f.table, gaming_day=day, author=f.counter)
    count = soft_count_enter(box=box, author=f.counter, currency={"100": 2})
    client.force_login(f.counter)
    mine = _box(client.get(reverse("count-day")).content.decode(), f.table.label)
    assert "Awaiting a second counter's signature — you entered this count" in mine
    assert "sign-count" not in mine and reverse("count-sign", args=[count.pk]) not in mine
    client.post(reverse("count-sign", args=[count.pk]))  # posted anyway: the four-eyes rule still refuses it
    assert not CountSignature.objects.exists()
    client.force_login(f.manager)  # reads it; may not sign
    read = _box(client.get(reverse("count-day")).content.decode(), f.table.label)
    assert "Awaiting a second counter's signature" in read and "sign-count" not in read
    assert "you entered this count" not in read
    client.force_login(f.second_counter)
    theirs = _box(client.get(reverse("count-day")).content.decode(), f.table.label)
    assert "sign-count" in theirs and "Awaiting" not in theirs
    client.post(reverse("count-sign", args=[count.pk]))
    assert CountSignature.objects.get(count=count).signed_by == f.second_counter
