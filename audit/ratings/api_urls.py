"""Under /api/v1/ (casino/urls.py)."""

from django.urls import path

from audit.ratings import api

urlpatterns = [
    path("players/<int:pk>/ratings/", api.PlayerRatingsView.as_view(), name="player-ratings"),
    path("ratings/", api.RatingListView.as_view(), name="rating-list"),
    path("ratings.csv", api.RatingCsvView.as_view(), name="rating-csv"),
    path("ratings/<str:identifier>/", api.IdentifierRatingsView.as_view(), name="rating-identifier"),
]
