"""The accounting records, one module per subject."""

from tables.accounting.models.buyins import BuyIn, BuyInVoid
from tables.accounting.models.chips import ChipSet, Denomination
from tables.accounting.models.count import (
    BoxDrop,
    CountSignature,
    DropBox,
    SoftCount,
    SoftCountLine,
)
from tables.accounting.models.ledger import Account, Leg, Transaction
from tables.accounting.models.serials import SerialCounter
from tables.accounting.models.slips import (
    AccountingFinding,
    AccountingSettings,
    ChipSlip,
    ChipSlipLine,
    InventoryLine,
    InventorySlip,
)

__all__ = [
    "Account", "AccountingFinding", "AccountingSettings", "BoxDrop", "BuyIn", "BuyInVoid", "ChipSet", "ChipSlip",
    "ChipSlipLine", "CountSignature", "Denomination", "DropBox", "InventoryLine", "InventorySlip",
    "Leg", "SerialCounter", "SoftCount", "SoftCountLine", "Transaction",
]
