/* hb_solve.c -- the perfect-information solver of the C core.
 *
 * The question: how many of the remaining tricks can `seat` be sure of when
 * every card is open and every other seat plays against it?  The search is a
 * sequence of yes/no searches ("can seat take at least k?") over the play,
 * with, at each trick boundary:
 *   - quick bounds from greedy matchings of trumps: a trump of the seat loses
 *     only to a higher trump played to the same trick (lower bound); each trump
 *     of one opponent that the seat cannot cover costs it a trick (upper
 *     bound); on lead, once its top trumps draw every opposing trump, the seat's
 *     side-suit winners count too.  The same bounds are checked mid-trick once
 *     the seat has played or can no longer take the trick;
 *   - a transposition table keyed by *relative* ranks: for each effective suit,
 *     the owners of the cards still held, in order of strength, and the
 *     leader.  Two positions with the same key play identically.
 * Inside a trick, a player's cards that are adjacent in strength among the
 * live cards of their suit are equivalent (one is tried), and moves are
 * ordered: a card that takes the trick first for the seat (on lead: a top
 * trump, else its cheapest card); for an opponent, the cheapest card that
 * covers or overtakes the seat, the cheapest card when the trick is decided,
 * and on lead the cheapest card of a suit the seat must follow and cannot win,
 * then the cheapest trump.  Ties go to cards that caused cut-offs before.
 *
 * The pure-Python twin (hucklebuck/_core/_py_solve.py) follows the same
 * search step for step, so both count the same nodes (cards tried) and a
 * node budget ends both at the same point.  No global mutable state: the
 * table is owned by the caller; `cancel` is polled every 1024 nodes. */
#include <string.h>
#include "hb_core.h"
#include "hb_solve.h"
#include "hb_internal.h"

#define FULL52 ((UINT64_C(1) << 52) - 1)
#define BIT(c) (UINT64_C(1) << (c))
#define CANCEL_EVERY 1023u


typedef struct {
    hb_rules r;
    int trump, seat, nact;       /* seat: position (index into order) of the solving seat */
    int order[8];                /* seat numbers in play */
    uint64_t hands[8];           /* by position */
    uint8_t owner[52];           /* position holding each card */
    uint64_t all;                /* cards still held */
    uint64_t trumps;             /* the cards of the effective trump suit */
    uint8_t trick[8];
    int leader;                  /* position leading the current trick */
    uint8_t by_suit[4][16];      /* cards of each effective suit, by increasing strength */
    int n_by_suit[4];
    uint16_t order_key[52];      /* power * 64 + card: trumps, then rank, then card number */
    uint64_t below[52];          /* the cards of each card's effective suit that it beats */
    uint32_t history[52];        /* cut-offs each card caused, weighted by depth */
    hb_tt_entry *tt;
    size_t tt_mask, tt_count, tt_limit;
    uint32_t gen;
    uint64_t nodes, node_limit;
    const volatile int *cancel;
    int stop;                    /* 0, HB_E_BUDGET or HB_E_CANCELLED */
} solver;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int trick_key(const solver *S, int lead_suit, int c)
{
    int s = S->r.suit[c];
    return ((s == S->trump) << 5) | ((s == lead_suit) << 4) | S->r.rank[c];
}

static int play_from(solver *S, int pos, int k);

/* Lower and upper bounds on seat's tricks from the cards held now, `remaining` tricks
 * to play after the current one.  `seat_leads`: seat leads the next trick.  `pending`:
 * positions still to play a card to the current trick (they may spend a trump on it).
 * Cards leaving the opponents' hands only help the seat, so these stay valid whatever
 * the pending players play. */
static void quick_bounds(const solver *S, int remaining, int seat_leads, unsigned pending, int *lo, int *hi)
{
    /* A trump of the seat loses its trick only to a higher trump played to the same trick,
     * and each opposing trump is played to one trick: so at most a maximum matching of the
     * seat's trumps to higher opposing trumps lose (lower bound).  Likewise each trump of
     * one opponent that the seat does not match with a higher trump of its own costs the
     * seat a trick (upper bound).  Both matchings are greedy, strongest card first. */
    const uint8_t *cards = S->by_suit[S->trump];
    int i, loss[8] = {0}, avail[8] = {0}, maxc = 0, seen_opp = 0, top = 0, mine = 0, opp_free = 0, low;
    for (i = S->n_by_suit[S->trump] - 1; i >= 0; i--) {
        int c = cards[i], o;
        if (!(S->all & BIT(c))) continue;
        o = S->owner[c];
        if (o == S->seat) {
            int j;
            if (!seen_opp) top++;
            if (opp_free > 0) opp_free--;  /* killed by a higher opposing trump */
            else mine++;                   /* no opposing trump left to kill it */
            for (j = 0; j < S->nact; j++) avail[j]++;
        } else {
            seen_opp = 1;
            opp_free++;
            if (avail[o] > 0) avail[o]--;  /* the seat can beat this one */
            else loss[o]++;
        }
    }
    low = mine;
    for (i = 0; i < S->nact; i++) {
        int c = loss[i] - (int)((pending >> i) & 1u);
        if (i != S->seat && c > maxc) maxc = c;
    }
    if (seat_leads) {
        /* On lead, seat cashes its top trumps first; if that draws every opposing trump
         * (no opponent holds more), all its trumps win, then every card of a side suit
         * above all the opponents' cards of that suit. */
        int maxt = 0, s;
        for (i = 0; i < S->nact; i++)
            if (i != S->seat && popcount64(S->hands[i] & S->trumps) > maxt) maxt = popcount64(S->hands[i] & S->trumps);
        if (maxt <= top) {
            low = popcount64(S->hands[S->seat] & S->trumps);
            for (s = 0; s < 4; s++) {
                if (s == S->trump) continue;
                for (i = S->n_by_suit[s] - 1; i >= 0; i--) {
                    int c = S->by_suit[s][i];
                    if (!(S->all & BIT(c))) continue;
                    if (S->owner[c] != S->seat) break;
                    low++;
                }
            }
        }
    }
    *lo = low;
    *hi = remaining - maxc;
}

/* After the seat has played to the current trick, or when it cannot take it (pos cards
 * down, best at wpos):
 * 1 or 0 when the rest of the search is decided by the bounds, -1 otherwise. */
static int decided_mid_trick(const solver *S, int pos, int k, int lead_suit, int best, int wpos, int soff)
{
    int won, i, lo, hi, rem = popcount64(S->hands[S->seat]) - (soff >= pos);
    unsigned pending = 0;
    for (i = pos; i < S->nact; i++) pending |= 1u << ((S->leader + i) % S->nact);
    if (soff >= pos || wpos != soff) won = 0;
    else {
        for (i = pos; i < S->nact; i++) {  /* can a player still to play take the trick? */
            int p = (S->leader + i) % S->nact;
            uint64_t f = S->hands[p] & S->r.suit_mask[lead_suit], m;
            for (m = f ? f : S->hands[p]; m; m &= m - 1)
                if (trick_key(S, lead_suit, lowest_bit(m)) > best) return -1;
        }
        won = 1;
    }
    k -= won;
    if (k <= 0) return 1;
    if (k > rem) return 0;
    quick_bounds(S, rem, won, pending, &lo, &hi);
    if (soff >= pos) lo--;  /* the seat may have to spend a top trump on this trick */
    if (k <= lo) return 1;
    if (k > hi) return 0;
    return -1;
}

static void put_bits(uint64_t *key, int at, uint64_t v)
{
    int w = at >> 6, off = at & 63;
    key[w] |= v << off;
    if (off > 60) key[w + 1] |= v >> (64 - off);
}

/* The relative-rank key: per effective suit a 4-bit count, then the owner of
 * each held card (3 bits) by increasing strength; then the leader (3 bits).
 * At most 4*4 + 40*3 + 3 = 139 bits. */
static void make_key(const solver *S, uint64_t *key)
{
    int s, i, at = 0;
    key[0] = key[1] = key[2] = 0;
    for (s = 0; s < 4; s++) {
        int start = at, cnt = 0;
        at += 4;
        for (i = 0; i < S->n_by_suit[s]; i++) {
            int c = S->by_suit[s][i];
            if (S->all & BIT(c)) {
                put_bits(key, at, S->owner[c]);
                at += 3;
                cnt++;
            }
        }
        put_bits(key, start, (uint64_t)cnt);
    }
    put_bits(key, at, (uint64_t)S->leader);
}

static int same_key(const hb_tt_entry *e, const uint64_t *key)
{
    return e->key[0] == key[0] && e->key[1] == key[1] && e->key[2] == key[2];
}

/* The slot holding `key`, or NULL after creating it (clearing a full table first). */
static hb_tt_entry *tt_find(solver *S, const uint64_t *key, int *found)
{
    size_t idx = (size_t)mix64(key[0] ^ mix64(key[1] ^ mix64(key[2]))) & S->tt_mask;
    for (;;) {
        hb_tt_entry *e = &S->tt[idx];
        if (!(e->used && e->gen == S->gen)) break;
        if (same_key(e, key)) { *found = 1; return e; }
        idx = (idx + 1) & S->tt_mask;
    }
    *found = 0;
    if (S->tt_count >= S->tt_limit) {  /* full: start over (the Python twin clears its dict) */
        memset(S->tt, 0, (S->tt_mask + 1) * sizeof *S->tt);
        S->tt_count = 0;
        idx = (size_t)mix64(key[0] ^ mix64(key[1] ^ mix64(key[2]))) & S->tt_mask;
    }
    S->tt_count++;
    S->tt[idx].used = 1;
    S->tt[idx].gen = S->gen;
    memcpy(S->tt[idx].key, key, sizeof S->tt[idx].key);
    return &S->tt[idx];
}

static int last_trick(const solver *S)
{
    int i, best = -1, wpos = 0, lead_suit = S->r.suit[lowest_bit(S->hands[S->leader])];
    for (i = 0; i < S->nact; i++) {
        int p = (S->leader + i) % S->nact;
        int kk = trick_key(S, lead_suit, lowest_bit(S->hands[p]));
        if (kk > best) { best = kk; wpos = p; }
    }
    return wpos == S->seat;
}

/* Can seat take at least k of the remaining tricks (a trick is about to be led)? */
static int boundary(solver *S, int k)
{
    int remaining = popcount64(S->hands[S->leader]), lo, hi, res, found = 0;
    uint64_t key[3];
    hb_tt_entry *e = NULL;
    if (k <= 0) return 1;
    if (k > remaining) return 0;
    if (remaining == 1) return last_trick(S);
    quick_bounds(S, remaining, S->leader == S->seat, 0u, &lo, &hi);
    if (k <= lo) return 1;
    if (k > hi) return 0;
    if (S->tt != NULL) {
        make_key(S, key);
        e = tt_find(S, key, &found);
        if (found) {
            if (k <= e->lb) return 1;
            if (k > e->ub) return 0;
        } else {
            e->lb = (int8_t)lo;
            e->ub = (int8_t)hi;
        }
    }
    res = play_from(S, 0, k);
    if (S->stop) return 0;
    if (e != NULL && e->used && e->gen == S->gen && same_key(e, key)) {
        if (res) { if (k > e->lb) e->lb = (int8_t)k; }
        else if (k - 1 < e->ub) e->ub = (int8_t)(k - 1);
    }
    return res;
}

/* No live card strictly between two cards of one effective suit: equivalent plays. */
static int touching(const solver *S, uint64_t live, int lo_card, int hi_card)
{
    return !(live & S->below[hi_card] & ~(S->below[lo_card] | BIT(lo_card)));
}

static int play_from(solver *S, int pos, int k)
{
    int p, i, a, b, nt = 0, nc = 0, best = -1, wpos = -1, lead_suit = -1, soff, res, seat_beats = 1, seat_top = -1;
    int tmp[16], cands[16], last_kept[4] = {-1, -1, -1, -1};
    uint64_t pri[16], pr;
    uint64_t legal, live, m;
    if (pos == S->nact) {  /* the trick is complete: its winner leads the next */
        int saved = S->leader;
        uint8_t saved_trick[8];
        lead_suit = S->r.suit[S->trick[0]];
        for (i = 0; i < S->nact; i++) {
            int kk = trick_key(S, lead_suit, S->trick[i]);
            if (kk > best) { best = kk; wpos = i; }
        }
        memcpy(saved_trick, S->trick, sizeof saved_trick);
        S->leader = (S->leader + wpos) % S->nact;
        res = boundary(S, k - (S->leader == S->seat));
        S->leader = saved;
        memcpy(S->trick, saved_trick, sizeof saved_trick);
        return res;
    }
    p = (S->leader + pos) % S->nact;
    legal = S->hands[p];
    live = S->all;
    if (pos > 0) {
        uint64_t f;
        lead_suit = S->r.suit[S->trick[0]];
        f = legal & S->r.suit_mask[lead_suit];
        if (f) legal = f;
        for (i = 0; i < pos; i++) {
            int kk = trick_key(S, lead_suit, S->trick[i]);
            live |= BIT(S->trick[i]);
            if (kk > best) { best = kk; wpos = i; }
        }
    }
    for (m = legal; m; m &= m - 1) {  /* by decreasing order key */
        int x = lowest_bit(m), px = S->order_key[x];
        for (b = nt - 1; b >= 0 && S->order_key[tmp[b]] < px; b--) tmp[b + 1] = tmp[b];
        tmp[b + 1] = x;
        nt++;
    }
    soff = (S->seat - S->leader + S->nact) % S->nact;
    if (pos > 0 && soff >= pos) {  /* can the seat, still to play, beat the trick so far? */
        uint64_t sl = S->hands[S->seat] & S->r.suit_mask[lead_suit];
        for (m = sl ? sl : S->hands[S->seat]; m; m &= m - 1) {
            int kk = trick_key(S, lead_suit, lowest_bit(m));
            if (kk > seat_top) seat_top = kk;
        }
        seat_beats = seat_top > best;
    }
    if (pos > 0 && (soff < pos || !seat_beats)) {  /* the seat has played, or cannot take this trick */
        int d = decided_mid_trick(S, pos, k, lead_suit, best, wpos, soff);
        if (d >= 0) return d;
    }
    for (a = 0; a < nt; a++) {
        int c = tmp[a], s = S->r.suit[c], ok = S->order_key[c], wins, g;
        if (last_kept[s] >= 0 && touching(S, live, c, last_kept[s])) continue;
        last_kept[s] = c;
        wins = pos > 0 && trick_key(S, lead_suit, c) > best;
        if (pos == 0 && p != S->seat) {                   /* an opponent leads */
            uint64_t ss = S->hands[S->seat] & S->r.suit_mask[s];
            int top = -1;
            for (m = ss; m; m &= m - 1) if (S->r.rank[lowest_bit(m)] > top) top = S->r.rank[lowest_bit(m)];
            if (ss && S->r.rank[c] > top) g = 12288 + 4095 - ok;  /* the seat must follow and is beaten */
            else if (s == S->trump) g = 8192 + 4095 - ok;          /* draw the seat's trumps, cheaply */
            else g = ss ? 4096 + ok : 4095 - ok;
        } else if (pos == 0) {                           /* the seat leads: a top trump, else low */
            g = (s == S->trump && !(S->all & S->trumps & ~S->hands[S->seat] & ~S->below[c])) ? 8192 + ok
                                                                                          : 4095 - ok;
        }
        else if (p == S->seat)                             /* seat: take the trick if it can */
            g = wins ? 8192 + (pos == S->nact - 1 ? 4095 - ok : ok) : 4095 - ok;
        else if (soff < pos)                               /* seat has played */
            g = (wpos == soff && wins) ? 8192 + 4095 - ok : 4095 - ok;
        else if (seat_beats)  /* seat still to play: first cover its best card as cheaply as possible */
            g = (trick_key(S, lead_suit, c) > seat_top) ? 8192 + 4095 - ok : 4096 + ok;
        else g = 4095 - ok;                               /* ... unless the seat cannot win it anyway */
        pr = ((uint64_t)(g >> 12) << 48) | ((uint64_t)S->history[c] << 12) | (uint64_t)(g & 4095);
        for (b = nc - 1; b >= 0 && pri[b] < pr; b--) { cands[b + 1] = cands[b]; pri[b + 1] = pri[b]; }
        cands[b + 1] = c;
        pri[b + 1] = pr;
        nc++;
    }
    for (i = 0; i < nc; i++) {
        int c = cands[i];
        S->nodes++;
        if (S->node_limit && S->nodes > S->node_limit) { S->stop = HB_E_BUDGET; return 0; }
        if ((S->nodes & CANCEL_EVERY) == 0 && S->cancel != NULL && *S->cancel) {
            S->stop = HB_E_CANCELLED;
            return 0;
        }
        S->hands[p] &= ~BIT(c);
        S->all &= ~BIT(c);
        S->trick[pos] = (uint8_t)c;
        res = play_from(S, pos + 1, k);
        S->hands[p] |= BIT(c);
        S->all |= BIT(c);
        if (S->stop) return 0;
        if (p == S->seat ? res : !res) {
            int left = popcount64(S->hands[p]);
            if (S->history[c] < (UINT32_C(1) << 30)) S->history[c] += (uint32_t)(left * left);
            return res;
        }
    }
    return p != S->seat;
}

static int check_position(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat)
{
    uint64_t seen = 0;
    int i, size = -1;
    if (game < 0 || game > 2) return HB_E_GAME;
    if (trump < 0 || trump > 3) return HB_E_TRUMP;
    if (hands == NULL) return HB_E_NULL;
    if (nseats < 2 || nseats > 8) return HB_E_SEATS;
    for (i = 0; i < nseats; i++) {
        int n;
        if (hands[i] & ~FULL52) return HB_E_MASK;
        if (hands[i] & seen) return HB_E_DUP;
        seen |= hands[i];
        n = popcount64(hands[i]);
        if (n == 0) continue;
        if (n > 5) return HB_E_LEN;
        if (size >= 0 && n != size) return HB_E_LEN;
        size = n;
    }
    if (size < 0) return HB_E_LEN;
    if (leader < 0 || leader >= nseats || hands[leader] == 0) return HB_E_SEATS;
    if (seat < 0 || seat >= nseats || hands[seat] == 0) return HB_E_SEATS;
    return HB_OK;
}

static int tt_ok(const hb_tt_entry *tt, size_t tt_size)
{
    if (tt_size == 0) return 1;
    if (tt == NULL) return 0;
    return (tt_size & (tt_size - 1)) == 0;
}

int hb__solve_position(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat,
                       hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                       int *result, uint64_t *nodes)
{
    solver S;
    int i, s, j, k = 0, size;
    memset(&S, 0, sizeof S);
    hb_rules_init(game, trump, &S.r);
    S.trump = trump;
    S.trumps = S.r.suit_mask[trump];
    S.tt = tt_size ? tt : NULL;
    S.tt_mask = tt_size ? tt_size - 1 : 0;
    S.tt_limit = tt_size / 2;
    S.gen = gen;
    S.node_limit = node_limit;
    S.cancel = cancel;
    for (i = 0; i < nseats; i++) {
        uint64_t m;
        if (!hands[i]) continue;
        if (i == leader) S.leader = S.nact;
        if (i == seat) S.seat = S.nact;
        S.hands[S.nact] = hands[i];
        S.all |= hands[i];
        for (m = hands[i]; m; m &= m - 1) S.owner[lowest_bit(m)] = (uint8_t)S.nact;
        S.order[S.nact++] = i;
    }
    for (i = 0; i < 52; i++) {
        int pw = ((S.r.suit[i] == trump) << 5) | S.r.rank[i];
        S.order_key[i] = (uint16_t)(pw * 64 + i);
        s = S.r.suit[i];
        for (j = S.n_by_suit[s] - 1; j >= 0 && S.r.rank[S.by_suit[s][j]] > S.r.rank[i]; j--)
            S.by_suit[s][j + 1] = S.by_suit[s][j];
        S.by_suit[s][j + 1] = (uint8_t)i;
        S.n_by_suit[s]++;
    }
    for (s = 0; s < 4; s++)
        for (i = 0; i < S.n_by_suit[s]; i++)
            S.below[S.by_suit[s][i]] = i ? S.below[S.by_suit[s][i - 1]] | BIT(S.by_suit[s][i - 1]) : 0;
    size = popcount64(S.hands[S.seat]);
    while (k < size && boundary(&S, k + 1) && !S.stop) k++;
    if (nodes != NULL) *nodes = S.nodes;
    if (S.stop) return S.stop;
    *result = k;
    return HB_OK;
}

int hb_solve_limited(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat,
                     hb_tt_entry *tt, size_t tt_size, uint32_t gen, uint64_t node_limit, const int *cancel,
                     int *result, uint64_t *nodes)
{
    int rc;
    if (result == NULL) return HB_E_NULL;
    if (nodes != NULL) *nodes = 0;
    rc = check_position(game, trump, hands, nseats, leader, seat);
    if (rc != HB_OK) return rc;
    if (!tt_ok(tt, tt_size)) return HB_E_TT;
    return hb__solve_position(game, trump, hands, nseats, leader, seat, tt, tt_size, gen, node_limit, cancel,
                              result, nodes);
}

int hb_solve(int game, int trump, const uint64_t *hands, int nseats, int leader, int seat, hb_tt_entry *tt,
             size_t tt_size, uint32_t gen, int *result)
{
    return hb_solve_limited(game, trump, hands, nseats, leader, seat, tt, tt_size, gen, 0, NULL, result, NULL);
}
