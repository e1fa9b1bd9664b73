/*
 * hb_vec_predeal.c -- Deer Park Euchre's shuffles done ahead, in a pool thread's idle time.
 *
 * A shuffle of the deck is a pure function of the random state it starts from and the deck's
 * size: it gives the cards' order and the state after it.  Each thread of a pool keeps, outside
 * the environments' states (so their bytes, copies and restores are as without it), one slot per
 * environment of the batch it steps: the state a deal of that environment will start from (the
 * state its last deal left, or the first state of its next episode once its game is over), and,
 * once the thread has had the time to shuffle, the cards and the state after.  A deal that finds
 * its environment's state and deck size in its thread's slot takes the cards and the state from
 * there; any other deal (a stale slot: a reset, a restored state, an environment another thread
 * took) shuffles as always.  So the outputs are the same whether a slot was used or not, for any
 * number of threads and any timing.  A thread shuffles ahead only while it would wait otherwise:
 * a worker between calls, the caller while it waits for the workers, either while it waits for the
 * others' checks of the ids; it looks at the pass's state between two shuffles (some 60 ns each).
 * Only the thread that owns a memo reads or writes it (the caller's: under the pool's lock of
 * calls), so nothing here is shared between threads.  One thread alone keeps no memo: it never
 * waits, so every deal would shuffle anyway.
 */
#include "hb_vec_pool_internal.h"

#define MEMO_CARDS 40     /* the largest Deer Park Euchre deck (8 players) */
/* A larger batch keeps no memo.  With 2 threads and a busy loop of 0.5 us after each call (for
   Python's share of a step), a step with the memo took 4 to 5 % less time than without at 1,024
   tables, 0 to 2 % at 2,048, and 1 to 4 % more at 4,096 and some 11 % more at 16,384: there a
   thread's idle time covers a small share of its deals' shuffles (a quarter at 16,384), and the
   slots are one more line for every deal beyond the core's second-level cache. */
#define MEMO_MAX_ENVS 2048

/* One environment's next shuffle (a cache line). */
typedef struct {
    uint64_t key;            /* the random state the shuffle starts from */
    uint64_t after;          /* ... and the state after it (when ready) */
    uint8_t size;            /* the deck's size (0: nothing asked) */
    uint8_t ready;           /* cards and after hold the shuffle of key */
    uint8_t queued;          /* the environment is in the queue of shuffles to do */
    uint8_t pad[5];
    uint8_t cards[MEMO_CARDS];
} memo_slot;
typedef char memo_slot_is_a_line[sizeof(memo_slot) == LINE ? 1 : -1];  /* (compile-time check) */

#if HB_POOL_THREADS
/* The memo of the thread running now (NULL: none; set by the pool around its passes).  Read at
   every deal: in the static TLS block where the system allows it (one load, not a call, in a
   library loaded at run time; the pointer is all this file keeps there). */
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
static __thread hb_v_memo *mine __attribute__((tls_model("initial-exec")));
#else
static __thread hb_v_memo *mine;
#endif

#ifdef HB_PREDEAL_KNOB
int hb_v_predeal_off;  /* (a timing driver's switch: no memo while it is set) */
void hb_v_memo_use(hb_v_memo *m) { mine = hb_v_predeal_off ? NULL : m; }
#else
void hb_v_memo_use(hb_v_memo *m) { mine = m; }
#endif

/* The Deer Park Euchre deck of `size` cards in order (hb_v_dp_deal's): each suit's ranks from
   13 - size / 4 up. */
static void dp_deck(uint8_t *cards, int size)
{
    int per = size / 4, low = 13 - per, s, r, k = 0;
    for (s = 0; s < 4; s++)
        for (r = low; r < 13; r++) cards[k++] = (uint8_t)(13 * s + r);
}

/* The calling thread's slot for environment e of the batch its memo was last set up for (NULL:
   none). */
static memo_slot *slot_of(const hb_vec_env *e)
{
    hb_v_memo *m = mine;
    uintptr_t at, base;
    size_t i;
#ifdef HB_PREDEAL_KNOB
    if (hb_v_predeal_off) return NULL;
#endif
    if (m == NULL || m->slots == NULL) return NULL;
    at = (uintptr_t)e;
    base = (uintptr_t)m->envs;
    if (at < base || (at - base) % sizeof(hb_vec_env) != 0) return NULL;
    i = (at - base) / sizeof(hb_vec_env);
    return i < m->n ? (memo_slot *)m->slots + i : NULL;
}

/* Ask for the shuffle of a deck of `size` from random state `key` (done later, in idle time). */
static void ask(hb_v_memo *m, memo_slot *slot, uint64_t key, int size)
{
    if (slot->ready && slot->key == key && slot->size == size) return;
    slot->key = key;
    slot->size = (uint8_t)size;
    slot->ready = 0;
    if (!slot->queued && m->queued < m->n) {
        size_t i = (size_t)(slot - (memo_slot *)m->slots);
        m->queue[(m->head + m->queued) % m->n] = (uint32_t)i;
        m->queued++;
        slot->queued = 1;
    }
}

void hb_v_memo_enter(void *envs, size_t n)
{
    hb_v_memo *m = mine;
    if (m == NULL || (m->envs == envs && m->n == n && m->slots != NULL)) return;
    hb_v_memo_free(m);
    m->envs = envs;
    m->n = n;
    m->head = m->queued = 0;
    if (n == 0 || n > MEMO_MAX_ENVS) return;
    /* zeroed (pages of other threads' parts are never touched), each slot on a line of its own */
    m->raw = calloc(n + 1, sizeof(memo_slot));
    m->queue = (uint32_t *)malloc(n * sizeof(uint32_t));
    if (m->raw == NULL || m->queue == NULL) {
        hb_v_memo_free(m);
        return;
    }
    m->slots = (unsigned char *)m->raw + (LINE - (uintptr_t)m->raw % LINE) % LINE;
}

int hb_v_memo_fill(hb_v_memo *m)
{
    memo_slot *slot;
#ifdef HB_PREDEAL_KNOB
    if (hb_v_predeal_off) return 0;
#endif
    if (m->queued == 0) return 0;
    slot = (memo_slot *)m->slots + m->queue[m->head];
    m->head = m->head + 1 == m->n ? 0 : m->head + 1;
    m->queued--;
    slot->queued = 0;
    if (!slot->ready && slot->size > 0) {
        uint64_t s = slot->key;
        dp_deck(slot->cards, slot->size);
        hb_v_shuffle(&s, slot->cards, slot->size);
        slot->after = s;
        slot->ready = 1;
        m->filled++;
    }
    return 1;
}

void hb_v_memo_free(hb_v_memo *m)
{
    free(m->raw);
    free(m->queue);
    m->raw = m->slots = NULL;
    m->queue = NULL;
    m->envs = NULL;
    m->n = m->head = m->queued = 0;
}
#endif

void hb_v_dp_shuffle(const hb_vec_cfg *cfg, hb_vec_env *e, uint8_t *cards, int size)
{
#if HB_POOL_THREADS
    memo_slot *slot = size <= MEMO_CARDS ? slot_of(e) : NULL;
    if (slot != NULL) {
        if (slot->ready && slot->key == e->rng && slot->size == size) {
            memcpy(cards, slot->cards, (size_t)size);
            e->rng = slot->after;
            mine->hits++;
        } else {
            hb_v_shuffle(&e->rng, cards, size);
            mine->misses++;
        }
        /* the next deal's: the next hand's, from where this one left the state, or, when this is the
           episode's last hand, the next episode's first (a game that ends sooner asks again) */
        if (cfg->hands > 0 && e->hands_done + 1 >= (uint32_t)cfg->hands)
            ask(mine, slot, hb_v_deal_state(e->seed, e->env, e->episode + 1), size);
        else
            ask(mine, slot, e->rng, size);
        return;
    }
#else
    (void)cfg;
#endif
    hb_v_shuffle(&e->rng, cards, size);
}

void hb_v_memo_episode_over(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
#if HB_POOL_THREADS
    memo_slot *slot = IS_DP(cfg) ? slot_of(e) : NULL;
    if (slot != NULL) ask(mine, slot, hb_v_deal_state(e->seed, e->env, e->episode + 1), slot->size);
#else
    (void)cfg;
    (void)e;
#endif
}
