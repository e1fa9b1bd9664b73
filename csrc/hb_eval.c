/* hb_eval.c -- hand evaluation in the C core: the specified PRNG, the playout
 * policy and Monte Carlo evaluation (each sample played out by the policy or
 * solved by hb_solve.c).  Bulk simulation, which uses the PRNG and the playout
 * from here, is hb_sim.c.  Every function here has a pure-Python twin in
 * hucklebuck/_core/_py_eval.py that gives identical results for the same
 * inputs and seed.  No global mutable state: the solver's transposition table
 * is a buffer owned by the caller. */
#include "hb_core.h"
#include "hb_solve.h"
#include "hb_internal.h"

#define FULL52 ((UINT64_C(1) << 52) - 1)

/* ------------------------------------------------------------------ PRNG */
/* splitmix64 (Steele, Lea, Flood 2014): state += golden gamma; mix. */
uint64_t hb_rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int bit_length(uint64_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return n ? 64 - __builtin_clzll(n) : 0;
#else
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
#endif
}

/* Uniform integer in [0, n), n >= 1: draw bit_length(n) top bits until < n. */
uint64_t hb_rng_below(uint64_t *state, uint64_t n)
{
    int k = bit_length(n);
    uint64_t r;
    if (n <= 1) return 0;
    do {
        r = hb_rng_next(state) >> (64 - k);
    } while (r >= n);
    return r;
}

/* Fisher-Yates from the top: for i = n-1 .. 1, swap a[i] with a[below(i+1)]. */
static void shuffle_u8(uint64_t *state, uint8_t *a, int n)
{
    int i;
    for (i = n - 1; i > 0; i--) {
        int j = (int)hb_rng_below(state, (uint64_t)(i + 1));
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

int hb_rng_fill(uint64_t seed, uint64_t *out, size_t n)
{
    size_t i;
    if (out == NULL && n > 0) return HB_E_NULL;
    for (i = 0; i < n; i++) out[i] = hb_rng_next(&seed);
    return HB_OK;
}

int hb_rng_shuffle(uint64_t seed, uint8_t *cards, size_t n)
{
    if (cards == NULL && n > 0) return HB_E_NULL;
    if (n > 52) return HB_E_LEN;
    shuffle_u8(&seed, cards, (int)n);
    return HB_OK;
}

/* ------------------------------------------------------------ helpers */

/* Strength for the playout's "cheapest/strongest": trumps above everything. */
static int power(const hb_rules *r, int trump, int c)
{
    return ((r->suit[c] == trump) << 5) | r->rank[c];
}

static int trick_key(const hb_rules *r, int trump, int lead, int c)
{
    int s = r->suit[c];
    return ((s == trump) << 5) | ((s == lead) << 4) | r->rank[c];
}

static uint64_t legal_of(const hb_rules *r, uint64_t hand, int lead_card)
{
    uint64_t f;
    if (lead_card < 0) return hand;
    f = hand & r->suit_mask[r->suit[lead_card]];
    return f ? f : hand;
}

/* The playout policy (documented in hucklebuck/_core/_py_eval.py). */
static int policy_card(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen)
{
    uint64_t legal, m;
    int best_card = -1, best_val = -1;
    if (tlen == 0) {  /* lead the strongest card; ties to the higher card number */
        for (m = hand; m; m &= m - 1) {
            int c = lowest_bit(m);
            int v = power(r, trump, c) * 64 + c;
            if (v > best_val) { best_val = v; best_card = c; }
        }
        return best_card;
    } else {
        int lead = r->suit[trick[0]], top = -1, i, win_card = -1, win_val = 1 << 30, low_card = -1,
            low_val = 1 << 30;
        for (i = 0; i < tlen; i++) {
            int k = trick_key(r, trump, lead, trick[i]);
            if (k > top) top = k;
        }
        legal = legal_of(r, hand, trick[0]);
        for (m = legal; m; m &= m - 1) {
            int c = lowest_bit(m);
            int k = trick_key(r, trump, lead, c);
            int v = k * 64 + c;
            int p = power(r, trump, c) * 64 + c;
            if (k > top && v < win_val) { win_val = v; win_card = c; }
            if (p < low_val) { low_val = p; low_card = c; }
        }
        return win_card >= 0 ? win_card : low_card;
    }
}

static int trick_winner_idx(const hb_rules *r, int trump, const uint8_t *trick, int n)
{
    int lead = r->suit[trick[0]], best = 0, bk = -1, i;
    for (i = 0; i < n; i++) {
        int k = trick_key(r, trump, lead, trick[i]);
        if (k > bk) { bk = k; best = i; }
    }
    return best;
}

/* Play out all remaining tricks with the policy; hands are consumed. */
static void playout(const hb_rules *r, int trump, uint64_t *hands, const int *order, int nact, int leader_pos,
                    int *won)
{
    uint8_t trick[8];
    int seats[8];
    while (hands[order[leader_pos]]) {
        int i, w;
        for (i = 0; i < nact; i++) {
            int s = order[(leader_pos + i) % nact];
            int c = policy_card(r, trump, hands[s], trick, i);
            hands[s] &= ~(UINT64_C(1) << c);
            trick[i] = (uint8_t)c;
            seats[i] = s;
        }
        w = trick_winner_idx(r, trump, trick, nact);
        won[seats[w]]++;
        for (i = 0; i < nact; i++) if (order[i] == seats[w]) leader_pos = i;
    }
}

/* ------------------------------------------------------------ Monte Carlo */
int hb_mc_eval(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes, uint64_t pool,
               int leader, int seat, uint64_t seed, uint32_t samples, int mode, hb_tt_entry *tt, size_t tt_size,
               uint32_t gen, uint32_t *hist)
{
    return hb_mc_eval_limited(game, trump, nseats, known, sizes, pool, leader, seat, seed, samples, mode, tt,
                              tt_size, gen, 0, NULL, hist);
}

int hb_mc_eval_limited(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes,
                       uint64_t pool, int leader, int seat, uint64_t seed, uint32_t samples, int mode,
                       hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                       uint32_t *hist)
{
    return hb_mc_eval_total(game, trump, nseats, known, sizes, pool, leader, seat, seed, samples, mode, tt,
                            tt_size, gen, node_limit, 0, cancel, hist);
}

int hb_mc_eval_total(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes,
                     uint64_t pool, int leader, int seat, uint64_t seed, uint32_t samples, int mode,
                     hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, uint64_t total_nodes,
                     const int *cancel, uint32_t *hist)
{
    hb_rules rules;
    uint8_t cards[52];
    int npool = 0, c, i, need_total = 0, need[8];
    uint64_t known_all = 0, st = seed, spent = 0;
    uint32_t smp;
    if (known == NULL || sizes == NULL || hist == NULL) return HB_E_NULL;
    if (game < 0 || game > 2) return HB_E_GAME;
    if (trump < 0 || trump > 3) return HB_E_TRUMP;
    if (nseats < 2 || nseats > 8) return HB_E_SEATS;
    if (pool & ~FULL52) return HB_E_MASK;
    if (mode != 0 && mode != 1) return HB_E_MODE;
    if (mode == 1 && tt_size != 0 && (tt == NULL || (tt_size & (tt_size - 1)) != 0)) return HB_E_TT;
    if (leader < 0 || leader >= nseats || sizes[leader] == 0) return HB_E_SEATS;
    if (seat < 0 || seat >= nseats || sizes[seat] == 0) return HB_E_SEATS;
    {
        int hand_size = -1;
        for (i = 0; i < nseats; i++) {
            if (known[i] & ~FULL52) return HB_E_MASK;
            if (known[i] & (known_all | pool)) return HB_E_DUP;
            known_all |= known[i];
            if (sizes[i] > 5 || popcount64(known[i]) > sizes[i]) return HB_E_LEN;
            if (sizes[i]) {
                if (hand_size >= 0 && sizes[i] != hand_size) return HB_E_LEN;
                hand_size = sizes[i];
            }
            need[i] = sizes[i] - popcount64(known[i]);
            need_total += need[i];
        }
    }
    for (c = 0; c < 52; c++) if (pool & (UINT64_C(1) << c)) cards[npool++] = (uint8_t)c;
    if (need_total > npool) return HB_E_LEN;
    for (i = 0; i < 6; i++) hist[i] = 0;
    hb_rules_init(game, trump, &rules);
    for (smp = 0; smp < samples; smp++) {
        uint64_t hands[8];
        int pos = 0, won[8] = {0}, t;
        shuffle_u8(&st, cards, npool);
        for (i = 0; i < nseats; i++) {
            int j;
            hands[i] = known[i];
            for (j = 0; j < need[i]; j++) hands[i] |= UINT64_C(1) << cards[pos++];
        }
        if (mode == 0) {
            int order[8], nact = 0, lp = 0;
            for (i = 0; i < nseats; i++) if (sizes[i]) { if (i == leader) lp = nact; order[nact++] = i; }
            playout(&rules, trump, hands, order, nact, lp, won);
            t = won[seat];
        } else {
            uint64_t limit = node_limit, used = 0;
            int rc;
            if (total_nodes != 0) {  /* this solve may use what the earlier ones left */
                if (spent >= total_nodes) return HB_E_BUDGET;
                if (limit == 0 || total_nodes - spent < limit) limit = total_nodes - spent;
            }
            rc = hb__solve_position(game, trump, hands, nseats, leader, seat, tt, tt_size, gen + smp, limit,
                                    cancel, &t, &used);
            if (rc != HB_OK) return rc;
            spent += used;
            /* the solves so far, at this rate over every sample, would pass the budget: stop now */
            if (total_nodes != 0 && (double)spent * samples > (double)total_nodes * (smp + 1))
                return HB_E_BUDGET;
        }
        if ((smp & 255) == 255 && cancel != NULL && *(const volatile int *)cancel) return HB_E_CANCELLED;
        hist[t]++;
    }
    return HB_OK;
}

/* ------------------------- shared with hb_sim.c and hb_search.c (hb_internal.h) */
void hb_i_shuffle(uint64_t *state, uint8_t *a, int n) { shuffle_u8(state, a, n); }
int hb_i_policy_card(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen)
{
    return policy_card(r, trump, hand, trick, tlen);
}
int hb_i_trick_winner(const hb_rules *r, int trump, const uint8_t *trick, int n)
{
    return trick_winner_idx(r, trump, trick, n);
}
void hb_i_playout(const hb_rules *r, int trump, uint64_t *hands, const int *order, int nact, int leader_pos,
                  int *won)
{
    playout(r, trump, hands, order, nact, leader_pos, won);
}
int hb_i_power(const hb_rules *r, int trump, int c) { return power(r, trump, c); }
uint64_t hb_i_legal(const hb_rules *r, uint64_t hand, int lead_card) { return legal_of(r, hand, lead_card); }
