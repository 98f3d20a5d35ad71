from celery import shared_task

from casino.outbox import outbox_drain as drain


@shared_task(name="casino.ping")
def ping() -> str:
    """Proves a worker is consuming: monitoring and the worker integration test call it."""
    return "pong"


@shared_task(name="casino.outbox_drain", ignore_result=True)
def outbox_drain() -> int:
    """Beat (``OUTBOX_DRAIN_SECONDS``): send the tasks the broker could not take when they were queued."""
    return drain()
