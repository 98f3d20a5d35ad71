"""What reads the floor afterwards.

Holds surveillance (``pages``: review, the desk, patterns; ``rollups``: the desk's daily figures;
``selectors``, ``services``: findings' decisions; ``chain_verify``), the jackpot banks and their
ledger (``jackpots``), finance's daily reconciliation (``reports``), hold fluctuations
(``fluctuations``), player ratings (``ratings``), Title 31 (``compliance``) and advantage play
(``advantage``).

Imports: the floor (``tables``), the core (``casino``) and the engine; nothing above it (the
demo, the root urls).
"""
