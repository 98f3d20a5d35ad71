"""``audit_verify --repair-forks``: a fork left by the race (a link written after a stale head,
its own rows unchanged) is re-linked in order with a history row per link; a chain whose
link's rows were changed is reported and left as it is."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit import chain_verify
from tables import chain
from tables.models import ChainLink, ChainRepair
from tables.services.rounds import round_record
from tests.audit.test_hash_chain import behind_the_apps_back, verify_output
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_links():
    pitboss = user_with_role("pit_boss", username="pb-fork")
    table = open_table("ante_up_21", pitboss)
    for _ in range(4):
        round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    links = list(ChainLink.objects.filter(chain=chain.table_chain(table.pk)).order_by("id"))
    assert len(links) == 4
    return table, links


def texts_of(links):
    return {link.pk: chain_verify._texts(link.kind, [link.ref])[link.ref] for link in links}


def forge_race(links):
    """What two writers that read the same head leave: the third link written after the
    first link's digest (the head the second link also followed), the fourth after the third."""
    text = texts_of(links)
    third = chain.link_digest(links[0].digest, text[links[2].pk])
    fourth = chain.link_digest(third, text[links[3].pk])
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE audit_chainlink SET digest = %s WHERE id = %s", [third, links[2].pk])
        cursor.execute("UPDATE audit_chainlink SET digest = %s WHERE id = %s", [fourth, links[3].pk])
    return third, fourth


def repair(*args) -> str:
    out = StringIO()
    try:
        call_command("audit_verify", "--repair-forks", "--by", "auditor", "--reason", "rounds raced at one table",
                     *args, stdout=out)
    except CommandError as exc:
        return out.getvalue() + f"\nFAILED: {exc}"
    return out.getvalue()


def test_a_race_shaped_fork_is_proved_relinked_and_recorded(table_links):
    table, links = table_links
    auditor = user_with_role("gaming_manager", username="auditor")
    original = [link.digest for link in links]
    third, fourth = forge_race(links)
    before = verify_output()
    assert f"link {links[2].pk}: revision {links[2].ref} does not match its link" in before
    assert "FAILED: 1 problem(s)" in before

    dry = repair("--dry-run")
    assert "would re-link: table:" in dry and "1 forked link(s) re-linked, 1 later link(s)" in dry, dry
    assert not ChainRepair.objects.exists()

    out = repair()
    assert "every chain verifies" in out, out
    assert [link.digest for link in ChainLink.objects.filter(pk__in=[lk.pk for lk in links]).order_by("id")] \
        == original  # re-linked in order: what an unraced chain would hold
    rows = list(ChainRepair.objects.order_by("id"))
    assert [(r.link, r.forked, r.old_digest, r.new_digest) for r in rows] == [
        (links[2].pk, True, third, original[2]), (links[3].pk, False, fourth, original[3])]
    assert rows[0].previous_used == links[0].digest and rows[0].repaired_by == auditor
    assert rows[0].reason.startswith("rounds raced at one table") and rows[0].repaired_at is not None
    # The proof the row keeps can be checked by anyone: the old digest is the same rows after the stale head.
    text = texts_of(links)[links[2].pk]
    assert chain.link_digest(rows[0].previous_used, text) == rows[0].old_digest
    assert "no forked chain" in repair()


def test_a_tamper_shaped_fork_is_reported_not_repaired(table_links):
    table, links = table_links
    user_with_role("gaming_manager", username="auditor")
    forge_race(links)
    with behind_the_apps_back() as cursor:  # and the third round's wager changed: not a race any more
        cursor.execute("UPDATE tables_wager SET recorded_net = recorded_net + 100 WHERE revision_id = "
                       "(SELECT id FROM tables_roundrevision WHERE id = %s)", [links[2].ref])
    digests = list(ChainLink.objects.order_by("id").values_list("digest", flat=True))
    out = repair()
    assert f"refused: table:{table.pk} link {links[2].pk}: revision {links[2].ref} hashes to its digest from no " \
           "earlier head: changed, not a race; not repaired" in out, out
    assert "FAILED: 1 chain(s) not repaired" in out
    assert not ChainRepair.objects.exists()
    assert list(ChainLink.objects.order_by("id").values_list("digest", flat=True)) == digests
    assert "does not match its link" in verify_output()


def test_repair_needs_who_and_why(table_links):
    with pytest.raises(CommandError, match="--by"):
        call_command("audit_verify", "--repair-forks", stdout=StringIO())
