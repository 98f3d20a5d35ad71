"""Editing a ruleset in the admin leaves a history row with the user and the reason."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.factories import RulesetFactory

pytestmark = pytest.mark.django_db


def _form_data(client, url):
    context = client.get(url).context
    form = context["adminform"].form
    data = {}
    for inline in context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
        for i, sub in enumerate(inline.formset.forms):
            data[f"{inline.formset.prefix}-{i}-id"] = sub.instance.pk
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None:
            continue
        if field.__class__.__name__ == "BooleanField":
            if value:
                data[name] = "on"
            continue
        data[name] = value.pk if hasattr(value, "pk") else value
    return data


def test_admin_ruleset_edit_keeps_history_and_versions(client, manager):
    ruleset = RulesetFactory(game="ante_up_21")
    client.force_login(manager)
    url = reverse("admin:tables_ruleset_change", args=[ruleset.pk])
    data = _form_data(client, url)
    data.update({"setting__dealer_hits_soft_17": "", "change_reason": "Switch to S17 for the new shoe game"})
    data.pop("setting__dealer_hits_soft_17")
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    ruleset.refresh_from_db()
    assert ruleset.config["dealer_hits_soft_17"] is False
    assert ruleset.version == 2
    record = ruleset.history.latest()
    assert (record.history_user, record.history_change_reason) == (manager, "Switch to S17 for the new shoe game")
    history_page = client.get(reverse("admin:tables_ruleset_history", args=[ruleset.pk]))
    assert "Switch to S17 for the new shoe game" in history_page.content.decode()


def test_admin_refuses_bad_setting_with_the_field_named(client, manager):
    ruleset = RulesetFactory(game="ante_up_21")
    client.force_login(manager)
    url = reverse("admin:tables_ruleset_change", args=[ruleset.pk])
    data = _form_data(client, url)
    data.update({"setting__rounding_unit": "0", "change_reason": "try"})
    response = client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "setting__rounding_unit" in errors
    ruleset.refresh_from_db()
    assert ruleset.version == 1


def test_admin_requires_a_reason(client, manager):
    ruleset = RulesetFactory(game="blackjack_tie")
    client.force_login(manager)
    url = reverse("admin:tables_ruleset_change", args=[ruleset.pk])
    data = _form_data(client, url)
    data["change_reason"] = ""
    response = client.post(url, data)
    assert response.status_code == 200
    assert "change_reason" in response.context["adminform"].form.errors


def _li_texts(html: str) -> list[str]:
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", li)).split())
            for li in re.findall(r"<li>(.*?)</li>", html, re.S)]


def test_admin_history_shows_each_changed_setting_before_and_after(client, manager):
    from tables.services.floor import ruleset_update

    ruleset = RulesetFactory(game="blackjack_tie")
    config = {**ruleset.config, "dealer_hits_soft_17": False, "decks": 8,
              "tie_paytable": {**ruleset.config["tie_paytable"], "LS": "20"}}
    ruleset_update(ruleset=ruleset, author=manager, reason="New tie pays for the 8-deck shoe", config=config)
    client.force_login(manager)
    html = client.get(reverse("admin:tables_ruleset_history", args=[ruleset.pk])).content.decode()
    changes = _li_texts(html)
    assert "Dealer hits soft 17: yes → no" in changes
    assert "Decks: 6 → 8" in changes
    assert "Tie paytable LS: 18 → 20" in changes
    assert "chars]" not in html and "{'" not in html  # no shortened dictionaries
    # An unchanged setting is not listed.
    assert not any(text.startswith("Dealer peeks") for text in changes)


def test_admin_versions_list_names_each_version_by_its_own_number(client, manager):
    from tables.services.floor import ruleset_update

    ruleset = RulesetFactory(game="blackjack_tie", name="Tie house rules")
    ruleset_update(ruleset=ruleset, author=manager, reason="8 decks",
                   config={**ruleset.config, "decks": 8})
    client.force_login(manager)
    html = client.get(reverse("admin:tables_rulesetversion_changelist")).content.decode()
    assert "(v2)" not in html, "version 1's row must not carry the ruleset's current version"
    rows = _table_rows(html)
    assert [row[:2] for row in rows] == [["Tie house rules", "2"], ["Tie house rules", "1"]]


def _table_rows(html: str) -> list[list[str]]:
    body = html.split('id="result_list"', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [[" ".join(re.sub(r"<[^>]+>", " ", cell).split())
             for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)] for row in rows]
