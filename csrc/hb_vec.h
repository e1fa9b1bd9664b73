/*
 * hb_vec.h -- the batched lane: whole games as a state machine, many
 * environments stepped in one call (hucklebuck.vector.VectorGame).
 *
 * Plain C99, re-entrant, no global mutable state.  Every call checks its
 * configuration, every buffer length, every index and id, and the state of
 * every environment it reads: nothing here trusts its caller.  One
 * environment is a fixed-size struct (copy the whole array with memcpy); the
 * caller allocates `num_envs * hb_vec_env_size()` bytes and passes their length.
 *
 * Deals draw from the project's specified PRNG, splitmix64 (hb_rng_next and
 * hb_rng_below in hb_core.h; the Python engine deals the same cards given
 * hucklebuck._core._py_eval.SplitMix64 as its random source): episode k of
 * environment env in a batch seeded `seed` deals every hand (and Hucklebuck's
 * and Buck 'Em's restocks) from splitmix64 started at output k of splitmix64
 * started at seed ^ (env * 0xC2B2AE3D27D4EB4F), shuffling the pack as
 * hb_rng_shuffle does: a pure function of (seed, env, episode).
 *
 * The block between CDEF-BEGIN and CDEF-END is the cffi cdef (csrc/build_ffi.py).
 */
#ifndef HB_VEC_H
#define HB_VEC_H

#include <stddef.h>
#include <stdint.h>

/* CDEF-BEGIN */
enum {
    HB_E_V_CFG = -40,     /* a configuration the state machine does not cover, or a bad one */
    HB_E_V_LEN = -41,     /* a buffer length that does not match the batch */
    HB_E_V_RANGE = -42,   /* an action id outside the game's id space */
    HB_E_V_ILLEGAL = -43, /* an action id the rules forbid now */
    HB_E_V_STATE = -44,   /* an environment whose state is not a valid state */
    HB_E_V_SEAT = -45,    /* a seat out of range */
    HB_E_V_INDEX = -46,   /* an environment index or slice out of range */
    HB_E_V_LOG = -47,     /* the episode is longer than an environment's action log */
    HB_VEC_LOG = 1024,    /* action ids an environment records per episode */
    HB_VEC_VERSION = 8,
    HB_VEC_DP_FLAG_CLUB_PICKUP = 1,
    HB_VEC_DP_FLAG_ROUND2_EXCLUDES = 2,
    HB_VEC_DP_FLAG_FAILED_TRICKS = 4,
    HB_VEC_DP_FLAG_MAKER_LEADS = 8,
    HB_VEC_DP_FLAG_LOCK_PERMANENT = 16,
    HB_VEC_DP_FLAG_TIE_SHARED = 32,
    HB_VEC_DP_FLAG_EIGHT = 64,
    HB_VEC_HB_FLAG_DEALER_MUST_BID = 1,
    HB_VEC_HB_FLAG_MOON_ZERO_WINS = 2,
    HB_VEC_HB_FLAG_MOON_ZERO_SCORES = 4,
    HB_VEC_HB_FLAG_LONE_MOON_WINS = 8,
    HB_VEC_HB_FLAG_PENALTY_STACKS = 16,
    HB_VEC_HB_FLAG_TIE_BIDDER_FIRST = 32,
    HB_VEC_HB_FLAG_TIE_SHARED = 64,
    HB_VEC_HB_FLAG_DEALER_LEFT = 128,
    HB_VEC_HB_FLAG_REENTRY = 256,
    HB_VEC_HB_FLAG_ANY_BID_RESET = 512,
    HB_VEC_HB_FLAG_TARGET_11 = 1024,
    HB_VEC_BE_FLAG_SHORT = 1,             /* Buck 'Em: short_handed */
    HB_VEC_BE_FLAG_REMOVED_CARD = 2,      /* short_handed_trump = removed_card */
    HB_VEC_BE_FLAG_SCARE = 4,             /* scare_cards */
    HB_VEC_BE_FLAG_SWAP = 8,              /* deuce_swap */
    HB_VEC_BE_FLAG_SIMULTANEOUS = 16,     /* simultaneous_declare */
    HB_VEC_BE_FLAG_PROPORTIONAL = 32,     /* split = proportional */
    HB_VEC_BE_FLAG_ODD_CARRY = 64,        /* odd_chip = carry */
    HB_VEC_BE_FLAG_ODD_FIRST_LEFT = 128,  /* odd_chip = first_left_of_dealer */
    HB_VEC_BE_FLAG_RAKE_AFTER_SWAP = 256, /* rake_hand = after_swap */
    HB_VEC_BE_FLAG_RAKE_CEIL = 512,       /* rake_rounding = ceil */
    HB_VEC_BE_FLAG_VOID_ANTE = 1024,      /* after_void_round_ante */
    HB_VEC_BE_SCARE_SHIFT = 11            /* bits 11-13: scare_position - 1 */
};

/* What every environment of a batch shares.  The caller sets game, players,
   hands (0: whole games), reward (0: "game", 1: "hand", 2: "progress"), flags and lock_at
   (Buck 'Em: the ante) and pot_limit (Buck 'Em: 0 for none);
   hb_vec_config checks them and fills actions and tensor. */
typedef struct {
    int32_t game, players, hands, reward, flags, lock_at;
    int32_t actions, tensor;
    int64_t pot_limit;
} hb_vec_cfg;

/* The output buffers: current player, legal mask, rewards, terminated (the
   game ended; Buck 'Em: the episode's rounds were played), truncated (the
   episode was cut at `hands` hands of a game not over), each with its length
   in items (num_envs, num_envs*actions, num_envs*players, num_envs, num_envs). */
typedef struct {
    int16_t *current_player;
    uint8_t *legal_mask;
    float *rewards;
    uint8_t *terminated, *truncated;
    size_t cp_len, mask_len, rewards_len, term_len, trunc_len;
} hb_vec_io;

/* The batched lane's interface version (hucklebuck.vector uses the C lane only
   when it is the one it was written for). */
int hb_vec_version(void);
size_t hb_vec_env_size(void);
int hb_vec_config(hb_vec_cfg *cfg);

/* Deal a new episode in every environment of [begin, end) and fill their
   outputs: with fresh != 0 episode 0 of a stream seeded from `seed`, else each
   environment's next episode from its own stream. */
int hb_vec_reset(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
                 uint64_t seed, int fresh, size_t begin, size_t end);

/* Check one action per environment (itemsize 1, 2, 4 or 8 bytes, signed or not)
   without changing anything; on error *bad is the environment and *bad_id the id. */
int hb_vec_check(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs,
                 const void *actions, int itemsize, int is_signed, size_t actions_len, size_t *bad,
                 int64_t *bad_id);

/* Check, then apply, the actions of [begin, end) (a terminated environment ignores
   its id and is dealt its next episode) and fill their outputs.  Every id is
   checked (in range, legal now) before any environment changes; each state is
   checked as the step reaches it, in every field the step reads (Hucklebuck's
   stock, set-aside pile and discards only in its exchange, the one phase that
   reads them; Deer Park Euchre's small fields of the phase and the trick's
   cards, its scores only at a hand's last card, a seat's cards by the one bit
   an id tests), so a corrupt state stops the step there (the environments
   before it stepped; hb_vec_check checks whole states, without changing anything). */
int hb_vec_step(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
                const void *actions, int itemsize, int is_signed, size_t actions_len, size_t begin,
                size_t end, size_t *bad, int64_t *bad_id);

/* Observation tensors of [begin, end) into out (num_envs * tensor floats): the
   acting seat's (seat -1; all 0 where nobody acts) or `seat`'s. */
int hb_vec_tensor(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, int seat,
                  float *out, size_t out_len, size_t begin, size_t end);

/* A uniformly random legal id per environment of [begin, end) (-1 where terminated):
   environment i draws hb_rng_below from splitmix64 started at seed ^ (i * 0xD6E8FEB86659FD93). */
int hb_vec_sample(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint64_t seed,
                  int32_t *out, size_t out_len, size_t begin, size_t end);

/* Environment i's episode: the batch seed, its episode number, the splitmix64 state
   its deals started from (see above), and the action ids applied so far (*len of
   them, written to ids[0 .. ids_len-1]). */
int hb_vec_episode(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, size_t i,
                   uint64_t *seed, uint32_t *episode, uint64_t *start, uint8_t *ids, size_t ids_len,
                   size_t *len);

/* Every environment's episode number (out[i] for environment i, out_len = num_envs), in one
   call; HB_E_V_STATE for a state that is not a valid one. */
int hb_vec_episodes(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint32_t *out,
                    size_t out_len);

/* Worker threads that split the calls below across `threads` threads (the
   calling one included; hb_vec_pool.c, hb_vec_calls.c): each call returns when all its work is
   done, with the same outputs and errors as one thread (a step checks every id
   before it changes any environment; *bad is the lowest failing environment).  The ids are copied first: the caller may change its buffer
   afterwards.  NULL when the threads cannot be started.  Calls from several
   threads take turns; in a child process after fork() a call runs in the
   calling thread alone.  Freeing the pool waits for a running call, then joins
   the threads (no call may start after it).  Every hb_vec_pool_* call below
   takes its turn, closing and copying included: hb_vec_pool_close joins the
   workers in place (the pool stays valid; later calls run in the calling
   thread), hb_vec_pool_copy copies a batch's bytes (an environment array or an
   output buffer) between calls, never during one (hb_vec_pool_copy_batch: the
   environments and every output buffer at once), and hb_vec_pool_episode and
   hb_vec_pool_episodes are hb_vec_episode and hb_vec_episodes between calls. */
typedef struct hb_vec_pool hb_vec_pool;
hb_vec_pool *hb_vec_pool_new(int threads);
void hb_vec_pool_free(hb_vec_pool *pool);
int hb_vec_pool_threads(const hb_vec_pool *pool);
int hb_vec_pool_reset(hb_vec_pool *pool, const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs,
                      const hb_vec_io *io, uint64_t seed, int fresh);
int hb_vec_pool_step(hb_vec_pool *pool, const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs,
                     const hb_vec_io *io, const void *actions, int itemsize, int is_signed, size_t actions_len,
                     size_t *bad, int64_t *bad_id);
int hb_vec_pool_tensor(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                       size_t num_envs, int seat, float *out, size_t out_len);
int hb_vec_pool_sample(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                       size_t num_envs, uint64_t seed, int32_t *out, size_t out_len);
void hb_vec_pool_close(hb_vec_pool *pool);
int hb_vec_pool_copy(hb_vec_pool *pool, const void *src, void *dst, size_t len);
/* A whole batch at one moment between calls: len bytes of environments from src to dst, and every
   output buffer of `from` to the same buffer of `to` (whose lengths must be the same). */
int hb_vec_pool_copy_batch(hb_vec_pool *pool, const void *src, void *dst, size_t len, const hb_vec_io *from,
                           const hb_vec_io *to);
int hb_vec_pool_episode(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                        size_t num_envs, size_t i, uint64_t *seed, uint32_t *episode, uint64_t *start,
                        uint8_t *ids, size_t ids_len, size_t *len);
int hb_vec_pool_episodes(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                         size_t num_envs, uint32_t *out, size_t out_len);
/* Per thread of the pool (len = its threads; 0 is the calling thread): the
   nanoseconds it spent working on calls, and the environments it handled. */
int hb_vec_pool_stats(hb_vec_pool *pool, uint64_t *busy_ns, uint64_t *items, size_t len);

/* Who won each environment's game (issue 59): out[i] gets the winning seats of environment i
   as bits (seat s: bit s) when its game is over -- the step that ended it has just run, and
   the next step deals the next episode -- else 0 (a game in progress, an episode cut at
   `hands` hands, a Buck 'Em session).  out_len = num_envs.  hb_vec_pool_winners is the same
   between calls, never during one.  Not a hot path: read on demand. */
int hb_vec_winners(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint8_t *out,
                   size_t out_len);
int hb_vec_pool_winners(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                        size_t num_envs, uint8_t *out, size_t out_len);
/* CDEF-END */

#endif
