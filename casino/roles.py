"""The roles of the floor and the cage, as Django groups, and how code asks about them.

Pages and API endpoints check roles (``has_role``); the groups also carry Django model
permissions so that the admin shows a gaming manager exactly what they may change.
Superusers hold every role.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

PIT_BOSS = "pit_boss"
SURVEILLANCE = "surveillance"
FINANCE = "finance"
GAMING_MANAGER = "gaming_manager"
CAGE = "cage"
COUNT = "count"
COMPLIANCE = "compliance"
ALL_ROLES = (PIT_BOSS, SURVEILLANCE, FINANCE, GAMING_MANAGER, CAGE, COUNT, COMPLIANCE)
#: Who may read a W-2G winner's name and identification (tax records: finance files them,
#: the gaming manager answers for them); every other role sees the W-2G flag and reference.
WINNER_IDENTITY_ROLES = (FINANCE, GAMING_MANAGER)

ROLE_GROUPS = {
    PIT_BOSS: "Pit boss",
    SURVEILLANCE: "Surveillance",
    FINANCE: "Finance",
    GAMING_MANAGER: "Gaming manager",
    CAGE: "Cage cashier",
    COUNT: "Count team",
    COMPLIANCE: "Compliance",
}
_GROUP_ROLES = {name: role for role, name in ROLE_GROUPS.items()}

#: Model permissions per role: ``{role: {"app.model": ("view", "add", ...)}}``.
#: Write access through pages and the API is decided by role checks; these permissions
#: drive the admin, where only gaming managers (and superusers) work.
_FLOOR_VIEW = {
    "casino.casino": ("view",), "tables.pit": ("view",), "tables.table": ("view",),
    "tables.dealer": ("view",), "tables.ruleset": ("view",), "tables.rulesetversion": ("view",),
}
_ACCOUNTING_VIEW = {
    "accounting.chipset": ("view",), "accounting.denomination": ("view",),
    "accounting.account": ("view",), "accounting.transaction": ("view",), "accounting.leg": ("view",),
}
ROLE_MODEL_PERMISSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    PIT_BOSS: {
        "casino.casino": ("view",), "tables.pit": ("view",), "tables.table": ("view",),
        "tables.dealer": ("view",), "tables.ruleset": ("view",), "tables.rulesetversion": ("view",),
    },
    SURVEILLANCE: {
        "casino.casino": ("view",), "tables.pit": ("view",), "tables.table": ("view",),
        "tables.dealer": ("view",), "tables.ruleset": ("view",), "tables.rulesetversion": ("view",),
    },
    FINANCE: {
        "casino.casino": ("view",), "tables.pit": ("view",), "tables.table": ("view",),
        "tables.dealer": ("view",), "tables.ruleset": ("view",), "tables.rulesetversion": ("view",),
    },
    GAMING_MANAGER: {
        "casino.casino": ("view", "add", "change"), "tables.pit": ("view", "add", "change"),
        "tables.table": ("view", "add", "change"), "tables.dealer": ("view", "add", "change"),
        "tables.ruleset": ("view", "add", "change"), "tables.rulesetversion": ("view",),
        # Jackpot banks: added through the services (a new line version, never an edit).
        "jackpots.jackpotbank": ("view", "add"), "jackpots.jackpotbanktable": ("view", "add"),
        "jackpots.jackpotlineconfig": ("view", "add"),
        "jackpots.w2gthreshold": ("view", "add", "change"),
        "casino.casinomembership": ("view", "add", "delete"),
        # Unlocking a login locked by django-axes is deleting its attempt record.
        "axes.accessattempt": ("view", "delete"), "axes.accessfailurelog": ("view",),
        # Chips: a denomination is retired, never deleted (slips and legs name it).
        "accounting.chipset": ("view", "add", "change"), "accounting.denomination": ("view",),
        "accounting.accountingsettings": ("view", "add", "change"),
        "accounting.account": ("view",), "accounting.transaction": ("view",), "accounting.leg": ("view",),
        # Players: registered and changed on the pages and the API (with a reason); the admin shows them.
        "players.player": ("view",),
    },
    CAGE: {**_FLOOR_VIEW, **_ACCOUNTING_VIEW},
    COUNT: {**_FLOOR_VIEW, **_ACCOUNTING_VIEW},
    # Compliance (a later issue) reads; it changes nothing yet.
    COMPLIANCE: {**_FLOOR_VIEW, **_ACCOUNTING_VIEW},
}


def role_of_group(name: str | None) -> str | None:
    return _GROUP_ROLES.get(name) if name else None


def user_roles(user) -> frozenset[str]:
    """The roles a user holds, cached on the user object for the request."""
    if user is None or not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_casino_roles", None)
    if cached is not None:
        return cached
    if user.is_superuser:
        roles = frozenset(ALL_ROLES)
    else:
        names = user.groups.values_list("name", flat=True)
        roles = frozenset(_GROUP_ROLES[n] for n in names if n in _GROUP_ROLES)
    user._casino_roles = roles
    return roles


def has_role(user, *roles: str) -> bool:
    return bool(user_roles(user) & set(roles))


def may_see_winner_identity(user) -> bool:
    return has_role(user, *WINNER_IDENTITY_ROLES)


def sync_role_groups(sender=None, **kwargs) -> None:
    """Create the role groups and give them their model permissions (idempotent).

    As a ``post_migrate`` receiver it is called once per app (and again after every test's
    flush): it grants only the permissions of the models of that app (``sender``), in one
    query for the permissions. Called without a sender, it grants them all.
    """
    only = getattr(sender, "label", None)
    wanted: dict[str, list[tuple[str, str]]] = {}
    for role, models in ROLE_MODEL_PERMISSIONS.items():
        for label, actions in models.items():
            app_label, model = label.split(".")
            if only is None or app_label == only:
                wanted.setdefault(role, []).extend((app_label, f"{action}_{model}") for action in actions)
    if only is None or only == "casino":  # every group exists after migrate, with or without permissions
        for role in ROLE_GROUPS:
            wanted.setdefault(role, [])
    if not wanted:
        return
    keys = {key for pairs in wanted.values() for key in pairs}
    found = {(p.content_type.app_label, p.codename): p for p in Permission.objects.filter(
        content_type__app_label__in={a for a, _ in keys}, codename__in={c for _, c in keys}).select_related("content_type")}
    for role, pairs in wanted.items():
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        group.permissions.add(*(found[key] for key in pairs if key in found))


def app_role_permissions_grant(sender, **kwargs) -> None:
    """``post_migrate`` receiver of an app that keeps its roles' model permissions beside it
    (``role_permissions`` on its AppConfig: ``{role: {model: actions}}``): give them to the role
    groups. Idempotent; connected with ``sender=`` the app's config."""
    for role, models in sender.role_permissions.items():
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        for model, actions in models.items():
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label=sender.label, codename__in=[f"{a}_{model}" for a in actions]))
