/* hb_search.c -- the Monte Carlo decision search of the C core.
 *
 * One call evaluates every candidate action of one decision over every sample:
 * it deals the cards the deciding seat has not seen to the other hands,
 * consistently with what it knows (hand sizes, cards known to be in a hand,
 * suits a seat has shown void in), then plays each candidate out to the end of
 * the hand on that same deal, the other seats' decisions taken by the core's
 * fixed simulation policies and every card by the playout policy (both from
 * hb_eval.c and hb_sim.c).  The result is one small record per (candidate, sample); the
 * caller turns records into game scores.  The pure-Python twin is
 * hucklebuck/_core/_py_search.py: same inputs and seed, same records.
 */
#include <string.h>
#include "hb_core.h"
#include "hb_internal.h"

#define FULL52 ((UINT64_C(1) << 52) - 1)
#define BIT(c) (UINT64_C(1) << (c))
#define MAX_TRIES 64
#define DUCKS(p) HB_I_DUCKS(p)

#if defined(__GNUC__) || defined(__clang__)
static int popc(uint64_t x) { return __builtin_popcountll(x); }
static int lowbit(uint64_t x) { return __builtin_ctzll(x); }
#else
static int popc(uint64_t x)
{
    int c = 0;
    while (x) { x &= x - 1; c++; }
    return c;
}

static int lowbit(uint64_t x)
{
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}
#endif

/* The draw pile of one simulated hand: the undealt unseen cards in sampled
 * order, then (if they run out) the cards set aside in this simulation,
 * lowest card first. */
typedef struct {
    const uint8_t *cards;
    int n, pos;
    uint64_t aside;
} pile;

static int draw_card(pile *p)
{
    int c;
    if (p->pos < p->n) return p->cards[p->pos++];
    if (!p->aside) return -1;
    c = lowbit(p->aside);
    p->aside &= ~BIT(c);
    return c;
}

static void exchange(pile *p, uint64_t *hand, uint64_t disc)
{
    int k, i, avail = (p->n - p->pos) + popc(p->aside);
    while (popc(disc) > avail) disc &= disc - 1;  /* never discard more than can be drawn */
    k = popc(disc);
    *hand &= ~disc;
    for (i = 0; i < k; i++) {
        int c = draw_card(p);
        if (c >= 0) *hand |= BIT(c);
    }
    p->aside |= disc;
}

/* The k weakest cards of a hand by playout power (then card number). */
static uint64_t weakest(const hb_rules *r, int trump, uint64_t hand, int k)
{
    uint64_t out = 0;
    while (k-- > 0 && hand) {
        uint64_t m;
        int worst = -1, wv = 1 << 30;
        for (m = hand; m; m &= m - 1) {
            int c = lowbit(m), v = hb_i_power(r, trump, c) * 64 + c;
            if (v < wv) { wv = v; worst = c; }
        }
        hand &= ~BIT(worst);
        out |= BIT(worst);
    }
    return out;
}

/* Buck 'Em draw policy: up to three non-trump cards below the ace, weakest rank first. */
static uint64_t bk_discards(uint64_t hand, int trump)
{
    uint64_t disc = 0;
    int k = 0, rk, c;
    for (rk = 0; rk < 12 && k < 3; rk++)
        for (c = rk; c < 52 && k < 3; c += 13)
            if ((hand & BIT(c)) && c / 13 != trump) { disc |= BIT(c); k++; }
    return disc;
}

static int card_for(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen, int ducks)
{
    return ducks ? hb_i_duck_card(r, trump, hand, trick, tlen) : hb_i_policy_card(r, trump, hand, trick, tlen);
}

/* Finish the current trick, then play out the hand: every seat by the playout
 * policy, except the seats of `duck` (bit per seat), which duck. */
static void play_rest(const hb_rules *r, int trump, uint64_t *hands, int nseats, unsigned active, int leader,
                      const uint8_t *trick0, int tlen, int *won, unsigned duck)
{
    int order[8], nact = 0, lp = 0, i;
    uint8_t trick[8];
    int seats[8];
    for (i = 0; i < nseats; i++)
        if (active & (1u << i)) { if (i == leader) lp = nact; order[nact++] = i; }
    if (nact == 0) return;
    for (i = 0; i < tlen; i++) { trick[i] = trick0[i]; seats[i] = order[(lp + i) % nact]; }
    if (!(duck & active)) {
        if (tlen > 0) {
            int w;
            for (i = tlen; i < nact; i++) {
                int s = order[(lp + i) % nact];
                int c = hb_i_policy_card(r, trump, hands[s], trick, i);
                hands[s] &= ~BIT(c);
                trick[i] = (uint8_t)c;
                seats[i] = s;
            }
            w = seats[hb_i_trick_winner(r, trump, trick, nact)];
            won[w]++;
            for (i = 0; i < nact; i++) if (order[i] == w) lp = i;
        }
        if (hands[order[lp]]) hb_i_playout(r, trump, hands, order, nact, lp, won);
        return;
    }
    while (tlen > 0 || hands[order[lp]]) {
        int w;
        for (i = tlen; i < nact; i++) {
            int s = order[(lp + i) % nact];
            int c = card_for(r, trump, hands[s], trick, i, (duck >> s) & 1);
            hands[s] &= ~BIT(c);
            trick[i] = (uint8_t)c;
            seats[i] = s;
        }
        w = seats[hb_i_trick_winner(r, trump, trick, nact)];
        won[w]++;
        for (i = 0; i < nact; i++) if (order[i] == w) lp = i;
        tlen = 0;
    }
}

/* How the rest of a simulated hand is played: by the policies (tt NULL), or with
 * open cards by hb_maxn.c, falling back to the policies past `limit` nodes. */
typedef struct {
    hb_maxn_tt *tt;
    uint64_t limit;
    const int *cancel;
} finisher;

static void finish(const finisher *f, const hb_rules *r, int trump, uint64_t *hands, int nseats, unsigned active,
                   int leader, const uint8_t *trick0, int tlen, int *won, unsigned duck)
{
    if (f->tt && hb_i_maxn(r, trump, hands, nseats, active, leader, trick0, tlen, duck, f->limit, f->cancel, f->tt,
                            won))
        return;
    play_rest(r, trump, hands, nseats, active, leader, trick0, tlen, won, duck);
}

static void record_play(const hb_search_pos *p, unsigned active, const int *won, int8_t *rec)
{
    int i;
    for (i = 0; i < 8; i++)
        rec[i] = (int8_t)((i < p->nseats && (active & (1u << i))) ? p->won[i] + won[i] : -1);
}

/* ------------------------------------------------------------ Hucklebuck */
static void sim_hucklebuck(const hb_search_pos *p, const hb_rules *rules, uint64_t *hands, pile *pl,
                           const hb_search_cand *cand, const finisher *f, int8_t *rec)
{
    int n = p->nseats, me = p->seat, high = p->high, bidder = p->bidder, trump = p->trump, i, e;
    int st[8], won[8] = {0}, others = 0;
    unsigned active = 0;
    uint64_t my_disc = 0;
    int have_disc = 0;
    if (p->phase == HB_SP_AUCTION) {
        int passed[8], want[8], live = 0;
        for (i = 0; i < n; i++) {
            passed[i] = p->size[i] == 0 || (p->state[i] & 1);
            if (!passed[i]) live++;
            want[i] = hb_i_sim_want(hands[i]);
        }
        want[me] = cand->arg;
        if (cand->arg == 0) { passed[me] = 1; live--; }
        else { high = cand->arg; bidder = me; }
        bidder = hb_i_sim_auction(want, passed, live, &high, bidder, (me + 1) % n, n);
        if (bidder < 0) {
            for (i = 0; i < 8; i++) rec[i] = -1;
            rec[8] = -1; rec[9] = 0; rec[10] = 1; rec[11] = -1;
            return;
        }
    }
    if (p->phase <= HB_SP_TRUMP) {
        if (p->phase == HB_SP_TRUMP) trump = cand->arg;
        else trump = hb_i_best_suit(hands[bidder], &e);
        for (i = 0; i < n; i++) st[i] = p->size[i] ? 0 : 1;
    } else {
        for (i = 0; i < n; i++) st[i] = p->state[i];
    }
    if (p->phase == HB_SP_DECLARE) {
        if (cand->arg < 0) st[me] = 1;
        else { st[me] = 3 + cand->arg; my_disc = cand->cards; have_disc = 1; }
    }
    if (p->phase == HB_SP_EXCHANGE) { my_disc = cand->cards; have_disc = 1; }
    if (p->phase <= HB_SP_DECLARE) {  /* the remaining stay-or-drop decisions, bidder last */
        int wins = p->win_bid[bidder] && high >= p->win_bid[bidder];  /* everyone stays to stop it */
        for (i = 1; i <= n; i++) {
            int s = (bidder + i) % n;
            int k = popc(hb_i_weak_cards(hands[s], trump));
            if (st[s] != 0) continue;
            if (s == bidder || wins || hb_i_estimate(hands[s], trump) >= p->stay_min[s]) st[s] = 3 + k;
            else st[s] = 1;
        }
    }
    for (i = 0; i < n; i++) {
        if (st[i] == 1) { pl->aside |= hands[i]; hands[i] = 0; }
        else if (i != bidder) others++;
    }
    if (others == 0) {  /* everyone else dropped */
        for (i = 0; i < 8; i++) rec[i] = -1;
        rec[8] = (int8_t)bidder; rec[9] = (int8_t)high; rec[10] = 2; rec[11] = (int8_t)trump;
        return;
    }
    for (i = 1; i <= n; i++) {  /* the exchange, bidder last */
        int s = (bidder + i) % n;
        uint64_t disc;
        if (st[s] < 3) continue;
        if (s == me && have_disc) disc = my_disc;
        else disc = weakest(&rules[trump], trump, hands[s], st[s] - 3);
        exchange(pl, &hands[s], disc);
        st[s] = 2;
    }
    for (i = 0; i < n; i++) if (st[i] == 2) active |= 1u << i;
    finish(f, &rules[trump], trump, hands, n, active, bidder, NULL, 0, won, 0);
    for (i = 0; i < 8; i++) rec[i] = (int8_t)((i < n && (active & (1u << i))) ? won[i] : -1);
    rec[8] = (int8_t)bidder; rec[9] = (int8_t)high; rec[10] = 0; rec[11] = (int8_t)trump;
}

/* ------------------------------------------------------------ Deer Park */
static void sim_deerpark(const hb_search_pos *p, const hb_rules *rules, uint64_t *hands,
                         const hb_search_cand *cand, const finisher *f, int8_t *rec)
{
    int n = p->nseats, me = p->seat, dealer = p->dealer, turned = p->turned, ts = turned / 13;
    int maker = p->bidder, req = p->high, trump = p->trump, i, k_me, won[8] = {0}, leader;
    unsigned active = 0;
    k_me = (me - dealer - 1 + 2 * n) % n;
    if (p->phase == HB_SP_ORDER) {
        if (cand->arg == 1) { maker = me; req = 3; trump = ts; }
        for (i = k_me + 1; i < n && maker < 0; i++) {
            int s = (dealer + 1 + i) % n, est;
            if (p->state[s] & 2) continue;
            est = hb_i_dp_strength(&rules[ts], ts, hands[s] | (s == dealer ? BIT(turned) : 0));
            if ((DUCKS(p) >> s) & 1 ? est < 16 : est >= 26) { maker = s; req = 3; trump = ts; }
        }
        /* the dealer picks the turned card up and discards, unless it holds it already (eight players) */
        if (maker >= 0 && !(hands[dealer] & BIT(turned))) {
            hands[dealer] |= BIT(turned);
            if ((DUCKS(p) >> dealer) & 1) {  /* a ducking dealer sheds its strongest card */
                uint64_t m, keep = hands[dealer];
                int best = -1, bv = -1;
                for (m = keep; m; m &= m - 1) {
                    int c = lowbit(m), v = hb_i_power(&rules[trump], trump, c) * 64 + c;
                    if (v > bv) { bv = v; best = c; }
                }
                hands[dealer] &= ~BIT(best);
            } else {
                hands[dealer] &= ~weakest(&rules[trump], trump, hands[dealer], 1);
            }
        }
    }
    if (maker < 0) {  /* round 2: name a suit */
        int first = 0;
        if (p->phase == HB_SP_CALL) {
            first = k_me + 1;
            if (cand->arg >= 0) { maker = me; trump = cand->arg; req = me == dealer ? 2 : 3; }
        }
        for (i = first; i < n && maker < 0; i++) {
            int s = (dealer + 1 + i) % n, bs = -1, be = -1, t;
            int stuck = s == dealer;
            if (!stuck && (p->state[s] & 2)) continue;
            int ducks = (DUCKS(p) >> s) & 1;
            for (t = 0; t < 4; t++) {
                int est;
                if (!stuck && (p->flags & 1) && t == ts) continue;
                est = hb_i_dp_strength(&rules[t], t, hands[s]);
                if (ducks) est = -est;  /* a ducking seat looks for its weakest suit */
                if (est >= be || bs < 0) { be = est; bs = t; }
            }
            if (stuck || (ducks ? -be < 16 : be >= 28)) { maker = s; trump = bs; req = stuck ? 2 : 3; }
        }
    }
    if (p->phase == HB_SP_DEALER_DISCARD) hands[me] &= ~cand->cards;
    for (i = 0; i < n; i++) if (p->size[i]) active |= 1u << i;
    leader = (p->flags & 2) ? maker : (dealer + 1) % n;
    finish(f, &rules[trump], trump, hands, n, active, leader, NULL, 0, won, DUCKS(p));
    for (i = 0; i < 8; i++) rec[i] = (int8_t)((i < n && (active & (1u << i))) ? won[i] : -1);
    rec[8] = (int8_t)maker; rec[9] = (int8_t)req; rec[10] = 0; rec[11] = (int8_t)trump;
}

/* ------------------------------------------------------------ Buck 'Em */
static void sim_buckem(const hb_search_pos *p, const hb_rules *rules, uint64_t *hands, pile *pl,
                       const hb_search_cand *cand, const finisher *f, int8_t *rec)
{
    int n = p->nseats, me = p->seat, dealer = p->dealer, trump = p->trump, i, nst = 0, won[8] = {0};
    int st[8], lead = -1;
    unsigned active = 0;
    for (i = 0; i < n; i++) st[i] = p->state[i] & 7;
    if (p->phase == HB_SP_STAY_FOLD) {
        if (cand->arg == 0) st[me] = 1;
        else {
            st[me] = 2;
            if (cand->arg == 2) { hands[me] &= ~BIT(13 * trump); hands[me] |= BIT(p->turned); }
        }
        for (i = 0; i < n; i++) {
            if (i == me || st[i] != 0 || p->size[i] == 0) continue;
            st[i] = ((p->state[i] & 8) || hb_i_bk_stays(hands[i], trump)) ? 2 : 1;
        }
    }
    for (i = 0; i < n; i++) {
        if (st[i] == 2 || st[i] == 4) nst++;
        else { pl->aside |= hands[i]; hands[i] = 0; }
    }
    for (i = 0; i < 8; i++) rec[i] = -1;
    rec[8] = -1; rec[9] = 0; rec[11] = 0;
    if (nst == 0) { rec[10] = 1; return; }
    if (nst == 1) {
        for (i = 0; i < n; i++) if (st[i] == 2 || st[i] == 4) rec[8] = (int8_t)i;
        rec[10] = 2;
        rec[11] = (int8_t)hb_i_bk_rakes(hands[rec[8]], trump);
        return;
    }
    for (i = n; i >= 1; i--) {  /* the first stayer left of the dealer leads */
        int s = (dealer + i) % n;
        if (st[s] == 2 || st[s] == 4) lead = s;
    }
    for (i = 1; i <= n; i++) {  /* draws from the dealer's left */
        int s = (dealer + i) % n;
        uint64_t disc;
        if (st[s] != 2) continue;
        disc = (s == me && p->phase == HB_SP_DRAW) ? cand->cards : bk_discards(hands[s], trump);
        exchange(pl, &hands[s], disc);
        st[s] = 4;
    }
    for (i = 0; i < n; i++) if (st[i] == 4) active |= 1u << i;
    finish(f, &rules[trump], trump, hands, n, active, lead, NULL, 0, won, 0);
    for (i = 0; i < 8; i++) rec[i] = (int8_t)((i < n && (active & (1u << i))) ? won[i] : -1);
    rec[10] = 0;
}
/* ------------------------------------------------------------ sampling */
typedef struct {
    uint8_t arr[52];
    int npool;
    int seats[8], nseats_need;
    int need[8];
    uint64_t allowed[8];
} sampler;

static void sampler_init(sampler *S, const hb_search_pos *p, const hb_rules *r)
{
    int i, j;
    uint64_t m;
    S->npool = 0;
    for (m = p->pool; m; m &= m - 1) S->arr[S->npool++] = (uint8_t)lowbit(m);
    S->nseats_need = 0;
    for (i = 0; i < p->nseats; i++) {
        uint64_t bad = 0;
        int s;
        S->need[i] = i == p->seat ? 0 : p->size[i] - popc(p->known[i]);
        for (s = 0; s < 4; s++)
            if ((p->voids[i] >> s) & 1) bad |= r->suit_mask[s];
        S->allowed[i] = p->pool & ~bad & ~p->barred[i];
        if (S->need[i] > 0) {  /* insertion by (allowed count, seat) */
            int cnt = popc(S->allowed[i]);
            for (j = S->nseats_need; j > 0 && popc(S->allowed[S->seats[j - 1]]) > cnt; j--)
                S->seats[j] = S->seats[j - 1];
            S->seats[j] = i;
            S->nseats_need++;
        }
    }
}

/* One more card for seat s by an augmenting path (Kuhn's matching): a free card it may
 * hold, or one held by a seat that can take another in its place; pool order first. */
static int augment(const sampler *S, int s, int8_t *owner, uint64_t *visited, uint64_t *hands)
{
    int j;
    for (j = 0; j < S->npool; j++) {
        int c = S->arr[j], o = owner[c];
        if (!(S->allowed[s] & BIT(c)) || (*visited & BIT(c)) || o == s) continue;
        *visited |= BIT(c);
        if (o < 0 || augment(S, o, owner, visited, hands)) {
            if (o >= 0) hands[o] &= ~BIT(c);
            owner[c] = (int8_t)s;
            hands[s] |= BIT(c);
            return 1;
        }
    }
    return 0;
}

/* Deal one sample: hands (known cards plus dealt ones) and the rest in order.  A seat that
 * cannot be filled from the cards left takes them by augmenting paths, so a deal is found
 * whenever one exists. */
static int sample_once(sampler *S, const hb_search_pos *p, uint64_t *st, uint64_t *hands, uint8_t *rest,
                       int *nrest)
{
    int t, i, j;
    for (t = 0; t < MAX_TRIES; t++) {
        int8_t owner[52];
        int ok = 1;
        memset(owner, -1, sizeof owner);
        hb_i_shuffle(st, S->arr, S->npool);
        for (i = 0; i < 8; i++) hands[i] = i < p->nseats ? p->known[i] : 0;
        for (i = 0; i < S->nseats_need && ok; i++) {
            int s = S->seats[i], got = 0;
            for (j = 0; j < S->npool && got < S->need[s]; j++) {
                int c = S->arr[j];
                if (owner[c] >= 0 || !(S->allowed[s] & BIT(c))) continue;
                owner[c] = (int8_t)s;
                hands[s] |= BIT(c);
                got++;
            }
            for (; got < S->need[s]; got++) {
                uint64_t visited = 0;
                if (!augment(S, s, owner, &visited, hands)) { ok = 0; break; }
            }
        }
        if (!ok) continue;
        *nrest = 0;
        for (j = 0; j < S->npool; j++)
            if (owner[S->arr[j]] < 0) rest[(*nrest)++] = S->arr[j];
        return HB_OK;
    }
    return HB_E_NODEAL;
}

static int rules_for(const hb_search_pos *p, hb_rules *rules)
{
    int t;
    for (t = 0; t < 4; t++) hb_rules_init(p->game, t, &rules[t]);
    return p->trump >= 0 ? p->trump : 0;
}

int hb_search_sample(const hb_search_pos *pos, uint64_t seed, uint32_t samples, uint64_t *out, size_t out_len)
{
    hb_rules rules[4];
    sampler S;
    uint8_t rest[52];
    int rc, nrest, t;
    uint32_t k;
    uint64_t st = seed;
    if (pos == NULL || (out == NULL && samples > 0)) return HB_E_NULL;
    if (pos->game < 0 || pos->game > 2) return HB_E_GAME;
    t = rules_for(pos, rules);
    rc = hb_i_search_check_pos(pos, pos->trump >= 0 ? &rules[t] : NULL);
    if (rc != HB_OK) return rc;
    if (out_len < (size_t)samples * 8) return HB_E_LEN;
    sampler_init(&S, pos, &rules[t]);
    for (k = 0; k < samples; k++) {
        rc = sample_once(&S, pos, &st, out + 8 * (size_t)k, rest, &nrest);
        if (rc != HB_OK) return rc;
    }
    return HB_OK;
}

int hb_search(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
              uint32_t samples, int8_t *out, size_t out_len)
{
    return hb_search_ex(pos, cands, ncands, seed, samples, HB_SEARCH_PLAYOUT, 0, out, out_len);
}

int hb_search_ex(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                 uint32_t samples, int method, uint64_t node_limit, int8_t *out, size_t out_len)
{
    return hb_search_cancel(pos, cands, ncands, seed, samples, method, node_limit, NULL, out, out_len);
}

int hb_search_cancel(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                     uint32_t samples, int method, uint64_t node_limit, const int *cancel, int8_t *out,
                     size_t out_len)
{
    return hb_search_pick(pos, cands, ncands, seed, samples, NULL, samples, method, node_limit, cancel, out,
                          out_len);
}

int hb_search_pick(const hb_search_pos *pos, const hb_search_cand *cands, int ncands, uint64_t seed,
                   uint32_t drawn, const uint32_t *picks, uint32_t samples, int method, uint64_t node_limit,
                   const int *cancel, int8_t *out, size_t out_len)
{
    finisher f;
    hb_rules rules[4];
    sampler S;
    uint8_t rest[52];
    uint64_t st = seed, dealt[8];
    int rc, nrest, t, ci;
    uint32_t k, d;
    if (pos == NULL || cands == NULL || out == NULL) return HB_E_NULL;
    if (pos->game < 0 || pos->game > 2) return HB_E_GAME;
    t = rules_for(pos, rules);
    rc = hb_i_search_check_pos(pos, pos->trump >= 0 ? &rules[t] : NULL);
    if (rc != HB_OK) return rc;
    if (ncands < 1 || ncands > HB_SEARCH_MAX_CANDS) return HB_E_CAND;
    if (samples < 1 || samples > (1u << 20) || drawn < samples || drawn > (1u << 22)) return HB_E_LEN;
    if (out_len < (size_t)ncands * samples * HB_SEARCH_REC) return HB_E_LEN;
    if (picks == NULL && drawn != samples) return HB_E_NULL;
    for (k = 0; picks != NULL && k < samples; k++) /* strictly increasing, each below drawn */
        if (picks[k] >= drawn || (k > 0 && picks[k] <= picks[k - 1])) return HB_E_PICK;
    for (ci = 0; ci < ncands; ci++) {
        rc = hb_i_search_check_cand(pos, &rules[t], &cands[ci]);
        if (rc != HB_OK) return rc;
    }
    if (method != HB_SEARCH_PLAYOUT && method != HB_SEARCH_SOLVER) return HB_E_MODE;
    f.tt = NULL;
    f.limit = node_limit;
    f.cancel = cancel;
    if (method == HB_SEARCH_SOLVER && (f.tt = hb_i_maxn_new()) == NULL) return HB_E_NOMEM;
    rc = HB_OK;
    sampler_init(&S, pos, &rules[t]);
    for (k = 0, d = 0; k < samples && rc == HB_OK; k++, d++) {
        if (cancel != NULL && *(const volatile int *)cancel) { rc = HB_E_CANCELLED; break; }
        rc = sample_once(&S, pos, &st, dealt, rest, &nrest);
        /* the deals before the next pick are drawn (the random stream is the same) and skipped */
        for (; rc == HB_OK && picks != NULL && d < picks[k]; d++)
            rc = sample_once(&S, pos, &st, dealt, rest, &nrest);
        if (rc != HB_OK) break;
        for (ci = 0; ci < ncands; ci++) {
            uint64_t hands[8];
            int8_t *rec = out + ((size_t)ci * samples + k) * HB_SEARCH_REC;
            pile pl;
            memcpy(hands, dealt, sizeof hands);
            pl.cards = rest; pl.n = nrest; pl.pos = 0; pl.aside = 0;
            /* a solve's table is kept across the cards of one deal (the hands are the
               same), emptied for every other solve (the hands may differ) */
            if (f.tt && (ci == 0 || pos->phase != HB_SP_PLAY)) hb_i_maxn_clear(f.tt);
            if (pos->phase == HB_SP_PLAY) {
                int won[8] = {0}, c = lowbit(cands[ci].cards), i;
                uint8_t trick[8];
                unsigned active = 0;
                for (i = 0; i < pos->nseats; i++) if (pos->state[i] & 1) active |= 1u << i;
                memcpy(trick, pos->trick, 8);
                trick[pos->trick_len] = (uint8_t)c;
                hands[pos->seat] &= ~BIT(c);
                finish(&f, &rules[t], t, hands, pos->nseats, active, pos->leader, trick, pos->trick_len + 1, won,
                       DUCKS(pos));
                record_play(pos, active, won, rec);
                rec[8] = (int8_t)pos->bidder; rec[9] = (int8_t)pos->high; rec[10] = 0; rec[11] = (int8_t)t;
            } else if (pos->game == HB_GAME_HUCKLEBUCK) {
                sim_hucklebuck(pos, rules, hands, &pl, &cands[ci], &f, rec);
            } else if (pos->game == HB_GAME_DEERPARK) {
                sim_deerpark(pos, rules, hands, &cands[ci], &f, rec);
            } else {
                sim_buckem(pos, rules, hands, &pl, &cands[ci], &f, rec);
            }
        }
    }
    hb_i_maxn_free(f.tt);
    return rc;
}
