"""The win's split into house edge, luck and dealer error, worked by hand."""

from decimal import Decimal as D

from audit.reports.explain import win_explanation


def test_edge_plus_luck_plus_errors_is_the_win():
    # Handle 10,000 at a 2% edge: theo 200, sd 500. Settled right the table would have won 1,180;
    # the dealers overpaid 80, so the recorded play won 1,100.
    e = win_explanation(win=D("1100"), expected_win=D("1180"), theo_win=D("200"), theo_sd=D("500"))
    assert (e.edge, e.luck, e.errors) == (D("200"), D("980"), D("-80"))
    assert e.edge + e.luck + e.errors == e.win
    assert e.z == D("1.96") and e.within_95 is True and e.percentile == D("97.5")
    assert e.text == ("The recorded play won 1,100.00: +200.00 is the house edge (theoretical win); +980.00 is "
                      "luck (z = +1.96, percentile 97.5, inside the 95% interval); -80.00 is dealer error "
                      "(overpaid by the dealers).")


def test_a_loss_outside_the_interval_and_no_spread():
    e = win_explanation(win=D("-1500"), expected_win=D("-1500"), theo_win=D("100"), theo_sd=D("400"))
    assert e.within_95 is False and e.z == D("-4.00")
    assert "lost 1,500.00" in e.text and "outside the 95% interval" in e.text and "no dealer error" in e.text
    flat = win_explanation(win=D("5"), expected_win=D("5"), theo_win=D("5"), theo_sd=D("0"))
    assert flat.z is None and "no spread" in flat.text
