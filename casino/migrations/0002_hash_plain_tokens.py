"""Existing DRF tokens (plain keys) become hashed ApiTokens and keep working; the plain keys
are deleted. Not reversible by design: the plain keys are gone, and only their holders have
them (reversing leaves the hashed tokens in place)."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone


def hash_plain_tokens(apps, schema_editor):
    plain = apps.get_model("authtoken", "Token")
    hashed = apps.get_model("casino", "ApiToken")
    now = timezone.now()
    expires = now + timedelta(days=settings.API_TOKEN_LIFETIME_DAYS)
    for token in plain.objects.all():
        hashed.objects.get_or_create(
            digest=hashlib.sha256(token.key.encode()).hexdigest(),
            defaults={"prefix": token.key[:6], "user_id": token.user_id, "name": "migrated from a plain token",
                      "created_at": token.created or now, "expires_at": expires})
    plain.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0001_api_tokens"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(hash_plain_tokens, migrations.RunPython.noop)]
