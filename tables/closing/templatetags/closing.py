"""``{% closing_history casino_id gaming_day %}``: a day's close and reopen history, for the
report's page (audit) and the closing pages, so the history is drawn once."""

from __future__ import annotations

from django import template

from casino.roles import FINANCE, GAMING_MANAGER, has_role
from tables.closing.selectors import HISTORY_READERS, day_history
from tables.closing.services.check import day_close_current
from tables.closing.services.close import close_blockers

register = template.Library()


@register.inclusion_tag("closing/_history.html", takes_context=True)
def closing_history(context, casino_id: int, gaming_day, casino=None):
    user = context["request"].user
    if not has_role(user, *HISTORY_READERS):
        return {"show": False}
    return {"show": True, "history": day_history(casino_id, gaming_day), "gaming_day": gaming_day,
            "casino": casino, "closed": day_close_current(casino_id, gaming_day) is not None,
            "waiting": close_blockers(casino_id, gaming_day), "may_reopen": has_role(user, GAMING_MANAGER),
            "may_rerun": has_role(user, FINANCE, GAMING_MANAGER)}
