from django.urls import path

from audit.advantage import views

urlpatterns = [
    path("desk/advantage/", views.advantage, name="desk-advantage"),
]
