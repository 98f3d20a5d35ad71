"""What a page must be for people on a tablet (docs/design/screens.md), measured in the browser.

``screen_findings(page)`` answers, for the page as it is loaded:

- ``header``: the sticky header's height, and whether its navigation keeps to one line;
- ``covered``: an element below the fold that, scrolled to (as an anchor or a focus moves it),
  ends up under the sticky header;
- ``small``: every visible control smaller than 44x44 px (text, selector and size).

A checkbox or radio button inside its <label> is measured by the label: the label takes
the tap. Nothing else is exempt.
"""

from __future__ import annotations

MIN_TAP = 44
#: The header's share of the viewport's height, at most.
HEADER_SHARE = 0.10

SCREEN_JS = """(minTap) => {
  const describe = (el) => {
    const tag = el.tagName.toLowerCase();
    const cls = el.className && typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim()
      .replace(/\\s+/g, ' ').slice(0, 30);
    return tag + (el.id ? '#' + el.id : '') + cls + (el.type && tag === 'input' ? '[' + el.type + ']' : '')
      + (text ? ' "' + text + '"' : '');
  };
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    // Off the page (a skip link waiting above it for a keyboard's focus): nothing to tap.
    if (box.bottom + window.scrollY <= 0 || box.right + window.scrollX <= 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && !el.closest('[hidden]');
  };
  const header = document.querySelector('header.top, #header');  // the app's, or the admin's
  let headerHeight = 0, oneLine = true, lines = [];
  if (header) {
    headerHeight = header.getBoundingClientRect().height;
    // One line: every item of the header and of its navigation shares one band of height.
    const items = [...header.querySelectorAll(':scope > *, nav.main > *, #user-tools > *')].filter(visible)
      .map((el) => el.getBoundingClientRect());
    if (items.length) {
      const top = Math.max(...items.map((b) => b.top)), bottom = Math.min(...items.map((b) => b.bottom));
      oneLine = top < bottom;  // some height that every item spans
      lines = items.map((b) => Math.round(b.top) + '-' + Math.round(b.bottom));
    }
  }
  // Below the fold: the last element with an id in <main>, else its last child; scrolled to
  // as a link to #id does (scroll-padding-top is what keeps it out from under the header).
  let covered = null;
  const main = document.querySelector('main');
  if (header && main && getComputedStyle(header).position !== 'static') {
    const targets = [...main.querySelectorAll('[id]')].filter(visible);
    const target = targets.length ? targets[targets.length - 1] : main.lastElementChild;
    if (target && visible(target)) {
      const before = window.scrollY;
      target.scrollIntoView({block: 'start', behavior: 'instant'});
      const under = header.getBoundingClientRect().bottom, top = target.getBoundingClientRect().top;
      if (window.scrollY > 0 && top < under - 1) {
        covered = describe(target) + ' top=' + Math.round(top) + ' under a header ending at ' + Math.round(under);
      }
      window.scrollTo(0, before);
    }
  }
  const small = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(controls)) {
    let target = el;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) target = el.closest('label');
    if (!visible(target)) continue;
    const box = target.getBoundingClientRect();
    if (box.width < minTap - 0.5 || box.height < minTap - 0.5) {
      small.push(describe(el) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
    }
  }
  return {header: Math.round(headerHeight * 10) / 10, oneLine, lines, covered, small};
}"""


def screen_findings(page) -> dict:
    return page.evaluate(SCREEN_JS, MIN_TAP)


def screen_failures(seen: dict, viewport: dict, where: str) -> list[str]:
    """The findings of ``screen_findings`` that break the rules, one line each."""
    failures = []
    limit = viewport["height"] * HEADER_SHARE
    if seen["header"] > limit:
        failures.append(f"{where}: header {seen['header']}px tall > {limit:.0f}px (10% of {viewport['height']})")
    if not seen["oneLine"]:
        failures.append(f"{where}: navigation wraps onto more than one line: {', '.join(seen['lines'])}")
    if seen["covered"]:
        failures.append(f"{where}: the header covers {seen['covered']}")
    for control in seen["small"]:
        failures.append(f"{where}: tap target under {MIN_TAP}x{MIN_TAP}: {control}")
    return failures
