"""Hold fluctuations: each table and game's expected band of win and the investigations a day
outside it opens.

Imports: the reports, the floor, the core.
"""
