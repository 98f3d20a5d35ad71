"""Pages say things in people's words: no field name, code or tool name reaches a user where
the glossary (``casino/field_words.py``, docs/floor/words.md) has a label for it.

Every GET page of the URLconf is rendered for every role on the demo's floor (``load_demo``:
both gaming days, a daily report, an investigation, jackpots, findings), and the text a person
sees (tags, scripts, styles and attribute values stripped) is searched for a snake_case or
UPPER_SNAKE identifier and for a code of the glossary written without its underscores
("ruleviolation", "Lastname"). The refusals of the CTR identification form and of a round on
the tablet are searched the same way.
"""

from __future__ import annotations

import copy
import json
import re
from decimal import Decimal
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import NoReverseMatch, reverse

from audit.compliance.models import PatronIdentification
from casino.field_words import GLOSSARY, change_words
from casino.models import Casino
from tables.models import Round
from tables.players.models import Player
from tables.templatetags.words import money, pct, percent
from tests.benchmarks.bench_history import EXTRA, SKIP, _model_of, _routes
from tests.compliance.helpers import t31_floor
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_field_words import ROUND as REFUSED_ROUND
from tests.tables.test_field_words import _open_table

#: An identifier as code writes it: words joined by underscores, any case (``theo_sd``,
#: ``PAY_ABOVE_EXPECTED``, ``tie_LS``, ``bust5_unsuited``).
IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
#: A code of the glossary with its underscores dropped, as ``|cut:"_"`` or a title-casing
#: wrote it ("ruleviolation", "Dateofbirth"), and the CTR form's old "Tin".
_SQUASHED = sorted({code.replace("_", "") for words in GLOSSARY.values() for code in words if "_" in code},
                   key=len, reverse=True)
SQUASHED = re.compile(r"\b(?:" + "|".join(map(re.escape, _SQUASHED)) + r")\b", re.IGNORECASE)
OLD_WORDS = re.compile(r"\bTin\b|\bREADME\b|\bCelery\b|manage\.py|\.py\b")
#: A date or time in Django's default English format, beside the pages' one (2026-11-26 14:05).
OTHER_DATES = re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}\b|\b[ap]\.m\.")

#: The demo's users, one a role.
USERS = ("pitboss", "surveillance", "finance", "manager", "cage", "count", "compliance")


class _Visible(HTMLParser):
    """The text a person reads: character data outside <script>, <style> and <template>."""

    HIDDEN = ("script", "style", "template")

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def codes_in(text: str) -> list[str]:
    """Each identifier, squashed code, tool name or date in another format in ``text``, with a
    little of its context."""
    found = []
    for pattern in (IDENTIFIER, SQUASHED, OLD_WORDS, OTHER_DATES):
        for match in pattern.finditer(text):
            found.append(f"{match.group(0)!r} in …{text[max(0, match.start() - 50):match.end() + 30]}…")
    return found


def test_the_checks_find_what_the_issue_found():
    """The search itself: each example the issue names is caught, people's words are not."""
    for shown in ("theo_sd 283.20", "DEALER_STOPPED_EARLY procedure", "ante_up_21 21", "tie_LS",
                  "bust5_unsuited 41.20", "Lastname", "Dateofbirth", "Documenttype", "Tin",
                  "ruleviolation: 2", "dealer_badge: does not match", "Runs on the Celery workers",
                  "run `manage.py audit_verify`", "See the README", "(tables/accounting/selectors_win.py)",
                  "Gaming day Nov. 26, 2026", "recorded 2:05 p.m."):
        assert codes_in(shown), shown
    assert codes_in("Seat 3, hand 1, 21 bet: Against the table's rules · Theo win's standard "
                    "deviation 1,099.50 · Tie LS (17-19) · Dealer busts with 5 cards, unsuited blackjack · "
                    "SSN or TIN · 2026-11-26 14:05 EST · W-2G") == []


def test_money_and_shares_are_written_one_way():
    assert [money(v) for v in (Decimal("1099.5"), "-358.50", 0, None, "count pending")] == [
        "1,099.50", "-358.50", "0.00", "–", "count pending"]
    assert [percent(v) for v in ("0.300000", "0.0125", "0.003333", None)] == ["30%", "1.25%", "0.33%", "–"]
    assert pct("-12.3621") == "-12.36"


@pytest.mark.parametrize(("path", "words"), [
    ("seats[seat 3].hands[0].cards", "Seat 3, hand 1, cards"),
    ("seats[seat 3].wagers.tie_LS", "Seat 3, Tie LS (17-19)"),
    ("seats[seat 3].even_money", "Seat 3, even money"),
    ("seats[seat 2].paid[0].net", "Seat 2, pay 1, net"),
    ("actions[2].amount", "Action 3, amount"),
])
def test_a_revisions_changed_field_is_said_in_words(path, words):
    """The desk's round page lists what a correction changed by these words, not its JSON path."""
    assert change_words(path) == words and not codes_in(words)


def _pages(casino) -> list[str]:
    """Every GET page's address, its ids filled from the demo (the newest row of each model)."""
    from tables.models import Finding

    urls = []
    for route, pattern in _routes():
        if route.startswith("api/") or any(re.search(rx, route) for rx, _ in SKIP) or not pattern.name:
            continue
        kwargs = {}
        for param in list(getattr(pattern.pattern, "converters", {}) or pattern.pattern.regex.groupindex):
            if param == "pk":
                model = _model_of(route, pattern)
                rows = None if model is None else model._default_manager.order_by("-pk")
                if model is Round:
                    rows = rows.filter(findings__isnull=False)
                elif model is Finding:
                    rows = rows.filter(status=Finding.OPEN)
                row = rows.first() if rows is not None else None
                if row is None:
                    break
                kwargs["pk"] = row.pk
            elif param == "identifier":
                kwargs["identifier"] = Player.objects.filter(casino=casino).order_by("pk").values_list(
                    "identifier", flat=True).first() or "P-1"
            else:
                break  # a file format or other value: not a page
        else:
            try:
                url = reverse(pattern.name, kwargs=kwargs)
            except NoReverseMatch:
                continue
            urls += [url, *(url + query for query in EXTRA.get(pattern.name, []))]
    return urls


@pytest.mark.django_db(transaction=True)  # committed as load_demo commits (the reports run on commit)
def test_no_page_of_any_role_shows_a_code_or_a_field_name():
    call_command("load_demo", "--rounds", "6", stdout=StringIO())
    casino = Casino.objects.get(name="Demo Casino")
    urls = _pages(casino)
    shown, problems = set(), []
    for username in USERS:
        client = Client(raise_request_exception=False)
        client.force_login(get_user_model().objects.get(username=username))
        for url in urls:
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                assert response.status_code < 500, (username, url, response.status_code)
                continue
            shown.add(url)
            problems += [f"{username} {url}: {p}" for p in codes_in(visible_text(response.content.decode()))]
    assert len(shown) >= 40, sorted(shown)  # the floor, the desk, reports, jackpots, accounting, compliance
    assert not problems, "\n".join(sorted(set(problems)))


@pytest.mark.django_db
def test_the_ctr_form_takes_a_us_date_and_answers_a_refusal_in_words_under_the_field():
    f = t31_floor()
    url = reverse("compliance-identification", kwargs={"identifier": "P-1"})
    form = {"casino": f.casino.pk, "last_name": "Doe", "date_of_birth": "31/12/1970", "reason": "ID shown at the cage"}
    refused = api_as(f.compliance).post(url, form, format="multipart")
    assert refused.status_code == 400
    html = refused.content.decode()
    text = visible_text(html)
    assert codes_in(text) == []
    assert "Last name" in text and "Date of birth" in text and "SSN or TIN" in text and "ID document type" in text
    # the error is markup of its own, tied to its field, and what was typed is kept
    assert re.search(r'<input name="date_of_birth" [^>]*aria-invalid="true" aria-describedby="date_of_birth-error"',
                     html), html
    assert re.search(r'<ul class="errorlist field-error" id="date_of_birth-error"><li>&quot;31/12/1970&quot; is not '
                     r'a date: type it as MM/DD/YYYY or YYYY-MM-DD</li></ul>', html), html
    assert 'value="ID shown at the cage"' in html and 'value="31/12/1970"' in html
    assert not PatronIdentification.objects.exists()
    # the same date in the US order is taken
    done = api_as(f.compliance).post(url, {**form, "date_of_birth": "12/31/1970"}, format="multipart")
    assert done.status_code == 302, done.content.decode()
    assert PatronIdentification.objects.get().date_of_birth.isoformat() == "1970-12-31"


@pytest.mark.django_db
def test_a_refused_round_answers_the_tablet_in_words(client):
    pitboss = user_with_role("pit_boss")
    table = _open_table(pitboss)
    client.force_login(pitboss)
    save = reverse("tablet-round-save", args=[table.pk])
    # a card missing, and a round whose pays were not recorded
    unpaid = copy.deepcopy(ROUNDS["ante_up_21"]["correct"][0])
    for seat in unpaid["seats"]:
        seat.pop("paid", None)
    said = []
    for body in ({"round": REFUSED_ROUND}, {"round": unpaid, "pays": "recorded"},
                 {"round": ROUNDS["ante_up_21"]["correct"][0], "pays": "sometimes"}):
        response = client.post(save, json.dumps(body), content_type="application/json")
        assert response.status_code == 400, response.content
        said += response.json()["messages"]
    assert said and not [m for m in said if codes_in(m)], said
    assert any("no pay of the 21 bet recorded" in m for m in said), said
    assert any(m.startswith("Pays: ") for m in said), said
    assert not Round.objects.exists()
