"""Under /api/v1/ beside tables/api/urls.py: one read (a day's figures, an object, not a list)."""

from django.urls import path

from audit.advantage import api

urlpatterns = [
    path("advantage-play/", api.AdvantagePlayView.as_view(), name="advantage-play"),
]
