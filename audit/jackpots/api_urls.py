"""The jackpot banks, meters, awards, adjustments and liability under /api/v1/ (casino/urls.py)."""

from rest_framework.routers import SimpleRouter

from audit.jackpots import api

router = SimpleRouter()
router.register("jackpot-banks", api.JackpotBankViewSet, basename="jackpot-bank")
router.register("jackpot-meters", api.JackpotMeterViewSet, basename="jackpot-meter")
router.register("jackpot-awards", api.JackpotAwardViewSet, basename="jackpot-award")
router.register("jackpot-adjustments", api.JackpotAdjustmentViewSet, basename="jackpot-adjustment")
router.register("jackpot-liability", api.JackpotLiabilityViewSet, basename="jackpot-liability")

urlpatterns = router.urls
