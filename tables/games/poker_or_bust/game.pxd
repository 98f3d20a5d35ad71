# Compiled only (tables.games.build_ext): the types Cython gives game.py.
cimport cython

@cython.locals(total=int, k=Py_ssize_t, n=Py_ssize_t)
cpdef int bust_at(cards)

@cython.locals(total=int, c=Py_ssize_t)
cpdef int points(cards)

@cython.locals(total=int, k=Py_ssize_t, n=Py_ssize_t)
cpdef int dealer_stop(cards)
