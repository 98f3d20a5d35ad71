"""A refusal shown on a page: the pages of every app flash it the same way."""

from __future__ import annotations

from django.contrib import messages

from casino.field_words import page_errors


def flash_errors(request, exc) -> None:
    """Each field's errors (a ``ValidationError`` or a form's ``errors``) as a message."""
    for sentence in page_errors(exc):
        messages.error(request, sentence)
