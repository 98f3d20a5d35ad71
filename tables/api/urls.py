from rest_framework.routers import DefaultRouter

from audit.api import FindingViewSet
from tables.api import live, views

router = DefaultRouter()
router.register("casinos", views.CasinoViewSet)
router.register("pits", views.PitViewSet)
router.register("tables", views.TableViewSet)
router.register("dealers", views.DealerViewSet)
router.register("rulesets", views.RulesetViewSet)
router.register("sessions", live.TableSessionViewSet)
router.register("rounds", live.RoundViewSet)
router.register("findings", FindingViewSet)

urlpatterns = router.urls
