# Compiled only (tables.games.build_ext): the types Cython gives base.py.
cimport cython

@cython.locals(i=Py_ssize_t)
cpdef object made(type cls, tuple names, tuple values)

cpdef object make_settlement(seat, wager, stake, net, outcome, explanation, hand=*, line=*)

cpdef object make_audit(tuple settlements, tuple findings, dict summary)
