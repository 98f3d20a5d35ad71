from django.urls import path

from audit.jackpots import views

urlpatterns = [
    path("jackpots/", views.board, name="jackpots-board"),
    path("jackpots/awards/<int:pk>/pay/", views.award_pay, name="jackpots-award-pay"),
    path("jackpots/banks/", views.banks, name="jackpots-banks"),
    path("jackpots/ledger/", views.ledger, name="jackpots-ledger"),
    path("jackpots/report/", views.report, name="jackpots-report"),
    path("jackpots/report.csv", views.report_download, name="jackpots-report-csv"),
    path("jackpots/adjustments/", views.adjustments, name="jackpots-adjustments"),
    path(
        "jackpots/adjustments/<int:pk>/decide/",
        views.adjustment_decide,
        name="jackpots-adjustment-decide",
    ),
]
