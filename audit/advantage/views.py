"""The desk's advantage-play page: parse the query, call the selector, render."""

from __future__ import annotations

from django import forms
from django.shortcuts import render

from audit.decisions.figures import NO_QUALITY, play_quality, play_quality_text
from audit.decisions.selectors import player_days
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.scoping import scope, user_casino
from tables.models import Table

from .bets import ASSESSED_GAMES
from .query import UnknownTable, chosen_table, default_day
from .results import day_answer
from .roles import ADVANTAGE_READERS

#: The page lists this many players at a time (a busy day is ~2,500 players; rendering them all
#: cost more than reading and counting the day).
PLAYER_PAGE = 100


class AdvantageForm(forms.Form):
    gaming_day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    table = forms.ModelChoiceField(queryset=Table.objects.none(), required=False, empty_label="All tables")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = scope(
            Table.objects.filter(game__in=ASSESSED_GAMES).select_related("pit").order_by("label"), user,
            "pit__casino")


@role_required(*ADVANTAGE_READERS)
def advantage(request):
    error = None
    try:
        table = chosen_table(request.user, request.GET.get("table"))
    except UnknownTable as exc:
        table, error = None, f"Table: {exc}; showing all tables."
    # An impossible date shows the default day, as every page does (the API answers 400).
    day = date_or_none(request.GET.get("gaming_day")) or default_day(request.user, table)
    form = AdvantageForm(initial={"gaming_day": day, "table": table}, user=request.user)
    # One casino's day: the table's, or for all tables the reader's first (as the default day).
    casino = table.pit.casino if table is not None else user_casino(request.user)
    result = day_answer(day, casino_id=casino.pk, table_id=table.pk if table else None) if casino else None
    # A busy day is thousands of players and ~100,000 pairs: the page opens the rounds of the
    # players flagged (by any signal) and watched (row.opened), and of the one chosen with ?player= (only that row shown);
    # every other row links to it. The API gives every pair. Players come PLAYER_PAGE at a time.
    player = request.GET.get("player", "").strip()
    raw_page = request.GET.get("page", "1")
    page = int(raw_page) if raw_page.isdigit() and int(raw_page) > 0 else 1
    if raw_page not in ("", "1") and str(page) != raw_page:
        error = f'Page: "{raw_page}" is not a page number (1, 2, ...); showing the first.'
    players = result.count(player=player) if result else 0
    start = (page - 1) * PLAYER_PAGE
    rows = result.rows(start, start + PLAYER_PAGE, player=player) if result else []
    # Each shown player's play quality that day (all the casino's tables): the decisions' cost per
    # unit of the handle they serve (audit/decisions), one grouped read for the page's players.
    figures = player_days([casino.pk], [day], players=[row.player for row in rows]) if rows else {}
    qualities = [play_quality_text(play_quality(f.cost, f.handle)) if (f := figures.get((day, row.player)))
                 else NO_QUALITY for row in rows]
    return render(request, "surveillance/advantage.html",
                  {"form": form, "result": result, "rows": rows, "shown": list(zip(rows, qualities, strict=True)), "table": table, "casino": casino, "error": error,
                   "player": player, "day": day, "players": players, "page": page,
                   "first_shown": start + 1, "last_shown": start + len(rows),
                   "previous_page": page - 1 if page > 1 else None,
                   "next_page": page + 1 if start + PLAYER_PAGE < players else None})
