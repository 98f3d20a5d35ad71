"""The API's throttles, reading their rates when asked (DRF's classes read them once, at import)."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle


class _RateFromSettings:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]


class UserThrottle(_RateFromSettings, UserRateThrottle):
    """Per user, whether by session or token."""
