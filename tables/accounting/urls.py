from django.urls import path

from tables.accounting import pages, pages_drop

urlpatterns = [
    path("tablet/tables/<int:pk>/chips/", pages.table_chips, name="tablet-chips"),
    path("tablet/tables/<int:pk>/chips/opener/", pages.table_chips_inventory, {"kind": "opener"},
         name="tablet-chips-opener"),
    path("tablet/tables/<int:pk>/chips/closer/", pages.table_chips_inventory, {"kind": "closer"},
         name="tablet-chips-closer"),
    path("tablet/tables/<int:pk>/chips/fill/", pages.table_chips_request, {"kind": "fill"}, name="tablet-chips-fill"),
    path("tablet/tables/<int:pk>/chips/credit/", pages.table_chips_request, {"kind": "credit"},
         name="tablet-chips-credit"),
    path("tablet/slips/<int:pk>/receive/", pages.slip_receive, name="tablet-slip-receive"),
    path("slips/<int:pk>/void/", pages.slip_void, name="slip-void"),
    path("slips/<int:pk>/void-confirm/", pages.slip_void_confirm, name="slip-void-confirm"),
    path("cage/", pages.cage, name="cage"),
    path("cage/slips/<int:pk>/issue/", pages.cage_issue, name="cage-issue"),
    path("accounting/slips/", pages.day_slips, name="accounting-day"),
    path("accounting/slips.<str:fmt>", pages.day_slips, name="accounting-day-file"),
    path("accounting/exceptions.<str:fmt>", pages.day_exceptions, name="accounting-exceptions-file"),
    path("tablet/tables/<int:pk>/buy-ins/", pages_drop.buy_ins, name="tablet-buy-ins"),
    path("count/", pages_drop.count_day, name="count-day"),
    path("count/drop/", pages_drop.count_drop, name="count-drop"),
    path("count/boxes/<int:pk>/enter/", pages_drop.count_enter, name="count-enter"),
    path("count/counts/<int:pk>/sign/", pages_drop.count_sign, name="count-sign"),
]
