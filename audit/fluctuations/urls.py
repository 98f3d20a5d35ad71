from django.urls import path

from audit.fluctuations import views

urlpatterns = [
    path("holds/", views.holds, name="fluctuations-holds"),
    path("holds.<str:fmt>", views.holds, name="fluctuations-holds-file"),
    path("investigations/", views.investigation_list, name="investigations"),
    path("investigations.<str:fmt>", views.investigation_list, name="investigations-file"),
    path("investigations/check/", views.investigation_check, name="investigations-check"),
    path("investigations/<int:pk>/", views.investigation_detail, name="investigation"),
    path("investigations/<int:pk>.<str:fmt>", views.investigation_file, name="investigation-file"),
    path("investigations/<int:pk>/act/", views.investigation_act, name="investigation-act"),
]
