# Compiled only (tables.games.build_ext): the State's fields as C struct members, so the
# operations read and write them without a dictionary or descriptor lookup. Money fields
# stay Python ints (amounts up to 999,999,999,999.99 in cents).

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
    cdef public Py_ssize_t comp_ptr
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

