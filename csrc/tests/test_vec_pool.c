/* The batched lane's pool (hb_vec_pool.c) as the cores see it, built with -fsanitize=thread in CI:
 * the fields the threads write during a pass sit on cache lines apart (a line written by one
 * thread and read by the other for another reason costs a transfer between the cores in every
 * pass), and a worker that joins a pass on the core the caller opened it on moves off that core
 * (two threads of a pass sharing a core, each spinning for the other, took twice one thread's
 * time while the other core idled).  Linux only for the second; bounded: each wait gives up after
 * HANG_S seconds (only a hang takes that long). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include "hb_vec_pool_internal.h"
#include <stddef.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { failures++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#define LINE_OF(f) (offsetof(struct hb_vec_pool, f) / LINE)

static void layout(void)
{
    hb_vec_pool *p = hb_vec_pool_new(2);
    CHECK(p != NULL);
    if (p == NULL) return;
    CHECK((uintptr_t)p % LINE == 0);
    /* the pass's state (what a waiting worker polls, and its joining and leaving), its description,
       the caller's time and core of opening it and the time of leaving: one line, so that a worker
       that sees the pass open has all it needs to join it */
    CHECK(LINE_OF(first) == LINE_OF(state) && LINE_OF(job) == LINE_OF(state) && LINE_OF(n) == LINE_OF(state));
    CHECK(LINE_OF(opened_ns) == LINE_OF(state) && LINE_OF(caller_cpu) == LINE_OF(state));
    CHECK(LINE_OF(threads) == LINE_OF(state) && LINE_OF(tags) == LINE_OF(state));
    CHECK(LINE_OF(left_ns) == LINE_OF(state));
#if HB_POOL_THREADS
    /* what the workers poll as they wait: not on a line written at every pass */
    CHECK(LINE_OF(stop) == LINE_OF(sleepers) && LINE_OF(stop) != LINE_OF(state));
    CHECK(LINE_OF(stop) != LINE_OF(threads) && LINE_OF(stop) != LINE_OF(firsts_done));
    CHECK(LINE_OF(caller_spin) != LINE_OF(stop));
#endif
    CHECK(LINE_OF(firsts_done) != LINE_OF(threads));
    /* each thread's two ranges in one line, no two threads' in one */
    CHECK((uintptr_t)&p->parts[1].range[1] / LINE == (uintptr_t)&p->parts[1].range[0] / LINE);
    CHECK((uintptr_t)&p->parts[1].range[0] / LINE != (uintptr_t)&p->parts[0].range[1] / LINE);
    CHECK((uintptr_t)&p->stats[1].busy_ns / LINE != (uintptr_t)&p->stats[0].items / LINE);
    /* the pass's error (reset by the caller at every pass) apart from the step's trick tables */
    CHECK(LINE_OF(rc) != LINE_OF(rules_game) && LINE_OF(bad_id) < LINE_OF(rules_game));
    CHECK(LINE_OF(rc) != LINE_OF(firsts_done));
    hb_vec_pool_free(p);
}

/* Passes of two jobs in turn, some with a first phase that fails at a random environment: each
   environment is run once by each pass of its job whose first phase passed, never by one whose
   first phase failed (the rule that a bad id anywhere changes nothing), the lowest failing
   environment is the one reported, and a pass over more environments than the ranges hold is
   refused before any chunk runs.  Every 50th pass comes after a pause long enough for the workers
   to fall asleep, so that some join late or not at all (the caller then takes their parts), and
   every 7th is over fewer environments, so that a range keeps what an earlier pass left in it.
   Under TSan this also checks that a worker reads each pass's description and job only while it
   is in that pass. */
typedef struct {
    unsigned *hits;            /* per environment: passes of this job that ran it */
    size_t fail_at;            /* the first phase fails from here on (n: it passes) */
} count_job;

static int count_first(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    count_job *j = (count_job *)job;
    if (end > j->fail_at) {
        *bad = begin > j->fail_at ? begin : j->fail_at;
        *bad_id = (int64_t)*bad;
        return HB_E_V_ILLEGAL;
    }
    return HB_OK;
}

static int count_run(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    count_job *j = (count_job *)job;
    size_t i;
    (void)bad; (void)bad_id;
    for (i = begin; i < end; i++) j->hits[i]++;
    return HB_OK;
}

static void passes(int threads, int count, size_t most)
{
    enum { N = 1500 };
    static unsigned hits[2][N], expect[2][N];
    uint64_t rng = 12345;
    hb_vec_pool *p = hb_vec_pool_new(threads);
    int k, wrong = 0, miscounted = 0;
    size_t i;
    CHECK(p != NULL && most <= N);
    if (p == NULL || most > N) return;
    memset(hits, 0, sizeof hits);
    memset(expect, 0, sizeof expect);
    for (k = 0; k < count; k++) {
        count_job job;
        size_t bad = 0, n;
        int64_t bad_id = -1;
        int which = k & 1, with_first = (k % 3) != 0, rc;
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        n = k % 7 == 6 ? 17 + (size_t)(rng >> 20) % (most - 16) : most;  /* (some parts empty: see grab) */
        job.hits = hits[which];
        job.fail_at = with_first && (rng >> 33) % 4 == 0 ? (size_t)((rng >> 40) % n) : n;
#if HB_POOL_THREADS
        if (k % 50 == 49) {  /* (longer than WORKER_SPIN_NS) */
            struct timespec pause = {0, 300000};
            nanosleep(&pause, NULL);
        }
#endif
        CHECK(hb_p_enter(p) == 0);
        rc = hb_p_run_pass(p, with_first ? count_first : NULL, count_run, &job, n, &bad, &bad_id);
        hb_p_leave(p);
        if (job.fail_at < n) {
            if (rc != HB_E_V_ILLEGAL || bad != job.fail_at || bad_id != (int64_t)job.fail_at) wrong++;
        } else {
            if (rc != HB_OK) wrong++;
            for (i = 0; i < n; i++) expect[which][i]++;
        }
    }
    CHECK(wrong == 0);
    for (k = 0; k < 2; k++)
        for (i = 0; i < N; i++)
            if (hits[k][i] != expect[k][i]) miscounted++;
    CHECK(miscounted == 0);
    /* more environments than a range holds: refused, nothing run */
    {
        count_job job;
        job.hits = hits[0];
        job.fail_at = 0;
        CHECK(hb_p_enter(p) == 0);
        CHECK(hb_p_run_pass(p, NULL, count_run, &job, ((size_t)1 << 24) + 1, NULL, NULL) == HB_E_V_LEN);
        hb_p_leave(p);
        CHECK(hits[0][0] == expect[0][0]);
    }
    hb_vec_pool_free(p);
}

/* A range that holds the tag of the coming pass from long ago (a part not taken from in 16,384
   passes) is set back before that pass opens, not read as taken from in it. */
static void old_tags(void)
{
#if HB_POOL_THREADS
    static unsigned hits[40];
    count_job job;
    size_t i;
    int miss = 0;
    hb_vec_pool *p = hb_vec_pool_new(3);  /* parts [0, 13), [13, 26), [26, 40) */
    CHECK(p != NULL);
    if (p == NULL) return;
    p->runs[0] = 4095;  /* the next pass's main phase: tag 4096 */
    p->parts[1].range[0] = (uint64_t)4096 << 50 | (uint64_t)26 << 25 | 26;  /* "all taken" */
    job.hits = hits;
    job.fail_at = 40;
    CHECK(hb_p_enter(p) == 0);
    CHECK(hb_p_run_pass(p, NULL, count_run, &job, 40, NULL, NULL) == HB_OK);
    hb_p_leave(p);
    for (i = 0; i < 40; i++) miss += hits[i] != 1;
    CHECK(miss == 0);
    hb_vec_pool_free(p);
#endif
}

#if HB_POOL_THREADS && defined(__linux__)
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

#define HANG_S 120.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every thread of the process to the cores of *set (0 when one could not be). */
static int pin_all(const cpu_set_t *set)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *t;
    int ok = d != NULL;
    while (ok && (t = readdir(d)) != NULL)
        if (t->d_name[0] != '.') ok = sched_setaffinity((pid_t)atoi(t->d_name), sizeof *set, set) == 0;
    if (d) closedir(d);
    return ok;
}

static int noop(void *job, size_t begin, size_t end, size_t *bad, int64_t *bad_id)
{
    (void)job; (void)begin; (void)end; (void)bad; (void)bad_id;
    return HB_OK;
}

/* Passes until the worker has joined one more than it had (its items counted), or HANG_S. */
static void until_joined(hb_vec_pool *p)
{
    uint64_t before = p->stats[1].items;
    double until = now_s() + HANG_S;
    while (p->stats[1].items == before && now_s() < until) {
        CHECK(hb_p_enter(p) == 0);
        hb_p_run_pass(p, NULL, noop, NULL, 4096, NULL, NULL);
        hb_p_leave(p);
    }
    CHECK(p->stats[1].items > before);
}

static void moving_off(void)
{
    cpu_set_t all, one;
    int here, cpu, k;
    hb_vec_pool *p;
    if (sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) < 2) {
        printf("vector pool tests: fewer than two cores here, the worker's move not tried\n");
        return;
    }
    /* hb_p_move_off: the thread leaves the core, its set of cores as it was */
    here = hb_p_cpu();
    CHECK(here >= 0);
    CHECK(hb_p_move_off(here) == 1);
    CHECK(hb_p_cpu() != here);
    {
        cpu_set_t now;
        CHECK(sched_getaffinity(0, sizeof now, &now) == 0 && CPU_EQUAL(&now, &all));
    }
    /* a thread with one core stays on it */
    here = hb_p_cpu();
    CPU_ZERO(&one);
    CPU_SET(here, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK(hb_p_move_off(here) == 0);
    CHECK(hb_p_cpu() == here);
    /* a worker made to run on the caller's core moves off it at its next pass */
    p = hb_vec_pool_new(2);
    CHECK(p != NULL);
    if (p == NULL) return;
    CHECK(pin_all(&one));
    until_joined(p);
    CHECK(__atomic_load_n(&p->stats[1].cpu, __ATOMIC_SEQ_CST) == here && __atomic_load_n(&p->stats[1].moves, __ATOMIC_SEQ_CST) == 0);  /* (it could not move: its only core) */
    hb_vec_pool_free(p);
    p = hb_vec_pool_new(2);  /* a worker made on the caller's only core, free to go anywhere later */
    CHECK(p != NULL);
    if (p == NULL) return;
    until_joined(p);
    CHECK(pin_all(&all));
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);  /* the caller stays where the worker is */
    {  /* the worker asleep (it asks again whether it can move once woken) */
        double until = now_s() + HANG_S;
        while (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST) == 0 && now_s() < until) {
        }
        CHECK(__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST) == 1);
    }
    for (k = 0; k < 3; k++) until_joined(p);
    cpu = __atomic_load_n(&p->stats[1].cpu, __ATOMIC_SEQ_CST);
    CHECK(cpu >= 0 && cpu != here);
    printf("vector pool tests: the worker moved off the caller's core %llu time(s), ran last on core %d "
           "(the caller: %d)\n", (unsigned long long)__atomic_load_n(&p->stats[1].moves, __ATOMIC_SEQ_CST), cpu, here);
    hb_vec_pool_free(p);
    CHECK(sched_setaffinity(0, sizeof all, &all) == 0);
}
#else
static void moving_off(void) { printf("vector pool tests: no Linux threads here, the worker's move not tried\n"); }
#endif

int main(void)
{
    layout();
    passes(1, 3000, 1500);
    passes(2, 3000, 1500);
    passes(3, 3000, 1500);
    passes(7, 3000, 100);   /* parts of 14 or 15 environments, or none at all */
    passes(2, 40000, 40);   /* more passes than the 16,384 tags of the ranges (see part) */
    old_tags();
    moving_off();
    if (failures) {
        fprintf(stderr, "vector pool tests: %d check(s) failed\n", failures);
        return 1;
    }
    printf("vector pool tests: all checks passed\n");
    return 0;
}
