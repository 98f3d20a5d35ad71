# Compiled only (tables.games.build_ext): the types Cython gives blackjack_tie.py.

cdef _settle_bonus(number, key, amount, tie, mine, dealer_text, rules)
