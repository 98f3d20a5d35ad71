"""The pit boss's tablet: the floor, a table, recording and correcting a round, the preview.

Imports: the floor's models and services, the core.
"""
