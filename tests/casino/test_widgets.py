"""ListSelect writes the very HTML Django's Select writes, without a template per option."""

from __future__ import annotations

import re

from django import forms
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.widgets import ListSelect

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)
CHOICES = st.lists(st.tuples(TEXT, TEXT), max_size=6, unique_by=lambda c: c[0])


def _same(html: str) -> str:
    """Django's template puts line breaks between the tags; the HTML is the same without them."""
    return re.sub(r">\s+<", "><", html.strip())


@settings(max_examples=40, deadline=None)
@given(choices=CHOICES, groups=st.lists(st.tuples(TEXT, CHOICES), max_size=2), pick=st.integers(0, 8),
       attrs=st.dictionaries(st.sampled_from(["id", "class", "data-x"]), TEXT, max_size=2),
       required=st.booleans())
def test_the_html_is_djangos(choices, groups, pick, attrs, required):
    all_choices = [("", "All")] + choices + [(name, inner) for name, inner in groups if inner]
    flat = [value for value, _ in choices] + [v for _, inner in groups for v, _ in inner]
    value = flat[pick % len(flat)] if flat else ""
    attrs = {**attrs, "required": True} if required else attrs
    ours = ListSelect(attrs=attrs, choices=all_choices).render("dealer", value)
    django = forms.Select(attrs=attrs, choices=all_choices).render("dealer", value)
    assert _same(ours) == _same(django)


def test_a_model_choice_keeps_its_selected_option(db):
    from tables.models import Dealer
    from tests.factories import DealerFactory

    dealers = [DealerFactory(), DealerFactory()]
    field = forms.ModelChoiceField(queryset=Dealer.objects.order_by("pk"), empty_label="All dealers", widget=ListSelect)
    html = field.widget.render("dealer", dealers[1].pk)
    assert f'<option value="{dealers[1].pk}" selected>' in html
    assert html.count("<option") == 3 and '<option value="">All dealers</option>' in html
