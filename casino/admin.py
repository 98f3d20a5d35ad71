"""DRF's plain-key tokens are not used (casino.models.ApiToken keeps digests): hide their admin,
where a key made would never work. Tokens are issued on the API tokens page (/tokens/)."""

from __future__ import annotations

from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)
