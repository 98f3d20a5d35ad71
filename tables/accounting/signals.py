"""What the accounting announces to the apps that build on it (the daily report, the gaming
day's close), so that it imports none of them.

``count_signed``: a drop box's count revision was signed (sent once the transaction has
committed). Arguments: ``casino`` (a Casino), ``gaming_day`` (the box's day), ``signature``.

``money_written``: a record money is computed from was written with its lines (a chip ledger
transaction, an opener or closer slip, a soft count) or a fill's or credit's state moved;
sent inside the writer's transaction, so the audit's hash chain links it in that transaction
(audit/money_chain.py). Arguments: ``kind`` (the chain's kind of record), ``instance``.
"""

from django.dispatch import Signal

count_signed = Signal()
money_written = Signal()
