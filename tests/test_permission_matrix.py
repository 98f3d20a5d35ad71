"""Every page and endpoint against every role: allowed, or 403 / redirect to the login page.

The last test fails when a URL is added without a row here, so the matrix stays complete.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from casino.roles import (
    ALL_ROLES,
    CAGE,
    COMPLIANCE,
    COUNT,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    SURVEILLANCE,
)
from tests.conftest import AUTHS, FAST_HASHERS, api_as, client_as, make_role_users, seed_rows
from tests.factories import DealerFactory, TableFactory, user_with_role

ANYONE = "anyone"  # no login needed
LOGGED_IN = "logged_in"  # any authenticated user, even without a role
EVERY_ROLE = ALL_ROLES
WRITERS = (GAMING_MANAGER,)

#: url name -> list of (method, allowed, kind) where kind is "page" (anonymous -> login redirect),
#: "api" (anonymous -> 401/403) or "action" (a form post that redirects whoever sends it).
MATRIX: dict[str, list[tuple[str, object, str]]] = {
    "home": [("get", LOGGED_IN, "page")],
    "healthz": [("get", ANYONE, "page")],
    "login": [("get", ANYONE, "page")],
    "logout": [("post", ANYONE, "action")],
    "floor": [("get", EVERY_ROLE, "page")],
    "api-schema": [("get", EVERY_ROLE, "api")],
    "api-docs": [("get", EVERY_ROLE, "api")],
    "api-redoc": [("get", EVERY_ROLE, "api")],
    "api-root": [("get", EVERY_ROLE, "api")],
}
for _basename in ("casino", "pit", "table", "dealer", "ruleset"):
    MATRIX[f"{_basename}-list"] = [("get", EVERY_ROLE, "api"), ("post", WRITERS, "api")]
    MATRIX[f"{_basename}-detail"] = [("get", EVERY_ROLE, "api"), ("patch", WRITERS, "api"), ("put", WRITERS, "api")]
    MATRIX[f"{_basename}-history"] = [("get", EVERY_ROLE, "api")]
MATRIX["ruleset-versions"] = [("get", EVERY_ROLE, "api")]
MATRIX.update({
    "tablesession-list": [("get", EVERY_ROLE, "api"), ("post", (PIT_BOSS,), "api")],
    "tablesession-detail": [("get", EVERY_ROLE, "api")],
    "tablesession-close": [("post", (PIT_BOSS,), "api")],
    "tablesession-dealer": [("post", (PIT_BOSS,), "api")],
    "round-list": [("get", EVERY_ROLE, "api"), ("post", (PIT_BOSS,), "api")],
    "round-detail": [("get", EVERY_ROLE, "api")],
    "round-revisions": [("get", EVERY_ROLE, "api")],
    "round-corrections": [("post", (PIT_BOSS, GAMING_MANAGER), "api")],
    "round-void": [("post", (PIT_BOSS, GAMING_MANAGER), "api")],
    "finding-list": [("get", (SURVEILLANCE, GAMING_MANAGER, FINANCE), "api")],
    "finding-detail": [("get", (SURVEILLANCE, GAMING_MANAGER, FINANCE), "api")],
    "finding-review": [("post", (SURVEILLANCE,), "api")],
})
# The pit boss's tablet and the surveillance desk (pages; JSON endpoints answer like pages).
MATRIX.update({
    "tablet-floor": [("get", (PIT_BOSS,), "page")],
    "tablet-table": [("get", (PIT_BOSS,), "page")],
    "tablet-table-open": [("post", (PIT_BOSS,), "page")],
    "tablet-table-close": [("get", (PIT_BOSS,), "page"), ("post", (PIT_BOSS,), "page")],
    "tablet-table-dealer": [("post", (PIT_BOSS,), "page")],
    "tablet-round-new": [("get", (PIT_BOSS,), "page")],
    "tablet-round-preview": [("post", (PIT_BOSS, GAMING_MANAGER), "page")],
    "tablet-round-save": [("post", (PIT_BOSS,), "page")],
    "tablet-holdem-next": [("post", (PIT_BOSS, GAMING_MANAGER), "page")],
    "tablet-round": [("get", (PIT_BOSS, GAMING_MANAGER), "page")],
    "tablet-round-correct": [("get", (PIT_BOSS, GAMING_MANAGER), "page")],
    "desk-queue": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
    "desk-round": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
    "desk-finding-review": [("post", (SURVEILLANCE,), "page")],
    "desk-dealers": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
    "desk-dealer": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
    "desk-patterns": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
})
# Advantage play (issue #19 point 4): the desk's readers only.
MATRIX.update({
    "desk-advantage": [("get", (SURVEILLANCE, GAMING_MANAGER), "page")],
    "advantage-play": [("get", (SURVEILLANCE, GAMING_MANAGER), "api")],
})
# Jackpots (issue #7): meters for everyone, money for finance and gaming managers.
_JACKPOT_READERS = (FINANCE, GAMING_MANAGER)
MATRIX.update({
    "jackpot-bank-list": [("get", EVERY_ROLE, "api"), ("post", WRITERS, "api")],
    "jackpot-bank-detail": [("get", EVERY_ROLE, "api")],
    "jackpot-bank-configs": [("get", EVERY_ROLE, "api")],
    "jackpot-bank-configure": [("post", WRITERS, "api")],
    "jackpot-bank-tables": [("post", WRITERS, "api")],
    "jackpot-bank-limit": [("post", WRITERS, "api")],
    "jackpot-bank-ledger": [("get", _JACKPOT_READERS, "api")],
    "jackpot-bank-recompute": [("get", (FINANCE, GAMING_MANAGER, SURVEILLANCE), "api")],
    "jackpot-meter-list": [("get", EVERY_ROLE, "api")],
    "jackpot-award-list": [("get", EVERY_ROLE, "api")],
    "jackpot-award-detail": [("get", EVERY_ROLE, "api")],
    "jackpot-award-pay": [("post", (PIT_BOSS, GAMING_MANAGER), "api")],
    "jackpot-adjustment-list": [("get", _JACKPOT_READERS, "api"), ("post", _JACKPOT_READERS, "api")],
    "jackpot-adjustment-detail": [("get", _JACKPOT_READERS, "api")],
    "jackpot-adjustment-decide": [("post", WRITERS, "api")],
    "jackpot-liability-list": [("get", _JACKPOT_READERS, "api")],
    "jackpot-liability-csv": [("get", _JACKPOT_READERS, "api")],
    "jackpots-board": [("get", EVERY_ROLE, "page")],
    "jackpots-banks": [("get", EVERY_ROLE, "page"), ("post", WRITERS, "page")],
    "jackpots-award-pay": [("get", (PIT_BOSS, GAMING_MANAGER), "page")],
    "jackpots-ledger": [("get", _JACKPOT_READERS, "page")],
    "jackpots-report": [("get", _JACKPOT_READERS, "page")],
    "jackpots-report-csv": [("get", _JACKPOT_READERS, "page")],
    "jackpots-adjustments": [("get", _JACKPOT_READERS, "page"), ("post", _JACKPOT_READERS, "page")],
    "jackpots-adjustment-decide": [("get", WRITERS, "page"), ("post", WRITERS, "page")],
})
# Daily reconciliation (issue #8): finance and gaming managers run and download; surveillance reads.
_REPORT_READERS, _REPORT_RUNNERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE), (FINANCE, GAMING_MANAGER)
MATRIX.update({
    "dailyreport-list": [("get", _REPORT_READERS, "api"), ("post", _REPORT_RUNNERS, "api")],
    "dailyreport-detail": [("get", _REPORT_READERS, "api")],
    "dailyreport-rerun": [("post", _REPORT_RUNNERS, "api")],
    "dailyreport-download": [("get", _REPORT_RUNNERS, "api")],
    "dailyreport-provisional": [("get", _REPORT_RUNNERS, "api"), ("post", _REPORT_RUNNERS, "api")],
    "reports-today": [("get", _REPORT_RUNNERS, "page"), ("post", _REPORT_RUNNERS, "page")],
    "reports": [("get", _REPORT_READERS, "page"), ("post", _REPORT_RUNNERS, "page")],
    "reports-day": [("get", _REPORT_READERS, "page")],
    "reports-progress": [("get", _REPORT_READERS, "page")],
    "reports-file": [("get", _REPORT_RUNNERS, "page")],
    "reports-period": [("get", _REPORT_RUNNERS, "page")],
})
# API tokens (issue #14): gaming managers issue and revoke them on a page.
MATRIX.update({
    "api-tokens": [("get", WRITERS, "page"), ("post", WRITERS, "page")],
    "api-token-revoke": [("get", WRITERS, "page"), ("post", WRITERS, "page")],
})
# Table accounting (issue #16): the tablet's chips, the cage, the day's slips and exceptions.
_SLIP_READERS, _VOIDERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE, CAGE), (PIT_BOSS, CAGE, GAMING_MANAGER)
_FINDING_READERS = (SURVEILLANCE, FINANCE, GAMING_MANAGER, COMPLIANCE)
MATRIX.update({
    "chipset-list": [("get", EVERY_ROLE, "api"), ("post", WRITERS, "api")],
    "chipset-detail": [("get", EVERY_ROLE, "api")],
    "chipset-history": [("get", EVERY_ROLE, "api")],
    "inventoryslip-list": [("get", EVERY_ROLE, "api"), ("post", (PIT_BOSS,), "api")],
    "inventoryslip-detail": [("get", EVERY_ROLE, "api")],
    "chipslip-list": [("get", EVERY_ROLE, "api"), ("post", (PIT_BOSS,), "api")],
    "chipslip-detail": [("get", EVERY_ROLE, "api")],
    "chipslip-issue": [("post", (CAGE,), "api")],
    "chipslip-receive": [("post", (PIT_BOSS,), "api")],
    "chipslip-void": [("post", _VOIDERS, "api")],
    "chipslip-void-confirm": [("post", _VOIDERS, "api")],
    "accountingfinding-list": [("get", _FINDING_READERS, "api")],
    "accountingfinding-detail": [("get", _FINDING_READERS, "api")],
    "tablet-chips": [("get", (PIT_BOSS,), "page")],
    "tablet-chips-opener": [("post", (PIT_BOSS,), "page")],
    "tablet-chips-closer": [("post", (PIT_BOSS,), "page")],
    "tablet-chips-fill": [("post", (PIT_BOSS,), "page")],
    "tablet-chips-credit": [("post", (PIT_BOSS,), "page")],
    "tablet-slip-receive": [("post", (PIT_BOSS,), "page")],
    "slip-void": [("post", _VOIDERS, "page")],
    "slip-void-confirm": [("post", _VOIDERS, "page")],
    "cage": [("get", (CAGE,), "page")],
    "cage-issue": [("post", (CAGE,), "page")],
    "accounting-day": [("get", _SLIP_READERS, "page")],
    "accounting-day-file": [("get", _SLIP_READERS, "page")],
    "accounting-exceptions-file": [("get", _SLIP_READERS, "page")],
})
# Buy-ins, drop boxes and the count (issue #16): buy-ins for every role to read; the count for
# the count room and those who check it; finance may drop and count (refused with a field
# error unless the casino's count settings say it has no count team).
_COUNT_READERS, _COUNTERS = (COUNT, FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE), (COUNT, FINANCE)
MATRIX.update({
    "buyin-list": [("get", EVERY_ROLE, "api"), ("post", (PIT_BOSS,), "api")],
    "buyin-detail": [("get", EVERY_ROLE, "api")],
    "buyin-void": [("post", (PIT_BOSS, GAMING_MANAGER), "api")],
    "buyin-estimated-drop": [("get", EVERY_ROLE, "api")],
    "buyin-export": [("get", EVERY_ROLE, "api")],
    "dropbox-list": [("get", _COUNT_READERS, "api")],
    "dropbox-detail": [("get", _COUNT_READERS, "api")],
    "dropbox-drop": [("post", _COUNTERS, "api")],
    "dropbox-counts": [("post", _COUNTERS, "api")],
    "softcount-list": [("get", _COUNT_READERS, "api")],
    "softcount-detail": [("get", _COUNT_READERS, "api")],
    "softcount-sign": [("post", _COUNTERS, "api")],
    "softcount-export": [("get", _COUNT_READERS, "api")],
    "tablet-buy-ins": [("get", (PIT_BOSS,), "page"), ("post", (PIT_BOSS,), "page")],
    "count-day": [("get", _COUNT_READERS, "page")],
    "count-drop": [("get", _COUNTERS, "page"), ("post", _COUNTERS, "page")],
    "count-enter": [("post", _COUNTERS, "page")],
    "count-sign": [("post", _COUNTERS, "page")],
})
# Hold by period and fluctuation investigations (issue #17 point 4): finance, gaming managers and
# surveillance read holds; compliance also reads investigations; finance and gaming managers own
# and conclude them; gaming managers sign off and set the bounds. Pit bosses, cage and count: 403.
_HOLD_READERS, _INVESTIGATION_READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE), (FINANCE, GAMING_MANAGER,
                                                                                 SURVEILLANCE, COMPLIANCE)
_OWNERS = (FINANCE, GAMING_MANAGER)
MATRIX.update({
    "fluctuations-holds": [("get", _HOLD_READERS, "page")],
    "fluctuations-holds-file": [("get", _HOLD_READERS, "page")],
    "investigations": [("get", _INVESTIGATION_READERS, "page")],
    "investigations-file": [("get", _INVESTIGATION_READERS, "page")],
    "investigations-check": [("post", _OWNERS, "page")],
    "investigation": [("get", _INVESTIGATION_READERS, "page")],
    "investigation-file": [("get", _INVESTIGATION_READERS, "page")],
    "investigation-act": [("post", _OWNERS, "page")],
    "fluctuationsettings-list": [("get", _INVESTIGATION_READERS, "api"), ("post", WRITERS, "api")],
    "fluctuationsettings-detail": [("get", _INVESTIGATION_READERS, "api")],
    "investigation-api-list": [("get", _INVESTIGATION_READERS, "api")],
    "investigation-api-detail": [("get", _INVESTIGATION_READERS, "api")],
    "investigation-api-assign": [("post", _OWNERS, "api")],
    "investigation-api-conclude": [("post", _OWNERS, "api")],
    "investigation-api-sign-off": [("post", WRITERS, "api")],
    "investigation-api-send-back": [("post", WRITERS, "api")],
    "investigation-api-check": [("post", _OWNERS, "api")],
    "periodhold-list": [("get", _HOLD_READERS, "api")],
})
# The gaming-day close (issue #17 point 5): finance, surveillance, compliance and gaming managers
# read the close and reopen history; only a gaming manager reopens.
_CLOSE_READERS = (FINANCE, SURVEILLANCE, COMPLIANCE, GAMING_MANAGER)
MATRIX.update({
    "closing-days": [("get", _CLOSE_READERS, "page")],
    "closing-reopen": [("get", (GAMING_MANAGER,), "page"), ("post", (GAMING_MANAGER,), "page")],
    "dayclose-list": [("get", _CLOSE_READERS, "api")],
    "dayclose-detail": [("get", _CLOSE_READERS, "api")],
    "dayclose-status": [("get", _CLOSE_READERS, "api")],
    "dayclose-reopen": [("post", (GAMING_MANAGER,), "api")],
})
# Title 31 (issue #19 point 3): compliance and gaming managers read the day's MTL, CTRs and flags;
# compliance alone reads and records identification, signs the MTL and records CTR exceptions; the
# cage records cash-outs (finance reads them too); settings: gaming managers and compliance.
_T31_READERS, _CASH_OUT_READERS = (COMPLIANCE, GAMING_MANAGER), (CAGE, COMPLIANCE, GAMING_MANAGER, FINANCE)
MATRIX.update({
    "compliance-day": [("get", _T31_READERS, "page")],
    "compliance-mtl-file": [("get", _T31_READERS, "page")],
    "compliance-sign-off": [("post", (COMPLIANCE,), "page")],
    "compliance-ctr-exception": [("post", (COMPLIANCE,), "page")],
    "compliance-identification": [("get", (COMPLIANCE,), "page"), ("post", (COMPLIANCE,), "page")],
    "cage-cash-outs": [("get", (CAGE, COMPLIANCE, GAMING_MANAGER), "page"), ("post", (CAGE,), "page")],
    "cage-cash-out-void": [("post", (CAGE, GAMING_MANAGER), "page")],
    "compliancesettings-list": [("get", _T31_READERS, "api"), ("post", _T31_READERS, "api")],
    "compliancesettings-detail": [("get", _T31_READERS, "api")],
    "cashout-list": [("get", _CASH_OUT_READERS, "api"), ("post", (CAGE,), "api")],
    "cashout-detail": [("get", _CASH_OUT_READERS, "api")],
    "cashout-void": [("post", (CAGE, GAMING_MANAGER), "api")],
    "identification-list": [("get", (COMPLIANCE,), "api"), ("post", (COMPLIANCE,), "api")],
    "identification-detail": [("get", (COMPLIANCE,), "api")],
    "complianceday-mtl": [("get", _T31_READERS, "api")],
    "complianceday-sign-off": [("post", (COMPLIANCE,), "api")],
    "complianceday-ctr-exception": [("post", (COMPLIANCE,), "api")],
})
# Players and ratings (issue #19): every role reads players (names only for some: tests/players);
# pit bosses, gaming managers and compliance register and change them; ratings for the roles that
# comp, check or watch play; the pit boss's pages for pit bosses and gaming managers.
_PLAYER_WRITERS, _RATING_READERS = (PIT_BOSS, GAMING_MANAGER, COMPLIANCE), (PIT_BOSS, GAMING_MANAGER, FINANCE,
                                                                           SURVEILLANCE, COMPLIANCE)
MATRIX.update({
    "player-list": [("get", EVERY_ROLE, "api"), ("post", _PLAYER_WRITERS, "api")],
    "player-detail": [("get", EVERY_ROLE, "api")],
    "player-change": [("post", _PLAYER_WRITERS, "api")],
    "player-ratings": [("get", _RATING_READERS, "api")],
    "rating-list": [("get", _RATING_READERS, "api")],
    "rating-csv": [("get", _RATING_READERS, "api")],
    "rating-identifier": [("get", _RATING_READERS, "api")],
    "players": [("get", (PIT_BOSS, GAMING_MANAGER), "page"), ("post", (PIT_BOSS, GAMING_MANAGER), "page")],
    "players-top": [("get", (PIT_BOSS, GAMING_MANAGER), "page")],
    "player": [("get", (PIT_BOSS, GAMING_MANAGER), "page"), ("post", (PIT_BOSS, GAMING_MANAGER), "page")],
})
#: URL name -> its URL's arguments, when they are not an object's pk (a list-level action takes none).
PAGE_KWARGS = {"accounting-day-file": {"fmt": "xlsx"}, "accounting-exceptions-file": {"fmt": "csv"},
               **dict.fromkeys(("buyin-estimated-drop", "buyin-export", "dropbox-drop", "softcount-export",
                                "dayclose-status"), {}),
               "fluctuations-holds-file": {"fmt": "csv"}, "investigations-file": {"fmt": "pdf"},
               "investigation-file": {"fmt": "pdf"}, "investigation-api-check": {},
               "compliance-mtl-file": {"fmt": "csv"}, "compliance-identification": {"identifier": "MATRIX-1"},
               "rating-identifier": {"identifier": "MATRIX-1"}}
_ACCOUNTING_OBJECTS = ("chipset", "inventoryslip", "chipslip", "accountingfinding", "buyin", "dropbox", "softcount",
                       "fluctuationsettings", "investigation-api", "cashout", "identification", "compliancesettings")
#: Page URL name -> the `floor` object its pk names.
PAGE_OBJECTS = {
    **dict.fromkeys(("tablet-chips", "tablet-chips-opener", "tablet-chips-closer", "tablet-chips-fill",
                     "tablet-chips-credit"), "table"),
    **dict.fromkeys(("tablet-slip-receive", "slip-void", "slip-void-confirm", "cage-issue", "chipslip-void-confirm"),
                    "chipslip"),
    "jackpots-award-pay": "jackpot-award", "jackpots-adjustment-decide": "jackpot-adjustment",
    "tablet-table": "table", "tablet-table-open": "table", "tablet-table-close": "table",
    "tablet-table-dealer": "table", "tablet-round-new": "table", "tablet-round-preview": "table",
    "tablet-round-save": "table", "tablet-holdem-next": "table", "tablet-round": "round",
    "tablet-round-correct": "own_round", "desk-round": "round", "desk-finding-review": "finding",
    "desk-dealer": "dealer", "api-token-revoke": "api_token", "player": "player", "cage-cash-out-void": "cashout",
    "tablet-buy-ins": "table", "count-enter": "dropbox", "count-sign": "softcount", "closing-reopen": "dayclose",
    **dict.fromkeys(("investigation", "investigation-file", "investigation-act", "investigation-api-sign-off",
                     "investigation-api-send-back"), "investigation"),
    **dict.fromkeys(("dailyreport-detail", "dailyreport-rerun", "dailyreport-download", "reports-day",
                     "reports-progress", "reports-file"), "dailyreport"),
}

ALL_USERS = (None, *ALL_ROLES, "norole", "superuser")


def _url_names(resolver=None, prefix="") -> set[str]:
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue  # the admin is covered by test_admin_by_role
            names |= _url_names(entry, prefix)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(entry.name)
    return names


@pytest.fixture
def floor(db):
    return _floor()


def _floor() -> dict:
    """A table's floor with one object of every kind a URL names (in the caller's transaction)."""
    from tables.services.rounds import round_record
    from tables.services.sessions import table_session_open
    from tests.accounting.matrix_objects import accounting_matrix_objects
    from tests.closing.matrix_objects import closing_matrix_objects
    from tests.compliance.matrix_objects import compliance_matrix_objects
    from tests.factories import player_for
    from tests.fluctuations.matrix_objects import fluctuation_matrix_objects
    from tests.jackpots.matrix_objects import jackpot_matrix_objects
    from tests.reports.matrix_objects import report_matrix_objects
    from tests.tables.rounds_data import ROUNDS

    table = TableFactory()
    dealer = DealerFactory(casino=table.pit.casino)
    recorder = user_with_role("pit_boss", username="recorder")
    session = table_session_open(table=table, dealer=dealer, author=recorder)
    audited = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=recorder)
    # A round of the role matrix's own pit boss: pit bosses correct only their own entries.
    own = round_record(table=table, data=ROUNDS["ante_up_21"]["correct"][0], author=user_with_role("pit_boss"))
    from casino.tokens import api_token_issue

    tablet = user_with_role("pit_boss", username="matrix-tablet")
    tablet.set_unusable_password()  # a service account: a gaming manager may revoke its tokens
    tablet.save()

    return {"table": table, "dealer": dealer, "tablesession": session, "round": audited.round,
            "api_token": api_token_issue(user=tablet, author=None, name="matrix")[0],
            "finding": audited.round.findings.first(), "own_round": own.round,
            "player": player_for(table.pit.casino, "P-MATRIX", name="Matrix Player"), **jackpot_matrix_objects(),
            **report_matrix_objects(table.pit.casino), **accounting_matrix_objects(table, recorder),
            **fluctuation_matrix_objects(table), **closing_matrix_objects(table.pit.casino),
            **compliance_matrix_objects(table, recorder)}


def _kwargs(name: str, floor) -> dict:
    if name in PAGE_OBJECTS:  # with the file's format, for an object's file
        return {"pk": floor[PAGE_OBJECTS[name]].pk, **PAGE_KWARGS.get(name, {})}
    if name in PAGE_KWARGS:
        return PAGE_KWARGS[name]
    basename, _, suffix = name.rpartition("-")
    if suffix in ("list", "root", "schema", "docs", "redoc") or not basename:
        return {}
    table = floor["table"]
    objects = {"casino": table.pit.casino, "pit": table.pit, "table": table, "dealer": floor["dealer"],
               "ruleset": table.ruleset, "tablesession": floor["tablesession"], "round": floor["round"],
               "finding": floor["finding"], **{k: v for k, v in floor.items() if k.startswith("jackpot-")},
               **{k: floor[k] for k in (*_ACCOUNTING_OBJECTS, "dayclose", "player")}}
    return {"pk": objects[basename].pk} if basename in objects else {}


def _allowed(allowed, who) -> bool:
    if allowed == ANYONE:
        return True
    if who is None:
        return False
    if allowed == LOGGED_IN or who == "superuser":
        return True
    return who in allowed


CASES = [(name, method, allowed, kind) for name, rows in MATRIX.items() for method, allowed, kind in rows]


def _keys(users: dict) -> dict:
    """A token key per user of ``users``, issued as production issues them."""
    from casino.tokens import api_token_issue

    return {who: api_token_issue(user=user, author=None, name="matrix")[1] for who, user in users.items()}


def _matrix_client(who, auth, role_users, role_keys) -> APIClient:
    if who is None or auth == "session":
        return api_as(role_users[None if who == "norole" else who] if who is not None else None)
    return APIClient(HTTP_AUTHORIZATION=f"Token {role_keys[None if who == 'norole' else who]}")


@pytest.fixture(scope="class")
def matrix_world(django_db_setup, django_db_blocker):
    """The floor, a user per role and their tokens, made once for the matrix's rows (0.4 s a row
    when each made its own): they live in a transaction around the class's rows, each row's own
    transaction is a savepoint inside it (what a row's request writes goes with it), and the
    whole is rolled back after the last row. The rows read only the objects' keys."""
    from django.db import transaction
    from django.test import override_settings

    with django_db_blocker.unblock():
        world = transaction.atomic()
        world.__enter__()
    try:
        # The suite's fast hasher (tests/conftest.py's is per test); the floor first, as the
        # fixtures ran per row: its own pit boss is the role's user, fetched by name.
        with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
            seed_rows()
            floor = _floor()
            users = make_role_users()
            made = (floor, users, _keys(users))
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            world.__exit__(None, None, None)


class TestRoleMatrix:
    """The matrix's rows, sharing one floor, users and tokens (:func:`matrix_world`, class-scoped:
    they end with the last row; the module's other tests make their own)."""

    @pytest.mark.django_db
    @pytest.mark.parametrize(("name", "method", "allowed", "kind"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
    def test_role_matrix(self, name, method, allowed, kind, matrix_world, db):
        """Every row as every user, through a session and through a real token header (one floor for
        both, made once for the rows: ``matrix_world``). A token is an API credential: on a page
        (kind "page"/"action") it logs no one in, so its holder is answered as anonymous."""
        floor, role_users, role_keys = matrix_world
        url = reverse(name, kwargs=_kwargs(name, floor))
        for who, auth in ((w, a) for w in ALL_USERS for a in AUTHS if w is not None or a == "session"):
            response = getattr(_matrix_client(who, auth, role_users, role_keys), method)(url, {}, format="json")
            where = f"{method.upper()} {url} as {who} by {auth}: {response.status_code}"
            if auth == "token" and kind != "api":
                who = None  # judged as the anonymous caller it is on a page
            if _allowed(allowed, who):
                assert response.status_code not in (401, 403), where
                if kind == "page" and who is not None:
                    assert not (response.status_code == 302 and "/accounts/login/" in response["Location"]), where
            elif who is None and kind == "page":
                assert response.status_code == 302 and response["Location"].startswith(reverse("login")), where
            elif who is None:
                assert response.status_code in (401, 403), where
            else:
                assert response.status_code == 403, where


@pytest.mark.django_db
@pytest.mark.parametrize("who", ALL_USERS)
def test_admin_by_role(who, role_users, floor):
    """Only gaming managers (staff) and superusers reach the admin; others go to its login."""
    user = role_users.get(None if who == "norole" else who) if who is not None else None
    client = api_as(None)
    if user is not None:
        client.force_login(user)
    for url in (reverse("admin:index"), reverse("admin:tables_ruleset_change", args=[floor["table"].ruleset.pk])):
        response = client.get(url)
        if who in (GAMING_MANAGER, "superuser"):
            assert response.status_code == 200, url
        else:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], (who, url)


def test_matrix_covers_every_url():
    missing = _url_names() - set(MATRIX)
    assert not missing, f"add these URLs to the permission matrix: {sorted(missing)}"


def test_roles_see_only_their_navigation(role_users, client):
    for role in (PIT_BOSS, SURVEILLANCE, FINANCE):
        client.force_login(role_users[role])
        page = client.get(reverse("home")).content.decode()
        assert 'href="/admin/"' not in page
        assert 'href="/floor/"' in page
    client.force_login(role_users[GAMING_MANAGER])
    assert 'href="/admin/"' in client.get(reverse("home")).content.decode()


# --- Casino scoping: a user of another casino sees none of this floor ----------------------

#: Pages that name their object in the query, not the path: read for another casino's user as a
#: detail (a 404), since without it the page only sends the reader on (the drop is asked from a box).
PAGE_QUERIES = {"count-drop": lambda floor: f"?table={floor['table'].pk}"}


def _get_urls(floor):
    for name, rows in MATRIX.items():
        for method, allowed, kind in rows:
            if method == "get" and allowed not in (ANYONE, LOGGED_IN):
                query = PAGE_QUERIES[name](floor) if name in PAGE_QUERIES else ""
                yield name, allowed, kind, reverse(name, kwargs=_kwargs(name, floor)) + query


def _markers(floor) -> list[str]:
    table = floor["table"]
    return [f">{table.label}<", table.pit.name, floor["dealer"].name, floor["dealer"].employee_number,
            table.ruleset.name, "Matrix bank", table.pit.casino.name]


@pytest.mark.django_db
@pytest.mark.parametrize("auth", AUTHS)
def test_a_user_of_another_casino_sees_none_of_this_casino(floor, auth):
    """Every list (API and page) is empty of the floor's casino; every detail is a 404. Through a
    token, the API's (a token opens no page: test_role_matrix)."""
    from tests.factories import CasinoFactory

    other = CasinoFactory(name="Elsewhere Casino")
    users = {role: user_with_role(role, username=f"elsewhere-{role}", casinos=[other]) for role in ALL_ROLES}
    clients = {role: client_as(user, auth) for role, user in users.items()}
    markers = _markers(floor)
    seen = []
    for name, allowed, kind, url in _get_urls(floor):
        if auth == "token" and kind != "api":
            continue
        for role in (r for r in ALL_ROLES if allowed is EVERY_ROLE or r in allowed):
            if name in ("api-schema", "api-docs", "api-root"):
                continue
            response = clients[role].get(url)
            where = f"GET {url} as {role} of another casino by {auth}: {response.status_code}"
            has_pk = "pk" in _kwargs(name, floor) or name in PAGE_QUERIES
            if has_pk:
                if response.status_code != 404:
                    seen.append(f"{where}, not 404")
                continue
            if response.status_code != 200:
                seen.append(where)
                continue
            body = b"".join(response.streaming_content) if response.streaming else response.content
            body = body.decode(errors="replace")
            leaked = [m for m in markers if m in body]
            if response["Content-Type"].startswith("application/json"):
                data = response.json()
                rows = data.get("results", data.get("rows")) if isinstance(data, dict) else data
                if name == "casino-list":
                    rows = [r for r in rows if r["id"] != other.pk]
                if isinstance(rows, list) and rows:
                    leaked.append(f"{len(rows)} rows")
            if leaked:
                seen.append(f"{where}: {leaked}")
    assert not seen, "\n".join(seen)


@pytest.mark.django_db
@pytest.mark.parametrize("auth", AUTHS)
def test_users_of_this_casino_still_see_it(floor, auth):
    users = {role: user_with_role(role) for role in ALL_ROLES}
    if auth == "session":
        page = api_as(users[PIT_BOSS]).get(reverse("floor")).content.decode()
        assert floor["table"].pit.name in page
    rounds = client_as(users[FINANCE], auth).get(reverse("round-list")).json()["results"]
    assert {r["id"] for r in rounds} >= {floor["round"].pk}
    tables = client_as(users[PIT_BOSS], auth).get(reverse("table-list")).json()["results"]
    assert floor["table"].pk in {t["id"] for t in tables}


# --- Writes: a user of another casino changes nothing here, whether by session or token ----

def _changes(floor) -> dict:
    """What a refused write would have added or changed (counted before and after)."""
    from audit.compliance.models import MtlSignOff, PatronIdentification
    from audit.jackpots.models import JackpotAdjustment
    from audit.reports.models import DailyReport
    from tables.accounting.models import BoxDrop, BuyIn, CountSignature, SoftCount
    from tables.models import Round

    floor["round"].refresh_from_db()
    floor["dailyreport"].refresh_from_db()
    floor["jackpot-adjustment"].refresh_from_db()
    return {"rounds": Round.objects.count(), "voided": floor["round"].status, "buy-ins": BuyIn.objects.count(),
            "identifications": PatronIdentification.objects.count(), "sign-offs": MtlSignOff.objects.count(),
            "adjustments": JackpotAdjustment.objects.count(),
            "decided": floor["jackpot-adjustment"].status, "reports": DailyReport.objects.count(),
            "report runs": (floor["dailyreport"].status, floor["dailyreport"].runs),
            "drops": BoxDrop.objects.count(), "counts": SoftCount.objects.count(),
            "count signatures": CountSignature.objects.count()}


@pytest.mark.django_db
@pytest.mark.parametrize("auth", AUTHS)
def test_a_user_of_another_casino_changes_nothing_here(floor, auth):
    """Each write names an object of the floor's casino and is sent by the role that may make it,
    working at another casino: refused as if the object did not exist, nothing changed."""
    from tests.factories import CasinoFactory
    from tests.tables.rounds_data import ROUNDS

    other = CasinoFactory(name="Elsewhere Casino")
    users = {role: user_with_role(role, username=f"elsewhere-{role}", casinos=[other]) for role in ALL_ROLES}
    table, casino, day = floor["table"], floor["table"].pit.casino, floor["buyin"].gaming_day.isoformat()
    writes = [
        (PIT_BOSS, "round-list", {}, {"table": table.pk, "round": ROUNDS["ante_up_21"]["correct"][0]}),
        (PIT_BOSS, "round-void", {"pk": floor["round"].pk}, {"reason": "misdeal"}),
        (GAMING_MANAGER, "round-void", {"pk": floor["round"].pk}, {"reason": "misdeal"}),
        (PIT_BOSS, "buyin-list", {}, {"table": table.pk, "seat": 2, "kind": "cash", "amount": "500.00"}),
        (COMPLIANCE, "identification-list", {}, {"casino": casino.pk, "identifier": "MATRIX-1",
                                                 "last_name": "Doe", "reason": "ID shown"}),
        (COMPLIANCE, "complianceday-sign-off", {}, {"casino": casino.pk, "gaming_day": day, "note": "seen"}),
        (FINANCE, "jackpot-adjustment-list", {}, {"bank": floor["jackpot-bank"].pk, "line": "bust5_unsuited",
                                                  "amount": "5.00", "reason": "malfunction_correction",
                                                  "note": "not theirs"}),
        (GAMING_MANAGER, "jackpot-adjustment-decide", {"pk": floor["jackpot-adjustment"].pk},
         {"approve": True, "note": "not theirs"}),
        (FINANCE, "dailyreport-list", {}, {"casino": casino.pk, "gaming_day": "2026-01-04"}),
        (FINANCE, "dailyreport-rerun", {"pk": floor["dailyreport"].pk}, {}),
        (COUNT, "dropbox-drop", {}, {"table": floor["chipslip"].table_id, "gaming_day": day}),
        (COUNT, "softcount-sign", {"pk": floor["softcount"].pk}, {}),
    ]
    before = _changes(floor)
    done = []
    for role, name, kwargs, body in writes:
        response = client_as(users[role], auth).post(reverse(name, kwargs=kwargs), body, format="json")
        where = f"POST {name} as {role} of another casino by {auth}: {response.status_code}"
        if response.status_code in (403, 404):
            continue
        # A body naming another casino's object: the field's "does not exist" error.
        errors = response.json() if response.status_code == 400 else {}
        if not any(field in errors for field in ("table", "casino", "bank")):
            done.append(f"{where} {response.content[:200]!r}")
    assert not done, "\n".join(done)
    assert _changes(floor) == before


@pytest.mark.django_db
@pytest.mark.parametrize("auth", AUTHS)
def test_finance_neither_drops_nor_signs_where_a_count_team_counts(floor, auth):
    """Finance drops and counts only at a casino whose settings say it has no count team; the
    floor's casino has one, so a finance user (session or token) is refused with the field named."""
    finance = user_with_role(FINANCE, username="matrix-finance")
    client = client_as(finance, auth)
    before = _changes(floor)
    dropped = client.post(reverse("dropbox-drop"), {"table": floor["chipslip"].table_id,
                                                    "gaming_day": floor["buyin"].gaming_day.isoformat()},
                          format="json")
    assert dropped.status_code == 400 and "only the count team" in dropped.json()["table"][0], dropped.content
    signed = client.post(reverse("softcount-sign", kwargs={"pk": floor["softcount"].pk}), {}, format="json")
    assert signed.status_code == 400 and "only the count team" in str(signed.json()), signed.content
    assert _changes(floor) == before
