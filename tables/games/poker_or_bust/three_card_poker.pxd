# Compiled only (tables.games.build_ext): the types Cython gives three_card_poker.py.
cimport cython

@cython.locals(t=list, n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t, c=Py_ssize_t,
               sq=Py_ssize_t, bi=Py_ssize_t, bj=Py_ssize_t, v=long, best=long)
cpdef long best_value(cards)
