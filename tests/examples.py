"""How many examples a Hypothesis property draws: fewer by default, more when asked.

``make test`` and CI run every property at its quick count, so the suite stays within its
time on a shared 2-core machine; ``HYPOTHESIS_PROFILE=thorough`` (docs/testing.md) draws each
property's full count, and ten times Hypothesis's default for a property that sets none (the
profile is registered in tests/conftest.py). A property's examples come from the same seeded
strategies either way: the quick count is a prefix of the search, not a different test.
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def examples(full: int, quick: int) -> int:
    """``full`` examples under the thorough profile, else ``quick``."""
    return full if THOROUGH else quick
