"""Who sees and writes what of a player (the table is in README.md beside this package).

The floor's supervisors and compliance know a player by name; the other roles work with the
identifier recorded at the seat and never need the person behind it.
"""

from casino.roles import COMPLIANCE, FINANCE, GAMING_MANAGER, PIT_BOSS, SURVEILLANCE, has_role

#: See the name and the loyalty number (everyone else: the identifier only).
NAME_ROLES = (PIT_BOSS, GAMING_MANAGER, COMPLIANCE)
#: Register a player and change their name or loyalty number.
PLAYER_WRITERS = (PIT_BOSS, GAMING_MANAGER, COMPLIANCE)
#: Read ratings (API and CSV; the loyalty system's token belongs to one of these roles).
RATING_READERS = (PIT_BOSS, GAMING_MANAGER, FINANCE, SURVEILLANCE, COMPLIANCE)
#: The pit boss's player pages.
PAGE_ROLES = (PIT_BOSS, GAMING_MANAGER)


def may_see_names(user) -> bool:
    return has_role(user, *NAME_ROLES)
