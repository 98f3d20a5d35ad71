"""Under /api/v1/ beside tables/api/urls.py (a SimpleRouter: the API root is that router's)."""

from rest_framework.routers import SimpleRouter

from audit.fluctuations import api

router = SimpleRouter()
router.register("fluctuation-settings", api.FluctuationSettingsViewSet, basename="fluctuationsettings")
router.register("investigations", api.InvestigationViewSet, basename="investigation-api")
router.register("period-holds", api.PeriodHoldViewSet, basename="periodhold")

urlpatterns = router.urls
