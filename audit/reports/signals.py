"""What the daily report announces (the gaming day's close listens).

``report_finished``: a run finished and its report is DONE (sent once the transaction has
committed). Arguments: ``report`` (the DailyReport; ``report.provisional`` tells the kind).
"""

from django.dispatch import Signal

report_finished = Signal()
