from django.urls import path

from tables.closing import pages

urlpatterns = [
    path("closing/", pages.closing_days, name="closing-days"),
    path("closing/<int:pk>/reopen/", pages.closing_reopen, name="closing-reopen"),
]
