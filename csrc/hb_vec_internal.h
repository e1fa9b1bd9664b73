/*
 * hb_vec_internal.h -- the environment struct of the batched lane and the
 * helpers its files share (not part of the cffi API).
 */
#ifndef HB_VEC_INTERNAL_H
#define HB_VEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hb_core.h"
#include "hb_internal.h"
#include "hb_vec.h"

#define HB_NONE 255

/* Phases, numbered as hucklebuck.games.Phase is declared (the tensor's phase flags). */
enum {
    HB_PH_AUCTION = 0, HB_PH_TRUMP = 1, HB_PH_DECLARE = 2, HB_PH_EXCHANGE = 3, HB_PH_ORDER = 4, HB_PH_CALL = 5, HB_PH_DEALER_DISCARD = 6, HB_PH_PLAY = 9,
    HB_PH_STAY_FOLD = 7, HB_PH_DRAW = 8,
    HB_PH_HAND_OVER = 10, HB_PH_GAME_OVER = 11
};

/* Deer Park Euchre ids (hucklebuck.games.ids). */
enum { HB_DP_DISCARD = 52, HB_DP_PASS = 104, HB_DP_ORDER = 105, HB_DP_CALL = 106, HB_DP_ACTIONS = 110 };

/* Hucklebuck ids (hucklebuck.games.ids). */
enum {
    HB_HB_PASS = 52, HB_HB_BID = 53, HB_HB_TRUMP = 57, HB_HB_DROP = 61, HB_HB_STAY = 62, HB_HB_DISCARD = 68,
    HB_HB_ACTIONS = 100
};
/* Buck 'Em ids (hucklebuck.games.ids). */
enum { HB_BE_STAY = 52, HB_BE_SWAP = 53, HB_BE_FOLD = 54, HB_BE_DRAW = 55, HB_BE_ACTIONS = 87 };

#define HB_HB_DROPPED 6        /* hb_vec_env.declared: dropped (0..5 stayed to exchange that many) */

/* An environment is two fixed-size structs: the state every step reads and
   writes (hb_vec_env, 832 bytes), and its random stream and the episode's
   earlier hands (hb_vec_cold, written at a hand's end only).  A batch's buffer holds all
   the hb_vec_env structs, then all the hb_vec_cold ones, so a step touches
   contiguous memory. */
#define HB_VEC_HAND_LOG 128
/* The lines at the front of hb_vec_env that a Deer Park Euchre or a Hucklebuck step reads in
   every phase: the small fields, the hands, the cards played, the scores and the hand's first 32
   ids.  A later id's line is asked for only when the step writes there; Hucklebuck also reads
   the line of its small fields (stock_len on) and, in an exchange only, the lines of its piles. */
#define HB_VEC_FRONT_BYTES (offsetof(hb_vec_env, hand_log) + 32)

typedef struct {
    uint32_t log_len;          /* ids of the episode's earlier hands (HB_VEC_LOG + 1: overflowed) */
    uint32_t pad;
    uint8_t log[HB_VEC_LOG];
} hb_vec_cold;

typedef struct {
    /* By cache line (a batch that starts on a 64-byte boundary, as hucklebuck.vector's
       does): first what every pass over the batch reads (sampling and checking the
       ids: legal and term) and the rest of the small fields; then the hands, the
       cards played, and the scores with the start of this hand's ids -- all a Deer
       Park Euchre step touches in a hand of up to 32 ids; then the other games' fields. */
    uint64_t legal[2];         /* the legal ids now (kept by every call that changes the state) */
    uint8_t term, phase, dealer, turn;
    uint8_t index, trump, maker, requirement;
    uint8_t turned, has_kitty, discard, discard_seat;
    uint8_t winners, ever_locked, passed_order, passed_call;
    uint8_t leader, tlen, tricks, play_started;
    uint8_t hand_len;
    uint16_t pad16;
    uint8_t trick[8];
    uint8_t won[8];
    uint32_t hands_done;       /* hands finished in this episode */
    uint32_t episode;
    uint64_t hands[8];         /* each seat's cards */
    uint64_t played[8];        /* cards each seat played this hand */
    int32_t scores[8];
    uint8_t hand_log[HB_VEC_HAND_LOG]; /* this hand's ids */
    uint64_t seed;             /* the batch seed: episode k deals from hb_v_deal_state(seed, env, k) */
    uint32_t env, pad;
    uint64_t rng;              /* the deal's splitmix64 state (the episode's next deal, or restock, draws on) */
    /* Hucklebuck only */
    uint64_t disc[8];          /* each seat's discards in this hand's exchange */
    uint8_t stock[52], aside[52]; /* the stock (top at stock_pos) and the set-aside pile, in order */
    uint8_t stock_len, stock_pos, aside_len, high;   /* high: the high bid (0: none) */
    uint8_t bidder, passes_in_row, out, passed;       /* out, passed: seat bits */
    uint8_t active, exch_len, exch_index, hpad;       /* active: seats in play (bits) */
    uint8_t declared[8];       /* HB_NONE, 0..5 stayed, HB_HB_DROPPED */
    uint8_t exch[8];           /* the exchange order */
    uint8_t tseat[8];          /* who played each card of the trick in progress */
    /* Buck 'Em only; it also keeps hands, played, trick, tseat, won, trump, the
       stock (stock, stock_len, stock_pos), the folded hands (aside, aside_len),
       each seat's draw discards (disc), the stayers (active) and the order of
       the decisions and of the draw (exch, exch_len, exch_index) above */
    int64_t bank[8];           /* bankrolls */
    int64_t pot, units;        /* the pot and its units (antes and matches) */
    uint64_t dealt[8];         /* each seat's hand as dealt */
    uint8_t dpool[52];         /* the stayers' unused discards, in order */
    uint8_t dpool_len, upcard, upcard0, swapped;   /* upcard0: as dealt; swapped: HB_NONE or the seat */
    uint8_t ante_due, ante_taken, drew, bpad;       /* drew: seats that drew (bits) */
    uint8_t scare[8];          /* HB_NONE or the seat's face-up scare card */
    uint8_t choice[8];         /* HB_NONE, 0 stay, 1 stay and swap, 2 fold */
    uint8_t drawn[8];          /* cards each seat drew */
    uint8_t tail[16];          /* to a whole number of 64-byte cache lines (checked below) */
} hb_vec_env;

/* The front ends on a line boundary, before Hucklebuck's piles (compile-time check). */
typedef char hb_vec_front_lines[HB_VEC_FRONT_BYTES % 64 == 0 && HB_VEC_FRONT_BYTES <= offsetof(hb_vec_env, disc)
                                ? 1 : -1];
/* Every environment starts at the same offset in a cache line (compile-time check). */
typedef char hb_vec_env_lines[sizeof(hb_vec_env) % 64 == 0 ? 1 : -1];

/* The game's part of the state machine (cfg->game already checked). */
#define IS_HB(cfg) ((cfg)->game == HB_GAME_HUCKLEBUCK)
#define IS_BE(cfg) ((cfg)->game == HB_GAME_BUCKEM)
#define IS_DP(cfg) ((cfg)->game == HB_GAME_DEERPARK)

/* A pass over the batch asks for the memory of the environments ahead of the
   one it works on: the state AHEAD * 2 environments on, and, AHEAD on, the
   episode's log and the deal's random state of one about to be dealt (its next
   episode, or its next hand).  Only the bytes a game reads: Deer Park Euchre's
   fields are at the front of the struct, then Hucklebuck's, then Buck 'Em's. */
#define AHEAD 6
/* A Deer Park Euchre batch of at most this many environments is asked for only the episode's log
   ahead of a deal, not its states' lines and output rows: what a step touches of it (some
   400 bytes an environment: 400 KB) stays in a core's L2 cache from one step to the next, where
   the processor's own prefetcher serves the states in order; the prefetches cost some 20 of a
   step's 400 instructions, and at 1,024 tables steps without them took about 5 % less time
   (interleaved runs on a loaded two-core machine). */
#define NEAR_ENVS 1024
#if defined(__GNUC__)
#define PREFETCH(p, w) __builtin_prefetch((p), (w), 3)
#else
#define PREFETCH(p, w) ((void)(p))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define HB_INLINE_ALWAYS __attribute__((always_inline)) inline
#else
#define HB_INLINE_ALWAYS inline
#endif

/* x86-64 builds for any x86-64 have neither BMI1/BMI2 (tzcnt, blsr, shlx...) nor popcnt compiled
   in: the hottest passes (Deer Park's step, sampling) are compiled a second time with them
   (HB_BMI_TARGET) and that copy is chosen at run time where the processor has them (since 2013). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__BMI2__) \
    && !defined(HB_VEC_NO_BMI) /* (HB_VEC_NO_BMI: to test the plain code on a processor with them) */
#define HB_BMI_AT_RUN_TIME 1
#define HB_BMI_TARGET __attribute__((target("bmi,bmi2,popcnt")))
static inline int hb_v_has_bmi(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#endif

/* The cold half of environment i: after all the hot structs (see above). */
static inline const hb_vec_cold *hb_v_cold_const(const void *envs, size_t num_envs, size_t i)
{
    return (const hb_vec_cold *)((const unsigned char *)envs + num_envs * sizeof(hb_vec_env)) + i;
}

/* hb_vec.c's checks and dispatch, for hb_vec_read.c: the batch's arguments (hb_vec.h's error codes),
   a slice [begin, end) of it, a whole state, and the seat to act (-1: none). */
int hb_v_check_envs(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs);
int hb_v_check_slice(size_t num_envs, size_t begin, size_t end);
/* hb_vec_ids.c: where the first block of environments in [begin, end) whose int32 id is out of
   range or not legal (and the environment not ended) may start; every one before it passes. */
size_t hb_v_ids_ok(const hb_vec_env *all, const void *ids, int actions, size_t begin, size_t end);
int hb_v_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e);
int hb_v_to_act(const hb_vec_cfg *cfg, const hb_vec_env *e);

/* Set bits of x, inline (without the popcnt instruction compiled in,
   __builtin_popcountll is a call into libgcc). */
static inline int hb_v_popcount(uint64_t x)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static inline int hb_popcount128(const uint64_t x[2]) { return hb_v_popcount(x[0]) + hb_v_popcount(x[1]); }

/* The cards a seat may play now: its hand, or the cards of the led suit when it has any
 * (rules: the four trumps' tables, as every lane keeps them). */
static inline uint64_t hb_play_mask(const hb_rules *rules, const hb_vec_env *e, int seat)
{
    uint64_t hand = e->hands[seat];
    if (e->tlen > 0) {
        const hb_rules *r = &rules[e->trump];
        uint64_t follow = hand & r->suit_mask[r->suit[e->trick[0]]];
        if (follow) hand = follow;
    }
    return hand;
}

/* The cards of a hand a discard id's bit pattern m names: bit j is the hand's j-th card
 * (lowest card first); past the hand's cards the bits name nothing. */
static inline uint64_t hb_discard_mask(uint64_t hand, int m)
{
    uint64_t discards = 0, bits = hand;
    int j;
    for (j = 0; j < 5 && bits; j++, bits &= bits - 1)
        if (m >> j & 1) discards |= bits & (~bits + 1);
    return discards;
}

/* hb_vec.c: check environments [begin, end) and their ids as hb_vec_check does
   (full != 0), or (full 0) only that each id is in range and legal by the legal
   ids its state keeps, as a step checks them before it changes anything (it
   checks each state as it reaches it); actions NULL: only that each is a valid
   state of environment i, as a reset of the next episodes needs.  The worker
   threads' first pass (hb_vec_calls.c). */
int hb_v_check(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, const void *actions,
               int itemsize, int is_signed, size_t actions_len, size_t begin, size_t end, size_t *bad,
               int64_t *bad_id, int full);

/* hb_vec.c: hb_vec_step, or (checked != 0) its second half alone, for ids that
   hb_v_check (full 0) has passed on these very states (the second phase of hb_vec_calls.c's step);
   rules (NULL: made here) as hb_v_rules makes them, made once per call. */
int hb_v_step(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
              const void *actions, int itemsize, int is_signed, size_t actions_len, size_t begin, size_t end,
              size_t *bad, int64_t *bad_id, int checked, const hb_rules *given);
void hb_v_rules(const hb_vec_cfg *cfg, hb_rules rules[4]);

/* The deals' random source: the project's splitmix64 (hb_rng_next, hb_eval.c), in line. */
#define HB_V_GAMMA UINT64_C(0x9E3779B97F4A7C15)
/* Environment env's deal streams in a batch seeded `seed`: episode k deals from splitmix64 started
   at output k of splitmix64 started at seed ^ (env * HB_V_DEAL_MIX) (hucklebuck.vector.deal_state). */
#define HB_V_DEAL_MIX UINT64_C(0xC2B2AE3D27D4EB4F)
static inline uint64_t hb_v_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static inline uint64_t hb_v_rng_next(uint64_t *state) { return hb_v_mix(*state += HB_V_GAMMA); }
/* hb_v_mix(z) >> drop for 33 <= drop <= 63 (the top 31 bits or fewer, as the shuffles and sampling
   keep): the mix's last step, y ^ (y >> 31), changes none of them, so it is left out. */
static inline uint64_t hb_v_mix_top(uint64_t z, int drop)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z >> drop;
}
static inline uint64_t hb_v_deal_state(uint64_t seed, uint32_t env, uint32_t episode)
{
    return hb_v_mix((seed ^ ((uint64_t)env * HB_V_DEAL_MIX)) + ((uint64_t)episode + 1) * HB_V_GAMMA);
}

/* hb_vec_rng.c: hb_rng_below(state, n) for 1 <= n <= 2**32 (n = 1 draws too: the top bit until
   it is 0, as Python's random.Random._randbelow does), and the shuffle of hb_rng_shuffle (for
   i = n-1 .. 1, swap cards[i] with cards[below(i + 1)]): the same draws and order. */
uint32_t hb_v_below(uint64_t *state, uint32_t n);
void hb_v_shuffle(uint64_t *state, uint8_t *cards, int n);

/* hb_vec_predeal.c: a Deer Park Euchre deal's shuffle of its deck in order (size cards) from e->rng,
   taken from the calling pool thread's memo when it holds that shuffle; and, as an environment's
   game ends before its last hand by count, asking for the shuffle of its next episode's first deal. */
void hb_v_dp_shuffle(const hb_vec_cfg *cfg, hb_vec_env *e, uint8_t *cards, int size);
void hb_v_memo_episode_over(const hb_vec_cfg *cfg, const hb_vec_env *e);

/* hb_vec_dp.c: Deer Park Euchre */
int hb_v_dp_check_cfg(const hb_vec_cfg *cfg);
int hb_v_dp_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e);
void hb_v_dp_deal(const hb_vec_cfg *cfg, hb_vec_env *e);
void hb_v_dp_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2]);
/* Apply a legal id; adds the rewards of a finished hand to rew[players]. */
void hb_v_dp_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id, float *rew);
void hb_v_dp_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t);

/* hb_vec_hb.c: Hucklebuck */
int hb_v_hb_check_cfg(const hb_vec_cfg *cfg);
int hb_v_hb_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e);
/* What a step must check before it applies an id: the whole state but the cards of the stock,
   the set-aside pile and the discards, which only an exchange reads (and then they are checked). */
int hb_v_hb_check_step(const hb_vec_cfg *cfg, const hb_vec_env *e);
void hb_v_hb_begin(const hb_vec_cfg *cfg, hb_vec_env *e);
void hb_v_hb_deal(const hb_vec_cfg *cfg, hb_vec_env *e);
void hb_v_hb_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2]);
void hb_v_hb_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id,
                   float *rew);
int hb_v_hb_to_act(const hb_vec_env *e);
int hb_v_hb_fits(const hb_vec_env *e, int n, int id);
void hb_v_hb_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t);

/* hb_vec_be.c: Buck 'Em */
int hb_v_be_check_cfg(const hb_vec_cfg *cfg);
int hb_v_be_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e);
void hb_v_be_begin(const hb_vec_cfg *cfg, hb_vec_env *e);
void hb_v_be_deal(const hb_vec_cfg *cfg, hb_vec_env *e);
void hb_v_be_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2]);
void hb_v_be_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id,
                   float *rew);
int hb_v_be_to_act(const hb_vec_env *e);
int hb_v_be_fits(const hb_vec_env *e, int n, int id);
void hb_v_be_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t);
/* The episode's returns (reward "game"): each seat's bankroll change, added to rew. */
void hb_v_be_returns(const hb_vec_cfg *cfg, const hb_vec_env *e, float *rew);

/* Set t[c] = 1 for every card c of mask (the tensors' card planes). */
static inline void set_cards(float *t, uint64_t mask)
{
    while (mask) {
        t[lowest_bit(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

/* The planes of observation_tensor every game starts with (tensors.py), seen from seat:
 * the hand, the cards each seat has played, the trick in progress (trick_seats[c] played
 * card c; NULL: the seats in turn from the leader), the leader and the seat to act in the
 * play (play_turn), the seat to act before it, the dealer, trump, the phase and the tricks
 * each seat has won. */
static inline void tensor_base(const hb_vec_env *e, int seat, int n, const uint8_t *trick_seats, int play_turn,
                              float *t)
{
    int played_at = 52, trick_at = 52 + 52 * n, leader_at = 52 + 104 * n;
    int to_act_at = leader_at + n, dealer_at = leader_at + 2 * n, trump_at = leader_at + 3 * n;
    int phase_at = trump_at + 4, won_at = phase_at + 12, s, c;
#define REL_TO(x) (((x) - seat + n) % n)
    set_cards(t, e->hands[seat]);
    if (e->play_started) {
        for (s = 0; s < n; s++) {
            set_cards(t + played_at + 52 * REL_TO(s), e->played[s]);
            if (e->won[s]) t[won_at + REL_TO(s)] = (float)e->won[s];
        }
        for (c = 0; c < e->tlen; c++) {
            int by = trick_seats ? trick_seats[c] : (e->leader + c) % n;
            t[trick_at + 52 * REL_TO(by) + e->trick[c]] = 1.0f;
        }
    }
    if (e->phase == HB_PH_PLAY) {
        t[leader_at + REL_TO(e->leader)] = 1.0f;
        t[to_act_at + REL_TO(play_turn)] = 1.0f;
    } else if (e->phase != HB_PH_HAND_OVER && e->phase != HB_PH_GAME_OVER) {
        t[to_act_at + REL_TO(e->turn)] = 1.0f;
    }
    t[dealer_at + REL_TO(e->dealer)] = 1.0f;
    if (e->trump != HB_NONE) t[trump_at + e->trump] = 1.0f;
    t[phase_at + e->phase] = 1.0f;
#undef REL_TO
}

/* hb_vec_dp.c's small functions a step calls for every environment, in line (a call each cost
   as much as its body). */
static inline int hb_v_dp_to_act(const hb_vec_env *e, int n)
{
    if (e->term) return -1;
    if (e->phase == HB_PH_PLAY) {  /* (leader + tlen) % n, without a division in a valid state */
        int s = e->leader + e->tlen;
        while (s >= n) s -= n;
        return s;
    }
    if (e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER) return -1;
    return e->turn;
}

/* The seat to act in a state a step has checked, or that a step left (in the play leader, tlen < n:
   one subtraction at most, without hb_v_dp_to_act's loop). */
static HB_INLINE_ALWAYS int hb_v_dp_seat(const hb_vec_env *e, int n)
{
    int s;
    if (e->term) return -1;
    if (e->phase == HB_PH_PLAY) {
        s = e->leader + e->tlen;
        return s >= n ? s - n : s;
    }
    if (e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER) return -1;
    return e->turn;
}

/* Whether `id` is an action of the phase that the state can apply safely (the
   rules' legality is the legal[] mask's; this guards memory, whatever legal[] holds). */
static inline int hb_v_dp_fits(const hb_vec_env *e, int n, int id)
{
    int seat = hb_v_dp_to_act(e, n);
    if (seat < 0 || id < 0) return 0;
    switch (e->phase) {
    case HB_PH_PLAY: return id < 52 && (e->hands[seat] >> id & 1);
    case HB_PH_ORDER: return id == HB_DP_PASS || id == HB_DP_ORDER;
    case HB_PH_CALL: return id == HB_DP_PASS || (id >= HB_DP_CALL && id < HB_DP_CALL + 4);
    case HB_PH_DEALER_DISCARD:
        return id >= HB_DP_DISCARD && id < HB_DP_PASS && (e->hands[seat] >> (id - HB_DP_DISCARD) & 1);
    default: return 0;
    }
}

/* The card `id` (legal: in the seat's hand) played to the trick by `seat`; hb_v_dp_apply goes on
   from there (a trick's last card), and a step applies the other cards with this alone, in line. */
static inline void hb_v_dp_play(hb_vec_env *e, int seat, int id)
{
    uint64_t bit = UINT64_C(1) << id;
    e->hands[seat] &= ~bit;
    e->played[seat] |= bit;
    e->trick[e->tlen++] = (uint8_t)id;
}

/* The seat that wins a whole trick of n cards led by `leader` (hb_i_trick_winner's rule, in line:
   trump first, then the led suit, then rank; leader < n, as a checked state has it). */
static inline int hb_v_dp_trick_won_by(const hb_rules *r, int trump, const uint8_t *trick, int n, int leader)
{
    int lead = r->suit[trick[0]], best = 0, bk = -1, i;
    /* byte s of bonus: 0x20 for trump's suit, 0x10 for the led suit (suits 0..3, as rules have them) */
    const uint32_t bonus = (UINT32_C(0x20) << (8 * (trump & 3))) | (UINT32_C(0x10) << (8 * (lead & 3)));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (i = 0; i < n; i++) {
        int c = trick[i];
        int k = (int)(bonus >> (8 * (r->suit[c] & 3)) & 0x30) | r->rank[c];
        if (k > bk) { bk = k; best = i; }
    }
    best += leader;
    return best >= n ? best - n : best;
}

/* A trick's last card played: the trick to its winner, who leads the next (hb_v_dp_apply goes on
   to score the hand after its fifth). */
static inline void hb_v_dp_end_trick(const hb_rules *rules, hb_vec_env *e, int n)
{
    int w = hb_v_dp_trick_won_by(&rules[e->trump], e->trump, e->trick, n, e->leader);
    e->won[w]++;
    e->leader = (uint8_t)w;
    e->tlen = 0;
    e->tricks++;
}

/* The rest of hb_v_dp_check_step in the play, once the small fields are checked (tlen < n, tricks < 5). */
static inline int hb_v_dp_check_trick(unsigned n, const hb_vec_env *e)
{
    unsigned s;
    {  /* the trick's cards so far (tlen < n <= 8 of its 8 bytes), none above 51: a byte above
          51 sets its top bit once 76 is added (a carry out of one only follows a bad one) */
        uint64_t t;
        memcpy(&t, e->trick, 8);
        t &= (UINT64_C(1) << (8 * e->tlen)) - 1;
        if ((t | (t + UINT64_C(0x4C4C4C4C4C4C4C4C))) & UINT64_C(0x8080808080808080)) return HB_E_V_STATE;
    }
    if (e->tricks == 4 && e->tlen + 1u == n)  /* the hand's last card: the score reads the scores */
        for (s = 0; s < n; s++)
            if (e->scores[s] > (1 << 20) || e->scores[s] < -(1 << 20)) return HB_E_V_STATE;
    return HB_OK;
}

/* What a step reads of the state, checked as it reaches it (the whole state is hb_v_dp_check_env's,
   which hb_vec_check, the tensors and the other readers still ask for): an ended episode only its
   flag (the next episode overwrites the rest); else the small fields of its phase, the trick's
   cards so far, and, at the trick that ends the hand, the maker and the scores the hand's score
   reads.  Each seat's cards are read as ids are, by a test of one bit (hb_v_dp_fits); a corrupt
   field that no step of the phase reads is refused when a step of a phase that reads it comes, and
   by any full check before that.  Some 20 instructions in the play, where the full check took 130. */
static inline int hb_v_dp_check_step(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    unsigned n = (unsigned)cfg->players;
    if (e->term) return e->term > 2 ? HB_E_V_STATE : HB_OK;
    if (e->dealer >= n || e->hand_len > HB_VEC_HAND_LOG) return HB_E_V_STATE;
    switch (e->phase) {
    case HB_PH_PLAY:
        if (e->trump > 3 || e->leader >= n || e->tlen >= n || e->tricks >= 5 || e->maker >= n) return HB_E_V_STATE;
        return hb_v_dp_check_trick(n, e);
    case HB_PH_ORDER: case HB_PH_CALL:
        return e->index >= n || e->turn >= n || e->turned > 51 ? HB_E_V_STATE : HB_OK;
    case HB_PH_DEALER_DISCARD:
        return e->trump > 3 || e->maker >= n || e->turn >= n ? HB_E_V_STATE : HB_OK;
    default:
        return HB_E_V_STATE;
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define HB_V_DP_LIMITS 1
/* hb_v_dp_check_step in the play, its small fields compared 16 bytes at a time: bytes 16..47 of the
   state (term .. the trick), each at most its limit in lim[2] (hb_v_dp_play_limits); the same
   fields and bounds as the scalar checks, in some 10 instructions where they took 25. */
typedef char hb_v_dp_play_bytes[offsetof(hb_vec_env, term) == 16 && offsetof(hb_vec_env, dealer) == 18
                                && offsetof(hb_vec_env, trump) == 21 && offsetof(hb_vec_env, maker) == 22
                                && offsetof(hb_vec_env, leader) == 32 && offsetof(hb_vec_env, tlen) == 33
                                && offsetof(hb_vec_env, tricks) == 34 && offsetof(hb_vec_env, hand_len) == 36
                                ? 1 : -1];
static inline void hb_v_dp_play_limits(int n, __m128i lim[2])
{
    const char m = (char)(n - 1), x = (char)-1;
    lim[0] = _mm_setr_epi8(x, x, m, x, x, 3, m, x, x, x, x, x, x, x, x, x);  /* dealer, trump, maker */
    lim[1] = _mm_setr_epi8(m, m, 4, x, (char)HB_VEC_HAND_LOG, x, x, x, x, x, x, x, x, x, x, x);  /* leader, tlen, tricks, hand_len */
}
static HB_INLINE_ALWAYS int hb_v_dp_check_step_lim(const hb_vec_cfg *cfg, const hb_vec_env *e, int n,
                                                   const __m128i lim[2])
{
    if (e->term == 0 && e->phase == HB_PH_PLAY) {
        const unsigned char *p = (const unsigned char *)e + 16;
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        __m128i ok = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(a, lim[0]), lim[0]),
                                   _mm_cmpeq_epi8(_mm_max_epu8(b, lim[1]), lim[1]));
        if (_mm_movemask_epi8(ok) != 0xFFFF) return HB_E_V_STATE;
        return hb_v_dp_check_trick((unsigned)n, e);
    }
    return hb_v_dp_check_step(cfg, e);
}
#endif

#endif
