# Compiled only (tables.games.build_ext): the State's fields as C struct members, so the
# operations read and write them without a dictionary or descriptor lookup. Money fields
# stay Python ints (amounts up to 999,999,999,999.99 in cents).

cimport cython

cdef class State:
    cdef public object st
    cdef public object button
    cdef public list clock
    cdef public dict pos
    cdef public list index
    cdef public Py_ssize_t n
    cdef public list stack
    cdef public list left
    cdef public list contrib
    cdef public list inr
    cdef public list ante
    cdef public list state
    cdef public list need
    cdef public list hole
    cdef public list up
    cdef public list stood
    cdef public list cards
    cdef public list fold_at
    cdef public list fold_round
    cdef public list allin_at
    cdef public Py_ssize_t sb_pos
    cdef public Py_ssize_t bb_pos
    cdef public list blinds
    cdef public Py_ssize_t live
    cdef public Py_ssize_t active
    cdef public Py_ssize_t phase
    cdef public Py_ssize_t rno
    cdef public object bet
    cdef public Py_ssize_t bets
    cdef public object size
    cdef public Py_ssize_t cursor
    cdef public list started
    cdef public bint up_dealt
    cdef public dict comp
    cdef public Py_ssize_t comp_last
    cdef public list comp_early
    cdef public Py_ssize_t ended_at
    cdef public Py_ssize_t ended_round
    cdef public dict awards
    cdef public dict award_paths
    cdef public object rake
    cdef public str rake_path
    cdef public object errors
    cdef public list findings
    cdef public list log
    cdef public Py_ssize_t k


    # The operations the replay calls for every action, as C calls between them.
    @cython.locals(state=list, inr=list, need=list, j=Py_ssize_t, n=Py_ssize_t, _=Py_ssize_t)
    cpdef Py_ssize_t next_actor(self)
    @cython.locals(j=Py_ssize_t, nxt=Py_ssize_t, left=list, inr=list, state=list)
    cpdef _betting(self, str kind, object seat, object cents, Py_ssize_t k)
    cpdef bint _full_raise(self, Py_ssize_t j, object inc)
    @cython.locals(ok=bint, all_in=bint, inr=list, findings=list, rno=Py_ssize_t)
    cpdef bint _judge_bet(self, str kind, Py_ssize_t j, object cents, bint report, Py_ssize_t k,
                          Py_ssize_t nxt)
    @cython.locals(j=Py_ssize_t)
    cpdef _op_card(self, str kind, object seat, object card, Py_ssize_t k)
    @cython.locals(j=Py_ssize_t, left=list)
    cpdef _op_post(self, str kind, object seat, object cents, Py_ssize_t k)
    cpdef _op_award(self, str kind, object seat, object cents, Py_ssize_t k)
    @cython.locals(ph=Py_ssize_t)
    cpdef advance(self, Py_ssize_t to, where=*)
    cpdef _close_round(self, Py_ssize_t r, where)
    @cython.locals(k=Py_ssize_t, phase=Py_ssize_t, target=Py_ssize_t, targets=dict, log=list)
    cpdef apply_all(self, actions, errors)
