"""``python manage.py settle FILE``: settle a round and list its findings, storing nothing.

FILE (or ``-`` for standard input) holds a round in the API's JSON form:
``{"table": 3, "round": {...}}``. The table's current ruleset version is used, or
``--ruleset-version ID`` for the version a disputed round was played under. Without a
table, ``--game`` names the game and the rule card's defaults are used.
"""

from __future__ import annotations

import json
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tables.games import GAMES
from tables.games.vocabulary.base import InvalidInput
from tables.models import RulesetVersion, Table
from tables.services.rounds import round_audit


class _DefaultVersion:
    """The card's defaults, shaped like a RulesetVersion for round_audit."""

    def __init__(self, game: str):
        self.game = game

    def rules(self):
        return GAMES[self.game].default_rules()


class Command(BaseCommand):
    help = "Settle a round given in the API's JSON form and print the settlement and findings; nothing is stored."

    def add_arguments(self, parser):
        parser.add_argument("file", help="JSON file, or - for standard input")
        parser.add_argument("--game", choices=sorted(GAMES), help="the game, when the file names no table")
        parser.add_argument("--ruleset-version", type=int, help="RulesetVersion id to settle under")
        parser.add_argument("--json", action="store_true", help="print the engine's answer as JSON")

    def handle(self, *args, **options):
        body = self._read(options["file"])
        data = body.get("round", body) if isinstance(body, dict) else body
        game, version = self._rules(body, options)
        try:
            canonical, result = round_audit(game=game, data=data, version=version)
        except InvalidInput as exc:
            raise CommandError("the round is impossible:\n" + "\n".join(f"  {e}" for e in exc.errors)) from None
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        if options["json"]:
            self.stdout.write(json.dumps({"round": canonical, **result.to_dict()}, indent=2, default=str))
            return
        self.stdout.write(f"{GAMES[game].name}: {len(result.settlements)} settlements, "
                          f"{len(result.findings)} findings")
        for s in result.settlements:
            hand = f" hand {s.hand + 1}" if s.hand is not None else ""
            self.stdout.write(f"  seat {s.seat}{hand} {s.wager:<26} stake {s.stake:>9}  net {s.net:>10}  "
                              f"{s.outcome:<5} {s.explanation}")
        for f in result.findings:
            self.stdout.write(f"  FINDING {f.kind} {f.code} ({f.amount} at stake): {f.message}")
        if not result.findings:
            self.stdout.write("  No findings: the round was dealt and paid correctly.")

    def _read(self, name: str):
        try:
            text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()  # noqa: SIM115
            return json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{name} is not JSON: {exc.msg} at line {exc.lineno}") from None

    def _rules(self, body, options):
        if options["ruleset_version"]:
            version = RulesetVersion.objects.filter(pk=options["ruleset_version"]).first()
            if version is None:
                raise CommandError(f"no ruleset version {options['ruleset_version']}")
            return version.game, version
        table_id = body.get("table") if isinstance(body, dict) else None
        if table_id is not None:
            table = Table.objects.filter(pk=table_id).select_related("ruleset").first()
            if table is None:
                raise CommandError(f"no table {table_id}")
            return table.game, table.ruleset.current_version
        game = options["game"] or (body.get("round", {}).get("game") if isinstance(body, dict) else None)
        if not game:
            raise CommandError("name a table in the file, or --game, or --ruleset-version")
        return game, _DefaultVersion(game)
