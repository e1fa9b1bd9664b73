/*
 * hb_vec_calls.c -- the batched lane's calls on a pool (hb_vec_pool_reset, _step,
 * _tensor and _sample in hb_vec.h): each runs the game-independent entry points
 * of hb_vec.c on chunks of the batch, in passes of the pool (hb_vec_pool.c); and
 * the pool's calls that run in the calling thread alone, taking their turn
 * (_threads, _stats, _copy, _copy_batch, _episode, _episodes and _winners).
 */
#include "hb_vec_pool_internal.h"

typedef struct {
    const hb_vec_cfg *cfg;
    void *envs;
    const void *cenvs;
    size_t envs_len, num_envs;
    const hb_vec_io *io;
    const void *actions;       /* the caller's ids */
    unsigned char *ids;        /* their private copy */
    int itemsize, is_signed, seat, fresh;
    size_t actions_len, out_len;
    uint64_t seed;
    float *tensor;
    int32_t *sample;
    const hb_rules *given;     /* a step's: the pool's, made when its game changes (read by every chunk; not
                                  copied here, where the workers would fetch it anew at every call) */
} job_args;

static int pass_reset_check(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    (void)bad_id;
    return hb_v_check(a->cfg, a->cenvs, a->envs_len, a->num_envs, NULL, 0, 0, 0, begin, end, bad, NULL, 1);
}

static int pass_reset(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    MEMO_ENTER(a->envs, a->num_envs);
    (void)bad;
    (void)bad_id;
    return hb_vec_reset(a->cfg, a->envs, a->envs_len, a->num_envs, a->io, a->seed, a->fresh, begin, end);
}

/* Copy the caller's ids of [begin, end) to the step's private copy (the caller may change its buffer). */
static void copy_ids(job_args *a, size_t begin, size_t end)
{
    size_t size = (size_t)a->itemsize;
    memcpy(a->ids + begin * size, (const unsigned char *)a->actions + begin * size, (end - begin) * size);
}

static int pass_step_check(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    copy_ids(a, begin, end);
    return hb_v_check(a->cfg, a->cenvs, a->envs_len, a->num_envs, a->ids, a->itemsize, a->is_signed,
                      a->actions_len, begin, end, bad, bad_id, 0);
}

static int pass_step(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    MEMO_ENTER(a->envs, a->num_envs);
    return hb_v_step(a->cfg, a->envs, a->envs_len, a->num_envs, a->io, a->ids, a->itemsize, a->is_signed,
                     a->actions_len, begin, end, bad, bad_id, 1, a->given);
}

/* The whole step in one pass, for a call in one chunk: copy, check, apply. */
static int pass_step_whole(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    MEMO_ENTER(a->envs, a->num_envs);
    copy_ids(a, begin, end);
    return hb_v_step(a->cfg, a->envs, a->envs_len, a->num_envs, a->io, a->ids, a->itemsize, a->is_signed,
                     a->actions_len, begin, end, bad, bad_id, 0, a->given);
}

static int pass_tensor(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    (void)bad;
    (void)bad_id;
    return hb_vec_tensor(a->cfg, a->cenvs, a->envs_len, a->num_envs, a->seat, a->tensor, a->out_len, begin, end);
}

static int pass_sample(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    job_args *a = (job_args *)job;
    (void)bad;
    (void)bad_id;
    return hb_vec_sample(a->cfg, a->cenvs, a->envs_len, a->num_envs, a->seed, a->sample, a->out_len, begin, end);
}

/* A call's job on the batch (cenvs: the same, read-only; envs NULL for a call
   that only reads), its shape checked once before any pass (each chunk checks it again). */
static int start(job_args *a, const hb_vec_pool *p, const hb_vec_cfg *cfg, void *envs, const void *cenvs,
                 size_t envs_len, size_t num_envs)
{
    memset(a, 0, sizeof *a);
    if (p == NULL || cfg == NULL || cenvs == NULL) return HB_E_NULL;
    if (num_envs == 0 || num_envs > ((size_t)1 << 24) || envs_len != num_envs * hb_vec_env_size())
        return HB_E_V_LEN;
    a->cfg = cfg;
    a->envs = envs;
    a->cenvs = cenvs;
    a->envs_len = envs_len;
    a->num_envs = num_envs;
    return HB_OK;
}

/* A call the pool cannot share (a forked child, whose workers and locks are the
   parent's): the whole batch as one chunk in the calling thread, the pool untouched. */
int hb_p_run_alone(pass_fn first, pass_fn run, void *job, size_t n, size_t *bad, int64_t *bad_id)
{
    size_t b = 0;
    int64_t id = 0;
    int rc = first ? first(job, 0, n, &b, &id) : HB_OK;
    if (rc == HB_OK) rc = run(job, 0, n, &b, &id);
    if (rc != HB_OK) {
        if (bad) *bad = b;
        if (bad_id) *bad_id = id;
    }
    return rc;
}

/* Run a pass (its first phase, when not NULL, done for the whole batch before run starts). */
static int run_call(hb_vec_pool *p, pass_fn first, pass_fn run, job_args *a, size_t *bad, int64_t *bad_id)
{
    int rc;
    if (hb_p_enter(p) != 0) return hb_p_run_alone(first, run, a, a->num_envs, bad, bad_id);
    rc = hb_p_run_pass(p, first, run, a, a->num_envs, bad, bad_id);
    hb_p_leave(p);
    return rc;
}

int hb_vec_pool_reset(hb_vec_pool *pool, const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs,
                      const hb_vec_io *io, uint64_t seed, int fresh)
{
    job_args a;
    int rc = start(&a, pool, cfg, envs, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    a.io = io;
    a.seed = seed;
    a.fresh = fresh;
    return run_call(pool, fresh ? NULL : pass_reset_check, pass_reset, &a, NULL, NULL);
}

int hb_vec_pool_step(hb_vec_pool *pool, const hb_vec_cfg *cfg, void *envs, size_t envs_len, size_t num_envs,
                     const hb_vec_io *io, const void *actions, int itemsize, int is_signed, size_t actions_len,
                     size_t *bad, int64_t *bad_id)
{
    job_args a;
    int rc = start(&a, pool, cfg, envs, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    if (actions == NULL) return HB_E_NULL;
    if (itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8) return HB_E_V_LEN;
    if (actions_len != num_envs) return HB_E_V_LEN;
    a.io = io;
    a.actions = actions;
    a.itemsize = itemsize;
    a.is_signed = is_signed;
    a.actions_len = actions_len;
    if (hb_p_enter(pool) != 0) {  /* a forked child: a copy of the ids of its own */
        a.ids = (unsigned char *)malloc(num_envs * (size_t)itemsize);
        if (a.ids == NULL) return HB_E_NOMEM;
        rc = hb_p_run_alone(NULL, pass_step_whole, &a, num_envs, bad, bad_id);
        free(a.ids);
        return rc;
    }
    if (pool->scratch_len < num_envs * 8) {
        unsigned char *grown = (unsigned char *)realloc(pool->scratch, num_envs * 8);
        if (grown == NULL) {
            hb_p_leave(pool);
            return HB_E_NOMEM;
        }
        pool->scratch = grown;
        pool->scratch_len = num_envs * 8;
    }
    a.ids = pool->scratch;
    if (pool->rules_game != cfg->game) {  /* (a bad game: hb_v_step refuses the configuration) */
        hb_v_rules(cfg, pool->rules);
        pool->rules_game = cfg->game;
    }
    a.given = pool->rules;
    if (hb_p_one_chunk(pool, num_envs))
        rc = hb_p_run_pass(pool, NULL, pass_step_whole, &a, num_envs, bad, bad_id);
    else
        rc = hb_p_run_pass(pool, pass_step_check, pass_step, &a, num_envs, bad, bad_id);
    hb_p_leave(pool);
    return rc;
}

int hb_vec_pool_tensor(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                       size_t num_envs, int seat, float *out, size_t out_len)
{
    job_args a;
    int rc = start(&a, pool, cfg, NULL, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    a.seat = seat;
    a.tensor = out;
    a.out_len = out_len;
    return run_call(pool, NULL, pass_tensor, &a, NULL, NULL);
}

int hb_vec_pool_sample(hb_vec_pool *pool, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                       size_t num_envs, uint64_t seed, int32_t *out, size_t out_len)
{
    job_args a;
    int rc = start(&a, pool, cfg, NULL, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    a.seed = seed;
    a.sample = out;
    a.out_len = out_len;
    return run_call(pool, NULL, pass_sample, &a, NULL, NULL);
}

/* len bytes from src to dst between calls (never while a call changes them). */
int hb_vec_pool_copy(hb_vec_pool *p, const void *src, void *dst, size_t len)
{
    int mine;
    if (p == NULL || src == NULL || dst == NULL) return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    memmove(dst, src, len);
    if (mine) hb_p_leave(p);
    return HB_OK;
}

int hb_vec_pool_copy_batch(hb_vec_pool *p, const void *src, void *dst, size_t len, const hb_vec_io *from,
                           const hb_vec_io *to)
{
    int mine;
    if (p == NULL || src == NULL || dst == NULL || from == NULL || to == NULL) return HB_E_NULL;
    if (from->cp_len != to->cp_len || from->mask_len != to->mask_len || from->rewards_len != to->rewards_len
        || from->term_len != to->term_len || from->trunc_len != to->trunc_len)
        return HB_E_V_LEN;
    if ((from->cp_len && (from->current_player == NULL || to->current_player == NULL))
        || (from->mask_len && (from->legal_mask == NULL || to->legal_mask == NULL))
        || (from->rewards_len && (from->rewards == NULL || to->rewards == NULL))
        || (from->term_len && (from->terminated == NULL || to->terminated == NULL))
        || (from->trunc_len && (from->truncated == NULL || to->truncated == NULL)))
        return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    memmove(dst, src, len);
    if (from->cp_len) memmove(to->current_player, from->current_player, from->cp_len * sizeof(int16_t));
    if (from->mask_len) memmove(to->legal_mask, from->legal_mask, from->mask_len);
    if (from->rewards_len) memmove(to->rewards, from->rewards, from->rewards_len * sizeof(float));
    if (from->term_len) memmove(to->terminated, from->terminated, from->term_len);
    if (from->trunc_len) memmove(to->truncated, from->truncated, from->trunc_len);
    if (mine) hb_p_leave(p);
    return HB_OK;
}

int hb_vec_pool_episode(hb_vec_pool *p, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                        size_t num_envs, size_t i, uint64_t *seed, uint32_t *episode, uint64_t *start,
                        uint8_t *ids, size_t ids_len, size_t *len)
{
    int mine, rc;
    if (p == NULL) return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    rc = hb_vec_episode(cfg, envs, envs_len, num_envs, i, seed, episode, start, ids, ids_len, len);
    if (mine) hb_p_leave(p);
    return rc;
}

int hb_vec_pool_episodes(hb_vec_pool *p, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                         size_t num_envs, uint32_t *out, size_t out_len)
{
    int mine, rc;
    if (p == NULL) return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    rc = hb_vec_episodes(cfg, envs, envs_len, num_envs, out, out_len);
    if (mine) hb_p_leave(p);
    return rc;
}

int hb_vec_pool_winners(hb_vec_pool *p, const hb_vec_cfg *cfg, const void *envs, size_t envs_len,
                        size_t num_envs, uint8_t *out, size_t out_len)
{
    int mine, rc;
    if (p == NULL) return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    rc = hb_vec_winners(cfg, envs, envs_len, num_envs, out, out_len);
    if (mine) hb_p_leave(p);
    return rc;
}

int hb_vec_pool_threads(const hb_vec_pool *p)
{
    int k;
    if (p == NULL) return 0;
    if (hb_p_enter((hb_vec_pool *)p) != 0) return p->threads;  /* a forked child: nothing changes it */
    k = p->threads;
    hb_p_leave((hb_vec_pool *)p);
    return k;
}

int hb_vec_pool_stats(hb_vec_pool *p, uint64_t *busy_ns, uint64_t *items, size_t len)
{
    size_t i;
    int mine, rc = HB_OK;
    if (p == NULL || busy_ns == NULL || items == NULL) return HB_E_NULL;
    mine = hb_p_enter(p) == 0;
    if (len != (size_t)p->threads) {
        rc = HB_E_V_LEN;
    } else {
        for (i = 0; i < len; i++) {
            busy_ns[i] = p->stats[i].busy_ns;
            items[i] = p->stats[i].items;
        }
    }
    if (mine) hb_p_leave(p);
    return rc;
}
