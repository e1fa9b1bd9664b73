/*
 * hb_vec.c -- the batched lane's entry points (hb_vec.h) that change the
 * batch: argument checks, episodes (deal, hands, auto-reset, rewards), steps and
 * their outputs (the calls that only read it: hb_vec_read.c).  The game
 * itself is in hb_vec_dp.c (Deer Park Euchre), hb_vec_hb.c (Hucklebuck) and
 * hb_vec_be.c (Buck 'Em).
 */
#include <string.h>
#include "hb_vec_internal.h"
#include "hb_vec_row.h"

int hb_vec_version(void) { return HB_VEC_VERSION; }

size_t hb_vec_env_size(void) { return sizeof(hb_vec_env) + sizeof(hb_vec_cold); }

static int tensor_size(int game, int n)
{
    int common = 52 + 104 * n + 5 * n + 16;
    if (game == HB_GAME_DEERPARK) return common + 52 + n + 2 + 3 * n + 52;
    if (game == HB_GAME_HUCKLEBUCK) return common + 10 * n + 57;
    if (game == HB_GAME_BUCKEM) return common + 57 * n + 107;
    return -1;
}

static int num_actions(int game)
{
    return game == HB_GAME_HUCKLEBUCK ? HB_HB_ACTIONS : game == HB_GAME_BUCKEM ? HB_BE_ACTIONS : HB_DP_ACTIONS;
}


static void ahead(const hb_vec_cfg *cfg, void *envs, size_t num_envs, size_t i, size_t end)
{
    ahead_of(cfg->game, cfg->players, cfg->hands, 0, envs, num_envs, i, end);
}

static int g_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    if (IS_BE(cfg)) return hb_v_be_check_env(cfg, e);
    return IS_HB(cfg) ? hb_v_hb_check_env(cfg, e) : hb_v_dp_check_env(cfg, e);
}

/* The state as a step reaches it: every field the step reads (Hucklebuck's piles only in the
   exchange, the one phase that reads them; their lines stay in memory the rest of the hand; Deer
   Park Euchre's small fields of the phase, hb_v_dp_check_step). */
static int g_check_step(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    if (IS_DP(cfg)) return hb_v_dp_check_step(cfg, e);
    return IS_HB(cfg) ? hb_v_hb_check_step(cfg, e) : g_check_env(cfg, e);
}

static int g_to_act(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    if (IS_BE(cfg)) return hb_v_be_to_act(e);
    return IS_HB(cfg) ? hb_v_hb_to_act(e) : hb_v_dp_to_act(e, cfg->players);
}

static void g_deal(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    if (IS_BE(cfg)) hb_v_be_deal(cfg, e);
    else if (IS_HB(cfg)) hb_v_hb_deal(cfg, e);
    else hb_v_dp_deal(cfg, e);
}

static int g_check_cfg(const hb_vec_cfg *cfg)
{
    if (IS_BE(cfg)) return hb_v_be_check_cfg(cfg);
    return IS_HB(cfg) ? hb_v_hb_check_cfg(cfg) : hb_v_dp_check_cfg(cfg);
}

static int check_cfg(const hb_vec_cfg *cfg)
{
    if (cfg == NULL) return HB_E_NULL;
    if (cfg->game != HB_GAME_DEERPARK && cfg->game != HB_GAME_HUCKLEBUCK && cfg->game != HB_GAME_BUCKEM)
        return HB_E_V_CFG;
    if (cfg->hands < 0 || cfg->reward < 0 || cfg->reward > 2) return HB_E_V_CFG;
    if (g_check_cfg(cfg) != HB_OK) return HB_E_V_CFG;
    if (cfg->actions != num_actions(cfg->game) || cfg->tensor != tensor_size(cfg->game, cfg->players))
        return HB_E_V_CFG;
    return HB_OK;
}

int hb_vec_config(hb_vec_cfg *cfg)
{
    if (cfg == NULL) return HB_E_NULL;
    cfg->actions = num_actions(cfg->game);
    cfg->tensor = tensor_size(cfg->game, cfg->players);
    return check_cfg(cfg);
}

static int check_envs(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs)
{
    int rc = check_cfg(cfg);
    if (rc != HB_OK) return rc;
    if (envs == NULL) return HB_E_NULL;
    if (num_envs == 0 || num_envs > ((size_t)1 << 24)) return HB_E_V_LEN;
    if (envs_len != num_envs * hb_vec_env_size()) return HB_E_V_LEN;
    return HB_OK;
}

static int check_io(const hb_vec_cfg *cfg, const hb_vec_io *io, size_t num_envs)
{
    if (io == NULL || io->current_player == NULL || io->legal_mask == NULL || io->rewards == NULL
        || io->terminated == NULL || io->truncated == NULL)
        return HB_E_NULL;
    if (io->cp_len != num_envs || io->term_len != num_envs || io->trunc_len != num_envs
        || io->mask_len != num_envs * (size_t)cfg->actions
        || io->rewards_len != num_envs * (size_t)cfg->players)
        return HB_E_V_LEN;
    return HB_OK;
}

static int check_slice(size_t num_envs, size_t begin, size_t end)
{
    return begin <= end && end <= num_envs ? HB_OK : HB_E_V_INDEX;
}

static void all_rules(const hb_vec_cfg *cfg, hb_rules rules[4])
{
    int t;
    for (t = 0; t < 4; t++) hb_rules_init(cfg->game, t, &rules[t]);
}

void hb_v_rules(const hb_vec_cfg *cfg, hb_rules rules[4]) { all_rules(cfg, rules); }

int hb_v_check_envs(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs)
{
    return check_envs(cfg, envs, envs_len, num_envs);
}

int hb_v_check_slice(size_t num_envs, size_t begin, size_t end) { return check_slice(num_envs, begin, end); }

int hb_v_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e) { return g_check_env(cfg, e); }

int hb_v_to_act(const hb_vec_cfg *cfg, const hb_vec_env *e) { return g_to_act(cfg, e); }

/* Keep the legal ids in the state and write environment i's outputs. */
static void write_out(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, const hb_vec_io *io, size_t i)
{
    uint8_t *row = io->legal_mask + i * (size_t)cfg->actions;
    int w;
    io->current_player[i] = (int16_t)(IS_DP(cfg) ? hb_v_dp_to_act(e, cfg->players) : g_to_act(cfg, e));
    io->terminated[i] = e->term == 1;
    io->truncated[i] = e->term == 2;
    if (IS_BE(cfg)) {
        hb_v_be_legal(cfg, rules, e, e->legal);
    } else if (IS_HB(cfg)) {
        hb_v_hb_legal(cfg, rules, e, e->legal);
    } else if (!e->term && e->phase == HB_PH_PLAY) {  /* as hb_v_dp_legal does it, in line */
        e->legal[0] = hb_play_mask(rules, e, hb_v_dp_to_act(e, cfg->players));
        e->legal[1] = 0;
    } else {
        hb_v_dp_legal(cfg, rules, e, e->legal);
    }
    /* only ids of the game, whatever a state a step checks only in part holds (its row's bounds) */
    e->legal[1] &= (UINT64_C(1) << (cfg->actions - 64)) - 1;
    /* the row's size a constant for each game: a few stores in line, not a call */
    if (IS_DP(cfg)) zero_row(row, HB_DP_ACTIONS);
    else if (IS_HB(cfg)) zero_row(row, HB_HB_ACTIONS);
    else zero_row(row, HB_BE_ACTIONS);
    for (w = 0; w < 2; w++) {
        uint64_t bits = e->legal[w];
        while (bits) {
            row[64 * w + lowest_bit(bits)] = 1;
            bits &= bits - 1;
        }
    }
}

/* After a deal or an action: count a finished hand, end the episode or deal on
   (keeping the finished hand's ids in the episode's log). */
static void settle(const hb_vec_cfg *cfg, hb_vec_env *e, hb_vec_cold *c, float *rew)
{
    int s;
    while (e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER) {
        e->hands_done++;
        if (e->phase == HB_PH_GAME_OVER || (cfg->hands > 0 && e->hands_done >= (uint32_t)cfg->hands)) {
            /* a game over, or a Buck 'Em session's rounds: terminated; else truncated */
            e->term = e->phase == HB_PH_GAME_OVER || IS_BE(cfg) ? 1 : 2;
            if (cfg->reward == 0 && IS_BE(cfg)) hb_v_be_returns(cfg, e, rew);
            if (cfg->reward == 0 && e->phase == HB_PH_GAME_OVER)
                for (s = 0; s < cfg->players; s++)
                    if (e->winners >> s & 1) rew[s] += 1.0f;
            if (IS_DP(cfg) && e->phase == HB_PH_GAME_OVER)  /* (an episode's last hand by count: */
                hb_v_memo_episode_over(cfg, e);  /* asked for at its deal) the next one's first shuffle */
            return;
        }
        if (c->log_len <= HB_VEC_LOG && e->hand_len <= HB_VEC_LOG - c->log_len) {
            memcpy(c->log + c->log_len, e->hand_log, e->hand_len);
            c->log_len += e->hand_len;
        } else {
            c->log_len = HB_VEC_LOG + 1;
        }
        e->hand_len = 0;
        g_deal(cfg, e);
    }
}

/* Episode 0 (fresh != 0: of a batch seeded `seed`) or the environment's next episode, each dealt from
   its own splitmix64 stream (hb_v_deal_state). */
static void new_episode(const hb_vec_cfg *cfg, hb_vec_env *e, hb_vec_cold *c, int fresh, uint64_t seed,
                        uint32_t env, float *rew)
{
    int s;
    if (fresh) {
        e->seed = seed;
        e->env = env;
        e->episode = 0;
    } else {
        e->episode++;
    }
    e->rng = hb_v_deal_state(e->seed, e->env, e->episode);
    c->log_len = 0;
    e->hand_len = 0;
    e->hands_done = 0;
    e->term = 0;
    e->winners = 0;
    e->ever_locked = 0;
    for (s = 0; s < 8; s++) e->scores[s] = 0;
    if (IS_BE(cfg)) {
        hb_v_be_begin(cfg, e);
    } else if (IS_HB(cfg)) {
        hb_v_hb_begin(cfg, e);
    } else {
        for (s = 0; s < cfg->players; s++) {
            e->scores[s] = 20;
            if (e->scores[s] >= cfg->lock_at) e->ever_locked |= (uint8_t)(1u << s);
        }
        e->out = 0;
    }
    e->dealer = 0;
    g_deal(cfg, e);
    settle(cfg, e, c, rew);
}

int hb_vec_reset(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
                 uint64_t seed, int fresh, size_t begin, size_t end)
{
    hb_rules rules[4];
    hb_vec_env *all = (hb_vec_env *)envs;
    size_t i;
    int rc = check_envs(cfg, envs, envs_len, num_envs);
    if (rc == HB_OK) rc = check_io(cfg, io, num_envs);
    if (rc == HB_OK) rc = check_slice(num_envs, begin, end);
    if (rc != HB_OK) return rc;
    if (!fresh)
        for (i = begin; i < end; i++)
            if (g_check_env(cfg, &all[i]) != HB_OK || all[i].env != i) return HB_E_V_STATE;
    all_rules(cfg, rules);
    for (i = begin; i < end; i++) {
        float *rew = io->rewards + i * (size_t)cfg->players;
        memset(rew, 0, sizeof(float) * (size_t)cfg->players);
        new_episode(cfg, &all[i], cold_of(envs, num_envs, i), fresh, seed, (uint32_t)i, rew);
        write_out(cfg, rules, &all[i], io, i);
    }
    return HB_OK;
}

static int read_id(const void *actions, int itemsize, int is_signed, size_t i, int64_t *out)
{
    const unsigned char *p = (const unsigned char *)actions + i * (size_t)itemsize;
    switch (itemsize) {
    case 1: *out = is_signed ? (int64_t)*(const int8_t *)p : (int64_t)*p; return HB_OK;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        *out = is_signed ? (int64_t)(int16_t)v : (int64_t)v;
        return HB_OK;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        *out = is_signed ? (int64_t)(int32_t)v : (int64_t)v;
        return HB_OK;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, p, 8);
        *out = (is_signed || v <= (uint64_t)INT64_MAX) ? (int64_t)v : INT64_MAX;
        return HB_OK;
    }
    default: return HB_E_V_LEN;
    }
}

/* Whether id is an action of the phase that environment e (a valid state) can apply safely. */
static int g_fits(const hb_vec_cfg *cfg, const hb_vec_env *e, int64_t id)
{
    if (IS_BE(cfg)) return hb_v_be_fits(e, cfg->players, (int)id);
    return IS_HB(cfg) ? hb_v_hb_fits(e, cfg->players, (int)id) : hb_v_dp_fits(e, cfg->players, (int)id);
}

/* Check the ids of [begin, end): in range and legal in the legal ids each state
   keeps; with full != 0 also that each state is a valid one, and that the id is
   one its phase can apply (as hb_vec_check does).  Without, a step checks those
   as it reaches each environment (they guard memory: a valid state's legal ids
   always pass), and reads only the first bytes of each state here. */
static int check_range(const hb_vec_cfg *cfg, const hb_vec_env *all, const void *actions, int itemsize,
                       int is_signed, size_t begin, size_t end, size_t *bad, int64_t *bad_id, int full)
{
    size_t i;
    if (!full && itemsize == 4 && is_signed) {  /* sample_legal's ids (int32): one load, no switch */
        const unsigned char *ids = (const unsigned char *)actions;
        for (i = hb_v_ids_ok(all, actions, cfg->actions, begin, end); i < end; i++) {
            int32_t id;
            if (i + AHEAD < end) PREFETCH(&all[i + AHEAD], 0);
            if (all[i].term) continue;
            memcpy(&id, ids + 4 * i, 4);
            if (id < 0 || id >= cfg->actions || !(all[i].legal[id >> 6] >> (id & 63) & 1)) break;
        }
        if (i == end) return HB_OK;
        begin = i;  /* the first bad one: the general pass below says why */
    }
    for (i = begin; i < end; i++) {
        int64_t id = 0;
        int rc = full ? g_check_env(cfg, &all[i]) : HB_OK;
        if (i + AHEAD < end) PREFETCH(&all[i + AHEAD], 0);
        if (rc == HB_OK) rc = read_id(actions, itemsize, is_signed, i, &id);
        if (rc != HB_OK) {
            if (bad) *bad = i;
            return rc;
        }
        if (all[i].term) continue;
        if (id < 0 || id >= cfg->actions) rc = HB_E_V_RANGE;
        if (rc == HB_OK && (!(all[i].legal[id >> 6] >> (id & 63) & 1) || (full && !g_fits(cfg, &all[i], id))))
            rc = HB_E_V_ILLEGAL;
        if (rc != HB_OK) {
            if (bad) *bad = i;
            if (bad_id) *bad_id = id;
            return rc;
        }
    }
    return HB_OK;
}

int hb_vec_check(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs,
                 const void *actions, int itemsize, int is_signed, size_t actions_len, size_t *bad,
                 int64_t *bad_id)
{
    int rc = check_envs(cfg, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    if (actions == NULL) return HB_E_NULL;
    return hb_v_check(cfg, envs, envs_len, num_envs, actions, itemsize, is_signed, actions_len, 0, num_envs, bad,
                      bad_id, 1);
}

int hb_v_check(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, const void *actions,
               int itemsize, int is_signed, size_t actions_len, size_t begin, size_t end, size_t *bad,
               int64_t *bad_id, int full)
{
    const hb_vec_env *all = (const hb_vec_env *)envs;
    size_t i;
    int rc = check_envs(cfg, envs, envs_len, num_envs);
    if (rc == HB_OK) rc = check_slice(num_envs, begin, end);
    if (rc != HB_OK) return rc;
    if (actions == NULL) {  /* the states only, as a reset of the next episodes checks them */
        for (i = begin; i < end; i++)
            if (g_check_env(cfg, &all[i]) != HB_OK || all[i].env != i) {
                if (bad) *bad = i;
                return HB_E_V_STATE;
            }
        return HB_OK;
    }
    if (actions_len != num_envs) return HB_E_V_LEN;
    return check_range(cfg, all, actions, itemsize, is_signed, begin, end, bad, bad_id, full);
}

/* hb_v_step's pass for Deer Park Euchre, as the general one below does it for every game: the game's
   functions called directly (compiled in line), and the batch's sizes and buffers kept in locals
   (a byte stored to a mask row may alias anything: read through cfg and io, they were read again
   for every environment). */
static HB_INLINE_ALWAYS int dp_pass(const hb_vec_cfg *cfg, const hb_rules *rules, void *envs, size_t num_envs,
                                    const hb_vec_io *io, const void *actions, int itemsize, int is_signed,
                                    size_t begin, size_t end, size_t *bad, int64_t *bad_id, const int near,
                                    const int four, const int avx)
{
    hb_vec_env *all = (hb_vec_env *)envs;
    const int n = four ? 4 : cfg->players, hands = cfg->hands;  /* (four: a constant, the loops unrolled) */
    uint8_t *const mask = io->legal_mask, *const terminated = io->terminated, *const truncated = io->truncated;
    int16_t *const current = io->current_player;
    float *const rewards = io->rewards;
    const unsigned char *const ids = (const unsigned char *)actions;
    const int ids32 = itemsize == 4 && is_signed;  /* sample_legal's ids: one load each */
    size_t i;
    (void)avx;
#ifdef HB_V_DP_LIMITS
    __m128i lim[2];
    hb_v_dp_play_limits(n, lim);
#endif
    for (i = begin; i < end; i++) {
        hb_vec_env *e = &all[i];
        float *rew = rewards + i * (size_t)n;
        uint8_t *row = mask + i * (size_t)HB_DP_ACTIONS;
        int64_t id = 0;
        int rc, seat, s;
        uint64_t bits;
        ahead_of(HB_GAME_DEERPARK, n, hands, near, envs, num_envs, i, end);
        if (i + AHEAD < end && !near) {  /* the output rows this pass writes a little later */
            PREFETCH(row + AHEAD * HB_DP_ACTIONS, 1);
            PREFETCH(row + AHEAD * HB_DP_ACTIONS + HB_DP_ACTIONS - 1, 1);
            PREFETCH(rew + AHEAD * (size_t)n, 1);
        }
#ifdef HB_V_DP_LIMITS
        rc = hb_v_dp_check_step_lim(cfg, e, n, lim);
#else
        rc = hb_v_dp_check_step(cfg, e);
#endif
        seat = -1;
        if (rc == HB_OK && !e->term) {
            if (ids32) {
                int32_t v;
                memcpy(&v, ids + 4 * i, 4);
                id = v;
            } else {
                read_id(actions, itemsize, is_signed, i, &id);
            }
            seat = hb_v_dp_seat(e, n);  /* (found once: hb_v_dp_fits's, and the card's player) */
            if (e->phase == HB_PH_PLAY ? !(id >= 0 && id < 52 && (e->hands[seat] >> id & 1))
                                       : !hb_v_dp_fits(e, n, (int)id))
                rc = HB_E_V_ILLEGAL;
        }
        if (rc != HB_OK) {
            if (bad) *bad = i;
            if (bad_id) *bad_id = id;
            return rc;
        }
        if (n == 4) memset(rew, 0, 4 * sizeof(float));  /* (a constant size: two stores) */
        else for (s = 0; s < n; s++) rew[s] = 0.0f;  /* (3 to 8 floats: no call to memset) */
        if (!e->term && e->phase == HB_PH_PLAY && (e->tlen + 1 < n || e->tricks < 4)) {  /* not the hand's last card */
            if (e->hand_len < HB_VEC_HAND_LOG) e->hand_log[e->hand_len++] = (uint8_t)id;
            hb_v_dp_play(e, seat, (int)id);
            if (e->tlen == n) {
                hb_v_dp_end_trick(rules, e, n);
                seat = e->leader;
            } else {
                seat = seat + 1 == n ? 0 : seat + 1;
            }
            /* the outputs (write_out's) of a play that goes on: the next seat, no end, its cards */
            current[i] = (int16_t)seat;
            terminated[i] = 0;
            truncated[i] = 0;
            e->legal[0] = hb_play_mask(rules, e, seat);
            e->legal[1] = 0;
        } else {
            if (e->term) {  /* auto-reset: the next episode from the environment's own seed */
                new_episode(cfg, e, cold_of(envs, num_envs, i), 0, 0, 0, rew);
            } else {
                if (e->hand_len < HB_VEC_HAND_LOG) e->hand_log[e->hand_len++] = (uint8_t)id;
                hb_v_dp_apply(cfg, rules, e, (int)id, rew);
                if (e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER)
                    settle(cfg, e, cold_of(envs, num_envs, i), rew);
            }
            /* the outputs (write_out's) */
            seat = hb_v_dp_seat(e, n);
            current[i] = (int16_t)seat;
            terminated[i] = e->term == 1;
            truncated[i] = e->term == 2;
            if (seat >= 0 && e->phase == HB_PH_PLAY) {
                e->legal[0] = hb_play_mask(rules, e, seat);
                e->legal[1] = 0;
            } else {
                hb_v_dp_legal(cfg, rules, e, e->legal);
                e->legal[1] &= (UINT64_C(1) << (HB_DP_ACTIONS - 64)) - 1;  /* (as write_out: the row's bounds) */
            }
        }
#ifdef HB_DP_AVX2
        if (avx) {
            hb_v_dp_row_avx2(row, e->legal[0], e->legal[1]);
            continue;
        }
#endif
        zero_row(row, HB_DP_ACTIONS);
        for (bits = e->legal[0]; bits; bits &= bits - 1) row[lowest_bit(bits)] = 1;
        for (bits = e->legal[1]; bits; bits &= bits - 1) row[64 + lowest_bit(bits)] = 1;
    }
    return HB_OK;
}

/* dp_pass compiled twice: for a batch that stays in the caches (near: see NEAR_ENVS) and for one
   that does not; both again (for 4 players and for any number) for processors with BMI1/BMI2 and,
   unless HB_VEC_NO_AVX2, AVX2 (HB_DP_AVX2: hb_vec_row.h), chosen at run time. */
#define DP_ARGS cfg, rules, envs, num_envs, io, actions, itemsize, is_signed, begin, end, bad, bad_id
#ifdef HB_DP_AVX2
#define DP_FAST_TARGET HB_DP_AVX2_TARGET
#define DP_FAST_AVX 1
#define DP_HAS_FAST() (hb_v_has_bmi() && hb_v_has_avx2())
#elif defined(HB_BMI_AT_RUN_TIME)
#define DP_FAST_TARGET HB_BMI_TARGET
#define DP_FAST_AVX 0
#define DP_HAS_FAST() hb_v_has_bmi()
#endif
#ifdef DP_FAST_TARGET
DP_FAST_TARGET static int dp_pass_fast(const hb_vec_cfg *cfg, const hb_rules *rules, void *envs, size_t num_envs,
                                      const hb_vec_io *io, const void *actions, int itemsize, int is_signed,
                                      size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    if (cfg->players == 4)
        return num_envs <= NEAR_ENVS ? dp_pass(DP_ARGS, 1, 1, DP_FAST_AVX) : dp_pass(DP_ARGS, 0, 1, DP_FAST_AVX);
    return num_envs <= NEAR_ENVS ? dp_pass(DP_ARGS, 1, 0, DP_FAST_AVX) : dp_pass(DP_ARGS, 0, 0, DP_FAST_AVX);
}
#endif
static int dp_step_range(const hb_vec_cfg *cfg, const hb_rules *rules, void *envs, size_t num_envs,
                         const hb_vec_io *io, const void *actions, int itemsize, int is_signed, size_t begin,
                         size_t end, size_t *bad, int64_t *bad_id)
{
#ifdef DP_FAST_TARGET
    if (DP_HAS_FAST()) return dp_pass_fast(DP_ARGS);
#endif
    return num_envs <= NEAR_ENVS ? dp_pass(DP_ARGS, 1, 0, 0) : dp_pass(DP_ARGS, 0, 0, 0);
}
#undef DP_ARGS

int hb_vec_step(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
                const void *actions, int itemsize, int is_signed, size_t actions_len, size_t begin,
                size_t end, size_t *bad, int64_t *bad_id)
{
    return hb_v_step(cfg, envs, envs_len, num_envs, io, actions, itemsize, is_signed, actions_len, begin, end, bad,
                     bad_id, 0, NULL);
}

int hb_v_step(const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs, const hb_vec_io *io,
              const void *actions, int itemsize, int is_signed, size_t actions_len, size_t begin, size_t end,
              size_t *bad, int64_t *bad_id, int checked, const hb_rules *given)
{
    hb_rules rules[4];
    hb_vec_env *all = (hb_vec_env *)envs;
    size_t i;
    int s, rc = check_envs(cfg, envs, envs_len, num_envs);
    if (rc == HB_OK) rc = check_io(cfg, io, num_envs);
    if (rc == HB_OK) rc = check_slice(num_envs, begin, end);
    if (rc != HB_OK) return rc;
    if (actions == NULL) return HB_E_NULL;
    if (actions_len != num_envs) return HB_E_V_LEN;
    if (given) memcpy(rules, given, sizeof rules);
    else all_rules(cfg, rules);
    if (!checked) rc = check_range(cfg, all, actions, itemsize, is_signed, begin, end, bad, bad_id, 0);
    if (rc != HB_OK) return rc;
    if (IS_DP(cfg))
        return dp_step_range(cfg, rules, envs, num_envs, io, actions, itemsize, is_signed, begin, end, bad, bad_id);
    for (i = begin; i < end; i++) {
        hb_vec_env *e = &all[i];
        float *rew = io->rewards + i * (size_t)cfg->players;
        int64_t id = 0;
        ahead(cfg, envs, num_envs, i, end);
        if (i + AHEAD < end) {  /* the output rows this pass writes a little later */
            uint8_t *row = io->legal_mask + (i + AHEAD) * (size_t)cfg->actions;
            PREFETCH(row, 1);
            PREFETCH(row + cfg->actions - 1, 1);
            PREFETCH(io->rewards + (i + AHEAD) * (size_t)cfg->players, 1);
        }
        /* the state, and that the id (legal by the state's legal ids) is one its phase can apply
           (Deer Park Euchre's two checks called directly, so that they are compiled in line) */
        rc = g_check_step(cfg, e);
        if (rc == HB_OK && !e->term) {
            read_id(actions, itemsize, is_signed, i, &id);
            if (!g_fits(cfg, e, id)) rc = HB_E_V_ILLEGAL;
        }
        if (rc != HB_OK) {
            if (bad) *bad = i;
            if (bad_id) *bad_id = id;
            return rc;
        }
        if (cfg->players == 4) memset(rew, 0, 4 * sizeof(float));  /* (a constant size: two stores) */
        else for (s = 0; s < cfg->players; s++) rew[s] = 0.0f;  /* (3 to 8 floats: no call to memset) */
        if (e->term) {  /* auto-reset: the next episode from the environment's own seed */
            new_episode(cfg, e, cold_of(envs, num_envs, i), 0, 0, 0, rew);
        } else {
            if (e->hand_len < HB_VEC_HAND_LOG) e->hand_log[e->hand_len++] = (uint8_t)id;
            if (IS_BE(cfg)) hb_v_be_apply(cfg, rules, e, (int)id, rew);
            else hb_v_hb_apply(cfg, rules, e, (int)id, rew);
            if (e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER)
                settle(cfg, e, cold_of(envs, num_envs, i), rew);
        }
        write_out(cfg, rules, e, io, i);
    }
    return HB_OK;
}
