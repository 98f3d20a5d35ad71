# Compiled only (tables.games.build_ext): the types Cython gives rounds.py. The
# parser's walk runs on C integers; everything else stays a Python object.
cimport cython

cpdef object make_round(str game, tuple dealer, tuple seats)

cdef object _cards(value, path, errors, minimum)

cdef object _actions(raw, tuple path, errors)

@cython.locals(j=Py_ssize_t, n_cards=Py_ssize_t, drawn=Py_ssize_t, p=int, points=int, total=int,
               ace=bint, natural=bint, doubled=bint, stood=bint, soft=bint)
cdef object _play_hand(tuple cards, tuple actions, Py_ssize_t splits, bint split_seat,
                       bint no_hit_split_aces, si, hi, errors)

@cython.locals(hand_raw=dict, card_of=dict)
cdef object _read_hand(rh, si, i, errors, list shoe)

@cython.locals(items=list)
cdef object _parse_hands(raw_hands, si, errors, rules, list shoe)

cdef object _money(value, c)

cdef object _parse_wagers(raw, si, spec, errors, c, dict accepted)

@cython.locals(paid=list, pay_bits=dict, money_memo=dict, pj=Py_ssize_t, p=dict, seen=cython.ulonglong,
               one=cython.ulonglong, bit=Py_ssize_t)
cdef object _parse_paid(raw, si, n_hands, spec, errors, c)

@cython.locals(raw=dict, known=Py_ssize_t, items=list)
cdef object _parse_seat(data, si, rules, spec, errors, dict used, list shoe, c, dict accepted)
