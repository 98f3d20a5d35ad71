"""Recompute every hash chain and say whether any audited row was changed, removed or inserted."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from audit import chain_verify
from audit.reports.models import DailyReport
from casino.models import Casino
from tables.models import ChainRepair


class Command(BaseCommand):
    help = ("Recompute the hash chains over revisions, wagers, findings' decisions, jackpot ledger legs and the "
            "money records (chip ledger, buy-ins, slips, drops, counts, Title 31 records, closes and reopens); "
            "exit 1 and list every problem if a row was changed, removed or inserted behind the app's back. "
            "Also checks each daily report's printed chain head. --repair-forks re-links links written after a "
            "stale chain head (a race, proved link by link), as the database owner; see docs/audit/hash-chains.md.")

    def add_arguments(self, parser):
        parser.add_argument("--day", type=date.fromisoformat, help="Also print each casino's chain head of this "
                                                                   "gaming day (YYYY-MM-DD)")
        parser.add_argument("--repair-forks", action="store_true",
                            help="Re-link every link that a writer appended after a stale head, when its rows still "
                                 "hash to its digest from an earlier head; refuse (and list) chains with any other "
                                 "problem. Needs --by and --reason; run as the database owner.")
        parser.add_argument("--by", help="--repair-forks: the user name the repair is recorded under")
        parser.add_argument("--reason", help="--repair-forks: why (kept with each repaired link)")
        parser.add_argument("--dry-run", action="store_true", help="--repair-forks: say what would be repaired")

    def handle(self, *args, day=None, repair_forks=False, by=None, reason=None, dry_run=False, **options):
        if repair_forks:
            self._repair(by, reason, dry_run)
            if dry_run:
                return
        archived: list[int] = []
        problems = chain_verify.verify(archived=archived)
        repaired = dict(ChainRepair.objects.values_list("new_digest", "old_digest"))
        for report in DailyReport.objects.exclude(chain_head="").select_related("casino"):
            heads = chain_verify.day_heads(report.casino, report.gaming_day)
            head, _ = chain_verify.day_head(report.casino, report.gaming_day, heads=heads)
            if head == report.chain_head:
                continue
            before, _ = chain_verify.day_head(report.casino, report.gaming_day, heads=_before_repairs(heads, repaired))
            if before == report.chain_head:
                self.stdout.write(f"report {report.casino} {report.gaming_day}: printed before a fork repair "
                                  f"(chain_repair rows); the repaired head is {head}: re-run the report to print it")
                continue
            problems.append(f"report {report.casino} {report.gaming_day}: printed chain head "
                            f"{report.chain_head} is not today's {head}")
        if day is not None:
            for casino in Casino.objects.order_by("pk"):
                head, chains = chain_verify.day_head(casino, day)
                self.stdout.write(f"{casino} {day}: chain head {head} ({chains} chains)")
        if problems:
            for problem in problems:
                self.stdout.write(problem)
            raise CommandError(f"{len(problems)} problem(s): the audit records do not match their hash chains")
        if archived and archived[0]:
            self.stdout.write(f"{archived[0]} link(s) cover rows of months in the archive schema: not checked "
                              "(history_archive --attach brings a month back to check it)")
        self.stdout.write(self.style.SUCCESS("audit records intact: every chain verifies"))

    def _repair(self, by, reason, dry_run):
        if not by or not (reason or "").strip():
            raise CommandError("--repair-forks needs --by <user name> and --reason <why>")
        try:
            author = get_user_model().objects.get(username=by)
        except get_user_model().DoesNotExist as exc:
            raise CommandError(f"no user named {by!r}") from exc
        repaired, refused = chain_verify.repair_forks(author=author, reason=reason.strip(), apply=not dry_run)
        verb = "would re-link" if dry_run else "re-linked"
        for line in repaired:
            self.stdout.write(f"{verb}: {line}")
        for line in refused:
            self.stdout.write(f"refused: {line}")
        if not repaired and not refused:
            self.stdout.write("no forked chain")
        if refused:
            raise CommandError(f"{len(refused)} chain(s) not repaired: their problems are not a race")


def _before_repairs(heads: dict[str, str], repaired: dict[str, str]) -> dict[str, str]:
    """The heads as they were printed before fork repairs (each repair keeps the old digest)."""
    out = {}
    for name, digest in heads.items():
        seen = set()
        while digest in repaired and digest not in seen:
            seen.add(digest)
            digest = repaired[digest]
        out[name] = digest
    return out
