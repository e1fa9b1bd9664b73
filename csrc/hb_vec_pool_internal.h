/*
 * hb_vec_pool_internal.h -- the batched lane's worker pool as its two files see it:
 * hb_vec_pool.c (the threads, the passes and the pool's own calls) and
 * hb_vec_calls.c (the lane's calls, run as passes).  Include it first: it sets
 * _POSIX_C_SOURCE.
 */
#ifndef HB_VEC_POOL_INTERNAL_H
#define HB_VEC_POOL_INTERNAL_H
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "hb_vec_internal.h"

#if !defined(HB_VEC_NO_THREADS) && defined(__GNUC__) && (defined(__unix__) || defined(__APPLE__))
#define HB_POOL_THREADS 1
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#else
#define HB_POOL_THREADS 0
#endif

#define POOL_MAX 64            /* threads per pool, the caller's included */
#define SPLIT_MIN 16           /* a call on this many environments or fewer is one chunk */
#define MIN_CHUNK 256          /* environments per chunk, at least (see hb_vec_pool.c) */
#define OWN_SHARE 4            /* a thread's next chunk of its own part: what is left of it / OWN_SHARE */
#define WORKER_SPIN_NS 40000   /* a worker waits up to this long for the next pass before it sleeps */
#define CALLER_SPIN_NS 40000   /* the caller waits up to this long for the last chunks before it sleeps */
#define SPIN_MIN 2000          /* ... and each at least this long (see next_spin) */

/* One pass over the batch: run(job, begin, end, bad, bad_id) on each chunk. */
typedef int (*pass_fn)(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id);

#if HB_POOL_THREADS
#define OPEN_BIT (UINT64_C(1) << 31)
#define JOINED_ONE (UINT64_C(1) << 16)  /* joined: bits 16 to 30 of the state */
#define JOINED_OF(s) (((s) >> 16) & 0x7FFF)
#define ACTIVE_MASK (JOINED_ONE - 1)      /* active: bits 0 to 15 */
#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

struct hb_vec_pool;
typedef struct {
    struct hb_vec_pool *pool;
    int slot;
} worker_arg;
#endif

#define LINE 64                /* bytes between fields that different threads write (no false sharing) */
#if defined(__GNUC__)
#define ON_LINE __attribute__((aligned(LINE)))  /* a field that starts a cache line */
#else
#define ON_LINE                 /* (no threads here: see HB_POOL_THREADS) */
#endif

/* One thread's part of a pass, in each phase (range[0]: the main one, range[1]: the first): tag << 50
   | front << 25 | back, the environments [front, back) of the part no chunk has taken yet in the
   pass whose tag for that phase is tag (atomic: its thread takes from the front, others from the
   back).  A range with another tag is one no chunk has been taken from in this pass: all of the
   part is left.  So the caller opens a pass without writing the parts, lines of the threads that
   own them, and a thread takes its first chunk from a line in its own cache.  Every 4,096 passes
   the caller sets every range to the tag before (see hb_p_run_pass), so that no range keeps a tag
   from 16,384 passes ago, which would be read as this pass's. */
typedef struct {
    uint64_t range[2] ON_LINE;
} part;

/* What one thread of the pool counts (written by that thread only). */
typedef struct {
    uint64_t busy_ns ON_LINE, items;
    uint64_t moves;            /* times it found itself on the caller's core as it joined a pass, and moved */
    int cpu;                   /* the core it ran a pass on last (-1: unknown) */
} slot_stats;

#if HB_POOL_THREADS
/* A pool thread's shuffles done ahead (hb_vec_predeal.c): written and read by that thread only. */
typedef struct {
    void *slots ON_LINE;       /* one per environment of the batch it last stepped (NULL: none) */
    void *raw;                 /* the allocation they are in */
    uint32_t *queue;           /* environments whose next shuffle is to be done, oldest first */
    const void *envs;          /* the batch */
    size_t n, head, queued;
    uint64_t hits, misses, filled;  /* deals that took their cards from it, or did not; shuffles done ahead */
} hb_v_memo;
/* The calling thread's memo from now on (NULL: none); set it up for batch envs of n environments
   (a chunk of a call that deals); do one shuffle ahead (1) or find none to do (0); free it. */
void hb_v_memo_use(hb_v_memo *m);
void hb_v_memo_enter(void *envs, size_t n);
int hb_v_memo_fill(hb_v_memo *m);
void hb_v_memo_free(hb_v_memo *m);
#define MEMO_ENTER(envs, n) hb_v_memo_enter((envs), (n))
#else
#define MEMO_ENTER(envs, n) ((void)(envs), (void)(n))
#endif

/* The pool's fields are grouped by who writes them and when, each group on cache lines of its own
   (the pool is allocated on a line boundary): a line written at every pass by one thread and read
   by another costs a transfer between the cores, on the path of every pass, when it also holds a
   field the other thread reads or writes for another reason (the step's trick tables shared a line
   with the pass's error, rewritten at every pass; the caller's time of opening a pass with a
   worker's time of leaving one and the flag the workers poll while they wait). */
struct hb_vec_pool {
    /* The pass: its state, which the workers poll as they wait, and its description, on one line, so
       that a waiting worker has all it needs to join a pass in one transfer (on two lines, a worker
       fetched the second only once it saw the first change: two transfers one after the other, at
       every pass).  gen << 32 | open << 31 | joined << 16 | active: the pass number, whether workers
       may still join it, how many workers have joined it and how many are in it (atomic); when a
       worker last left a pass (atomic). */
    uint64_t state ON_LINE, left_ns;
    /* set by the caller before it opens the pass, read by all (job: atomic, as a worker reads it
       before it joins, to fetch the job ahead) */
    pass_fn first;             /* its first phase (NULL: none), done for the whole batch before ... */
    pass_fn run;               /* ... its main one */
    void *job;
    uint64_t opened_ns;        /* when the caller opened it (atomic) */
    uint32_t n;                /* environments (at most 2^24: see hb_vec_calls.c) */
    int threads;               /* the caller and threads - 1 workers */
    int caller_cpu;            /* the core the caller opened it on (-1: unknown; atomic) */
    uint16_t tags[2];          /* the tags of its ranges in the main and the first phase (see part) */
#if HB_POOL_THREADS
    /* changed only when a thread goes to sleep or wakes, or the pool stops (atomic): read at every
       pass, so a line that stays in every core's cache */
    int stop ON_LINE, sleepers, caller_waits, first_waits;
#endif
    /* environments the first phase has done, and whether any failed it (atomic) */
    size_t firsts_done ON_LINE;
    int first_failed;
    part parts[POOL_MAX];      /* the chunks of each thread's part not yet taken */
    slot_stats stats[POOL_MAX];   /* per thread (slot 0: the caller) */
    /* the lowest failing environment of the pass (reset by the caller at every pass; under mu) */
    int rc ON_LINE;
    size_t bad;
    int64_t bad_id;
    /* the trick tables of the game of the last step (made again when the game changes; read by every
       chunk of a step) */
    int rules_game ON_LINE;    /* -1: none yet */
    hb_rules rules[4];
    /* the caller's own: not read by the workers during a pass */
    void *raw ON_LINE;         /* the allocation the pool sits in (the pool: on a line of it) */
    int in_use;                /* a call is running (without threads) */
    uint32_t runs[2];          /* passes whose main phase ran, and passes with a first phase */
    /* the step's private copy of its ids */
    unsigned char *scratch;
    size_t scratch_len;
#if HB_POOL_THREADS
    uint64_t caller_spin;      /* how long the caller spins before it sleeps (see next_spin) */
    pid_t pid;                 /* the process that made the pool */
    unsigned long forks;       /* ... and its count of forks then (see own_process) */
    int counts_forks;          /* ... when it kept that count */
    int inited;                /* bits: mu, calls, wake, done initialised */
    pthread_mutex_t mu, calls; /* calls: held for the whole of a call */
    pthread_cond_t wake, done;
    int started;
    pthread_t tid[POOL_MAX];
    worker_arg args[POOL_MAX];
    hb_v_memo memo[POOL_MAX];  /* each thread's shuffles done ahead (slot 0: the caller's) */
#endif
};

#if HB_POOL_THREADS
/* Waiting (hb_vec_pool.c's loops) */
static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* One look of a waiting loop that started at *t0 (0: not yet): 1 when the wait
   has lasted longer than limit_ns and the thread should sleep instead.  (No
   sched_yield: on a busy machine it hands the core away for a whole time slice.) */
static inline int wait_a_little(unsigned *spins, uint64_t *t0, uint64_t limit_ns)
{
    uint64_t t;
    if ((++*spins & 31) != 0) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return 0;
    }
    t = now_ns();
    if (*t0 == 0) *t0 = t;
    return t - *t0 > limit_ns;
}

/* The next spin limit after a wait that lasted `waited` ns: longer (up to `most`) when the wait
   ended within the longest spin, so that spinning that long would have caught it without a sleep;
   shorter (down to SPIN_MIN) when it did not (on a busy machine, or between bursts of calls, where
   spinning only takes the core from others).  Judged by the wait itself, not by whether the thread
   slept: a limit that had shrunk below the usual gap between calls grows back. */
static inline uint64_t next_spin(uint64_t limit, uint64_t waited, uint64_t most)
{
    if (waited <= most) {
        uint64_t want = waited + waited / 2 > limit * 2 ? waited + waited / 2 : limit * 2;
        return want > most ? most : want;
    }
    return limit / 2 < SPIN_MIN ? SPIN_MIN : limit / 2;
}
#endif

/* The calling thread's core (-1 where that cannot be told), and moving the calling thread off
   core `cpu` (1 when it moved), in hb_vec_pool_cpu.c. */
int hb_p_cpu(void);
int hb_p_move_off(int cpu);

/* One pass over n environments (hb_vec_pool.c): every chunk done when it returns.  With first
   (else NULL), a first phase: every chunk of it is done before any chunk of run starts, and run
   does not start when it failed. */
int hb_p_run_pass(hb_vec_pool *p, pass_fn first, pass_fn run, void *job, size_t n, size_t *bad,
                  int64_t *bad_id);
/* Start a call: 0 when the pool's threads may help (calls from several threads take turns), -1
   in a forked child, which runs the call alone.  hb_p_leave ends a call hb_p_enter started with 0. */
int hb_p_enter(hb_vec_pool *p);
void hb_p_leave(hb_vec_pool *p);
/* A call the pool cannot share (a forked child): the whole batch as one chunk in the calling thread
   (first, when not NULL, then run when first passed). */
int hb_p_run_alone(pass_fn first, pass_fn run, void *job, size_t n, size_t *bad, int64_t *bad_id);
/* Whether a call on n environments is one chunk (then the caller runs it alone). */
int hb_p_one_chunk(const hb_vec_pool *p, size_t n);

#endif
