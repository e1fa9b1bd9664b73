/*
 * hb_solve.h -- the solver entry that hb_eval.c's Monte Carlo evaluation
 * shares with hb_solve.c.  Not part of the cffi API.
 */
#ifndef HB_SOLVE_H
#define HB_SOLVE_H

#include "hb_core.h"

/* hb_solve_limited without the argument checks: the caller has validated the
   position (2..8 seats, equal hands of 1..5 cards, leader and seat in play) and
   the table (tt_size 0 or a power of two). */
int hb__solve_position(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat,
                       hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                       int *result, uint64_t *nodes);

#endif
