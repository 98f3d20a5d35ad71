# Compiled only (tables.games.build_ext): the types Cython gives dealer_pass.py. A dealer
# pass (final_sums) multiplies thousands of falling factorials per shoe composition: the
# listing's tuples walked in C, the products on C doubles instead of Python floats. Everything
# else stays a Python object.
cimport cython

@cython.locals(x=cython.double, n=cython.double, k=Py_ssize_t)
cpdef object falling_factorials(counts, Py_ssize_t stride)

@cython.locals(f=cython.double[:], group=tuple, factors=tuple, out=list, slot=Py_ssize_t, k=Py_ssize_t,
               i=Py_ssize_t, j=Py_ssize_t, acc=cython.double, p=cython.double, count=cython.double,
               x=cython.double, total=cython.double)
cpdef tuple final_sums(comp, Py_ssize_t stride, tuple terms, Py_ssize_t slots)
