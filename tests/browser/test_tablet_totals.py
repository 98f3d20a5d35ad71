"""The tablet's running total (``casino/static/casino/tablet.js``, ``bjTotal``) is the one copy
of the soft-total rule outside the engine: a browser cannot call ``vocabulary.hands`` (issue
#18 counted it among the nine). Here it is held to the engine's rule in chromium, for every
hand of two to four ranks."""

from __future__ import annotations

import itertools

import pytest

from tables.games.vocabulary.cards import parse_card
from tables.games.vocabulary.hands import blackjack_total
from tests.browser.conftest import ROOT

pytestmark = pytest.mark.browser

RANKS = "A23456789TJQK"
SECTION = "// ---------------------------------------------------------------- card arithmetic"


def _card_arithmetic() -> str:
    """tablet.js's card-arithmetic section, from its heading to the next one."""
    source = (ROOT / "casino" / "static" / "casino" / "tablet.js").read_text()
    start = source.index(SECTION)
    end = source.index("// ----------------", start + len(SECTION))
    return source[start:end]


def test_the_tablets_running_total_is_the_engines_for_every_hand_of_two_to_four_ranks(browser):
    hands = [
        [f"{r}S" for r in ranks]
        for n in (2, 3, 4)
        for ranks in itertools.product(RANKS, repeat=n)
    ]
    page = browser.new_page()
    try:
        shown = page.evaluate(
            f"""(hands) => {{
                const FAMILY = "blackjack";
                {_card_arithmetic()}
                return hands.map((h) => {{ const t = bjTotal(h); return [t.total, t.soft]; }});
            }}""",
            hands,
        )
    finally:
        page.close()
    wrong = [
        (hand, tuple(got), blackjack_total([parse_card(c) for c in hand]))
        for hand, got in zip(hands, shown, strict=True)
        if tuple(got) != blackjack_total([parse_card(c) for c in hand])
    ]
    assert len(shown) == 13**2 + 13**3 + 13**4
    assert not wrong, wrong[:5]
