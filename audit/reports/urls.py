from django.urls import path

from audit.reports import views

urlpatterns = [
    path("reports/", views.reports_index, name="reports"),
    path("reports/today/", views.reports_today, name="reports-today"),
    path("reports/period/", views.report_period_file, name="reports-period"),
    path("reports/<int:pk>/", views.report_day, name="reports-day"),
    path("reports/<int:pk>/progress/", views.report_progress, name="reports-progress"),
    path("reports/<int:pk>/file/", views.report_file, name="reports-file"),
]
