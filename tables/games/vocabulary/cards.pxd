# Compiled only (tables.games.build_ext): the types Cython gives cards.py.
cimport cython

@cython.locals(counts=int[52], k=Py_ssize_t, c=Py_ssize_t, cards=tuple)
cpdef bint too_many_copies(list card_lists, int decks)
