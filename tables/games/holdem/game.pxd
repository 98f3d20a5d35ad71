# Compiled only (tables.games.build_ext): the types Cython gives game.py's parser, so that
# the walk over the seats and the log, and its memo hits, run on C integers and typed
# containers. Everything else stays a Python object.
cimport cython

@cython.locals(i=Py_ssize_t, out=list, taken=dict, made=dict, memo=dict)
cpdef tuple _parse_seats(raw, stakes, errors)

@cython.locals(k=Py_ssize_t, out=list, seen=list, decks=Py_ssize_t, specs=dict, made=dict,
               spec=tuple, c=Py_ssize_t)
cpdef tuple _parse_actions(raw, set seat_numbers, stakes, errors)
