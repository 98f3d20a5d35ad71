import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
application = get_wsgi_application()
# Import every view now, not on a worker's first request: gunicorn loads this module once
# in its master (preload_app) and its workers fork with the whole application, all of it
# the same release.
get_resolver().url_patterns  # noqa: B018 - loading the URLconf is the point
