/*
 * hb_vec_pool_life.c -- a batched lane's pool made, closed and freed, and each call's turn on it
 * (hb_vec_pool.c runs the passes).
 */
#include "hb_vec_pool_internal.h"

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
        if (pthread_create(&p->tid[p->started], NULL, hb_p_worker, a) != 0) break;
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
