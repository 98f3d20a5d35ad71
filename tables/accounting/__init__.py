"""Table accounting (issue #16): chip sets, inventory slips, fills and credits, and the
double-entry chip ledger they post to. See README.md beside this file."""
