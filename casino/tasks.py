from celery import shared_task


@shared_task(name="casino.ping")
def ping() -> str:
    """Proves a worker is consuming: monitoring and the worker integration test call it."""
    return "pong"
