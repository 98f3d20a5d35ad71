from django.urls import path

from audit.pages import views

urlpatterns = [
    path("desk/", views.queue, name="desk-queue"),
    path("desk/rounds/<int:pk>/", views.round_detail, name="desk-round"),
    path("desk/findings/<int:pk>/review/", views.finding_review_view, name="desk-finding-review"),
    path("desk/dealers/", views.dealers, name="desk-dealers"),
    path("desk/dealers/<int:pk>/", views.dealer_detail, name="desk-dealer"),
    path("desk/patterns/", views.patterns, name="desk-patterns"),
]
