"""A record's change history as every app's ``history`` action returns it (django-simple-history)."""

from __future__ import annotations

from rest_framework import serializers

from casino.api_fields import StrictCharField


class HistorySerializer(serializers.Serializer):
    history_id = serializers.IntegerField()
    history_date = serializers.DateTimeField()
    history_type = StrictCharField()
    history_user = serializers.StringRelatedField(allow_null=True)
    history_change_reason = StrictCharField(allow_null=True)
    changes = serializers.SerializerMethodField()

    def get_changes(self, record) -> list[dict]:
        previous = record.prev_record
        if previous is None:
            return []
        delta = record.diff_against(previous)
        return [{"field": c.field, "old": c.old, "new": c.new} for c in delta.changes]
