"""Form widgets of the pages.

:class:`ListSelect` writes a select's options in Python. Django's ``Select`` renders two template
includes per option (the option and its attributes): for the desk's filters (240 dealers, 60
tables, the pits) that was 70-160 ms of the page, more than reading the day's findings. The HTML
is Django's own (same attributes, same escaping, optgroups kept): only the template walk goes.
"""

from __future__ import annotations

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe


def _attrs(attrs: dict) -> str:
    """Django's ``attrs.html``: in the dict's order, False left out, True as a bare name."""
    return format_html_join("", "{}", ((format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value),)
                                       for name, value in attrs.items() if value is not False))


class ListSelect(forms.Select):
    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        groups = []
        for group_name, options, _index in widget["optgroups"]:
            html = format_html_join("", '<option value="{}"{}>{}</option>',
                                    ((o["value"], _attrs(o["attrs"]), o["label"]) for o in options))
            groups.append(format_html('<optgroup label="{}">{}</optgroup>', group_name, html)
                          if group_name else html)
        return format_html("<select name=\"{}\"{}>{}</select>", widget["name"], _attrs(widget["attrs"]),
                           mark_safe("".join(groups)))  # noqa: S308 - each part built by format_html
