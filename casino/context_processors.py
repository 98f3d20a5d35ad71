"""Navigation that shows each role what it may use."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse

from .roles import (
    ALL_ROLES,
    CAGE,
    COMPLIANCE,
    COUNT,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    ROLE_GROUPS,
    SURVEILLANCE,
    user_roles,
)

#: (label, url name, roles that see it). Later features append their pages here.
NAVIGATION: list[tuple[str, str, tuple[str, ...]]] = [
    ("Floor", "floor", ALL_ROLES),
    ("Jackpots", "jackpots-board", ALL_ROLES),
    ("Jackpot banks", "jackpots-banks", ALL_ROLES),
    ("Jackpot liability", "jackpots-report", (FINANCE, GAMING_MANAGER)),
    ("Adjustments", "jackpots-adjustments", (FINANCE, GAMING_MANAGER)),
    ("Tablet", "tablet-floor", (PIT_BOSS,)),
    ("Players", "players", (PIT_BOSS, GAMING_MANAGER)),
    ("Surveillance desk", "desk-queue", (SURVEILLANCE, GAMING_MANAGER)),
    ("Count", "count-day", (COUNT, FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE)),
    ("Reports", "reports", (FINANCE, GAMING_MANAGER, SURVEILLANCE)),
    ("Hold", "fluctuations-holds", (FINANCE, GAMING_MANAGER, SURVEILLANCE)),
    ("Investigations", "investigations", (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE)),
    ("Cage", "cage", (CAGE,)),
    ("Cash-outs", "cage-cash-outs", (CAGE,)),
    ("Title 31", "compliance-day", (COMPLIANCE, GAMING_MANAGER)),
    ("Slips", "accounting-day", (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE, CAGE)),
    ("Day close", "closing-days", (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE)),
    ("API docs", "api-docs", ALL_ROLES),
    ("API tokens", "api-tokens", (GAMING_MANAGER,)),
    ("Admin", "admin:index", (GAMING_MANAGER,)),
]


def navigation(request):
    roles = user_roles(getattr(request, "user", None))
    items = []
    for label, name, allowed in NAVIGATION:
        if roles & set(allowed):
            try:
                items.append({"label": label, "url": reverse(name), "name": name})
            except NoReverseMatch:
                continue
    return {
        "nav_items": items,
        "user_role_names": [ROLE_GROUPS[r] for r in ALL_ROLES if r in roles],
    }
