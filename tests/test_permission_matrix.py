"""Every page and endpoint against every role: allowed, or 403 / redirect to the login page.

The last test fails when a URL is added without a row here, so the matrix stays complete.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from casino.roles import ALL_ROLES, FINANCE, GAMING_MANAGER, PIT_BOSS, SURVEILLANCE
from tests.conftest import api_as
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
    from tables.services.rounds import round_record
    from tables.services.sessions import table_session_open
    from tests.tables.rounds_data import ROUNDS

    table = TableFactory()
    dealer = DealerFactory(casino=table.pit.casino)
    recorder = user_with_role("pit_boss", username="recorder")
    session = table_session_open(table=table, dealer=dealer, author=recorder)
    audited = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=recorder)
    return {"table": table, "dealer": dealer, "tablesession": session, "round": audited.round,
            "finding": audited.round.findings.first()}


def _kwargs(name: str, floor) -> dict:
    basename, _, suffix = name.rpartition("-")
    if suffix in ("list", "root", "schema", "docs") or not basename:
        return {}
    table = floor["table"]
    objects = {"casino": table.pit.casino, "pit": table.pit, "table": table, "dealer": floor["dealer"],
               "ruleset": table.ruleset, "tablesession": floor["tablesession"], "round": floor["round"],
               "finding": floor["finding"]}
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


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "allowed", "kind"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_role_matrix(name, method, allowed, kind, floor, role_users):
    url = reverse(name, kwargs=_kwargs(name, floor))
    for who in ALL_USERS:
        user = role_users[None if who == "norole" else who] if who is not None else None
        response = getattr(api_as(user), method)(url, {}, format="json")
        where = f"{method.upper()} {url} as {who}: {response.status_code}"
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
