from rest_framework.routers import DefaultRouter

from audit.api import FindingViewSet
from audit.jackpots import api as jackpots
from audit.reports.api import DailyReportViewSet
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
router.register("findings", FindingViewSet)
router.register("jackpot-banks", jackpots.JackpotBankViewSet, basename="jackpot-bank")
router.register("jackpot-meters", jackpots.JackpotMeterViewSet, basename="jackpot-meter")
router.register("jackpot-awards", jackpots.JackpotAwardViewSet, basename="jackpot-award")
router.register("jackpot-adjustments", jackpots.JackpotAdjustmentViewSet, basename="jackpot-adjustment")
router.register("jackpot-liability", jackpots.JackpotLiabilityViewSet, basename="jackpot-liability")
router.register("reports", DailyReportViewSet, basename="dailyreport")
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
