# Compiled only (tables.games.build_ext): the types Cython gives ante_up_21.py.
cimport cython

@cython.locals(key=int)
cpdef tuple _settle_poker(number, ante, bet, int p, int d, bint dealer_natural, dict memo)
