"""Forms of the surveillance desk: the queue's filters and a review decision."""

from __future__ import annotations

from django import forms

from casino.field_words import label
from casino.periods import period_error
from casino.scoping import scope
from casino.widgets import ListSelect
from tables.games.vocabulary.base import FINDING_KINDS
from tables.models import Dealer, Finding, Pit, Table

STATUS_CHOICES = [
    (Finding.OPEN, "Waiting for a decision"),
    ("reopened", "Sent back by a correction or void"),
    (Finding.ESCALATED, "Escalated"),
    ("reviewed", "Confirmed or dismissed"),
    ("all", "All"),
]
ORDER_CHOICES = [("newest", "Newest first"), ("largest", "Largest first")]


class QueueFilterForm(forms.Form):
    pit = forms.ModelChoiceField(queryset=Pit.objects.all(), required=False, empty_label="All pits",
                                 widget=ListSelect)
    table = forms.ModelChoiceField(
        queryset=Table.objects.select_related("pit"), required=False, empty_label="All tables", widget=ListSelect
    )
    dealer = forms.ModelChoiceField(
        queryset=Dealer.objects.all(), required=False, empty_label="All dealers", widget=ListSelect
    )
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="From")
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="To")
    gaming_day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    kind = forms.ChoiceField(
        choices=[("", "All kinds")] + [(k, label(k, "finding_kind")) for k in FINDING_KINDS],
        required=False,
    )
    min_amount = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Amount from"
    )
    max_amount = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Amount to"
    )
    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False, initial=Finding.OPEN)
    order = forms.ChoiceField(choices=ORDER_CHOICES, required=False, initial="newest")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        # Choices of the user's casinos only (another casino's pit is not an option).
        for name, path in (("pit", "casino"), ("table", "pit__casino"), ("dealer", "casino")):
            self.fields[name].queryset = scope(self.fields[name].queryset, user, path)

    def clean(self):
        data = super().clean()
        low, high = data.get("min_amount"), data.get("max_amount")
        if low is not None and high is not None and high < low:
            self.add_error("max_amount", "must not be below 'Amount from'")
        _check_period(self, data)
        return data


def _check_period(form: forms.Form, data: dict) -> None:
    since, until = data.get("since"), data.get("until")
    error = period_error(since, until) if since and until else None
    if error:
        form.add_error("until", error["until"])


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            ("confirm", "Confirm: dealer error"),
            ("dismiss", "Dismiss: recording mistake (asks the recorder for a correction)"),
            ("escalate", "Escalate"),
        ]
    )
    note = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class PeriodForm(forms.Form):
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    min_count = forms.IntegerField(required=False, min_value=2, initial=2, label="At least")

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", "must not be before 'since'")
        return data
