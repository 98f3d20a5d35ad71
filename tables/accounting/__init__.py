"""Table accounting: chip sets, inventory slips, fills and credits, buy-ins, drop boxes and the
soft count, and the double-entry chip ledger they post to. See README.md beside this file.

Imports: the floor's models, the gaming-day close's refusal of a closed day, the core.
"""
