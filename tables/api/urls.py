from rest_framework.routers import DefaultRouter

from tables.api import views

router = DefaultRouter()
router.register("casinos", views.CasinoViewSet)
router.register("pits", views.PitViewSet)
router.register("tables", views.TableViewSet)
router.register("dealers", views.DealerViewSet)
router.register("rulesets", views.RulesetViewSet)

urlpatterns = router.urls
