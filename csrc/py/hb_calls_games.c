/*
 * hb_calls_games.c -- the games' helpers in hucklebuck._hbcall (not tied to a core).
 *
 * pick: the legal moves of a mask without a Python loop per card.  shuffle: the deal's
 * shuffle without a Python call per card, drawing exactly what random.shuffle draws.
 * Either returns None for arguments it does not take, and the caller runs its own loop.
 */
#include "hb_calls.h"

/* ------------------------------------------------------------------ pick */
/* pick(mask, items): [items[i] for each set bit i of mask, lowest first], or None for anything
 * but an exact int in 0 .. 2**64-1 and an exact tuple holding every such i (the caller then
 * runs its own loop).  Not tied to a core: it only reads bits (the games' legal moves). */
PyObject *hbc_pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned long long mask, m;
    PyObject *items, *out;
    Py_ssize_t n = 0, k = 0, i;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pick() takes 2 arguments");
        return NULL;
    }
    if (!PyLong_CheckExact(args[0]) || !PyTuple_CheckExact(args[1])) MISS;
    {  /* (not PyLong_AsUnsignedLongLong: CPython 3.11 reads a two-digit int through a byte array) */
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(args[0], &overflow);
        if (overflow > 0) {  /* 2**63 or more: the slower read, which takes up to 2**64 - 1 */
            mask = PyLong_AsUnsignedLongLong(args[0]);
            if (mask == (unsigned long long)-1 && PyErr_Occurred()) {  /* too large */
                PyErr_Clear();
                MISS;
            }
        } else {
            if (overflow < 0 || v < 0) MISS;  /* negative (an exact int raises nothing here) */
            mask = (unsigned long long)v;
        }
    }
    items = args[1];
    if (PyTuple_GET_SIZE(items) < 64 && (mask >> PyTuple_GET_SIZE(items))) MISS;  /* a bit past the items */
    for (m = mask; m; m &= m - 1) n++;
    if ((out = PyList_New(n)) == NULL) return NULL;
    for (i = 0; mask; i++, mask >>= 1) {
        if (mask & 1) {
            PyObject *item = PyTuple_GET_ITEM(items, i);
            Py_INCREF(item);
            PyList_SET_ITEM(out, k++, item);
        }
    }
    return out;
}

/* ------------------------------------------------------------------ shuffle */
/* shuffle(getrandbits, cards): random.Random.shuffle of the exact list `cards`, in place, with
 * its draws: for i = n-1 .. 1, j = getrandbits(k) with k = (i+1).bit_length(), drawn again
 * while j > i, then cards[i] and cards[j] swap.  True when done; None when `cards` is not an
 * exact list; an exception from getrandbits propagates, and a draw that is not an int in
 * range, or a list that changed size meanwhile, raises RuntimeError. */
PyObject *hbc_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *draw, *cards, *tmp, *bits[65] = {NULL};
    Py_ssize_t n, i, j;
    int k, ok = 0;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffle() takes 2 arguments");
        return NULL;
    }
    draw = args[0];
    cards = args[1];
    if (!PyList_CheckExact(cards)) MISS;
    n = PyList_GET_SIZE(cards);
    for (i = n - 1; i > 0; i--) {
        unsigned long long m = (unsigned long long)(i + 1);
        for (k = 0; m; m >>= 1) k++;
        if (k > 64) {
            PyErr_SetString(PyExc_RuntimeError, "shuffle: list too long");
            goto done;
        }
        if (bits[k] == NULL && (bits[k] = PyLong_FromLong(k)) == NULL) goto done;
        for (;;) {
            PyObject *r = PyObject_CallOneArg(draw, bits[k]);
            if (r == NULL) goto done;
            j = PyLong_Check(r) ? PyLong_AsSsize_t(r) : -1;
            Py_DECREF(r);
            if (j == -1 && PyErr_Occurred()) goto done;
            if (j < 0 || PyList_GET_SIZE(cards) != n) {
                PyErr_SetString(PyExc_RuntimeError, "shuffle: a bad draw, or the list changed");
                goto done;
            }
            if (j <= i) break;
        }
        tmp = PyList_GET_ITEM(cards, i);  /* swap the borrowed pointers: no reference changes */
        PyList_SET_ITEM(cards, i, PyList_GET_ITEM(cards, j));
        PyList_SET_ITEM(cards, j, tmp);
    }
    ok = 1;
done:
    for (k = 0; k < 65; k++) Py_XDECREF(bits[k]);
    if (!ok) return NULL;
    Py_RETURN_TRUE;
}
