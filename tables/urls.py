from django.urls import path

from tables import views

urlpatterns = [
    path("floor/", views.floor, name="floor"),
]
