/*
 * hb_core.h -- the C core of hucklebuck: trick resolution and legal plays.
 *
 * Plain C99, no Python headers, no global mutable state: every function is
 * re-entrant (cffi calls them with the GIL released).  Every input is checked
 * at this boundary; nothing here trusts its caller.
 *
 * Card encoding (shared with the pure-Python core):
 *   card = suit * 13 + rank,  suit C=0 D=1 H=2 S=3,  rank 2=0 ... A=12.
 * so sorting by card number gives the protocol's canonical order.
 * A hand is a 64-bit mask with bit `card` set; bits 52..63 must be clear.
 *
 * The block between CDEF-BEGIN and CDEF-END is read verbatim by
 * csrc/build_ffi.py as the cffi cdef, so the Python binding and this header
 * cannot drift apart.
 */
#ifndef HB_CORE_H
#define HB_CORE_H

#include <stddef.h>
#include <stdint.h>

#define HB_ABI_VERSION_VALUE 6

/* CDEF-BEGIN */
enum {
    HB_OK = 0,
    HB_E_GAME = -1,       /* game id out of range */
    HB_E_TRUMP = -2,      /* trump suit out of range */
    HB_E_CARD = -3,       /* card number outside 0..51 */
    HB_E_LEN = -4,        /* trick length outside 1..8 */
    HB_E_DUP = -5,        /* the same card twice in one trick */
    HB_E_NULL = -6,       /* a required pointer was NULL */
    HB_E_MASK = -7,       /* a hand mask with bits above 51 */
    HB_E_LEAD = -8,       /* the led card is also in the hand */
    HB_E_SEATS = -9,      /* seat count, leader or seat out of range or not in play */
    HB_E_TT = -10,        /* transposition table size not a power of two */
    HB_E_MODE = -11,      /* unknown evaluation mode */
    HB_E_OVERFLOW = -12   /* a simulated pot grew past 2**58 chips */
};

enum {
    HB_GAME_HUCKLEBUCK = 0,
    HB_GAME_BUCKEM = 1,
    HB_GAME_DEERPARK = 2,
    HB_NO_LEAD = 255,
    HB_MAX_TRICK = 8
};

typedef struct {
    uint8_t suit[52];  /* effective suit of each card (bowers move) */
    uint8_t rank[52];  /* strength within its effective suit */
    uint64_t suit_mask[4]; /* the cards of each effective suit */
} hb_rules;

/* The ABI version; the Python wrapper refuses a module whose value differs. */
int hb_abi_version(void);

/* Fill *out with the rules tables of `game` with `trump`. */
int hb_rules_init(int game, int trump, hb_rules *out);

/* Index (0-based) of the winning card of one trick, or a negative HB_E_*.
   `cards` holds `len` card numbers, leader first. */
int hb_trick_winner(int game, int trump, const char *cards, int len);

/* Legal-play mask of `hand` when `lead` was led (HB_NO_LEAD: leading).
   On error bit 63 is set and the low byte holds -HB_E_*. */
uint64_t hb_legal_mask(int game, int trump, int lead, uint64_t hand);

/* Batch: n tricks. trumps[i], lens[i] (1..8) and cards[8*i .. 8*i+lens[i]-1].
   Writes winners[i]. On error returns HB_E_* and sets *bad to the trick index. */
int hb_trick_winners(int game, size_t n, const char *trumps, const char *lens,
                     const char *cards, uint8_t *winners, size_t *bad);

/* Batch: n positions. trumps[i], leads[i] (card or HB_NO_LEAD), hands[i].
   Writes out[i]. On error returns HB_E_* and sets *bad to the position index. */
int hb_legal_masks(int game, size_t n, const char *trumps, const char *leads,
                   const uint64_t *hands, uint64_t *out, size_t *bad);
/* ---- hand evaluation (hb_eval.c) ---- */

/* One transposition-table slot of the solver (32 bytes); the caller owns the table.
   A solve keeps at most tt_size/2 positions, then clears the table and starts over. */
typedef struct {
    uint64_t key[3];
    uint32_t gen;
    int8_t lb;
    int8_t ub;
    uint8_t used;
    uint8_t pad;
} hb_tt_entry;

enum {
    HB_E_BUDGET = -15,    /* the solver used up its node budget */
    HB_E_CANCELLED = -16  /* the caller set the cancel flag */
};

enum {
    HB_SIM_ALL_PASS = 0,      /* hands where everyone passed */
    HB_SIM_LONE_BIDDER = 1,   /* hands where everyone else dropped */
    HB_SIM_PLAYED = 2,        /* hands played out */
    HB_SIM_STAYERS = 3,       /* total players in played hands, bidder included */
    HB_SIM_RESTOCKS = 4,      /* times the stock was re-formed */
    HB_SIM_STAYER_ZERO = 5,   /* non-bidders who stayed and took no trick */
    HB_SIM_BID_BASE = 6,      /* then (made, set) for bids 2, 3, 4, 5 */
    HB_SIM_STATS = 14
};

enum {
    HB_DP_HANDS = 0, HB_DP_CLUB = 1, HB_DP_ORDERED = 2, HB_DP_CALLED = 3, HB_DP_STUCK = 4,
    HB_DP_VOL_MADE = 5, HB_DP_VOL_SET = 6, HB_DP_FORCED_MADE = 7, HB_DP_FORCED_SET = 8,
    HB_DP_DEFENDER_ZERO = 9, HB_DP_STATS = 10
};

enum {
    HB_BK_HANDS = 0, HB_BK_NO_STAYERS = 1, HB_BK_RAKED = 2, HB_BK_LONE_NO_RAKE = 3, HB_BK_PLAYED = 4,
    HB_BK_ONE_WINNER = 5, HB_BK_TWO_WINNERS = 6, HB_BK_NO_WINNER = 7, HB_BK_BURNED = 8,
    HB_BK_STAYERS = 9, HB_BK_RESTOCKS = 10, HB_BK_CHIPS_WON = 11, HB_BK_CHIPS_BURNED = 12,
    HB_BK_FINAL_POT = 13, HB_BK_STATS = 14
};

/* The specified PRNG: splitmix64.  hb_rng_below draws the top bit_length(n)
   bits until the value is below n; the shuffle is Fisher-Yates from the top. */
uint64_t hb_rng_next(uint64_t *state);
uint64_t hb_rng_below(uint64_t *state, uint64_t n);
int hb_rng_fill(uint64_t seed, uint64_t *out, size_t n);
int hb_rng_shuffle(uint64_t seed, uint8_t *cards, size_t n);

/* Most tricks `seat` can be sure of (all cards open, everyone else against it). */
int hb_solve(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat,
             hb_tt_entry *tt, size_t tt_size, uint32_t gen, int *result);

/* hb_solve with a budget: at most node_limit nodes (cards tried; 0: no limit), else
   HB_E_BUDGET; HB_E_CANCELLED soon after another thread sets *cancel (NULL: none).
   *nodes (may be NULL) gets the nodes searched. */
int hb_solve_limited(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat,
                     hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                     int *result, uint64_t *nodes);

/* Monte Carlo: deal `pool` at random to fill each seat to sizes[i] on top of
   known[i], then count `seat`'s tricks by playout (mode 0) or solver (mode 1). */
int hb_mc_eval(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes,
               uint64_t pool, int leader, int seat, uint64_t seed, uint32_t samples, int mode,
               hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint32_t *hist);

/* hb_mc_eval with a node budget for each solve (mode 1) and a cancel flag. */
int hb_mc_eval_limited(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes,
                       uint64_t pool, int leader, int seat, uint64_t seed, uint32_t samples, int mode,
                       hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                       uint32_t *hist);

/* hb_mc_eval_limited whose solves (mode 1) share a budget of total_nodes nodes (0: none):
   HB_E_BUDGET once a solve would need more than the earlier ones left, or as soon as the solves
   so far, at their rate over all the samples, would need more than the budget (so a call that
   will not fit stops early). */
int hb_mc_eval_total(int game, int trump, int nseats, const uint64_t *known, const uint8_t *sizes,
                     uint64_t pool, int leader, int seat, uint64_t seed, uint32_t samples, int mode,
                     hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, uint64_t total_nodes,
                     const int *cancel, uint32_t *hist);

/* ---- bulk simulation (hb_sim.c) ---- */
/* Bulk simulation of Hucklebuck hands with the fixed policy; stats has HB_SIM_STATS slots. */
int hb_sim_hucklebuck(int players, uint64_t seed, uint32_t hands_n, uint64_t *stats, size_t nstats);

/* Bulk simulation of Deer Park Euchre hands; stats has HB_DP_STATS slots. */
int hb_sim_deerpark(int players, uint64_t seed, uint32_t hands_n, uint64_t *stats, size_t nstats);

/* Bulk simulation of a Buck 'Em session (pot carried across hands); HB_BK_STATS slots.
   pot_limit caps each burn payment (0: no cap); without one the pot can grow geometrically. */
int hb_sim_buckem(int players, uint64_t seed, uint32_t hands_n, int ante, uint64_t pot_limit,
                  uint64_t *stats, size_t nstats);

/* The three simulations with a cancel flag (NULL: none), polled every 1024 hands:
   HB_E_CANCELLED soon after another thread sets *cancel. */
int hb_sim_hucklebuck_cancel(int players, uint64_t seed, uint32_t hands_n, const int *cancel, uint64_t *stats,
                             size_t nstats);
int hb_sim_deerpark_cancel(int players, uint64_t seed, uint32_t hands_n, const int *cancel, uint64_t *stats,
                           size_t nstats);
int hb_sim_buckem_cancel(int players, uint64_t seed, uint32_t hands_n, int ante, uint64_t pot_limit,
                         const int *cancel, uint64_t *stats, size_t nstats);
/* ---- Monte Carlo decision search (hb_search.c) ---- */
enum {
    HB_E_NODEAL = -13,    /* no deal of the unseen cards fits the hand sizes and voids */
    HB_E_CAND = -14,      /* a search candidate that is not a legal choice of the position */
    HB_SP_PLAY = 0, HB_SP_AUCTION = 1, HB_SP_TRUMP = 2, HB_SP_DECLARE = 3, HB_SP_EXCHANGE = 4,
    HB_SP_ORDER = 5, HB_SP_CALL = 6, HB_SP_DEALER_DISCARD = 7, HB_SP_STAY_FOLD = 8, HB_SP_DRAW = 9,
    HB_E_NOMEM = -17,     /* the search's table could not be allocated */
    HB_E_PICK = -18,      /* search picks not strictly increasing or past the deals drawn */
    HB_E_READ = -19,      /* a card-play read that does not fit the position */
    HB_SEARCH_REC = 12,   /* bytes per (candidate, sample) record */
    HB_SEARCH_MAX_CANDS = 64,
    HB_SEARCH_PLAYOUT = 0, /* method: the rest of the hand by the playout policies */
    HB_SEARCH_SOLVER = 1   /* method: the play solved with open cards (hb_maxn.c) */
};

/* A decision point as one seat sees it (see hucklebuck/_core/_py_search.py). */
typedef struct {
    int32_t game, phase, nseats, seat, dealer;
    int32_t trump;          /* -1 while not fixed */
    int32_t leader;         /* play: leader of the current trick */
    int32_t high, bidder;   /* Hucklebuck: high bid and bidder (0, -1 before any bid) */
    int32_t turned;         /* Deer Park turned card, Buck 'Em upcard; -1 none */
    int32_t flags;          /* bit 0: Deer Park round 2 excludes the turned suit; bit 1: the maker leads */
    int32_t trick_len;
    uint8_t size[8];        /* cards each seat holds now; 0: not in this hand */
    uint8_t voids[8];       /* bit s: the seat has shown void in effective suit s */
    uint8_t state[8];       /* per-seat progress of the phase (see the Python twin) */
    uint8_t won[8];         /* tricks already taken this hand */
    uint8_t trick[8];       /* the current trick, leader first */
    uint64_t known[8];      /* cards known to be in each hand (the deciding seat's whole hand) */
    uint64_t pool;          /* the cards that may be in a hidden hand (the deciding seat's view) */
    uint64_t barred[8];     /* pool cards each seat cannot hold, besides its voids (a card whose
                               place only some seats can have reached, e.g. a scare card shown) */
    uint8_t stay_min[8];    /* Hucklebuck: a seat whose stay or drop is simulated stays with a trick
                               estimate of at least this (tenths of a trick; set from its score) */
    uint8_t win_bid[8];     /* Hucklebuck: the least bid with which the seat, making it, wins the game
                               or reaches the target (0: none); the simulated seats facing such a
                               bid stay with any hand, to take tricks from it */
} hb_search_pos;

typedef struct {
    int32_t arg;            /* bid (0 pass), suit (-1 pass), exchange (-1 drop), 1 order / 0 pass, ... */
    uint64_t cards;         /* card played, or cards discarded */
} hb_search_cand;

/* Deal `samples` hidden deals consistent with `pos`: out gets 8 masks per sample. */
int hb_search_sample(const hb_search_pos *pos, uint64_t seed, uint32_t samples, uint64_t *out, size_t out_len);

/* Play every candidate out on every sampled deal; out gets HB_SEARCH_REC bytes per
   (candidate, sample), candidate-major: tricks of seats 0-7 (-1 not playing), the
   bidder or maker, the bid or requirement, a status, an extra byte. */
int hb_search(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
              uint32_t samples, int8_t *out, size_t out_len);

/* hb_search with a method: HB_SEARCH_PLAYOUT (as hb_search) or HB_SEARCH_SOLVER, where
   the cards of each simulated hand are played with open cards, every seat taking as
   many tricks as it can for itself (a Deer Park seat playing for 50: as few); a solve
   past node_limit cards tried (0: no limit) is played by the policies instead. */
int hb_search_ex(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                 uint32_t samples, int method, uint64_t node_limit, int8_t *out, size_t out_len);

/* hb_search_ex with a cancel flag (NULL: none), polled after every sample and every
   1024 nodes of a solve: HB_E_CANCELLED soon after another thread sets *cancel. */
int hb_search_cancel(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                     uint32_t samples, int method, uint64_t node_limit, const int *cancel, int8_t *out,
                     size_t out_len);
/* hb_search_cancel over some of the first `drawn` deals hb_search_sample would draw: the
   `samples` deals numbered picks[0] < picks[1] < ... (each below drawn); out gets the
   records of those deals only, in that order (picks NULL: all, drawn == samples). */
int hb_search_pick(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                   uint32_t drawn, const uint32_t *picks, uint32_t samples, int method, uint64_t node_limit,
                   const int *cancel, int8_t *out, size_t out_len);

/* One card another seat played this hand, as a read of the sampled deals: its seat,
   the card, the cards of its trick before it (leader first), the cards the seat
   played after it (so its hand then was its sampled hand plus those and the card),
   and the chance that such a seat plays the card the policy would. */
typedef struct {
    int32_t seat, card, tlen;
    uint8_t trick[8];
    uint64_t later;
    double match;
} hb_search_read;

/* For each of `ndeals` deals (8 hand masks each, as hb_search_sample gives them) the
   likelihood of the `nreads` cards under the playout policy (a Deer Park seat of the
   position's ducking seats: the ducking policy): a card the policy would have played
   from that hand counts its read's `match`, any other of its L legal cards
   (1 - match) / (L - 1), a forced card 1.  out gets one number per deal. */
int hb_search_reads(const hb_search_pos *pos, const uint64_t *deals, uint32_t ndeals, const hb_search_read *reads,
                    int nreads, double *out, size_t out_len);
/* CDEF-END */

#endif
