"""What the accounting announces to the apps that build on it (the daily report, the gaming
day's close), so that it imports none of them.

``count_signed``: a drop box's count revision was signed (sent once the transaction has
committed). Arguments: ``casino`` (a Casino), ``gaming_day`` (the box's day), ``signature``.
"""

from django.dispatch import Signal

count_signed = Signal()
