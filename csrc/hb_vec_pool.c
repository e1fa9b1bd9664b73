/*
 * hb_vec_pool.c -- worker threads for the batched lane (hb_vec_pool_* in hb_vec.h).
 *
 * A pool is created once per batch and keeps its threads until it is freed.
 * Each call gives every thread one contiguous part of the environments (the
 * same part at every call, so a thread keeps finding its environments in its
 * own cache), which it works through in chunks from the front, each a share of
 * what is left of it; a thread whose part is done takes half of what is left
 * of another's from the back.  So a worker that wakes late, or is descheduled
 * on a busy machine, only means that the others do more, and the threads
 * finish close together.  The call returns when every chunk is done.
 * A chunk is at least MIN_CHUNK environments (some 5 to 20 us of a step):
 * taking one is a locked instruction, which waits for the thread's pending
 * stores, and a chunk taken from another thread's part works on states in
 * that thread's cache.  With chunks of 16 at least, two threads on 1,024 Deer
 * Park tables ran about 4 % slower than with each thread's part in one or two
 * chunks (a dozen chunks per part per call); from 4,096 tables on, the
 * smaller parts of a chunk's cost make no difference.  A thread keeps the
 * same part from call to call even though the two halves of a step differ in
 * cost (a deal costs seven cards' worth): parts moved to carry equal costs,
 * smaller chunks at their ends, and a boundary that followed a lasting gap
 * between the threads' ends all moved tables between the cores, and none
 * was faster than even parts (up to 6 % slower at 1,024 Deer Park tables);
 * nor was a boundary learnt slowly (a block of 8 tables at most per 512
 * passes) once the shuffles done ahead (below) made the halves uneven; nor a
 * worker that never comes back for the caller's part (within 0.5 %).
 * The chunks call the game-independent entry points of hb_vec.c on their
 * range (hb_vec_calls.c), so a game added there is threaded with no change
 * here or there; every
 * environment's result depends on its own state only, so the outputs are
 * identical for any number of threads.
 *
 * A step is one pass in two phases: every chunk of the first copies and
 * checks its ids (the copy is what the second phase applies; the check reads
 * only the first bytes of each state), and each thread waits there until the
 * whole batch has passed before any chunk changes an environment (checking each
 * state as it reaches it); on an error the lowest failing environment is
 * reported.  (The check is cheap, so its chunks are big: a thread's whole part
 * at first.  Two passes cost a hand-off more: the workers must see the second
 * open and join it, and the caller waits for their last chunks twice.)
 *
 * Hand-offs: a line moves between two cores in 65 to 170 ns, on the path of
 * every pass (and on a virtual machine, for tens of seconds at a time, in 250
 * to 450 ns a round trip instead of 90 to 130: a step of 1,024 Deer Park
 * tables then took 5.7 us more, some 22 round trips, and two threads made 0.6
 * to 0.8 of what two independent halves make).  Fields 128 bytes apart
 * instead of 64, and output rows that share a line at the parts' boundary,
 * made no difference there.  A waiting worker polls the line that holds the pass's state and
 * its description, and asks for the job as it joins; the caller opens a pass
 * without writing the threads' parts (each range carries the tag of the pass
 * it was last taken from in: see part), so a worker takes its first chunk from
 * a line of its own: it starts after one such move, not a chain of them.  At
 * the end, a thread whose own part is done leaves the pass (a worker comes
 * back for the others' while the pass is open), and the caller, which closes
 * the pass once its own part is done, knows from the count of workers that
 * joined whether every part is done: the thread that ends last does not look
 * at another's part first.
 *
 * Waiting: a worker spins for a short while for the next call (calls come
 * back to back in a training loop), then sleeps on a condition variable; the
 * caller spins briefly for the last chunks, then sleeps too.  While a thread
 * waits (a worker between calls, the caller for the workers' last chunks,
 * either for the others' checks of the ids) it shuffles its own tables' next
 * Deer Park deals ahead, one at a time, looking at the pass between two
 * (hb_vec_predeal.c: no table moves, and the results are the same).  At 1,024
 * tables, with a pause of 0.5 us after each call for Python's share, a step took
 * 4 to 5 % less time; the benchmark's two threads against the two independent
 * halves rose by about 2 % (docs/agents.rst).  A worker that
 * finds itself on the caller's core as it joins a pass moves off it first
 * (hb_vec_pool_cpu.c).  Calls from two
 * threads at once take turns; in a child process after fork() (which has
 * none of the workers) a call runs in the calling thread alone.  Without
 * POSIX threads (or with HB_VEC_NO_THREADS) every pool is the calling thread.
 */
#include "hb_vec_pool_internal.h"

/* What a thread needs of the pass it is in, copied as it joins (the pool's line of it is written
   again as the others join, leave or close the pass). */
typedef struct {
    pass_fn first, run;
    void *job;
    size_t n;
    int threads;
    uint64_t tag[2];           /* the ranges' tags, in place (see part) */
} pass_desc;

#define TAG_SHIFT 50
#define TAG_BITS (~UINT64_C(0) << TAG_SHIFT)
#define END_MASK ((UINT64_C(1) << 25) - 1)

#if HB_POOL_THREADS
/* Which process a pool belongs to, told without a system call at every call
   (getpid() is one, about 140 ns here): every fork() counts one more in the child,
   so a pool whose count is not the process's own was made before a fork, in the
   parent.  Where the handler could not be registered, the process id is asked. */
static unsigned long forks;       /* in this process: forks since the library was loaded (atomic) */
static int counts_forks;          /* the handler is registered */
static pthread_once_t forks_once = PTHREAD_ONCE_INIT;

static void forked(void) { __atomic_add_fetch(&forks, 1, __ATOMIC_RELAXED); }

static void count_forks(void) { counts_forks = pthread_atfork(NULL, NULL, forked) == 0; }

/* Whether p was made in this process (not in a parent before a fork). */
static int own_process(const hb_vec_pool *p)
{
    if (p->counts_forks) return p->forks == __atomic_load_n(&forks, __ATOMIC_RELAXED);
    return p->pid == getpid();
}
#endif

/* Record a chunk's error; the lowest environment wins. */
static void record(hb_vec_pool *p, int rc, size_t bad, int64_t bad_id)
{
#if HB_POOL_THREADS
    pthread_mutex_lock(&p->mu);
#endif
    if (p->rc == HB_OK || bad < p->bad) {
        p->rc = rc;
        p->bad = bad;
        p->bad_id = bad_id;
    }
#if HB_POOL_THREADS
    pthread_mutex_unlock(&p->mu);
#endif
}

/* Run one chunk of a phase: 0 when it failed (its error recorded). */
static int run_chunk(hb_vec_pool *p, const pass_desc *d, pass_fn run, size_t begin, size_t end)
{
    size_t bad = begin;
    int64_t bad_id = 0;
    int rc = run(d->job, begin, end, &bad, &bad_id);
    if (rc == HB_OK) return 1;
    record(p, rc, bad < begin || bad >= end ? begin : bad, bad_id);
    return 0;
}

#if HB_POOL_THREADS
#define LOAD_RANGE(r) __atomic_load_n((r), __ATOMIC_RELAXED)
#define SET_RANGE(r, v) __atomic_store_n((r), (v), __ATOMIC_RELAXED)
#define CAS_RANGE(r, expected, v) \
    __atomic_compare_exchange_n((r), (expected), (v), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)

/* Take the next chunk [*begin, *end) of a phase (0: the main one, 1: the first) for the thread in
   `slot`: from the front of its own part (all that is left of it when `all`), else (unless `own`)
   from the back of another's; 0 when none is left.  (Looking at another's part reads a line that
   thread writes: a transfer between the cores.) */
static int grab(hb_vec_pool *p, const pass_desc *d, int phase, int all, int own, int slot, size_t *begin,
                size_t *end)
{
    int k;
    const uint64_t tag = d->tag[phase];
    for (k = 0; k < (own ? 1 : d->threads); k++) {
        const int t = (slot + k) % d->threads;
        const uint64_t b = d->n * (size_t)t / (size_t)d->threads, e = d->n * (size_t)(t + 1) / (size_t)d->threads;
        uint64_t *r = &p->parts[t].range[phase], v;
        if (b >= e) continue;  /* (an empty part: its range is never written) */
        v = LOAD_RANGE(r);
        for (;;) {
            uint64_t front = b, back = e, left, size;
            if ((v & TAG_BITS) == tag) {  /* chunks were taken from it in this pass */
                front = v >> 25 & END_MASK;
                back = v & END_MASK;
                if (front < b || back > e) break;  /* (never: written by this pass) */
            }
            if (front >= back) break;
            left = back - front;
            size = k > 0 ? left / 2 : all ? left : left / OWN_SHARE;
            if (size < MIN_CHUNK) size = MIN_CHUNK;
            if (size > left) size = left;
            if (k == 0 && CAS_RANGE(r, &v, tag | (front + size) << 25 | back)) {
                *begin = (size_t)front;
                *end = (size_t)(front + size);
                return 1;
            }
            if (k > 0 && CAS_RANGE(r, &v, tag | front << 25 | (back - size))) {
                *begin = (size_t)(back - size);
                *end = (size_t)back;
                return 1;
            }
        }
    }
    return 0;
}

/* Count a chunk of the first phase as done (ok: it passed): 1 when the whole batch is through the
   phase, and then the threads asleep in wait_first are woken. */
static int first_done(hb_vec_pool *p, const pass_desc *d, size_t items, int ok)
{
    if (!ok) STORE(&p->first_failed, 1);  /* (before the count that lets the others read it) */
    if (__atomic_add_fetch(&p->firsts_done, items, __ATOMIC_SEQ_CST) != d->n) return 0;
    if (LOAD(&p->first_waits)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
    return 1;
}

/* Wait until every chunk of the first phase is done (no chunk of it is left to take, so
   only chunks under way remain), spinning, then asleep. */
static void wait_first(hb_vec_pool *p, const pass_desc *d, int slot)
{
    unsigned spins = 0;
    uint64_t t0 = 0;
    while (LOAD(&p->firsts_done) < d->n) {
        if (!hb_v_memo_fill(&p->memo[slot]) && wait_a_little(&spins, &t0, CALLER_SPIN_NS)) {
            pthread_mutex_lock(&p->mu);
            __atomic_add_fetch(&p->first_waits, 1, __ATOMIC_SEQ_CST);
            while (LOAD(&p->firsts_done) < d->n) pthread_cond_wait(&p->done, &p->mu);
            __atomic_sub_fetch(&p->first_waits, 1, __ATOMIC_SEQ_CST);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* Whether every worker has joined the pass: then each took its whole part of the first phase as it
   started, and a look at another's would only move that line here, for its owner to wait for. */
static int all_joined(const hb_vec_pool *p, const pass_desc *d)
{
    return JOINED_OF(LOAD(&p->state)) >= (uint64_t)d->threads - 1;
}

/* Take chunks of the first phase until none is left, then of the main one until none is left of
   its own part, and of the others' too when `steal` (slot: the thread's index in the pool; t0:
   when the thread started on the pass): when it finished. */
static uint64_t take_chunks(hb_vec_pool *p, const pass_desc *d, int slot, uint64_t t0, int steal)
{
    size_t begin, end, items = 0;
    int go = 1;
    uint64_t t1;
    if (d->first) {  /* the first phase, then wait for the whole batch to be through it */
        int own = 1, through = 0;
        while (!through) {  /* its own part, then the others' while the batch is not through */
            if (!grab(p, d, 1, 1, own, slot, &begin, &end)) {
                if (!own || all_joined(p, d)) break;
                own = 0;
                continue;
            }
            through = first_done(p, d, end - begin, run_chunk(p, d, d->first, begin, end));
            items += end - begin;
        }
        wait_first(p, d, slot);
        go = !LOAD_RANGE(&p->first_failed);
    }
    while (go && grab(p, d, 0, 0, !steal, slot, &begin, &end)) {
        run_chunk(p, d, d->run, begin, end);
        items += end - begin;
    }
    p->stats[slot].items += items;
    t1 = now_ns();
    p->stats[slot].busy_ns += t1 - t0;
    return t1;
}

/* What is left of the main phase in any thread's part, after the first phase passed (slot: the
   thread's index): whether it found any. */
static int steal_chunks(hb_vec_pool *p, const pass_desc *d, int slot)
{
    size_t begin, end, items = 0;
    uint64_t t0 = 0;
    if (d->first && LOAD_RANGE(&p->first_failed)) return 0;
    while (grab(p, d, 0, 0, 0, slot, &begin, &end)) {
        if (t0 == 0) t0 = now_ns();
        run_chunk(p, d, d->run, begin, end);
        items += end - begin;
    }
    if (items == 0) return 0;
    p->stats[slot].items += items;
    p->stats[slot].busy_ns += now_ns() - t0;
    return 1;
}

static void *worker(void *arg)
{
    hb_vec_pool *p = ((worker_arg *)arg)->pool;
    int slot = ((worker_arg *)arg)->slot;
    uint64_t seen = 0, limit = WORKER_SPIN_NS, left = 0;
    int can_move = 1;
    hb_v_memo_use(&p->memo[slot]);
    for (;;) {
        uint64_t s = LOAD(&p->state), t0 = 0, began = 0;
        unsigned spins = 0;
        /* wait for a pass newer than the last one seen, spinning, then asleep */
        if ((s >> 32) == seen) began = left ? left : now_ns();
        left = 0;
        while ((s >> 32) == seen && !LOAD(&p->stop)) {  /* (shuffling ahead, one at a time, while it can) */
            if (!hb_v_memo_fill(&p->memo[slot]) && wait_a_little(&spins, &t0, limit)) {
                pthread_mutex_lock(&p->mu);
                __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
                can_move = 1;  /* (woken, it may be anywhere, and its cores may have changed) */
                while ((LOAD(&p->state) >> 32) == seen && !LOAD(&p->stop)) pthread_cond_wait(&p->wake, &p->mu);
                __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
                pthread_mutex_unlock(&p->mu);
                t0 = 0;
            }
            s = LOAD(&p->state);
        }
        if (s & OPEN_BIT) {  /* fetch the job and its part while it joins (in parallel, not after) */
            const char *job = (const char *)__atomic_load_n(&p->job, __ATOMIC_RELAXED);
            PREFETCH(job, 0);
            PREFETCH(job + LINE, 0);
            PREFETCH(job + 2 * LINE, 0);
            PREFETCH(&p->parts[slot], 0);
        }
        if (began) {  /* the gap is judged from when the pass opened, not from when this thread woke */
            uint64_t opened = LOAD(&p->opened_ns);
            limit = next_spin(limit, opened > began ? opened - began : 0, WORKER_SPIN_NS);
        }
        if (LOAD(&p->stop)) return NULL;
        if (can_move && (s & OPEN_BIT)) {  /* on the core the caller opened the pass on: move (hb_vec_pool_cpu.c) */
            int cpu = hb_p_cpu();
            if (cpu >= 0 && cpu == LOAD(&p->caller_cpu)) {
                can_move = hb_p_move_off(cpu);  /* (0: its only core; it stays, and asks again after a sleep) */
                if (can_move) __atomic_add_fetch(&p->stats[slot].moves, 1, __ATOMIC_RELAXED);
                cpu = hb_p_cpu();
            }
            __atomic_store_n(&p->stats[slot].cpu, cpu, __ATOMIC_RELAXED);  /* (read by tests only) */
        }
        /* join the pass while it is open (the caller closes it once its own part is done) */
        while ((s & OPEN_BIT) && !__atomic_compare_exchange_n(&p->state, &s, s + JOINED_ONE + 1, 0,
                                                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        }
        seen = s >> 32;
        if (!(s & OPEN_BIT)) continue;  /* too late: every chunk was taken */
        {
            pass_desc d;
            d.first = p->first;
            d.run = p->run;
            d.job = p->job;
            d.n = p->n;
            d.threads = p->threads;
            d.tag[0] = (uint64_t)p->tags[0] << TAG_SHIFT;
            d.tag[1] = (uint64_t)p->tags[1] << TAG_SHIFT;
            left = take_chunks(p, &d, slot, now_ns(), 0);
            /* Its own part done, it leaves at once: when it ends last, the caller has closed the
               pass and has no chunk left, and the caller then knows from the count of workers
               that joined that every part is done (looking at another thread's part first was
               one more transfer between the cores, on the path of every pass).  While the pass is
               still open, it comes back for what is left of the others' parts. */
            for (;;) {
                STORE(&p->left_ns, left);
                s = __atomic_sub_fetch(&p->state, 1, __ATOMIC_SEQ_CST);
                while ((s & OPEN_BIT) && (s >> 32) == seen
                       && !__atomic_compare_exchange_n(&p->state, &s, s + 1, 0, __ATOMIC_SEQ_CST,
                                                       __ATOMIC_SEQ_CST)) {
                }
                if (!(s & OPEN_BIT) || (s >> 32) != seen) break;  /* closed: the caller does what is left */
                if (!steal_chunks(p, &d, slot)) {  /* nothing left: leave again */
                    left = now_ns();
                    STORE(&p->left_ns, left);
                    s = __atomic_sub_fetch(&p->state, 1, __ATOMIC_SEQ_CST);
                    break;
                }
                left = now_ns();
            }
        }
        if ((s & ACTIVE_MASK) == 0 && !(s & OPEN_BIT) && (s >> 32) == seen && LOAD(&p->caller_waits)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_broadcast(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}
#endif

hb_vec_pool *hb_vec_pool_new(int threads)
{
    hb_vec_pool *p;
    unsigned char *raw;
    if (threads < 1 || threads > POOL_MAX) return NULL;
    raw = (unsigned char *)calloc(1, sizeof(*p) + LINE - 1);  /* the pool on a line of it (see ON_LINE) */
    if (raw == NULL) return NULL;
    p = (hb_vec_pool *)(void *)(raw + (LINE - 1 - ((uintptr_t)raw + LINE - 1) % LINE));
    p->raw = raw;
    p->threads = 1;
    p->rules_game = -1;
#if HB_POOL_THREADS
    pthread_once(&forks_once, count_forks);
    p->counts_forks = counts_forks;
    p->forks = __atomic_load_n(&forks, __ATOMIC_RELAXED);
    p->pid = getpid();
    p->caller_spin = CALLER_SPIN_NS;
    p->inited = (pthread_mutex_init(&p->mu, NULL) == 0) + (pthread_mutex_init(&p->calls, NULL) == 0) * 2
                + (pthread_cond_init(&p->wake, NULL) == 0) * 4 + (pthread_cond_init(&p->done, NULL) == 0) * 8;
    while (p->inited == 15 && p->threads < threads) {
        worker_arg *a = &p->args[p->threads];
        a->pool = p;
        a->slot = p->threads;
        if (pthread_create(&p->tid[p->started], NULL, worker, a) != 0) break;
        p->started++;
        p->threads++;
    }
    if (p->threads < threads) {  /* the system refused a thread or a lock: no pool */
        hb_vec_pool_free(p);
        return NULL;
    }
#endif
    return p;
}

void hb_vec_pool_free(hb_vec_pool *p)
{
    if (p == NULL) return;
#if HB_POOL_THREADS
    if (own_process(p)) {  /* in a forked child the workers do not exist */
        int i;
        if (p->inited == 15) {
            pthread_mutex_lock(&p->calls);  /* a call still running in another thread ends first */
            pthread_mutex_lock(&p->mu);
            STORE(&p->stop, 1);
            pthread_cond_broadcast(&p->wake);
            pthread_mutex_unlock(&p->mu);
            for (i = 0; i < p->started; i++) pthread_join(p->tid[i], NULL);
            pthread_mutex_unlock(&p->calls);
        }
        if (p->inited & 8) pthread_cond_destroy(&p->done);
        if (p->inited & 4) pthread_cond_destroy(&p->wake);
        if (p->inited & 2) pthread_mutex_destroy(&p->calls);
        if (p->inited & 1) pthread_mutex_destroy(&p->mu);
    }
#endif
#if HB_POOL_THREADS
    {
        int i;
        for (i = 0; i < POOL_MAX; i++) hb_v_memo_free(&p->memo[i]);  /* (the workers joined, if any) */
    }
#endif
    free(p->scratch);
    free(p->raw);
}

/* Join the workers in place, between calls: the pool stays valid, and every
   later call runs in the calling thread (its statistics: the calling thread's). */
void hb_vec_pool_close(hb_vec_pool *p)
{
    if (p == NULL) return;
    if (hb_p_enter(p) != 0) return;  /* a forked child has no workers to join */
#if HB_POOL_THREADS
    if (p->started > 0) {
        int i;
        pthread_mutex_lock(&p->mu);
        STORE(&p->stop, 1);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
        for (i = 0; i < p->started; i++) pthread_join(p->tid[i], NULL);
        p->started = 0;
    }
#endif
    p->threads = 1;
    hb_p_leave(p);
}

/* Whether a call on n environments is one chunk (then the caller runs it alone). */
int hb_p_one_chunk(const hb_vec_pool *p, size_t n) { return p->threads == 1 || n <= SPLIT_MIN; }

/* A pass in one chunk, in the calling thread (one thread, or a small batch): whether its main
   phase ran (its first one, if any, passed). */
static int run_whole(hb_vec_pool *p, const pass_desc *d, uint64_t t0)
{
    int ok = !d->first || run_chunk(p, d, d->first, 0, d->n);
    if (ok) run_chunk(p, d, d->run, 0, d->n);
    p->stats[0].items += d->n + (d->first && ok ? d->n : 0);
#if HB_POOL_THREADS
    p->stats[0].busy_ns += now_ns() - t0;
#else
    (void)t0;
#endif
    return ok;
}

/* One pass over n environments: every chunk done when it returns. */
int hb_p_run_pass(hb_vec_pool *p, pass_fn first, pass_fn run, void *job, size_t n, size_t *bad,
                  int64_t *bad_id)
{
    pass_desc d;
    if (n > ((size_t)1 << 24)) return HB_E_V_LEN;  /* (ranges of 25 bits; the calls allow 2^24) */
    p->first = d.first = first;
    p->run = d.run = run;
#if HB_POOL_THREADS
    __atomic_store_n(&p->job, job, __ATOMIC_RELAXED);  /* (a worker reads it before it joins: see worker) */
#else
    p->job = job;
#endif
    d.job = job;
    p->n = (uint32_t)n;
    d.n = n;
    d.threads = p->threads;
    p->rc = HB_OK;
    p->bad = 0;
    p->bad_id = 0;
#if HB_POOL_THREADS
    if (!hb_p_one_chunk(p, n)) {
        uint64_t s = LOAD(&p->state), t0 = 0;
        unsigned spins = 0;
        uint64_t opened = now_ns(), began;
        int k;
        for (k = 0; k < 2; k++) {  /* the ranges' tags (see part) */
            uint16_t tag = (uint16_t)((p->runs[k] + 1) & 0x3FFF);
            int t;
            if (tag % 4096 == 0)  /* every range to the tag before: none keeps one from 16,384 passes ago */
                for (t = 0; t < p->threads; t++)
                    SET_RANGE(&p->parts[t].range[k], (uint64_t)((tag - 1) & 0x3FFF) << TAG_SHIFT);
            p->tags[k] = tag;
            d.tag[k] = (uint64_t)tag << TAG_SHIFT;
        }
        /* (relaxed: published by the state below, and each seq_cst store waits for the caller's
           earlier stores to reach the other cores) */
        __atomic_store_n(&p->opened_ns, opened, __ATOMIC_RELAXED);
        __atomic_store_n(&p->caller_cpu, hb_p_cpu(), __ATOMIC_RELAXED);
        STORE(&p->state, (((s >> 32) + 1) << 32) | OPEN_BIT);  /* the next pass, open, nobody in it */
        if (LOAD(&p->sleepers) > 0) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_broadcast(&p->wake);
            pthread_mutex_unlock(&p->mu);
        }
        hb_v_memo_use(&p->memo[0]);  /* (none on one thread alone, which never waits) */
        began = take_chunks(p, &d, 0, opened, 0);
        /* close the pass; unless every worker joined it and left (then every part is done: a worker
           leaves once its own part is), take what is left of the others' parts; then wait for the
           workers still in it */
        s = __atomic_and_fetch(&p->state, ~OPEN_BIT, __ATOMIC_SEQ_CST);
        if ((JOINED_OF(s) < (uint64_t)d.threads - 1 || (s & ACTIVE_MASK) != 0) && steal_chunks(p, &d, 0)) {
            began = now_ns();
            s = LOAD(&p->state);
        }
        if ((s & ACTIVE_MASK) != 0) {
            while ((s & ACTIVE_MASK) != 0) {
                if (!hb_v_memo_fill(&p->memo[0]) && wait_a_little(&spins, &t0, p->caller_spin)) {
                    pthread_mutex_lock(&p->mu);
                    STORE(&p->caller_waits, 1);
                    while ((LOAD(&p->state) & ACTIVE_MASK) != 0) pthread_cond_wait(&p->done, &p->mu);
                    STORE(&p->caller_waits, 0);
                    pthread_mutex_unlock(&p->mu);
                }
                s = LOAD(&p->state);
            }
            uint64_t left = LOAD(&p->left_ns);  /* (the last worker's leaving, not the caller's waking) */
            p->caller_spin = next_spin(p->caller_spin, left > began ? left - began : 0, CALLER_SPIN_NS);
        }
        hb_v_memo_use(NULL);
        p->runs[0] += !first || !LOAD_RANGE(&p->first_failed);
        if (first) {  /* ready for the next first phase (here, where the stores' transfers to this
                         core are not waited for before the next pass opens, as they were there) */
            p->runs[1]++;
            SET_RANGE(&p->firsts_done, 0);
            SET_RANGE(&p->first_failed, 0);
        }
    } else {
        run_whole(p, &d, now_ns());
    }
#else
    run_whole(p, &d, 0);
#endif
    if (p->rc != HB_OK) {
        if (bad) *bad = p->bad;
        if (bad_id) *bad_id = p->bad_id;
    }
    return p->rc;
}

/* Start a call: 0 when the pool's threads may help (calls from several threads
   take turns), -1 in a forked child, which runs the call alone. */
int hb_p_enter(hb_vec_pool *p)
{
#if HB_POOL_THREADS
    if (!own_process(p)) return -1;
    pthread_mutex_lock(&p->calls);
#else
    if (p->in_use) return -1;  /* (no threads here: a call from inside a call) */
    p->in_use = 1;
#endif
    return 0;
}

void hb_p_leave(hb_vec_pool *p)
{
#if HB_POOL_THREADS
    pthread_mutex_unlock(&p->calls);
#else
    p->in_use = 0;
#endif
}
