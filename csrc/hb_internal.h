/*
 * hb_internal.h -- helpers of hb_eval.c (the shuffle, the playout policy) that
 * hb_sim.c and hb_search.c reuse, those of hb_sim.c (the simulation policies)
 * that hb_search.c reuses, and the bit helpers of every evaluation file, so
 * there is one copy of each.  Not part of the cffi API.
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

/* hb_search_check.c: the argument checks of hb_search and hb_search_sample. */
#define HB_I_DUCKS(p) ((unsigned)((p)->flags >> 8) & 0xFFu) /* Deer Park seats playing for 50 */
int hb_i_search_check_pos(const hb_search_pos *p, const hb_rules *r);
int hb_i_search_check_cand(const hb_search_pos *p, const hb_rules *r, const hb_search_cand *c);

/* hb_search_reads.c: the ducking policy of a Deer Park seat playing for 50. */
int hb_i_duck_card(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen);

/* hb_maxn.c: the open-cards play of the search's solver method.  The table is
   owned by the caller (HB_MAXN_SLOTS slots, at most HB_MAXN_KEEP positions kept). */
#define HB_MAXN_SLOTS (1u << 15)
#define HB_MAXN_KEEP (1u << 14)
typedef struct hb_maxn_tt hb_maxn_tt;
hb_maxn_tt *hb_i_maxn_new(void);
void hb_i_maxn_free(hb_maxn_tt *t);
void hb_i_maxn_clear(hb_maxn_tt *t);
/* Adds to won[] the tricks each seat takes from the position (trick0: the current
   trick, leader first; it may be complete); 1 when solved, 0 past `limit` nodes
   (0: no limit), won[] then untouched. */
int hb_i_maxn(const hb_rules *r, int trump, const uint64_t *hands, int nseats, unsigned active, int leader,
              const uint8_t *trick0, int tlen, unsigned duck, uint64_t limit, const int *cancel, hb_maxn_tt *tt,
              int *won);

#endif
