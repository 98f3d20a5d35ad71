"""Under /api/v1/compliance/ beside tables/api/urls.py."""

from rest_framework.routers import SimpleRouter

from audit.compliance import api

router = SimpleRouter()
router.register("compliance/settings", api.ComplianceSettingsViewSet, basename="compliancesettings")
router.register("compliance/cash-outs", api.CashOutViewSet, basename="cashout")
router.register("compliance/identifications", api.IdentificationViewSet, basename="identification")
router.register("compliance/days", api.ComplianceDayViewSet, basename="complianceday")

urlpatterns = router.urls
