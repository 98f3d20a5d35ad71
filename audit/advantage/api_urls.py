"""Under /api/v1/ beside tables/api/urls.py."""

from rest_framework.routers import SimpleRouter

from audit.advantage import api

router = SimpleRouter()
router.register("advantage-play", api.AdvantagePlayViewSet, basename="advantageplay")

urlpatterns = router.urls
