"""Players: the identifiers rounds name, their cards and who they are.

Imports: the floor's models, the core.
"""
