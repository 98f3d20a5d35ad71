"""The pit boss's player pages (gaming managers too): find and register players, a player's
record with their ratings, and the top players of a gaming day. Times in the casino's zone."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from audit.decisions.figures import DECISION_COST, DECISION_THEO, PLAY_QUALITY, PRICED_HANDLE
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.scoping import scope, user_casino
from tables.players.models import Player
from tables.players.roles import PAGE_ROLES
from tables.players.services.register import player_change, player_register

from .ranking import day_ranking
from .selectors import check_range, link_players, player_ratings

#: Rows on the top players' page.
TOP = 50
#: What the pages say the players' decisions' figures are (the daily report's definitions).
DEFINITIONS = [DECISION_COST, DECISION_THEO, PLAY_QUALITY, PRICED_HANDLE]


def _casinos(request):
    return scope(Casino.objects.order_by("name"), request.user, "pk")


def _casino(request, casinos):
    """The casino a page shows: ``?casino=`` (one of the user's), else the user's first."""
    casino = user_casino(request.user, request.GET.get("casino") or request.POST.get("casino"), order="name")
    if casino is None:
        raise Http404("No such casino of yours.")
    return casino


def _range(request, casino, errors: dict) -> tuple[date, date]:
    """``?gaming_day=`` or ``?from=&to=``; a wrong date is named and the casino's current day shown."""
    today = current_gaming_day(casino)
    values = {}
    for name in ("gaming_day", "from", "to"):
        raw = request.GET.get(name, "")
        values[name] = date_or_none(raw)
        if raw and values[name] is None:
            errors[name] = [f'"{raw}" is not a date (YYYY-MM-DD)']
    if values["from"] and values["to"] and not errors:
        try:
            check_range(values["from"], values["to"])
            return values["from"], values["to"]
        except ValidationError as exc:
            errors.update(exc.message_dict)
    day = values["gaming_day"] or today
    return day, day


@role_required(*PAGE_ROLES)
def players(request):
    casinos = _casinos(request)
    casino = _casino(request, casinos)
    errors: dict[str, list[str]] = {}
    form = {"identifier": request.GET.get("identifier", ""), "name": "", "loyalty_number": ""}
    if request.method == "POST":
        form = {k: request.POST.get(k, "") for k in ("identifier", "name", "loyalty_number")}
        try:
            player = player_register(casino=casino, author=request.user, **form)
        except ValidationError as exc:
            errors = exc.message_dict
        else:
            messages.success(request, f"Registered {player}.")
            return redirect("player", pk=player.pk)
    wanted = request.GET.get("q", "").strip()
    found = Player.objects.filter(casino=casino)
    if wanted:
        found = found.filter(Q(identifier__icontains=wanted) | Q(name__icontains=wanted)
                             | Q(loyalty_number__icontains=wanted))
    return render(request, "players/list.html", {
        "casino": casino, "casinos": casinos, "q": wanted, "players": found[:100], "form": form, "errors": errors,
    }, status=400 if errors else 200)


@role_required(*PAGE_ROLES)
def player_page(request, pk: int):
    player = get_object_or_404(scope(Player.objects.select_related("casino"), request.user), pk=pk)
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        try:
            player_change(player=player, author=request.user, reason=request.POST.get("reason", ""),
                          name=request.POST.get("name", ""), loyalty_number=request.POST.get("loyalty_number", ""))
        except ValidationError as exc:
            errors = exc.message_dict
        else:
            messages.success(request, "Record changed.")
            return redirect("player", pk=player.pk)
    first, last = _range(request, player.casino, errors)
    ratings = player_ratings(player=player, first=first, last=last)
    history = player.history.select_related("history_user").order_by("-history_date")[:20]
    return render(request, "players/detail.html", {
        "player": player, "casino": player.casino, "first": first, "last": last, "ratings": ratings,
        "errors": errors, "history": history, "post": request.POST if errors else None,
        "definitions": DEFINITIONS,
    }, status=400 if errors and request.method == "POST" else 200)


@role_required(*PAGE_ROLES)
def players_top(request):
    casinos = _casinos(request)
    casino = _casino(request, casinos)
    errors: dict[str, list[str]] = {}
    raw = request.GET.get("gaming_day", "")
    day = date_or_none(raw)
    if raw and day is None:
        errors["gaming_day"] = [f'"{raw}" is not a date (YYYY-MM-DD)']
    day = day or current_gaming_day(casino)
    ratings = link_players(day_ranking(casino_ids=[casino.pk], first=day)[:TOP])
    return render(request, "players/top.html", {
        "casino": casino, "casinos": casinos, "day": day, "ratings": ratings, "errors": errors,
        "register_url": reverse("players"), "definitions": DEFINITIONS,
    })
