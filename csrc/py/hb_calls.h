/*
 * hb_calls.h -- what the parts of hucklebuck._hbcall share (hb_calls.c, hb_calls_solve.c,
 * hb_calls_games.c, hb_calls_eval.c, hb_calls_vec.c).
 * Each helper reads the library's own objects as linked by hb_calls.c's link_* functions.
 */
#ifndef HB_CALLS_H
#define HB_CALLS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "hb_core.h"

/* A function's answer "not here: take the Python path". */
#define MISS Py_RETURN_NONE

/* 1 when the C core is the selected core (and everything is linked), 0 if not, -1 on error. */
int c_core_selected(void);
/* The core id of a GameKind member or of a game's exact name, else -1. */
int game_id(PyObject *obj);
/* The number of a Suit member or of a suit letter C, D, H, S, else -1. */
int suit_id(PyObject *obj);
/* A tuple or list of distinct interned Cards (at most `most`) as numbers in `out` and their mask
   in *mask: the count, or -1 for anything else. */
Py_ssize_t card_row(PyObject *seq, unsigned char *out, Py_ssize_t most, uint64_t *mask);
/* The number of an interned Card, or -1 for anything else. */
int card_number(PyObject *obj);
/* The interned Card of number i (0..51; borrowed; NULL before the cards are linked). */
PyObject *card_object(int i);
/* The offset of an object slot `name` of `type`, or -1 with an exception set. */
Py_ssize_t slot_offset(PyTypeObject *type, const char *name);
/* Replace a strong reference kept for the life of the process. */
void set_ref(PyObject **where, PyObject *value);

/* 1 and the mask in *mask for a CardSet (exact type) with a valid mask, else 0. */
int set_mask(PyObject *obj, uint64_t *mask);

/* The node budget of a solve here, and of all the solves of an evaluation together
   (hucklebuck._core._c.FAST_NODES: the same first step; a few milliseconds at most). */
#define HBC_SOLVE_NODES 50000
/* Entries of a thread's transposition table (hucklebuck._core._py_solve.TT_SIZE). */
#define HBC_TT_SIZE ((size_t)1 << 18)
/* This thread's table (HBC_TT_SIZE entries, allocated zeroed on first use) and in *gen the first
   of `uses` (1 or more) fresh generations; NULL with an exception set on failure. */
hb_tt_entry *hbc_thread_tt(uint32_t uses, uint32_t *gen);

/* pick(mask, items) and shuffle(getrandbits, cards) (hb_calls_games.c). */
PyObject *hbc_pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hbc_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* play(game, action), play_id(game, i), hand_masks(hands), link_play(...) (hb_calls_play.c). */
PyObject *hbc_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hbc_play_id(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* legal(game, typed): the legal plays now as ids or shared Plays, or None (hb_calls_play.c). */
PyObject *hbc_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hbc_hand_masks(PyObject *self, PyObject *hands);
PyObject *hbc_link_play(PyObject *self, PyObject *args);
/* link_trick(Trick, TrickEvent, trick_done, hand_size): a trick completed in C (hb_calls_play.c). */
PyObject *hbc_link_trick(PyObject *self, PyObject *args);
/* solve(game, trump, hands, leader, seat) (hb_calls_solve.c). */
PyObject *hbc_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* evaluate(game, trump, hand, players, ..., node_limit) and link_evaluate(result_type, packs)
   (hb_calls_eval.c). */
PyObject *hbc_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hbc_link_evaluate(PyObject *self, PyObject *args);
/* vec_calls(...), a C lane's VecCalls, whose methods sample(seed) and step(actions) are
   VectorGame's (hb_calls_vec.c); hbc_vec_ready() readies its type when the module is made (0, or
   -1 with an exception set). */
PyObject *hbc_vec_calls(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
int hbc_vec_ready(void);

#endif
