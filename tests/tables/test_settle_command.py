import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tables.models import Round
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db


def _write(tmp_path, body):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(body))
    return str(path)


def test_settle_prints_settlement_and_findings_without_storing(tmp_path, table):
    path = _write(tmp_path, {"table": table.pk, "round": ROUNDS["ante_up_21"]["underpay"][0]})
    out = StringIO()
    call_command("settle", path, stdout=out)
    text = out.getvalue()
    assert "Ante Up 21" in text
    assert "FINDING underpay PAY_BELOW_EXPECTED (5.00 at stake)" in text
    assert not Round.objects.exists()


def test_settle_json_with_game_defaults(tmp_path):
    path = _write(tmp_path, {"round": ROUNDS["poker_or_bust"]["correct"][0]})
    out = StringIO()
    call_command("settle", path, "--game", "poker_or_bust", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["findings"] == []
    nets = {s["wager"]: s["net"] for s in result["settlements"]}
    assert nets == {"ante": "10.00", "odds": "-10.00"}


def test_settle_reports_impossible_rounds(tmp_path):
    path = _write(tmp_path, {"round": {"dealer": {"cards": ["ZZ"]}, "seats": []}})
    with pytest.raises(CommandError, match="impossible"):
        call_command("settle", path, "--game", "blackjack_tie", stdout=StringIO())
