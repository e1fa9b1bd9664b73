/*
 * hb_internal.h -- helpers of hb_eval.c that hb_search.c reuses (the shuffle,
 * the playout policy and the simulation policies), and the bit helpers of every
 * evaluation file, so there is one copy of each.  Not part of the cffi API.
 */
#ifndef HB_INTERNAL_H
#define HB_INTERNAL_H

#include <stdint.h>
#include "hb_core.h"

/* Bits of a 64-bit card mask (unused ones are fine: static inline). */
#if defined(__GNUC__) || defined(__clang__)
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }
#else
static inline int popcount64(uint64_t x)
{
    int c = 0;
    while (x) { x &= x - 1; c++; }
    return c;
}

static inline int lowest_bit(uint64_t x)
{
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}
#endif

void hb_i_shuffle(uint64_t *state, uint8_t *a, int n);
int hb_i_policy_card(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen);
int hb_i_trick_winner(const hb_rules *r, int trump, const uint8_t *trick, int n);
void hb_i_playout(const hb_rules *r, int trump, uint64_t *hands, const int *order, int nact, int leader_pos,
                  int *won);
int hb_i_power(const hb_rules *r, int trump, int c);
uint64_t hb_i_legal(const hb_rules *r, uint64_t hand, int lead_card);
int hb_i_estimate(uint64_t hand, int trump);
int hb_i_best_suit(uint64_t hand, int *est_out);
uint64_t hb_i_weak_cards(uint64_t hand, int trump);
int hb_i_sim_want(uint64_t hand);
int hb_i_sim_auction(const int *want, int *passed, int live, int *high, int bidder, int cur, int n);
int hb_i_dp_strength(const hb_rules *r, int trump, uint64_t hand);
int hb_i_bk_stays(uint64_t hand, int trump);
int hb_i_bk_rakes(uint64_t hand, int trump);

#endif
