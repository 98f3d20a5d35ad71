# Compiled only (tables.games.build_ext): the types Cython gives dealer_moments.py. The tables'
# build walks hundreds of millions of suit draws with a six-deck shoe and a low upcard, and adds
# each improving one to dozens of cells: the walk on C arrays and C recursion, the cells an
# open-addressing table of C longs and doubles instead of dictionaries of tuples.
cimport cython

# read in the walks' inner loops: C constants, not module globals looked up each time
cdef Py_ssize_t _STRIDE
cdef long long _RANK_BITS
cdef long long _MEMO_MASK

cdef class _Cells:
    cdef public long long[:] keys
    cdef public long long[:] slots
    cdef public double[:] vals
    cdef public Py_ssize_t mask
    cdef public Py_ssize_t used
    cdef public long long[:] touched

    @cython.locals(mask=Py_ssize_t, h=cython.ulonglong, i=Py_ssize_t, k=cython.longlong)
    cpdef void add(self, long long key, long long slot, double x)

    @cython.locals(i=Py_ssize_t)
    cdef void _grow(self)

    @cython.locals(n=Py_ssize_t, i=Py_ssize_t)
    cpdef void drain(self, _Cells into)


cdef class _Walk:
    cdef public long long base
    cdef public long long[:] item
    cdef public long long[:] copies
    cdef public double[:] factor
    cdef public Py_ssize_t items

    @cython.locals(p=Py_ssize_t, digit=cython.longlong, k=cython.longlong, grown=cython.longlong,
                   t=cython.longlong)
    cpdef void walk(self, Py_ssize_t start, long long code, Py_ssize_t size, double w, Py_ssize_t most)

    cpdef void _visit(self, long long code, Py_ssize_t size, double w)


cdef class _RankMoments(_Walk):
    cdef public Py_ssize_t order
    cdef public dict ranks
    cdef public dict bound
    cdef public long long n
    cdef public long long plain

    cpdef void _visit(self, long long code, Py_ssize_t size, double w)


cdef class _SuitDraws(_Walk):
    cdef public _Cells cells
    cdef public _Cells local
    cdef public long long[:] left
    cdef public Py_ssize_t order
    cdef public Py_ssize_t upcard
    cdef public dict suited
    cdef public long long[:] code
    cdef public long long[:] count
    cdef public long long[:] labels
    cdef public long long[:] rank_base
    cdef public long long[:] to_come
    cdef public long long[:] first
    cdef public long long[:] split
    cdef public double[:] weight
    cdef public long long slot_best
    cdef public long long slot_plain
    cdef public long long plain
    cdef public long long n
    cdef public Py_ssize_t depth

    @cython.locals(at=Py_ssize_t, most=cython.longlong, s=Py_ssize_t, t=Py_ssize_t, lab=Py_ssize_t,
                   base=cython.longlong, r=cython.longlong, shift=cython.longlong, k=Py_ssize_t,
                   sp=Py_ssize_t, orbit=cython.longlong, ok=cython.bint, same=cython.longlong,
                   equal=cython.longlong, saved=Py_ssize_t, j=cython.longlong, code=cython.longlong,
                   have=cython.longlong, now=cython.longlong, labels=cython.longlong[:])
    cdef void _descend(self, Py_ssize_t i, double q)

    @cython.locals(best=cython.longlong, s=Py_ssize_t, v=cython.longlong, p=Py_ssize_t, d=cython.longlong,
                   m=cython.longlong, f=cython.double, t=cython.longlong)
    cdef void _leaf(self, Py_ssize_t at, double q)

    @cython.locals(r=Py_ssize_t)
    cdef long long _suited(self, long long code)

    cpdef void _visit(self, long long code, Py_ssize_t size, double w)


cdef class _Sized(_Walk):
    cdef public object moments
    cdef public Py_ssize_t order
    cdef public dict removal
    cdef public dict ranks
    cdef public dict suits
    cdef public dict bound
    cdef public dict by_ranks
    cdef public object _first
    cdef public object _size
    cdef public object _values
    cdef public object _reads
    cdef public long long[:] first
    cdef public long long[:] size
    cdef public long long[:] values
    cdef public double[:] reads
    cdef public long long value
    cdef public double mean
    cdef public double nonzero
    cdef public double error

    cdef public int[:] index
    cdef public long long[:] memo_key
    cdef public long long[:] memo_at

    @cython.locals(cards=cython.bint, q=object, term=object, sized=dict)
    cpdef void _visit(self, long long code, Py_ssize_t size, double coef)

    @cython.locals(first=Py_ssize_t, lo=Py_ssize_t, hi=Py_ssize_t, mid=Py_ssize_t, value=cython.longlong,
                   at=Py_ssize_t, key=cython.longlong, h=cython.ulonglong)
    cdef void _read(self, Py_ssize_t t, double coef)

    @cython.locals(index=cython.int[:], i=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t, a=Py_ssize_t,
                   b=Py_ssize_t, ha=cython.double, hb=cython.double, two_a=cython.double)
    cpdef void card_part(self, long long[:] cards, long long[:] copies, Py_ssize_t d, long long value)
