/*
 * hb_calls_eval.c -- evaluate_hand() of the public API in C, for the C core (part of
 * hucklebuck._hbcall).
 *
 * Like the other one-call functions (hb_calls.c), it answers only the plain, valid call, while
 * the C core is selected, and returns None for anything else, errors included, so the caller
 * takes the Python path, which raises them.  The plain call: a GameKind or game name, a Suit or
 * suit letter, a hand and seen cards each a CardSet or a list or tuple of Cards, exact ints for
 * the player count, the seats, samples, seed and node_limit (or None), in_play None or a list or
 * tuple of distinct exact-int seats, method "playout" (or "solver" without a node_limit),
 * workers 1, short_handed True or False, and no executor, chunk_size or progress.  The position must then be one the Python path
 * accepts (the same checks as hucklebuck._validate.evaluation_fits); hb_mc_eval_limited checks
 * it again.
 *
 * Such a call is one chunk seeded with `seed` itself (hucklebuck.parallel.plan), so its answer
 * is one hb_mc_eval_limited call, made here without the GIL, exactly as the C core makes it.
 * An evaluation of more than HBC_EVAL_SAMPLES samples returns None, and so does one by the
 * solver whose solves together need more than HBC_SOLVE_NODES nodes (a few milliseconds; it
 * stops as soon as the solves so far, at their rate, would need more): the C core runs those
 * where Ctrl-C can stop them.  The solves use this thread's table (the one of
 * solve(), hb_calls_solve.c): a solve's answer does not depend on what the table holds.  The answer is built by calling the linked result type
 * (TrickDistribution) with the six counts and the samples.
 */
#include "hb_calls.h"
#include "hb_core.h"

/* The most samples of an evaluation here (hucklebuck._core._c runs a playout evaluation this
 * size in the calling thread: a few milliseconds at most). */
#define HBC_EVAL_SAMPLES 100000
#define HBC_FULL_MASK ((UINT64_C(1) << 52) - 1)
#define HBC_MAX_PLAYERS 8
#define HBC_BUCKEM 1   /* the core id of Buck 'Em, whose pack depends on short_handed */
#define HBC_NARGS 17

/* What link_evaluate() was given. */
static PyObject *result_type;                        /* hucklebuck.evaluate.TrickDistribution */
static uint64_t packs[3][HBC_MAX_PLAYERS + 1][2];    /* pack mask by core id, players, short_handed; 0: none */
static int linked_eval;

static int bits(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* An exact int in lo..hi (0 <= lo <= hi), else -1. */
static long exact_int(PyObject *obj, long lo, long hi)
{
    long v;
    int overflow;
    if (!PyLong_CheckExact(obj)) return -1;
    v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || v < lo || v > hi) return -1;
    return v;
}

/* An exact int in 1..2**63-1 (a node budget), 1; else 0. */
static int node_budget(PyObject *obj)
{
    long long v;
    int overflow;
    if (!PyLong_CheckExact(obj)) return 0;
    v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    return !overflow && v >= 1;
}

/* A CardSet (exact type, valid mask) or a list or tuple of distinct interned Cards: 1 and the
 * mask in *mask, else 0. */
static int hand_mask(PyObject *obj, uint64_t *mask)
{
    unsigned char row[52];
    return set_mask(obj, mask) || card_row(obj, row, 52, mask) >= 0;
}

/* None (every seat) or a list or tuple of distinct exact-int seats below `players`: 1 and the
 * seats as bits in *seats, else 0. */
static int seat_bits(PyObject *obj, int players, unsigned *seats)
{
    PyObject **items;
    Py_ssize_t n, i;
    unsigned got = 0;
    if (obj == Py_None) {
        *seats = (1u << players) - 1;
        return 1;
    }
    if (PyTuple_CheckExact(obj)) {
        n = PyTuple_GET_SIZE(obj);
        items = &PyTuple_GET_ITEM(obj, 0);
    } else if (PyList_CheckExact(obj)) {
        n = PyList_GET_SIZE(obj);
        items = ((PyListObject *)obj)->ob_item;
    } else {
        return 0;
    }
    if (n > players) return 0;
    for (i = 0; i < n; i++) {  /* no Python code runs here: the list cannot change under us */
        long s = exact_int(items[i], 0, players - 1);
        if (s < 0 || (got & (1u << s))) return 0;
        got |= 1u << s;
    }
    *seats = got;
    return 1;
}

PyObject *hbc_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t hand, seen, full, pool, seed, known[HBC_MAX_PLAYERS];
    uint8_t sizes[HBC_MAX_PLAYERS];
    uint32_t hist[6];
    unsigned seats;
    long players, seat, leader, samples;
    int sel, game, trump, own, in_play, mode, rc, i;
    hb_tt_entry *tt = NULL;
    uint32_t gen = 0;
    PyObject *counts, *call[2], *out;
    (void)self;
    if (nargs != HBC_NARGS) {
        PyErr_SetString(PyExc_TypeError, "evaluate() takes 17 arguments");
        return NULL;
    }
    sel = c_core_selected();
    if (sel < 0) return NULL;
    if (!sel || !linked_eval) MISS;
    /* game, trump, hand, players, seat, leader, seen, in_play, samples, seed, method, workers,
       short_handed, executor, chunk_size, progress, node_limit */
    game = game_id(args[0]);
    trump = suit_id(args[1]);
    if (game < 0 || trump < 0 || !hand_mask(args[2], &hand)) MISS;
    players = exact_int(args[3], 0, HBC_MAX_PLAYERS);
    if (players < 0 || packs[game][players][0] == 0) MISS;  /* not a player count of the game */
    seat = exact_int(args[4], 0, players - 1);
    leader = exact_int(args[5], 0, players - 1);
    if (seat < 0 || leader < 0 || !hand_mask(args[6], &seen)) MISS;
    if (!seat_bits(args[7], (int)players, &seats)) MISS;
    samples = exact_int(args[8], 1, HBC_EVAL_SAMPLES);
    if (samples < 0 || !PyLong_CheckExact(args[9])) MISS;
    seed = (uint64_t)PyLong_AsUnsignedLongLong(args[9]);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) {  /* negative or past 64 bits */
        PyErr_Clear();
        MISS;
    }
    if (!PyUnicode_CheckExact(args[10])) MISS;
    if (PyUnicode_CompareWithASCIIString(args[10], "playout") == 0) {
        mode = 0;
    } else if (PyUnicode_CompareWithASCIIString(args[10], "solver") == 0 && args[16] == Py_None) {
        mode = 1;  /* a node_limit (each solve's own budget) takes the Python path */
    } else {
        MISS;
    }
    if (exact_int(args[11], 1, 1) != 1) MISS;  /* workers=N makes N chunks: the Python path */
    if (args[12] != Py_True && args[12] != Py_False) MISS;
    if (args[13] != Py_None || args[14] != Py_None || args[15] != Py_None) MISS;
    if (args[16] != Py_None && !node_budget(args[16])) MISS;  /* checked, though a playout needs none */

    /* the position: hucklebuck._validate.evaluation_fits, then evaluate_hand's own reading */
    own = bits(hand);
    in_play = bits(seats);
    full = packs[game][players][game == HBC_BUCKEM && args[12] == Py_True];
    if (own < 1 || own > 5 || in_play < 2) MISS;
    if (!(seats & (1u << seat)) || !(seats & (1u << leader))) MISS;
    if ((hand & seen) || (hand & ~full) || (seen & ~full)) MISS;
    pool = full & ~hand & ~seen;
    if (bits(pool) < (in_play - 1) * own) MISS;
    for (i = 0; i < players; i++) {
        known[i] = i == seat ? hand : 0;
        sizes[i] = (seats & (1u << i)) ? (uint8_t)own : 0;
    }
    if (mode == 1 && (tt = hbc_thread_tt((uint32_t)samples, &gen)) == NULL) return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = hb_mc_eval_total(game, trump, (int)players, known, sizes, pool, (int)leader, (int)seat, seed,
                          (uint32_t)samples, mode, tt, tt ? HBC_TT_SIZE : 0, gen, 0, HBC_SOLVE_NODES, NULL, hist);
    Py_END_ALLOW_THREADS
    if (rc != HB_OK) MISS;  /* an error, or solves past the budget: the Python path */

    if ((counts = PyTuple_New(6)) == NULL) return NULL;
    for (i = 0; i < 6; i++) {
        PyObject *c = PyLong_FromUnsignedLong(hist[i]);
        if (c == NULL) {
            Py_DECREF(counts);
            return NULL;
        }
        PyTuple_SET_ITEM(counts, i, c);
    }
    call[0] = counts;
    call[1] = args[8];
    out = PyObject_Vectorcall(result_type, call, 2, NULL);
    Py_DECREF(counts);
    return out;
}

/* link_evaluate(result_type, packs): the type of evaluate_hand's answer, and the pack masks as a
 * tuple of 3 * 9 * 2 ints (by core id, player count 0..8, short_handed), 0 where there is none. */
PyObject *hbc_link_evaluate(PyObject *self, PyObject *args)
{
    PyObject *type, *table;
    uint64_t masks[3 * (HBC_MAX_PLAYERS + 1) * 2];
    Py_ssize_t i;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!:link_evaluate", &PyType_Type, &type, &PyTuple_Type, &table)) return NULL;
    if (PyTuple_GET_SIZE(table) != 3 * (HBC_MAX_PLAYERS + 1) * 2) {
        PyErr_SetString(PyExc_ValueError, "link_evaluate needs 54 pack masks");
        return NULL;
    }
    for (i = 0; i < PyTuple_GET_SIZE(table); i++) {
        PyObject *m = PyTuple_GET_ITEM(table, i);
        unsigned long long v;
        if (!PyLong_CheckExact(m)) {
            PyErr_SetString(PyExc_TypeError, "pack masks must be ints");
            return NULL;
        }
        v = PyLong_AsUnsignedLongLong(m);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
        if (v & ~HBC_FULL_MASK) {
            PyErr_SetString(PyExc_ValueError, "a pack mask has bits past 52 cards");
            return NULL;
        }
        masks[i] = (uint64_t)v;
    }
    linked_eval = 0;
    memcpy(packs, masks, sizeof packs);
    {
        PyObject *old = result_type;
        Py_INCREF(type);
        result_type = type;
        Py_XDECREF(old);
    }
    linked_eval = 1;
    Py_RETURN_NONE;
}
