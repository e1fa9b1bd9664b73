/* hb_maxn.c -- the open-cards play of the Monte Carlo search's "solver" method.
 *
 * Given every hand (one sampled deal), the current trick and who leads it,
 * find how many tricks each seat takes when every seat sees all the cards and
 * plays to take as many tricks as it can for itself (a Deer Park seat playing
 * for 50: as few as it can).  This is a max^n search (each seat maximises its
 * own component of the result vector), not the one-seat-against-the-rest
 * search of hb_solve.c: the game scores need every seat's tricks.
 *
 * Fixed choices, the same in the pure-Python twin (hucklebuck/_core/_py_maxn.py):
 *   - a seat's legal cards are tried from the weakest (power, then card
 *     number); among cards of equal value to the seat the weakest is kept, and
 *     once a card gives the seat every trick left (a ducking seat: none) no
 *     stronger card is tried;
 *   - inside a trick, once a seat has a card worth k of the t tricks left to
 *     it, the next seat stops looking as soon as it can make sure of t - k:
 *     the first seat would then not choose that card (both want tricks; a
 *     ducking seat neither gives nor takes this bound);
 *   - a card is not tried when the next weaker live card of its effective
 *     suit (still held, or in the current trick) belongs to the same seat:
 *     the two are interchangeable;
 *   - a table maps a trick boundary (the cards still held and the leader) to
 *     the tricks each seat takes from there; it holds at most HB_MAXN_KEEP
 *     positions, then is emptied and filled again;
 *   - one node is one card tried; past `limit` nodes the search gives up and
 *     the caller plays that deal out by the playout policy instead.
 * Results are packed 4 bits per seat (seat s in bits 4s..4s+3).
 */
#include <stdlib.h>
#include <string.h>
#include "hb_core.h"
#include "hb_internal.h"

#define BIT(c) (UINT64_C(1) << (c))
#define NO_BOUND 99

struct hb_maxn_tt {
    uint64_t key[HB_MAXN_SLOTS];
    uint32_t val[HB_MAXN_SLOTS];
    uint32_t gen[HB_MAXN_SLOTS];
    uint32_t cur;
    uint32_t count;
};

typedef struct {
    const hb_rules *r;
    int trump, nact;
    int order[8];           /* seats in play, in seat order */
    uint64_t hands[8];      /* by seat */
    uint64_t all;           /* every card still held */
    unsigned duck;          /* seats that want as few tricks as they can */
    uint8_t trick[8];
    uint64_t tmask;         /* the cards of the current trick */
    uint64_t nodes, limit;
    const volatile int *cancel;  /* polled every 1024 nodes (NULL: none) */
    int stop;
    hb_maxn_tt *tt;
} mx;

hb_maxn_tt *hb_i_maxn_new(void)
{
    hb_maxn_tt *t = (hb_maxn_tt *)calloc(1, sizeof *t);
    if (t) t->cur = 1;
    return t;
}

void hb_i_maxn_free(hb_maxn_tt *t) { free(t); }

void hb_i_maxn_clear(hb_maxn_tt *t)
{
    t->count = 0;
    if (++t->cur == 0) {  /* generation wrapped: really clear */
        memset(t->gen, 0, sizeof t->gen);
        t->cur = 1;
    }
}

static size_t slot_of(uint64_t key)
{
    key ^= key >> 31;
    key *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(key >> 40) & (HB_MAXN_SLOTS - 1);
}

static int tt_get(const hb_maxn_tt *t, uint64_t key, uint32_t *val)
{
    size_t i = slot_of(key);
    while (t->gen[i] == t->cur) {
        if (t->key[i] == key) { *val = t->val[i]; return 1; }
        i = (i + 1) & (HB_MAXN_SLOTS - 1);
    }
    return 0;
}

static void tt_put(hb_maxn_tt *t, uint64_t key, uint32_t val)
{
    size_t i;
    if (t->count >= HB_MAXN_KEEP) hb_i_maxn_clear(t);
    i = slot_of(key);
    while (t->gen[i] == t->cur) i = (i + 1) & (HB_MAXN_SLOTS - 1);
    t->gen[i] = t->cur;
    t->key[i] = key;
    t->val[i] = val;
    t->count++;
}

static int own(const mx *M, int seat, uint32_t v)
{
    int t = (int)((v >> (4 * seat)) & 15u);
    return ((M->duck >> seat) & 1u) ? -t : t;
}

/* Whether c's next weaker live card of its effective suit is held by `seat`. */
static int shadowed(const mx *M, int seat, int c)
{
    const hb_rules *r = M->r;
    uint64_t live = (M->all | M->tmask) & r->suit_mask[r->suit[c]], m;
    int best = -1, br = -1;
    for (m = live; m; m &= m - 1) {
        int d = lowest_bit(m);
        if (r->rank[d] < r->rank[c] && r->rank[d] > br) { br = r->rank[d]; best = d; }
    }
    return best >= 0 && (M->hands[seat] & BIT(best));
}

static uint32_t node(mx *M, int lp, int tlen, int bound)
{
    uint64_t key = 0, legal, m;
    uint32_t best = 0, v;
    int seat, n = 0, i, j, cards[8], keys[8], have = 0, bu = 0, top, duck;
    if (tlen == 0) {
        if (!M->all) return 0;
        key = M->all | ((uint64_t)lp << 56);
        if (tt_get(M->tt, key, &v)) return v;
    }
    seat = M->order[(lp + tlen) % M->nact];
    duck = (int)((M->duck >> seat) & 1u);
    top = duck ? 0 : popcount64(M->hands[seat]);  /* every trick left (this one too), or none */
    legal = hb_i_legal(M->r, M->hands[seat], tlen ? M->trick[0] : -1);
    for (m = legal; m; m &= m - 1) {  /* weakest first: insertion by power, then card */
        int c = lowest_bit(m), k = hb_i_power(M->r, M->trump, c) * 64 + c;
        for (j = n; j > 0 && keys[j - 1] > k; j--) { cards[j] = cards[j - 1]; keys[j] = keys[j - 1]; }
        cards[j] = c; keys[j] = k; n++;
    }
    for (i = 0; i < n; i++) {
        int c = cards[i], u;
        if (shadowed(M, seat, c)) continue;
        if (++M->nodes > M->limit && M->limit) { M->stop = 1; return 0; }
        if ((M->nodes & 1023) == 0 && M->cancel != NULL && *M->cancel) { M->stop = 1; return 0; }
        M->hands[seat] &= ~BIT(c);
        M->all &= ~BIT(c);
        M->trick[tlen] = (uint8_t)c;
        M->tmask |= BIT(c);
        if (tlen + 1 == M->nact) {
            int wpos = (lp + hb_i_trick_winner(M->r, M->trump, M->trick, M->nact)) % M->nact;
            uint64_t saved = M->tmask;
            uint8_t trick[8];
            memcpy(trick, M->trick, sizeof trick);  /* the next tricks write over it */
            M->tmask = 0;
            v = node(M, wpos, 0, NO_BOUND) + (1u << (4 * M->order[wpos]));
            M->tmask = saved;
            memcpy(M->trick, trick, sizeof trick);
        } else {
            /* a seat after this one in the trick that can make sure of `bound` tricks
               leaves this seat no more than it has already (shallow max^n pruning) */
            v = node(M, lp, tlen + 1, (have && !duck) ? top - bu : NO_BOUND);
        }
        M->tmask &= ~BIT(c);
        M->hands[seat] |= BIT(c);
        M->all |= BIT(c);
        if (M->stop) return 0;
        u = own(M, seat, v);
        if (!have || u > bu) { best = v; bu = u; have = 1; }
        if (bu == top) break;                /* nothing can do better for this seat */
        if (!duck && bu >= bound) break;     /* the seat before will not let it come to this */
    }
    if (tlen == 0) tt_put(M->tt, key, best);
    return best;
}

int hb_i_maxn(const hb_rules *r, int trump, const uint64_t *hands, int nseats, unsigned active, int leader,
              const uint8_t *trick0, int tlen, unsigned duck, uint64_t limit, const int *cancel, hb_maxn_tt *tt,
              int *won)
{
    mx M;
    int i, lp = 0;
    uint32_t v;
    memset(&M, 0, sizeof M);
    M.r = r; M.trump = trump; M.duck = duck; M.limit = limit; M.tt = tt; M.cancel = cancel;
    for (i = 0; i < nseats; i++) {
        if (!(active & (1u << i))) continue;
        if (i == leader) lp = M.nact;
        M.order[M.nact++] = i;
        M.hands[i] = hands[i];
        M.all |= hands[i];
    }
    if (M.nact == 0) return 1;
    for (i = 0; i < tlen; i++) { M.trick[i] = trick0[i]; M.tmask |= BIT(trick0[i]); }
    if (tlen == M.nact) {  /* a complete trick: score it, then search from its winner */
        int wpos = (lp + hb_i_trick_winner(r, trump, M.trick, M.nact)) % M.nact;
        M.tmask = 0;
        v = node(&M, wpos, 0, NO_BOUND) + (1u << (4 * M.order[wpos]));
    } else {
        v = node(&M, lp, tlen, NO_BOUND);
    }
    if (M.stop) return 0;
    for (i = 0; i < nseats; i++) won[i] += (int)((v >> (4 * i)) & 15u);
    return 1;
}
