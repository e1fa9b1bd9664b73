/*
 * hb_calls_solve.c -- solve() of the public API in C, for the C core (part of hucklebuck._hbcall).
 *
 * Like the other one-call functions (hb_calls.c), it answers only the plain, valid call
 * -- a GameKind or game name, a Suit or suit letter, a list or tuple of 2-8 hands each a
 * CardSet or a list or tuple of Cards, exact ints for leader and seat -- while the C core
 * is selected, and returns None for anything else, errors included, so the caller takes
 * the Python path, which raises them.  hb_solve_limited checks the position again.
 *
 * It searches at most HBC_SOLVE_NODES nodes (a few milliseconds) without the GIL, in this
 * thread's own transposition table; a longer solve returns None too, and the Python path
 * runs it where Ctrl-C and a time limit can stop it.  Each thread's table lives in its
 * thread-state dict (freed with the thread) and is allocated zeroed on first use: the
 * pages a short solve never touches cost no memory.
 */
#include "hb_calls.h"
#include "hb_core.h"

#define HBC_TT_KEY "hucklebuck._hbcall.solve_table"

typedef struct {
    uint32_t gen;
    hb_tt_entry entries[1];  /* HBC_TT_SIZE of them */
} hbc_table;

static void table_free(PyObject *capsule)
{
    PyMem_RawFree(PyCapsule_GetPointer(capsule, HBC_TT_KEY));
}

/* This thread's table, allocated on first use; NULL with an exception set on failure. */
static hbc_table *thread_table(void)
{
    static PyObject *key;
    PyObject *dict, *capsule;
    hbc_table *table;
    if (key == NULL && (key = PyUnicode_InternFromString(HBC_TT_KEY)) == NULL) return NULL;
    if ((dict = PyThreadState_GetDict()) == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "no thread state for the solver's table");
        return NULL;
    }
    capsule = PyDict_GetItemWithError(dict, key);  /* borrowed */
    if (capsule != NULL) return (hbc_table *)PyCapsule_GetPointer(capsule, HBC_TT_KEY);
    if (PyErr_Occurred()) return NULL;
    table = PyMem_RawCalloc(1, sizeof(hbc_table) + (HBC_TT_SIZE - 1) * sizeof(hb_tt_entry));
    if (table == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if ((capsule = PyCapsule_New(table, HBC_TT_KEY, table_free)) == NULL) {
        PyMem_RawFree(table);
        return NULL;
    }
    if (PyDict_SetItem(dict, key, capsule) < 0) {
        Py_DECREF(capsule);  /* frees the table */
        return NULL;
    }
    Py_DECREF(capsule);  /* the dict holds it */
    return table;
}

hb_tt_entry *hbc_thread_tt(uint32_t uses, uint32_t *gen)
{
    hbc_table *table = thread_table();
    if (table == NULL) return NULL;
    if (uses == 0 || table->gen >= UINT32_MAX - uses) {  /* generations wrap: forget every old entry */
        memset(table->entries, 0, HBC_TT_SIZE * sizeof(hb_tt_entry));
        table->gen = 0;
    }
    *gen = table->gen + 1;
    table->gen += uses;
    return table->entries;
}

/* An exact int in 0..n-1, else -1. */
static int small_index(PyObject *obj, int n)
{
    long v;
    int overflow;
    if (!PyLong_CheckExact(obj)) return -1;
    v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || v < 0 || v >= n) return -1;
    return (int)v;
}

PyObject *hbc_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t hands[8], seen = 0, nodes = 0;
    unsigned char row[52];
    PyObject **items;
    Py_ssize_t n, i;
    int sel, game, trump, leader, seat, rc, result = 0;
    hb_tt_entry *entries;
    uint32_t gen;
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "solve() takes 5 arguments");
        return NULL;
    }
    sel = c_core_selected();
    if (sel < 0) return NULL;
    if (!sel) MISS;
    game = game_id(args[0]);
    trump = suit_id(args[1]);
    if (game < 0 || trump < 0) MISS;
    if (PyTuple_CheckExact(args[2])) {
        n = PyTuple_GET_SIZE(args[2]);
        items = &PyTuple_GET_ITEM(args[2], 0);
    } else if (PyList_CheckExact(args[2])) {
        n = PyList_GET_SIZE(args[2]);
        items = ((PyListObject *)args[2])->ob_item;
    } else {
        MISS;
    }
    if (n < 2 || n > 8) MISS;
    for (i = 0; i < n; i++) {  /* no Python code runs here: the list cannot change under us */
        if (!set_mask(items[i], &hands[i]) && card_row(items[i], row, 52, &hands[i]) < 0) MISS;
        if (hands[i] & seen) MISS;
        seen |= hands[i];
    }
    leader = small_index(args[3], (int)n);
    seat = small_index(args[4], (int)n);
    if (leader < 0 || seat < 0) MISS;
    if ((entries = hbc_thread_tt(1, &gen)) == NULL) return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = hb_solve_limited(game, trump, hands, (int)n, leader, seat, entries, HBC_TT_SIZE, gen, HBC_SOLVE_NODES,
                          NULL, &result, &nodes);
    Py_END_ALLOW_THREADS
    if (rc != HB_OK) MISS;  /* an error, or a long solve: the Python path */
    return PyLong_FromLong(result);
}
