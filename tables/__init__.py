"""What happens at the tables: the floor and its money.

Holds the floor (pits, tables, rulesets and versions, dealers, sessions, rounds, revisions,
wagers, and the findings and chain links recording writes in its transaction: ``models``,
``chain``, ``services``, ``round_effects``), the pure game engine (``games``), table accounting
(``accounting``), the gaming-day close (``closing``), players (``players``), history partitions
(``history``), the floor's API (``api``) and the tablet's pages (``pages``).

Imports: the core (``casino``) and the engine; never ``audit`` (what audit must hear of a round it
hears through the protocols in ``round_effects``, listed in the settings).
"""
