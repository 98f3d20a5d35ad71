"""Accounting writes, one module per record; each a keyword-only function in one transaction."""
