"""The premise of the page walk (test_no_sideways_scroll.py), which loads each page in landscape
and turns it to portrait: no page's script reads the screen's size, so a page turned to a size
lays out as one loaded at it (CSS only). No browser and no database: it reads the sources."""

from __future__ import annotations

from tests.browser.conftest import ROOT


def test_the_pages_lay_out_without_a_script_reading_the_screen():
    """What lets the page walk turn a loaded page instead of loading it again: no page's script
    reads the screen's size, so a page turned to a size lays out as one loaded at it (CSS only)."""
    readers = ("innerWidth", "innerHeight", "matchMedia", "screen.width", "screen.orientation", "onresize",
               "'resize'", '"resize"')
    found = [f"{path.relative_to(ROOT)}: {word}" for top in ("templates", "casino", "tables", "audit")
             for path in (ROOT / top).rglob("*") if path.suffix in (".html", ".js")
             for word in readers if word in path.read_text(errors="ignore")]
    assert not found, found
