# Compiled only (tables.games.build_ext): the types Cython gives dealer_pass.py. A dealer
# pass (final_sums) multiplies thousands of falling factorials per shoe composition: on C
# doubles and ints over the packed arrays instead of Python floats. Everything else stays a
# Python object.
cimport cython

@cython.locals(x=cython.double, n=cython.double, k=Py_ssize_t)
cpdef object falling_factorials(counts, Py_ssize_t stride)

@cython.locals(f=cython.double[:], slot_of=cython.int[:], drawn=cython.int[:], ends=cython.int[:],
               counts=cython.double[:], starts=cython.int[:], factors=cython.int[:], out=list,
               t=Py_ssize_t, g=Py_ssize_t, j=Py_ssize_t, end=Py_ssize_t, acc=cython.double, p=cython.double,
               x=cython.double, total=cython.double)
cpdef tuple final_sums(comp, Py_ssize_t stride, tuple terms, Py_ssize_t slots)
