# Compiled only (tables.games.build_ext): the types Cython gives player_levels.py. A six-deck
# shoe deals the player hundreds of millions of hands per upcard: the loops over a rank
# multiset's hands run on C integers and memoryviews, and only a stand's table read and the
# hand's poker value are Python calls.
cimport cython

from tables.games.poker_or_bust.dealer_moments cimport _Sized

# read in the loops over a rank multiset's hands: a C constant, not a module global
cdef Py_ssize_t _WIDTH

cpdef bint stands(double stand, double draw)


cdef class _Splits:
    cdef public long long k
    cdef public list splits
    cdef public Py_ssize_t count
    cdef public dict index
    cdef public object flat
    cdef public object ways
    cdef public object perm
    cdef public object up


cdef class _Level:
    cdef public long long[:] radix
    cdef public long long[:] stride
    cdef public Py_ssize_t count
    cdef public int[:] slot
    cdef public Py_ssize_t rows
    cdef public double[:] values
    cdef public signed char[:] drew


cdef class LevelSolver:
    cdef public long long[:] left
    cdef public Py_ssize_t upcard
    cdef public object odds
    cdef public dict _odds
    cdef public bint monotone
    cdef public long long keep
    cdef public long long decides
    cdef public long long lo
    cdef public long long size
    cdef public list rank_left
    cdef public object tables
    cdef public list perms
    cdef public dict _splits
    cdef public long long hands
    cdef public long long[:] digits
    cdef public long long[:] counts
    cdef public double[:] draw
    cdef public double[:] busted
    cdef public long long[:] flat
    cdef public double[:] ways
    cdef public long long[:] perm
    cdef public long long[:] up
    cdef public long long[:] offsets
    cdef public long long[:] kstride
    cdef public long long[:] others
    cdef public long long[:] points
    cdef public long long[:] cards
    cdef public long long[:] copies
    cdef public dict _rank_part
    cdef public long long _plain
    cdef public dict _suited
    cdef public object read_order
    cdef public dict watch
    cdef public dict watched
    cdef public object kept_keys
    cdef public object kept_stand
    cdef public object kept_draw
    cdef public object kept_bound
    cdef public double stand_value
    cdef public double draw_value

    @cython.locals(digits=cython.longlong[:], perm=cython.longlong[:], offsets=cython.longlong[:],
                   slot=cython.int[:], stride=cython.longlong[:], radix=cython.longlong[:],
                   nr=Py_ssize_t, relabellings=Py_ssize_t, j=Py_ssize_t,
                   rows=Py_ssize_t, i=Py_ssize_t, canon=cython.longlong, p=Py_ssize_t,
                   other=cython.longlong, r=Py_ssize_t, others=cython.longlong[:], at=Py_ssize_t)
    cpdef Py_ssize_t _canon(self, _Level level, long long[:] ranks)

    @cython.locals(digits=cython.longlong[:], counts=cython.longlong[:], ways=cython.double[:],
                   flat=cython.longlong[:], offsets=cython.longlong[:], slot=cython.int[:],
                   values=cython.double[:], drew=cython.schar[:], radix=cython.longlong[:],
                   nr=Py_ssize_t, cards_left=cython.longlong, j=Py_ssize_t,
                   r=Py_ssize_t, s=Py_ssize_t, c=Py_ssize_t, rows=Py_ssize_t, i=Py_ssize_t,
                   row=Py_ssize_t, w=cython.double, at=Py_ssize_t, m=Py_ssize_t, drawn=cython.double,
                   key=cython.ulonglong, pos=cython.longlong, bits=cython.longlong,
                   copies=cython.longlong)
    cpdef double _values(self, _Level level, long long[:] ranks, list kids, _Sized sized, list by_rank,
                         long long room, long long n, double weight, double[:] total, bint forced)

    @cython.locals(digits=cython.longlong[:], counts=cython.longlong[:], left=cython.longlong[:],
                   draw=cython.double[:], busted=cython.double[:], up=cython.longlong[:],
                   offsets=cython.longlong[:], kstride=cython.longlong[:], values=cython.double[:],
                   kv=cython.double[:], points=cython.longlong[:], nr=Py_ssize_t, j=Py_ssize_t,
                   r=Py_ssize_t, s=Py_ssize_t, c=Py_ssize_t, k=cython.longlong, q=Py_ssize_t,
                   base=cython.longlong, child=Py_ssize_t, kat=Py_ssize_t, at=Py_ssize_t, m=Py_ssize_t,
                   w=cython.double, mean=cython.double, nonzero=cython.double, error=cython.double,
                   o=cython.double, value=cython.longlong, kid=_Level, cards=cython.longlong[:],
                   copies=cython.longlong[:], d=Py_ssize_t, code=cython.longlong, v=cython.longlong)
    cpdef void _price(self, Py_ssize_t row, _Level level, long long[:] ranks, list kids, _Sized sized,
                      list by_rank, long long room, long long cards_left, bint forced)
