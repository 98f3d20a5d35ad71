from django.urls import path

from tables.pages import views_floor, views_round

urlpatterns = [
    path("tablet/", views_floor.floor, name="tablet-floor"),
    path("tablet/tables/<int:pk>/", views_floor.table_page, name="tablet-table"),
    path("tablet/tables/<int:pk>/open/", views_floor.table_open, name="tablet-table-open"),
    path("tablet/tables/<int:pk>/close/", views_floor.table_close, name="tablet-table-close"),
    path("tablet/tables/<int:pk>/dealer/", views_floor.table_dealer, name="tablet-table-dealer"),
    path("tablet/tables/<int:pk>/round/", views_round.round_new, name="tablet-round-new"),
    path("tablet/tables/<int:pk>/preview/", views_round.round_preview, name="tablet-round-preview"),
    path("tablet/tables/<int:pk>/rounds/", views_round.round_save, name="tablet-round-save"),
    path("tablet/tables/<int:pk>/holdem-next/", views_round.holdem_next, name="tablet-holdem-next"),
    path("tablet/rounds/<int:pk>/", views_round.round_result, name="tablet-round"),
    path(
        "tablet/rounds/<int:pk>/correct/",
        views_round.round_correct_page,
        name="tablet-round-correct",
    ),
]
