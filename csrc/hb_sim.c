/* hb_sim.c -- bulk simulation in the C core: Hucklebuck, Deer Park and Buck 'Em
 * hands played out many times with fixed policies (bidding, calling, staying,
 * drawing), every card by the playout policy of hb_eval.c.  The pure-Python twin
 * is hucklebuck/_core/_py_sim.py: the same counts for the same inputs and seed.
 * No global mutable state. */
#include <string.h>
#include "hb_core.h"
#include "hb_internal.h"

#define HB_SIM_STAY_AT 3 /* a non-bidder stays with an estimate of 0.3 tricks (tenths) */

/* ------------------------------------------------------- bulk simulation */
/* Deal five cards each, one at a time from the dealer's left (DEF #1); return the cards used. */
static int deal_five(const uint8_t *deck, int dealer, int players, uint64_t *hands)
{
    int i, j, pos = 0;
    for (j = 0; j < 5; j++)
        for (i = 1; i <= players; i++) hands[(dealer + i) % players] |= UINT64_C(1) << deck[pos++];
    return pos;
}

/* Integer trick estimate (tenths of a trick) of a hand for a trump suit. */
static int estimate(uint64_t hand, int trump)
{
    int est = 0, ntr = 0, idx = 0, s, r;
    uint64_t tr = hand & (UINT64_C(0x1FFF) << (13 * trump));
    ntr = popcount64(tr);
    for (r = 12; r >= 0; r--) {
        if (!(tr & (UINT64_C(1) << (13 * trump + r)))) continue;
        if (r == 12) est += 10;
        else if (r == 11) est += ntr >= 2 ? 8 : 4;
        else if (r == 10) est += ntr >= 3 ? 6 : 3;
        else est += idx >= 2 ? 4 : 1;
        idx++;
    }
    for (s = 0; s < 4; s++) {
        uint64_t m;
        if (s == trump) continue;
        m = hand & (UINT64_C(0x1FFF) << (13 * s));
        if (m & (UINT64_C(1) << (13 * s + 12))) est += 7;
        if ((m & (UINT64_C(1) << (13 * s + 11))) && popcount64(m) >= 2) est += 3;
    }
    return est;
}

static int best_suit(uint64_t hand, int *est_out)
{
    int s, best = 0, be = -1;
    for (s = 0; s < 4; s++) {
        int e = estimate(hand, s);
        if (e >= be) { be = e; best = s; }
    }
    *est_out = be;
    return best;
}

/* The bid the simulated Hucklebuck bidder holding `hand` goes up to (0..5). */
static int sim_want(uint64_t hand)
{
    int e, w;
    best_suit(hand, &e);
    w = (e + 3) / 10;
    return (e >= 47 || w > 5) ? 5 : w;
}

/* The simulated auction from seat `cur` on: a seat raises by one while its
   `want` allows, else passes for good.  Updates `passed`, `*high` and returns
   the high bidder (-1 when everyone passed). */
static int sim_auction(const int *want, int *passed, int live, int *high, int bidder, int cur, int n)
{
    while (live > 0 && !(bidder >= 0 && live == 1) && *high < 5) {
        int need = *high ? *high + 1 : 2;
        if (!passed[cur] && cur != bidder) {
            if (want[cur] >= need) { *high = need; bidder = cur; }
            else { passed[cur] = 1; live--; }
        }
        cur = (cur + 1) % n;
    }
    return bidder;
}

static uint64_t weak_cards(uint64_t hand, int trump)
{
    uint64_t m, w = 0;
    for (m = hand; m; m &= m - 1) {
        int c = lowest_bit(m);
        if (c / 13 != trump && c % 13 < 10) w |= UINT64_C(1) << c;
    }
    return w;
}

/* Whether a simulation stops before hand h: the cancel flag is looked at every 1024 hands. */
static int stop_at(const int *cancel, uint32_t h)
{
    return (h & 1023) == 1023 && cancel != NULL && *(const volatile int *)cancel;
}

int hb_sim_hucklebuck(int players, uint64_t seed, uint32_t hands_n, uint64_t *stats, size_t nstats)
{
    return hb_sim_hucklebuck_cancel(players, seed, hands_n, NULL, stats, nstats);
}

int hb_sim_hucklebuck_cancel(int players, uint64_t seed, uint32_t hands_n, const int *cancel, uint64_t *stats,
                             size_t nstats)
{
    hb_rules rules[4];
    uint8_t deck[52];
    uint32_t h;
    uint64_t st = seed;
    int t;
    if (stats == NULL) return HB_E_NULL;
    if (players < 3 || players > 7) return HB_E_SEATS;
    if (nstats < HB_SIM_STATS) return HB_E_LEN;
    memset(stats, 0, sizeof(uint64_t) * HB_SIM_STATS);
    for (t = 0; t < 4; t++) hb_rules_init(HB_GAME_HUCKLEBUCK, t, &rules[t]);
    for (h = 0; h < hands_n && !stop_at(cancel, h); h++) {
        uint64_t hands[8] = {0}, aside = 0;
        int dealer = (int)(h % (uint32_t)players), i, pos, nstock, high = 0, bidder = -1;
        int want[8], trump, order[8], nact = 0, lp = 0, won[8] = {0}, stayed[8] = {0}, nstay_others = 0;
        uint8_t stock[52];
        for (i = 0; i < 52; i++) deck[i] = (uint8_t)i;
        hb_i_shuffle(&st, deck, 52);
        pos = deal_five(deck, dealer, players, hands);
        nstock = 52 - pos;
        memcpy(stock, deck + pos, (size_t)nstock);
        pos = 0;
        /* auction: pass is final; raise by one while the estimate allows */
        for (i = 0; i < players; i++) want[i] = sim_want(hands[i]);
        {
            int passed[8] = {0};
            bidder = sim_auction(want, passed, players, &high, bidder, (dealer + 1) % players, players);
        }
        if (bidder < 0) { stats[HB_SIM_ALL_PASS]++; continue; }
        {
            int e;
            trump = best_suit(hands[bidder], &e);
        }
        /* stay or drop, from the bidder's left, bidder last */
        for (i = 1; i < players; i++) {
            int s = (bidder + i) % players;
            if (estimate(hands[s], trump) >= HB_SIM_STAY_AT) { stayed[s] = 1; nstay_others++; }
            else { aside |= hands[s]; hands[s] = 0; }
        }
        stayed[bidder] = 1;
        if (nstay_others == 0) { stats[HB_SIM_LONE_BIDDER]++; continue; }
        /* exchange: weak cards, from the bidder's left, bidder last */
        for (i = 1; i <= players; i++) {
            int s = (bidder + i) % players, k;
            uint64_t disc;
            if (!stayed[s]) continue;
            disc = weak_cards(hands[s], trump);
            k = popcount64(disc);
            if (k == 0) continue;
            hands[s] &= ~disc;
            while (k > 0) {
                if (pos >= nstock) {  /* re-form from the set-aside cards (DEF #18) */
                    uint64_t m;
                    nstock = 0;
                    pos = 0;
                    for (m = aside; m; m &= m - 1) stock[nstock++] = (uint8_t)lowest_bit(m);
                    aside = 0;
                    hb_i_shuffle(&st, stock, nstock);
                    stats[HB_SIM_RESTOCKS]++;
                }
                hands[s] |= UINT64_C(1) << stock[pos++];
                k--;
            }
            aside |= disc;
        }
        for (i = 0; i < players; i++) if (stayed[i]) { if (i == bidder) lp = nact; order[nact++] = i; }
        hb_i_playout(&rules[trump], trump, hands, order, nact, lp, won);
        stats[HB_SIM_PLAYED]++;
        stats[HB_SIM_STAYERS] += (uint64_t)nact;
        stats[HB_SIM_BID_BASE + 2 * (high - 2) + (won[bidder] >= high ? 0 : 1)]++;
        for (i = 0; i < nact; i++)
            if (order[i] != bidder && won[order[i]] == 0) stats[HB_SIM_STAYER_ZERO]++;
    }
    return h < hands_n ? HB_E_CANCELLED : HB_OK;
}

/* ----------------------------------------------- Deer Park simulation */
/* Calling strength in tenths of a trick, bowers included. */
static int dp_strength(const hb_rules *r, int trump, uint64_t hand)
{
    uint64_t m;
    int est = 0;
    for (m = hand; m; m &= m - 1) {
        int c = lowest_bit(m);
        if (r->suit[c] == trump) {
            int k = r->rank[c];
            est += k == 14 ? 10 : k == 13 ? 9 : k == 12 ? 8 : k == 11 ? 6 : k == 10 ? 5 : 4;
        } else if (r->rank[c] == 12) {
            est += 5;
        }
    }
    return est;
}

static int dp_best_suit(const hb_rules *rules, uint64_t hand, int *est_out)
{
    int s, best = 0, be = -1;
    for (s = 0; s < 4; s++) {
        int e = dp_strength(&rules[s], s, hand);
        if (e >= be) { be = e; best = s; }
    }
    *est_out = be;
    return best;
}

int hb_sim_deerpark(int players, uint64_t seed, uint32_t hands_n, uint64_t *stats, size_t nstats)
{
    return hb_sim_deerpark_cancel(players, seed, hands_n, NULL, stats, nstats);
}

int hb_sim_deerpark_cancel(int players, uint64_t seed, uint32_t hands_n, const int *cancel, uint64_t *stats,
                           size_t nstats)
{
    hb_rules rules[4];
    uint8_t deck[36];
    uint32_t h;
    uint64_t st = seed;
    int t, ndeck = 0, low, s, r;
    if (stats == NULL) return HB_E_NULL;
    if (players < 3 || players > 7) return HB_E_SEATS;
    if (nstats < HB_DP_STATS) return HB_E_LEN;
    memset(stats, 0, sizeof(uint64_t) * HB_DP_STATS);
    for (t = 0; t < 4; t++) hb_rules_init(HB_GAME_DEERPARK, t, &rules[t]);
    low = 11 - players;
    for (h = 0; h < hands_n && !stop_at(cancel, h); h++) {
        uint64_t hands[8] = {0};
        int dealer = (int)(h % (uint32_t)players), i, pos, maker = -1, req = 0, trump = 0, turned;
        int order[8], won[8] = {0}, e;
        ndeck = 0;
        for (s = 0; s < 4; s++)
            for (r = low; r <= 12; r++) deck[ndeck++] = (uint8_t)(s * 13 + r);
        hb_i_shuffle(&st, deck, ndeck);
        pos = deal_five(deck, dealer, players, hands);
        turned = deck[pos];
        stats[HB_DP_HANDS]++;
        if (turned / 13 == 0) {  /* a turned club: clubs, the dealer needs 2 */
            maker = dealer; req = 2; trump = 0;
            stats[HB_DP_CLUB]++;
        } else {
            int ts = turned / 13;
            for (i = 1; i <= players && maker < 0; i++) {
                int p = (dealer + i) % players;
                if (dp_strength(&rules[ts], ts, hands[p]) >= 26) { maker = p; req = 3; trump = ts; }
            }
            if (maker >= 0) {  /* the dealer picks up and discards the cheapest card */
                uint64_t m;
                int worst = -1, wv = 1 << 30;
                stats[HB_DP_ORDERED]++;
                hands[dealer] |= UINT64_C(1) << turned;
                for (m = hands[dealer]; m; m &= m - 1) {
                    int c = lowest_bit(m), v = hb_i_power(&rules[trump], trump, c) * 64 + c;
                    if (v < wv) { wv = v; worst = c; }
                }
                hands[dealer] &= ~(UINT64_C(1) << worst);
            } else {
                for (i = 1; i < players && maker < 0; i++) {
                    int p = (dealer + i) % players, bs = dp_best_suit(rules, hands[p], &e);
                    if (e >= 28) { maker = p; req = 3; trump = bs; }
                }
                if (maker >= 0) {
                    stats[HB_DP_CALLED]++;
                } else {
                    maker = dealer; req = 2; trump = dp_best_suit(rules, hands[dealer], &e);
                    stats[HB_DP_STUCK]++;
                }
            }
        }
        for (i = 0; i < players; i++) order[i] = i;
        hb_i_playout(&rules[trump], trump, hands, order, players, (dealer + 1) % players, won);
        if (req == 3) stats[won[maker] >= 3 ? HB_DP_VOL_MADE : HB_DP_VOL_SET]++;
        else stats[won[maker] >= 2 ? HB_DP_FORCED_MADE : HB_DP_FORCED_SET]++;
        for (i = 0; i < players; i++) if (i != maker && won[i] == 0) stats[HB_DP_DEFENDER_ZERO]++;
    }
    return h < hands_n ? HB_E_CANCELLED : HB_OK;
}

/* ------------------------------------------------- Buck 'Em simulation */
static int bk_stays(uint64_t hand, int trump)
{
    uint64_t tr = hand & (UINT64_C(0x1FFF) << (13 * trump));
    int s, aces = 0;
    if (popcount64(tr) >= 2) return 1;
    for (s = 0; s < 4; s++)
        if (s != trump && (hand & (UINT64_C(1) << (13 * s + 12)))) aces++;
    return (tr >> (13 * trump + 10)) != 0 && aces > 0;
}

static int bk_rakes(uint64_t hand, int trump)
{
    uint64_t tr = hand & (UINT64_C(0x1FFF) << (13 * trump));
    if (tr & (UINT64_C(1) << (13 * trump + 12))) return 1;
    return popcount64(tr) >= 2 && (tr & (UINT64_C(7) << (13 * trump + 9))) != 0;
}

static int refill(uint64_t *st, uint8_t *stock, uint64_t *pool)
{
    uint64_t m;
    int n = 0;
    for (m = *pool; m; m &= m - 1) stock[n++] = (uint8_t)lowest_bit(m);
    *pool = 0;
    hb_i_shuffle(st, stock, n);
    return n;
}

int hb_sim_buckem(int players, uint64_t seed, uint32_t hands_n, int ante, uint64_t pot_limit, uint64_t *stats,
                  size_t nstats)
{
    return hb_sim_buckem_cancel(players, seed, hands_n, ante, pot_limit, NULL, stats, nstats);
}

int hb_sim_buckem_cancel(int players, uint64_t seed, uint32_t hands_n, int ante, uint64_t pot_limit,
                         const int *cancel, uint64_t *stats, size_t nstats)
{
    hb_rules rules[4];
    uint8_t deck[52], stock[52];
    uint32_t h;
    uint64_t st = seed, pot = 0, units = 0;
    int t, ante_due = 1;
    if (stats == NULL) return HB_E_NULL;
    if (players < 5 || players > 8) return HB_E_SEATS;
    if (ante < 1) return HB_E_LEN;
    if (nstats < HB_BK_STATS) return HB_E_LEN;
    memset(stats, 0, sizeof(uint64_t) * HB_BK_STATS);
    for (t = 0; t < 4; t++) hb_rules_init(HB_GAME_BUCKEM, t, &rules[t]);
    for (h = 0; h < hands_n && !stop_at(cancel, h); h++) {
        uint64_t hands[8] = {0}, folded = 0, discards = 0;
        int dealer = (int)(h % (uint32_t)players), i, pos, nstock, trump, nst = 0;
        int stayers[8], won[8] = {0}, winners = 0, w1 = -1, w2 = -1, nburn = 0;
        stats[HB_BK_HANDS]++;
        if (ante_due) { pot += (uint64_t)ante * (uint64_t)players; units++; ante_due = 0; }
        for (i = 0; i < 52; i++) deck[i] = (uint8_t)i;
        hb_i_shuffle(&st, deck, 52);
        pos = deal_five(deck, dealer, players, hands);
        trump = deck[pos++] / 13;  /* the upcard: never drawn */
        nstock = 52 - pos;
        memcpy(stock, deck + pos, (size_t)nstock);
        pos = 0;
        for (i = 1; i <= players; i++) {
            int p = (dealer + i) % players;
            if (bk_stays(hands[p], trump)) stayers[nst++] = p;
            else { folded |= hands[p]; hands[p] = 0; }
        }
        if (nst == 0) { stats[HB_BK_NO_STAYERS]++; ante_due = 1; continue; }
        if (nst == 1) {
            if (bk_rakes(hands[stayers[0]], trump)) {
                uint64_t take = units <= 1 ? pot : pot / 2;
                pot -= take;
                stats[HB_BK_RAKED]++;
                stats[HB_BK_CHIPS_WON] += take;
                if (pot > 0) { units = 1; ante_due = 0; } else { units = 0; ante_due = 1; }
            } else {
                stats[HB_BK_LONE_NO_RAKE]++;
                ante_due = 1;
            }
            continue;
        }
        for (i = 0; i < nst; i++) {  /* draw up to 3 weak cards, weakest first */
            int p = stayers[i], k = 0, c, rk;
            uint64_t disc = 0;
            for (rk = 0; rk < 12 && k < 3; rk++)
                for (c = rk; c < 52 && k < 3; c += 13)
                    if ((hands[p] & (UINT64_C(1) << c)) && c / 13 != trump) { disc |= UINT64_C(1) << c; k++; }
            hands[p] &= ~disc;
            while (k > 0) {
                if (pos >= nstock) {
                    nstock = refill(&st, stock, folded ? &folded : &discards);
                    pos = 0;
                    stats[HB_BK_RESTOCKS]++;
                }
                hands[p] |= UINT64_C(1) << stock[pos++];
                k--;
            }
            discards |= disc;
        }
        hb_i_playout(&rules[trump], trump, hands, stayers, nst, 0, won);
        stats[HB_BK_PLAYED]++;
        stats[HB_BK_STAYERS] += (uint64_t)nst;
        for (i = 0; i < nst; i++) {
            int p = stayers[i];
            if (won[p] >= 2) { if (winners++ == 0) w1 = p; else w2 = p; }
            else nburn++;
        }
        {
            uint64_t paid = 0, carry_units = winners ? 0 : units;
            uint64_t match = (pot_limit && pot > pot_limit) ? pot_limit : pot;
            if (winners == 1) paid = pot;
            if (winners == 2) {
                paid = (pot / 2) * 2;
                if ((pot & 1) && won[w1] != won[w2]) paid++;
            }
            stats[winners == 0 ? HB_BK_NO_WINNER : winners == 1 ? HB_BK_ONE_WINNER : HB_BK_TWO_WINNERS]++;
            stats[HB_BK_CHIPS_WON] += paid;
            stats[HB_BK_BURNED] += (uint64_t)nburn;
            if (match > (UINT64_C(1) << 58)) return HB_E_OVERFLOW;  /* the pot outgrew 64 bits */
            stats[HB_BK_CHIPS_BURNED] += match * (uint64_t)nburn;
            pot = pot - paid + match * (uint64_t)nburn;
            if (stats[HB_BK_CHIPS_WON] > (UINT64_C(1) << 62) || stats[HB_BK_CHIPS_BURNED] > (UINT64_C(1) << 62))
                return HB_E_OVERFLOW;
            units = carry_units + (uint64_t)nburn;
            ante_due = nburn == 0;
            if (pot == 0) units = 0;
        }
    }
    if (h < hands_n) return HB_E_CANCELLED;
    stats[HB_BK_FINAL_POT] = pot;
    return HB_OK;
}

/* ------------------------------------- shared with hb_search.c (hb_internal.h) */
int hb_i_estimate(uint64_t hand, int trump) { return estimate(hand, trump); }
int hb_i_best_suit(uint64_t hand, int *est_out) { return best_suit(hand, est_out); }
uint64_t hb_i_weak_cards(uint64_t hand, int trump) { return weak_cards(hand, trump); }
int hb_i_sim_want(uint64_t hand) { return sim_want(hand); }
int hb_i_sim_auction(const int *want, int *passed, int live, int *high, int bidder, int cur, int n)
{
    return sim_auction(want, passed, live, high, bidder, cur, n);
}
int hb_i_dp_strength(const hb_rules *r, int trump, uint64_t hand) { return dp_strength(r, trump, hand); }
int hb_i_bk_stays(uint64_t hand, int trump) { return bk_stays(hand, trump); }
int hb_i_bk_rakes(uint64_t hand, int trump) { return bk_rakes(hand, trump); }
