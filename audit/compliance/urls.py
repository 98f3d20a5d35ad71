from django.urls import path

from audit.compliance import views

urlpatterns = [
    path("compliance/", views.day, name="compliance-day"),
    path("compliance/mtl.<str:fmt>", views.mtl_file, name="compliance-mtl-file"),
    path("compliance/sign-off/", views.sign_off, name="compliance-sign-off"),
    path("compliance/ctr-exception/", views.ctr_exception, name="compliance-ctr-exception"),
    path("compliance/patrons/<str:identifier>/", views.identification, name="compliance-identification"),
    path("cage/cash-outs/", views.cash_outs, name="cage-cash-outs"),
    path("cage/cash-outs/<int:pk>/void/", views.cash_out_void, name="cage-cash-out-void"),
]
