from django.urls import path

from audit.ratings import views

urlpatterns = [
    path("players/", views.players, name="players"),
    path("players/top/", views.players_top, name="players-top"),
    path("players/<int:pk>/", views.player_page, name="player"),
]
