"""Title 31: the multiple transaction log, cash-outs, patron identification, CTRs and their
exceptions, the MTL sign-off.

Imports: the floor (table accounting's buy-ins), the core.
"""
