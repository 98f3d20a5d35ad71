# Compiled only (tables.games.build_ext): the types Cython gives audit.py. The audit's
# loop keeps its counters and flags as C integers.
cimport cython

cdef tuple _settle_hand_memo(number, base, i, h, dealer, rules, bint peek_natural, key, c)

@cython.locals(seats=tuple, dealers=dict, dealer_ok=dict, live_texts=dict, settlements=list,
               seat_findings=list, findings=list, hands21=dict, hit=tuple, n_seats=Py_ssize_t, k=Py_ssize_t,
               i=Py_ssize_t, start=Py_ssize_t, number=int, last=int, total=int, dk=int, peek_natural=bint,
               mismatch=bint)
cpdef object audit(rnd, rules, spec, context=*)
