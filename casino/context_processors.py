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
#: The pages a role starts its work from: in the header's one line (at most SHORTCUTS_SHOWN of
#: them, so that the line fits a portrait tablet); every other page is in its "More" menu.
SHORTCUTS: dict[str, tuple[str, ...]] = {
    PIT_BOSS: ("tablet-floor", "floor", "players"),
    SURVEILLANCE: ("desk-queue", "investigations", "reports"),
    FINANCE: ("reports", "closing-days", "accounting-day"),
    GAMING_MANAGER: ("desk-queue", "reports", "closing-days"),
    CAGE: ("cage", "cage-cash-outs", "floor"),
    COUNT: ("count-day", "floor", "jackpots-board"),
    COMPLIANCE: ("compliance-day", "investigations", "closing-days"),
}
SHORTCUTS_SHOWN = 3


def navigation(request):
    roles = user_roles(getattr(request, "user", None))
    items = []
    for label, name, allowed in NAVIGATION:
        if roles & set(allowed):
            try:
                items.append({"label": label, "url": reverse(name), "name": name})
            except NoReverseMatch:
                continue
    wanted = [name for role in ALL_ROLES if role in roles for name in SHORTCUTS[role]]
    shortcuts = [item for name in dict.fromkeys(wanted) for item in items if item["name"] == name][:SHORTCUTS_SHOWN]
    more = [item for item in items if item not in shortcuts]
    return {
        "nav_items": items,
        "nav_shortcuts": shortcuts,
        "nav_more": more,
        "nav_more_current": any(item["url"] == request.path for item in more),
        "user_role_names": [ROLE_GROUPS[r] for r in ALL_ROLES if r in roles],
    }
