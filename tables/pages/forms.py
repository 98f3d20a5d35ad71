"""Forms of the pit boss's tablet: open a table, change its dealer."""

from __future__ import annotations

from django import forms

from casino.widgets import ListSelect
from tables.models import Dealer


class DealerForm(forms.Form):
    dealer = forms.ModelChoiceField(queryset=Dealer.objects.none(), empty_label="Choose the dealer",
                                    widget=ListSelect)

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        if table is not None:
            self.fields["dealer"].queryset = Dealer.objects.filter(
                casino=table.pit.casino_id, active=True
            )
