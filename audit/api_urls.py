"""Surveillance's findings under /api/v1/ (casino/urls.py)."""

from rest_framework.routers import SimpleRouter

from audit.api import FindingViewSet

router = SimpleRouter()
router.register("findings", FindingViewSet)

urlpatterns = router.urls
