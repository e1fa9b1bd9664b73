/*
 * hb_vec_be.c -- Buck 'Em as a state machine: the twin of
 * hucklebuck/games/buckem.py, _buckem_deal.py and _buckem_settle.py (every
 * option, 5-8 players), and of its tensor layout (hucklebuck/games/tensors.py).
 *
 * Chips are 64-bit here (Python's are unbounded): the wrapper steps a batch
 * on this lane only when its episodes provably keep every chip count below
 * HB_BE_CHIPS, and every state read is checked against that bound, so the
 * arithmetic below cannot overflow whatever the caller passes.
 */
#include <string.h>
#include "hb_vec_internal.h"

#define F(x) ((cfg->flags & HB_VEC_BE_FLAG_##x) != 0)
#define HB_BE_CHIPS ((int64_t)1 << 58)
#define ACE 12     /* rank index of the ace (card = suit * 13 + rank index) */
#define JACK 9
/* The ids 55 + m for every m < 32 of at most three bits (the m with four or five
   bits are 15, 23, 27, 29, 30 and 31), as the two words of a legal-id mask. */
#define DRAW_M ((uint64_t)0xFFFFFFFF & ~((UINT64_C(1) << 15) | (UINT64_C(1) << 23) | (UINT64_C(1) << 27) \
                                         | (UINT64_C(1) << 29) | (UINT64_C(1) << 30) | (UINT64_C(1) << 31)))
#define DRAW_IDS_LOW (DRAW_M << HB_BE_DRAW)
#define DRAW_IDS_HIGH (DRAW_M >> (64 - HB_BE_DRAW))

static int scare_at(const hb_vec_cfg *cfg) { return (cfg->flags >> HB_VEC_BE_SCARE_SHIFT) & 7; }

int hb_v_be_check_cfg(const hb_vec_cfg *cfg)
{
    int n = cfg->players;
    if (cfg->flags & ~((1 << (HB_VEC_BE_SCARE_SHIFT + 3)) - 1)) return HB_E_V_CFG;
    if (n < 5 || n > 8 || scare_at(cfg) > 4) return HB_E_V_CFG;
    if (F(ODD_CARRY) && F(ODD_FIRST_LEFT)) return HB_E_V_CFG;
    if (F(REMOVED_CARD) && !(F(SHORT) && (n == 5 || n == 6))) return HB_E_V_CFG;
    if (cfg->lock_at < 1 || cfg->pot_limit < 0 || cfg->pot_limit > HB_BE_CHIPS) return HB_E_V_CFG;
    if (cfg->hands < 1) return HB_E_V_CFG;  /* a session has no end of its own */
    return HB_OK;
}

/* The lowest rank index of the pack: 5 short-handed players drop the 2s and 3s, 6 the 2s. */
static int low_rank(const hb_vec_cfg *cfg)
{
    if (!F(SHORT)) return 0;
    return cfg->players == 5 ? 2 : cfg->players == 6 ? 1 : 0;
}

static int swap_on(const hb_vec_cfg *cfg) { return F(SWAP) && low_rank(cfg) == 0; }

static int seat_ok(int s, int n) { return s >= 0 && s < n; }

/* Whether the first len bytes of a are cards (0..51): one branch, so the loop vectorizes. */
static int cards_ok(const uint8_t *a, int len)
{
    unsigned bad = 0;
    int i;
    for (i = 0; i < len; i++) bad |= a[i] > 51;
    return !bad;
}

int hb_v_be_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int n = cfg->players, s;
    unsigned bad = 0;
    uint64_t all = 0, overlap = 0, cards = 0;
    if (e->dealer >= n || e->tlen >= n || e->tricks > 5 || e->hand_len > HB_VEC_HAND_LOG) return HB_E_V_STATE;
    if (e->term > 2 || e->trump > 3 || e->upcard > 51 || e->upcard0 > 51) return HB_E_V_STATE;
    if (e->swapped != HB_NONE && e->swapped >= n) return HB_E_V_STATE;
    if (e->stock_len > 52 || e->stock_pos > e->stock_len || e->aside_len > 52 || e->dpool_len > 52)
        return HB_E_V_STATE;
    if (e->exch_len > n || e->exch_index > e->exch_len || e->leader >= n || e->turn >= n) return HB_E_V_STATE;
    if (e->ante_due > 1 || e->ante_taken > 1 || (e->active >> n) || (e->drew >> n)) return HB_E_V_STATE;
    if (e->pot < 0 || e->pot > HB_BE_CHIPS || e->units < 0 || e->units > HB_BE_CHIPS) return HB_E_V_STATE;
    /* the per-seat checks accumulate without branches (this runs at every step) */
    for (s = 0; s < 8; s++) {
        bad |= (uint8_t)(e->choice[s] + 1) > 3;   /* HB_NONE, 0, 1, 2 */
        bad |= (uint8_t)(e->scare[s] + 1) > 52;   /* HB_NONE, a card */
        bad |= e->drawn[s] > 3;
        bad |= e->won[s] > 5;                     /* the split multiplies the pot by it */
    }
    for (s = 0; s < e->exch_len; s++) bad |= e->exch[s] >= n;
    for (s = 0; s < e->tlen; s++) bad |= (e->trick[s] > 51) | (e->tseat[s] >= n);
    for (s = 0; s < n; s++) {
        cards |= e->hands[s] | e->played[s] | e->disc[s] | e->dealt[s];
        overlap |= all & e->hands[s];
        all |= e->hands[s];
        bad |= (uint64_t)e->bank[s] + (uint64_t)HB_BE_CHIPS > 2 * (uint64_t)HB_BE_CHIPS;
    }
    if (bad || overlap || (cards >> 52)) return HB_E_V_STATE;
    switch (e->phase) {
    case HB_PH_STAY_FOLD: case HB_PH_DRAW:
        if (e->exch_index >= e->exch_len || e->turn != e->exch[e->exch_index]) return HB_E_V_STATE;
        if (e->phase != HB_PH_DRAW) break;
        /* only the draw reads the stock and the piles that re-form it */
        if (popcount64(e->hands[e->turn]) != 5 || !cards_ok(e->stock, e->stock_len) || !cards_ok(e->aside, e->aside_len)
            || !cards_ok(e->dpool, e->dpool_len))
            return HB_E_V_STATE;
        break;
    case HB_PH_PLAY:
        if (e->tricks >= 5 || !(e->active >> e->leader & 1) || !(e->active >> e->turn & 1)) return HB_E_V_STATE;
        if (e->tlen >= popcount64(e->active)) return HB_E_V_STATE;
        break;
    case HB_PH_HAND_OVER:
        if (!e->term) return HB_E_V_STATE;
        break;
    default:
        return HB_E_V_STATE;
    }
    return HB_OK;
}

void hb_v_be_begin(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int s;
    (void)cfg;
    for (s = 0; s < 8; s++) e->bank[s] = 0;
    e->pot = e->units = 0;
    e->ante_due = 1;
    e->dealer = 0;
}

/* Deal the next round (_buckem_deal.random_deal, BuckEmGame._begin_hand). */
void hb_v_be_deal(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int n = cfg->players, s, i, j, k = 0, low = low_rank(cfg), dealt = 5 * n, pos = scare_at(cfg);
    uint8_t cards[52], removed[52];
    int nremoved = 0;
    for (j = 0; j < 52; j++) {
        if (j % 13 >= low) cards[k++] = (uint8_t)j;
        else removed[nremoved++] = (uint8_t)j;
    }
    hb_v_shuffle(&e->rng, cards, k);
    for (s = 0; s < 8; s++) {
        e->hands[s] = e->played[s] = e->disc[s] = e->dealt[s] = 0;
        e->won[s] = e->trick[s] = e->tseat[s] = 0;
        e->choice[s] = e->scare[s] = HB_NONE;
        e->drawn[s] = 0;
        e->exch[s] = 0;
    }
    for (i = 0; i < n; i++) {  /* one at a time from eldest: seat eldest+i gets cards i, i+n, ... */
        s = (e->dealer + 1 + i) % n;
        for (j = 0; j < 5; j++) e->hands[s] |= UINT64_C(1) << cards[i + j * n];
        e->dealt[s] = e->hands[s];
        if (F(SCARE)) e->scare[s] = cards[i + pos * n];
        e->exch[i] = (uint8_t)s;
    }
    if (F(REMOVED_CARD) && nremoved > 0) {
        e->upcard = removed[hb_v_below(&e->rng, (uint32_t)nremoved)];  /* random.Random.choice */
        e->stock_len = (uint8_t)(k - dealt);
        memcpy(e->stock, cards + dealt, (size_t)(k - dealt));
    } else {
        e->upcard = cards[dealt];
        e->stock_len = (uint8_t)(k - dealt - 1);
        memcpy(e->stock, cards + dealt + 1, (size_t)(k - dealt - 1));
    }
    e->upcard0 = e->upcard;
    e->trump = (uint8_t)(e->upcard / 13);
    e->stock_pos = e->aside_len = e->dpool_len = 0;
    e->swapped = HB_NONE;
    e->drew = e->active = 0;
    e->exch_len = (uint8_t)n;
    e->exch_index = 0;
    e->tlen = e->tricks = e->play_started = 0;
    e->leader = 0;
    e->ante_taken = 0;
    if (e->ante_due) {  /* the ante (S3): every seat, in a normal round */
        for (s = 0; s < n; s++) e->bank[s] -= cfg->lock_at;
        e->pot += (int64_t)cfg->lock_at * n;
        e->units++;
        e->ante_due = 0;
        e->ante_taken = 1;
    }
    e->phase = HB_PH_STAY_FOLD;
    e->turn = e->exch[0];
}

int hb_v_be_to_act(const hb_vec_env *e)
{
    if (e->term || e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER) return -1;
    return e->turn;
}

int hb_v_be_fits(const hb_vec_env *e, int n, int id)
{
    int seat = hb_v_be_to_act(e);
    if (!seat_ok(seat, n) || id < 0) return 0;
    switch (e->phase) {
    case HB_PH_PLAY: return id < 52 && (e->hands[seat] >> id & 1);
    case HB_PH_STAY_FOLD: return id >= HB_BE_STAY && id <= HB_BE_FOLD;
    case HB_PH_DRAW:
        return id >= HB_BE_DRAW && id < HB_BE_ACTIONS && popcount64((uint64_t)(id - HB_BE_DRAW)) <= 3;
    default: return 0;
    }
}

static void set_id(uint64_t legal[2], int id) { legal[id >> 6] |= UINT64_C(1) << (id & 63); }

static int deuce(const hb_vec_env *e) { return e->trump * 13; }

static int can_swap(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat)
{
    uint64_t bit = UINT64_C(1) << deuce(e);
    if (!swap_on(cfg) || e->upcard % 13 == ACE) return 0;  /* the trump ace is locked in */
    return (e->dealt[seat] & bit) && (e->hands[seat] & bit);
}

static int scared(const hb_vec_env *e, int seat) { return e->scare[seat] != HB_NONE && e->scare[seat] / 13 == e->trump; }

void hb_v_be_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2])
{
    int seat = hb_v_be_to_act(e);
    legal[0] = legal[1] = 0;
    if (!seat_ok(seat, cfg->players)) return;
    switch (e->phase) {
    case HB_PH_PLAY:
        legal[0] = hb_play_mask(rules, e, seat);
        break;
    case HB_PH_STAY_FOLD:
        set_id(legal, HB_BE_STAY);
        if (can_swap(cfg, e, seat)) set_id(legal, HB_BE_SWAP);
        if (!scared(e, seat)) set_id(legal, HB_BE_FOLD);
        break;
    case HB_PH_DRAW:  /* every choice of 0-3 of the five cards: ids 55 + m, m of at most 3 bits */
        legal[0] = DRAW_IDS_LOW;
        legal[1] = DRAW_IDS_HIGH;
        break;
    default:
        break;
    }
}

/* _close_round: the round is over (change: each seat's chips won or paid in its settling). */
static void close_round(const hb_vec_cfg *cfg, hb_vec_env *e, const int64_t *change, float *rew)
{
    int n = cfg->players, s;
    if (e->pot == 0) e->units = 0;
    if (cfg->reward >= 1)  /* "hand" and "progress": the chips of the round */
        for (s = 0; s < n; s++)
            rew[s] += (float)(double)(change[s] - (e->ante_taken ? (int64_t)cfg->lock_at : 0));
    e->phase = HB_PH_HAND_OVER;
    e->dealer = (uint8_t)((e->dealer + 1) % n);
}

static void void_round(const hb_vec_cfg *cfg, hb_vec_env *e, float *rew)
{
    int64_t change[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    e->ante_due = (uint8_t)F(VOID_ANTE);
    close_round(cfg, e, change, rew);
}

/* _rake_qualifies: the ace of trump, or two trumps at least one of them K, Q or J. */
static int rake_qualifies(uint64_t hand, int trump)
{
    uint64_t trumps = (hand >> (13 * trump)) & 0x1FFF;
    if (trumps >> ACE & 1) return 1;
    return popcount64(trumps) >= 2 && (trumps >> JACK & 7) != 0;
}

static void lone_stayer(const hb_vec_cfg *cfg, hb_vec_env *e, int seat, float *rew)
{
    int64_t change[8] = {0, 0, 0, 0, 0, 0, 0, 0}, take;
    uint64_t hand = F(RAKE_AFTER_SWAP) ? e->hands[seat] : e->dealt[seat];
    if (!rake_qualifies(hand, e->trump)) {
        void_round(cfg, e, rew);
        return;
    }
    if (e->units <= 1) take = e->pot;
    else if (F(RAKE_CEIL)) take = (e->pot + 1) / 2;
    else take = e->pot / 2;
    change[seat] = take;
    e->bank[seat] += take;
    e->pot -= take;
    if (e->pot > 0) {
        e->units = 1;  /* a rake leftover counts as single; no ante next */
        e->ante_due = 0;
    } else {
        e->units = 0;
        e->ante_due = 1;
    }
    close_round(cfg, e, change, rew);
}

/* _buckem_settle.hand_played: payouts and burns after the five tricks. */
static void hand_played(const hb_vec_cfg *cfg, hb_vec_env *e, float *rew)
{
    int n = cfg->players, s, w[2], nw = 0, nburned = 0, a, b;
    int64_t change[8] = {0, 0, 0, 0, 0, 0, 0, 0}, pot = e->pot, paid = 0, match, carry_units;
    for (s = 0; s < n; s++) {
        if (!(e->active >> s & 1)) continue;
        if (e->won[s] >= 2) {
            if (nw < 2) w[nw] = s;
            nw++;
        } else {
            nburned++;
        }
    }
    if (nw == 1) {
        change[w[0]] = pot;
    } else if (nw == 2) {
        a = w[0];
        b = w[1];
        if (F(PROPORTIONAL)) {
            int total = e->won[a] + e->won[b];
            change[a] = pot * e->won[a] / total;
            change[b] = pot * e->won[b] / total;
        } else {
            change[a] = change[b] = pot / 2;
            if (pot % 2) {
                int odd = -1;
                if (!F(ODD_CARRY) && !F(ODD_FIRST_LEFT) && e->won[a] != e->won[b])
                    odd = e->won[a] > e->won[b] ? a : b;
                else if (F(ODD_FIRST_LEFT))
                    odd = (a - e->dealer - 1 + 2 * n) % n <= (b - e->dealer - 1 + 2 * n) % n ? a : b;
                if (odd >= 0) change[odd] += 1;
            }
        }
    }
    for (s = 0; s < n; s++) paid += change[s];
    carry_units = nw ? 0 : e->units;
    match = cfg->pot_limit > 0 && cfg->pot_limit < pot ? cfg->pot_limit : pot;
    for (s = 0; s < n; s++) {
        if (!(e->active >> s & 1)) continue;
        if (e->won[s] <= 1) change[s] = -match;
        e->bank[s] += change[s];
    }
    e->pot = pot - paid + match * nburned;
    e->units = carry_units + nburned;
    e->ante_due = (uint8_t)(nburned == 0);
    close_round(cfg, e, change, rew);
}

static void next_decision(const hb_vec_cfg *cfg, hb_vec_env *e, float *rew)
{
    int n = cfg->players, j, s, nstay = 0, lone = 0;
    uint8_t order[8];
    e->exch_index++;
    if (e->exch_index < e->exch_len) {
        e->turn = e->exch[e->exch_index];
        return;
    }
    for (j = 0; j < e->exch_len && j < n; j++) {
        s = e->exch[j];
        if (e->choice[s] <= 1) {
            order[nstay++] = (uint8_t)s;
            lone = s;
        }
    }
    if (nstay == 0) {
        void_round(cfg, e, rew);
    } else if (nstay == 1) {
        lone_stayer(cfg, e, lone, rew);
    } else {
        memcpy(e->exch, order, (size_t)nstay);
        e->exch_len = (uint8_t)nstay;
        e->exch_index = 0;
        e->phase = HB_PH_DRAW;
        e->turn = e->exch[0];
    }
}

/* serve_from_stock with the Buck 'Em pool: when the stock runs out it is
   re-formed from the folded hands, else from the stayers' earlier discards,
   shuffled from the environment's stream. */
static uint64_t serve(hb_vec_env *e, int need)
{
    uint64_t got = 0;
    while (need > 0) {
        if (e->stock_pos >= e->stock_len) {
            if (e->aside_len) {
                memcpy(e->stock, e->aside, e->aside_len);
                e->stock_len = e->aside_len;
                e->aside_len = 0;
            } else {
                memcpy(e->stock, e->dpool, e->dpool_len);
                e->stock_len = e->dpool_len;
                e->dpool_len = 0;
            }
            e->stock_pos = 0;
            if (e->stock_len == 0) break;  /* the rules' card counts make this impossible */
            hb_v_shuffle(&e->rng, e->stock, e->stock_len);
        }
        got |= UINT64_C(1) << e->stock[e->stock_pos++];
        need--;
    }
    return got;
}

static void do_draw(hb_vec_env *e, int seat, int id)
{
    uint64_t hand = e->hands[seat], discards = hb_discard_mask(hand, id - HB_BE_DRAW), bits;
    int j;
    e->hands[seat] = (hand & ~discards) | serve(e, popcount64(discards));
    for (bits = discards; bits && e->dpool_len < 52; bits &= bits - 1)
        e->dpool[e->dpool_len++] = (uint8_t)lowest_bit(bits);
    e->disc[seat] = discards;
    e->drew |= (uint8_t)(1u << seat);
    e->drawn[seat] = (uint8_t)popcount64(discards);
    e->exch_index++;
    if (e->exch_index < e->exch_len) {
        e->turn = e->exch[e->exch_index];
        return;
    }
    e->active = 0;  /* the first stayer left of the dealer leads */
    for (j = 0; j < e->exch_len; j++) e->active |= (uint8_t)(1u << e->exch[j]);
    e->phase = HB_PH_PLAY;
    e->play_started = 1;
    e->leader = e->turn = e->exch[0];
    e->tlen = e->tricks = 0;
}

static int next_active(const hb_vec_env *e, int n, int seat)
{
    int s = (seat + 1) % n, k;
    for (k = 0; k < n && !(e->active >> s & 1); k++) s = (s + 1) % n;
    return s;
}

void hb_v_be_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id,
                   float *rew)
{
    int n = cfg->players, seat = hb_v_be_to_act(e);
    uint64_t hand;
    if (!seat_ok(seat, n)) return;
    switch (e->phase) {
    case HB_PH_PLAY: {
        uint64_t bit = UINT64_C(1) << id;
        int k = popcount64(e->active);
        e->hands[seat] &= ~bit;
        e->played[seat] |= bit;
        e->tseat[e->tlen] = (uint8_t)seat;
        e->trick[e->tlen++] = (uint8_t)id;
        if (e->tlen >= k) {
            int w = e->tseat[hb_i_trick_winner(&rules[e->trump], e->trump, e->trick, k)];
            e->won[w]++;
            e->leader = e->turn = (uint8_t)w;
            e->tlen = 0;
            e->tricks++;
            if (e->tricks == 5) hand_played(cfg, e, rew);
        } else {
            e->turn = (uint8_t)next_active(e, n, seat);
        }
        break;
    }
    case HB_PH_STAY_FOLD:
        if (id == HB_BE_FOLD) {
            e->choice[seat] = 2;
            for (hand = e->hands[seat]; hand && e->aside_len < 52; hand &= hand - 1)
                e->aside[e->aside_len++] = (uint8_t)lowest_bit(hand);
            e->hands[seat] = 0;
        } else {
            e->choice[seat] = (uint8_t)(id - HB_BE_STAY);
            if (id == HB_BE_SWAP) {
                uint64_t two = UINT64_C(1) << deuce(e);
                e->hands[seat] = (e->hands[seat] & ~two) | (UINT64_C(1) << e->upcard);
                e->upcard = (uint8_t)deuce(e);
                e->swapped = (uint8_t)seat;
            }
        }
        next_decision(cfg, e, rew);
        break;
    case HB_PH_DRAW: do_draw(e, seat, id); break;
    default: break;
    }
}

void hb_v_be_returns(const hb_vec_cfg *cfg, const hb_vec_env *e, float *rew)
{
    int s;
    for (s = 0; s < cfg->players; s++) rew[s] += (float)(double)e->bank[s];
}

/* tensors.py observation_tensor for Buck 'Em; t holds cfg->tensor zeros. */
void hb_v_be_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t)
{
    int n = cfg->players, s, hidden = e->phase == HB_PH_STAY_FOLD && F(SIMULTANEOUS), up = e->upcard;
    int trump_at = 52 + 104 * n + 3 * n; /* the planes before it: tensor_base */
    int phase_at = trump_at + 4, won_at = phase_at + 12, stand_at = won_at + n, upcard_at = stand_at + n;
    int scare_at_ = upcard_at + 52, dec_at = scare_at_ + 52 * n, drew_at = dec_at + 3 * n, count_at = drew_at + n;
    int discard_at = count_at + n, pot_at = discard_at + 52;
#define REL(x) (((x) - seat + n) % n)
    if (!seat_ok(seat, n)) return;
    tensor_base(e, seat, n, e->tseat, e->turn, t);
    if (hidden && e->swapped != HB_NONE && e->swapped != seat) up = e->upcard0;
    t[upcard_at + up] = 1.0f;
    for (s = 0; s < n; s++) {
        int r = REL(s);
        if (e->bank[s]) t[stand_at + r] = (float)(double)e->bank[s];
        if (e->scare[s] != HB_NONE) t[scare_at_ + 52 * r + e->scare[s]] = 1.0f;
        if (e->choice[s] <= 2 && (!hidden || s == seat)) t[dec_at + 3 * r + e->choice[s]] = 1.0f;
        if (e->drew >> s & 1) {
            t[drew_at + r] = 1.0f;
            t[count_at + r] = (float)e->drawn[s];
        }
    }
    set_cards(t + discard_at, e->disc[seat]);
    t[pot_at] = (float)(double)e->pot;
    t[pot_at + 1] = (float)(double)e->units;
    t[pot_at + 2] = (float)(e->stock_len - e->stock_pos);
#undef REL
}
