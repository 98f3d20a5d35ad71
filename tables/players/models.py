"""The players the floor knows by name.

A seat's wagers (``tables.Wager.player``) and buy-ins (``accounting.BuyIn.player_identifier``) carry
the identifier the pit recorded (a card number or the casino's own ID), as free text. A
:class:`Player` gives that identifier a record: it links by the identifier itself, so every round
recorded before or after the player was registered belongs to them, and a round recorded under an
identifier nobody has registered still rates (as "not registered").

Personal data is kept where it is needed and shown to the roles that need it (README.md beside this
package): the name and loyalty number here; identity documents, which only compliance reads, live
with the Title 31 records.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from casino.models import Casino


class Player(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="players")
    identifier = models.CharField(
        max_length=40, help_text="As recorded at the seat: the player's card number or ID (exact match).")
    name = models.CharField(max_length=120, blank=True)
    loyalty_number = models.CharField(max_length=40, blank=True,
                                      help_text="The loyalty system's member number, when enrolled.")
    registered_at = models.DateTimeField()
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # A change of name or loyalty number is kept with its author and reason; a player is never
    # deleted (ratings and Title 31 logs name them).
    history = HistoricalRecords()

    class Meta:
        ordering = ["identifier"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "identifier"], name="player_unique_identifier"),
            models.UniqueConstraint(fields=["casino", "loyalty_number"], condition=~models.Q(loyalty_number=""),
                                    name="player_unique_loyalty_number"),
            models.CheckConstraint(condition=~models.Q(identifier=""), name="player_has_identifier"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.identifier})" if self.name else self.identifier
