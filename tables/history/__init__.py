"""The long history: monthly partitions of the rounds and their children by gaming day, and
archiving a month to its own schema (and back).

Imports: the floor's models, the core.
"""
