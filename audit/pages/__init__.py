"""Surveillance's pages: the review queue, the desk, a finding, patterns and dealers.

Imports: audit's selectors, services and rollups, the floor, the core.
"""
