"""Query-parameter filters that refuse what they cannot read.

django-filter reads a boolean filter through a widget that maps anything but
``true``/``false``/``1``/``0`` to "unknown", and "unknown" filters nothing: ``?is_open=null``
or ``?is_open=yes`` answered the whole list as if it had been filtered. Here a value that is
not a truth value is a field error (400), like a bad number or an unknown choice already is.

A filter named with no value (``?gaming_day=``, ``?is_open=``) is a field error too, for every
filter of the API: django-filter reads it as "not filtered", so a client whose variable was
empty got the whole list as if it had asked for one day. Leaving the parameter out means "not
filtered". The pages read their forms' query strings themselves (an empty field there is the
form's default), not through these FilterSets.
"""

from __future__ import annotations

from copy import deepcopy

from django import forms
from django.db import models
from django_filters import rest_framework as filters
from django_filters.widgets import BooleanWidget

_TRUE, _FALSE = ("true", "1"), ("false", "0")


class _RawBooleanWidget(BooleanWidget):
    def value_from_datadict(self, data, files, name):
        return data.get(name)  # the text as sent: the field decides whether it is a truth value


class StrictNullBooleanField(forms.NullBooleanField):
    """true/1 or false/0; absent is None (an empty value is refused by :class:`StrictFilterSet`,
    as for every filter)."""

    widget = _RawBooleanWidget
    default_error_messages = {"invalid": "Must be true or false."}

    def to_python(self, value):
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise forms.ValidationError(self.error_messages["invalid"], code="invalid")


class StrictBooleanFilter(filters.BooleanFilter):
    field_class = StrictNullBooleanField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", _RawBooleanWidget)
        super().__init__(*args, **kwargs)


def _integer_target(model, path: str) -> bool:
    """Whether ``path`` (``"table__pit"``, ``"seat"``) ends at a whole-number column or a record."""
    field = None
    for part in path.split("__"):
        try:
            field = model._meta.get_field(part)
        except Exception:  # noqa: BLE001 - a lookup or a name that is no field: not an integer column
            return False
        model = field.related_model or model
    if field is None:
        return False
    if field.is_relation:
        field = field.target_field
    return isinstance(field, models.IntegerField | models.AutoField)


EMPTY_FILTER = "Must not be empty: leave the parameter out for no filter."


class _NoEmptyFilterForm(forms.Form):
    """A filter given in the query with nothing in it (``?gaming_day=``, ``?table=&table=``) is
    an error of that field, whatever the filter's type."""

    def clean(self):
        cleaned = super().clean()
        for name in self.fields:
            key = self.add_prefix(name)
            if key not in self.data or name in self._errors:
                continue
            given = self.data.getlist(key) if hasattr(self.data, "getlist") else [self.data[key]]
            if all(not str(raw).strip() for raw in given):
                self.add_error(name, forms.ValidationError(EMPTY_FILTER, code="empty"))
        return cleaned


class StrictFilterSet(filters.FilterSet):
    """The API's FilterSet: a filter given with no value is refused (:class:`_NoEmptyFilterForm`),
    model boolean fields filter through :class:`StrictBooleanFilter`, and a number filter on a
    whole-number column or a record's id takes whole numbers only (django-filter reads every
    NumberFilter as a decimal, so ``?seat=0.5`` filtered nothing and answered an empty list
    where the schema says ``integer``)."""

    FILTER_DEFAULTS = deepcopy(filters.FilterSet.FILTER_DEFAULTS)
    FILTER_DEFAULTS.update({models.BooleanField: {"filter_class": StrictBooleanFilter}})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        model = self._meta.model
        for number in self.filters.values():
            if isinstance(number, filters.NumberFilter) and model is not None \
                    and _integer_target(model, number.field_name):
                number.field_class = forms.IntegerField

    def get_form_class(self):
        form = super().get_form_class()
        # Meta.form is not inherited by a subclass's own Meta (nor by filterset_fields' FilterSets).
        return form if issubclass(form, _NoEmptyFilterForm) else type(form.__name__, (_NoEmptyFilterForm, form), {})


class StrictFilterBackend(filters.DjangoFilterBackend):
    """DjangoFilterBackend whose generated FilterSets (``filterset_fields``) are strict too."""

    filterset_base = StrictFilterSet
