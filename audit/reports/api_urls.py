"""The daily reports under /api/v1/ (casino/urls.py)."""

from rest_framework.routers import SimpleRouter

from audit.reports.api import DailyReportViewSet

router = SimpleRouter()
router.register("reports", DailyReportViewSet, basename="dailyreport")

urlpatterns = router.urls
