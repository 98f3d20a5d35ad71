"""The floor's API under /api/v1/ (casino/urls.py); the apps above it add their own routes there."""

from rest_framework.routers import DefaultRouter

from tables.accounting import api as accounting
from tables.accounting import api_drop
from tables.api import live, views
from tables.closing import api as closing
from tables.players.api import PlayerViewSet

router = DefaultRouter()
router.register("casinos", views.CasinoViewSet)
router.register("pits", views.PitViewSet)
router.register("tables", views.TableViewSet)
router.register("dealers", views.DealerViewSet)
router.register("rulesets", views.RulesetViewSet)
router.register("sessions", live.TableSessionViewSet)
router.register("rounds", live.RoundViewSet)
router.register("chip-sets", accounting.ChipSetViewSet, basename="chipset")
router.register("inventory-slips", accounting.InventorySlipViewSet, basename="inventoryslip")
router.register("chip-slips", accounting.ChipSlipViewSet, basename="chipslip")
router.register("accounting-findings", accounting.AccountingFindingViewSet, basename="accountingfinding")
router.register("buy-ins", api_drop.BuyInViewSet, basename="buyin")
router.register("drop-boxes", api_drop.DropBoxViewSet, basename="dropbox")
router.register("soft-counts", api_drop.SoftCountViewSet, basename="softcount")
router.register("gaming-day-closes", closing.DayCloseViewSet, basename="dayclose")
router.register("players", PlayerViewSet, basename="player")

urlpatterns = router.urls
