"""The gaming-day close and reopen: a closed day refuses every write to its rounds and money
until a gaming manager reopens it (``services.check``), and its close hands the day to the
final report.

Imports: the floor (its models, table accounting), the core.
"""
