/*
 * hb_vec_hb.c -- Hucklebuck as a state machine: the twin of
 * hucklebuck/games/hucklebuck.py, _hucklebuck_bidding.py and
 * _hucklebuck_scoring.py (every option, 3-7 players), and of its tensor
 * layout (hucklebuck/games/tensors.py).
 */
#include <string.h>
#include "hb_vec_internal.h"

#define OUT_AT (-25)
#define F(x) ((cfg->flags & HB_VEC_HB_FLAG_##x) != 0)

int hb_v_hb_check_cfg(const hb_vec_cfg *cfg)
{
    if (cfg->flags & ~2047) return HB_E_V_CFG;
    if ((cfg->flags & HB_VEC_HB_FLAG_MOON_ZERO_WINS) && (cfg->flags & HB_VEC_HB_FLAG_MOON_ZERO_SCORES))
        return HB_E_V_CFG;
    if ((cfg->flags & HB_VEC_HB_FLAG_TIE_BIDDER_FIRST) && (cfg->flags & HB_VEC_HB_FLAG_TIE_SHARED))
        return HB_E_V_CFG;
    if (cfg->players < 3 || cfg->players > 7) return HB_E_V_CFG;
    return HB_OK;
}

static int seated(const hb_vec_env *e, int n, int s) { return s < n && !(e->out >> s & 1); }

static int next_seated(const hb_vec_env *e, int n, int seat)
{
    int s = (seat + 1) % n, k;
    for (k = 0; k < n && (e->out >> s & 1); k++) s = (s + 1) % n;
    return s;
}

static int next_active(const hb_vec_env *e, int n, int seat)
{
    int s = (seat + 1) % n, k;
    for (k = 0; k < n && !(e->active >> s & 1); k++) s = (s + 1) % n;
    return s;
}

/* The stock, the set-aside pile and each seat's discards: only an exchange reads them (and the
   tensors, which check the whole state).  They lie in the struct's lines 5 to 7, which a step of
   any other phase then need not read at all (hb_v_hb_check_step). */
static int check_piles(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int n = cfg->players, s;
    for (s = 0; s < e->stock_len; s++)
        if (e->stock[s] > 51) return HB_E_V_STATE;
    for (s = 0; s < e->aside_len; s++)
        if (e->aside[s] > 51) return HB_E_V_STATE;
    for (s = 0; s < n; s++)
        if (e->disc[s] >> 52) return HB_E_V_STATE;
    return HB_OK;
}

/* Everything but the piles' cards (their lengths included). */
static int check_core(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int n = cfg->players, s;
    uint64_t all = 0;
    unsigned seats = (1u << n) - 1;
    if (e->dealer >= n || e->tlen >= n || e->tricks > 5 || e->hand_len > HB_VEC_HAND_LOG) return HB_E_V_STATE;
    if (e->term > 2 || (e->trump > 3 && e->trump != HB_NONE) || e->high > 5 || e->high == 1) return HB_E_V_STATE;
    if (e->stock_len > 52 || e->stock_pos > e->stock_len || e->aside_len > 52) return HB_E_V_STATE;
    if ((e->out & ~seats) || (e->passed & ~seats) || (e->active & ~seats)) return HB_E_V_STATE;
    if (e->out == seats && e->phase != HB_PH_HAND_OVER && e->phase != HB_PH_GAME_OVER) return HB_E_V_STATE;
    if (e->bidder != HB_NONE && e->bidder >= n) return HB_E_V_STATE;
    if ((e->bidder == HB_NONE) != (e->high == 0)) return HB_E_V_STATE;
    if (e->exch_len > n || e->exch_index > e->exch_len) return HB_E_V_STATE;
    for (s = 0; s < 8; s++) {
        if (e->declared[s] > HB_HB_DROPPED && e->declared[s] != HB_NONE) return HB_E_V_STATE;
        if (s >= n && e->declared[s] != HB_NONE) return HB_E_V_STATE;
        if (s < e->exch_len && e->exch[s] >= n) return HB_E_V_STATE;
        if (s < e->tlen && (e->trick[s] > 51 || e->tseat[s] >= n)) return HB_E_V_STATE;
    }
    switch (e->phase) {
    case HB_PH_AUCTION:
        if (e->turn >= n || !seated(e, n, e->turn) || e->high == 5) return HB_E_V_STATE;
        break;
    case HB_PH_TRUMP:
        if (e->bidder == HB_NONE || e->turn != e->bidder) return HB_E_V_STATE;
        break;
    case HB_PH_DECLARE:
        if (e->bidder == HB_NONE || e->trump > 3 || e->turn >= n || !seated(e, n, e->turn)) return HB_E_V_STATE;
        break;
    case HB_PH_EXCHANGE:
        if (e->bidder == HB_NONE || e->trump > 3 || e->exch_index >= e->exch_len) return HB_E_V_STATE;
        s = e->exch[e->exch_index];
        if (e->turn != s || e->declared[s] < 1 || e->declared[s] > 5 || popcount64(e->hands[s]) != 5)
            return HB_E_V_STATE;
        break;
    case HB_PH_PLAY:
        if (e->bidder == HB_NONE || e->trump > 3 || e->tricks >= 5 || e->leader >= n) return HB_E_V_STATE;
        if (!(e->active >> e->leader & 1) || e->tlen >= popcount64(e->active)) return HB_E_V_STATE;
        if (e->turn >= n || !(e->active >> e->turn & 1)) return HB_E_V_STATE;
        break;
    case HB_PH_HAND_OVER: case HB_PH_GAME_OVER:
        if (!e->term) return HB_E_V_STATE;
        break;
    default:
        return HB_E_V_STATE;
    }
    for (s = 0; s < n; s++) {
        if ((e->hands[s] >> 52) || (all & e->hands[s]) || (e->played[s] >> 52)) return HB_E_V_STATE;
        if (e->scores[s] > (1 << 20) || e->scores[s] < -(1 << 20)) return HB_E_V_STATE;
        all |= e->hands[s];
    }
    return HB_OK;
}

int hb_v_hb_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int rc = check_core(cfg, e);
    return rc == HB_OK ? check_piles(cfg, e) : rc;
}

int hb_v_hb_check_step(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int rc = check_core(cfg, e);
    return rc == HB_OK && e->phase == HB_PH_EXCHANGE ? check_piles(cfg, e) : rc;
}

void hb_v_hb_begin(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int s;
    (void)cfg;
    for (s = 0; s < 8; s++) e->scores[s] = 0;
    e->out = 0;
    e->dealer = 0;
}

/* Deal the next hand (hucklebuck.py _random_deal, _begin_hand). */
void hb_v_hb_deal(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int n = cfg->players, s, j, k = 0, dealt;
    uint8_t cards[52], order[8];
    for (j = 0; j < 52; j++) cards[j] = (uint8_t)j;
    hb_v_shuffle(&e->rng, cards, 52);
    for (s = 0; s < 8; s++) {
        e->hands[s] = e->played[s] = e->disc[s] = 0;
        e->won[s] = e->trick[s] = e->tseat[s] = 0;
        e->declared[s] = HB_NONE;
        e->exch[s] = 0;
    }
    for (j = 1; j <= n; j++) {
        s = (e->dealer + j) % n;
        if (seated(e, n, s)) order[k++] = (uint8_t)s;
    }
    dealt = 5 * k;
    for (j = 0; j < dealt; j++) e->hands[order[j % k]] |= UINT64_C(1) << cards[j];
    e->stock_len = (uint8_t)(52 - dealt);
    memcpy(e->stock, cards + dealt, (size_t)(52 - dealt));
    e->stock_pos = e->aside_len = 0;
    e->high = 0;
    e->bidder = e->trump = HB_NONE;
    e->passes_in_row = e->passed = e->active = 0;
    e->exch_len = e->exch_index = 0;
    e->tlen = e->tricks = e->play_started = 0;
    e->leader = 0;
    e->winners = 0;
    e->phase = HB_PH_AUCTION;
    e->turn = (uint8_t)next_seated(e, n, e->dealer);
}

int hb_v_hb_to_act(const hb_vec_env *e)
{
    if (e->term || e->phase == HB_PH_HAND_OVER || e->phase == HB_PH_GAME_OVER) return -1;
    return e->turn;  /* kept in the play too */
}

int hb_v_hb_fits(const hb_vec_env *e, int n, int id)
{
    int seat = hb_v_hb_to_act(e);
    (void)n;
    if (seat < 0 || id < 0) return 0;
    switch (e->phase) {
    case HB_PH_PLAY: return id < 52 && (e->hands[seat] >> id & 1);
    case HB_PH_AUCTION:
        return id == HB_HB_PASS || (id >= HB_HB_BID + (e->high ? e->high - 1 : 0) && id < HB_HB_TRUMP);
    case HB_PH_TRUMP: return id >= HB_HB_TRUMP && id < HB_HB_DROP;
    case HB_PH_DECLARE: return id >= HB_HB_DROP && id < HB_HB_DISCARD;
    case HB_PH_EXCHANGE:
        return id >= HB_HB_DISCARD && id < HB_HB_DISCARD + 32
               && popcount64((uint64_t)(id - HB_HB_DISCARD)) == e->declared[seat];
    default: return 0;
    }
}

static void set_id(uint64_t legal[2], int id) { legal[id >> 6] |= UINT64_C(1) << (id & 63); }

void hb_v_hb_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2])
{
    int seat = hb_v_hb_to_act(e), b, m;
    legal[0] = legal[1] = 0;
    if (seat < 0) return;
    switch (e->phase) {
    case HB_PH_PLAY:
        legal[0] = hb_play_mask(rules, e, seat);
        break;
    case HB_PH_AUCTION:
        if (!(F(DEALER_MUST_BID) && seat == e->dealer && e->high == 0)) set_id(legal, HB_HB_PASS);
        for (b = e->high ? e->high + 1 : 2; b <= 5; b++) set_id(legal, HB_HB_BID + b - 2);
        break;
    case HB_PH_TRUMP:
        for (b = 0; b < 4; b++) set_id(legal, HB_HB_TRUMP + b);
        break;
    case HB_PH_DECLARE:
        if (seat != e->bidder) set_id(legal, HB_HB_DROP);
        for (b = 0; b <= 5; b++) set_id(legal, HB_HB_STAY + b);
        break;
    case HB_PH_EXCHANGE:
        for (m = 0; m < 32; m++)
            if (popcount64((uint64_t)m) == e->declared[seat]) set_id(legal, HB_HB_DISCARD + m);
        break;
    default:
        break;
    }
}

/* _hucklebuck_scoring.py _game_end: the winners (bits) after a hand, or 0. */
static unsigned game_end(const hb_vec_cfg *cfg, const hb_vec_env *e, int moon)
{
    int n = cfg->players, s, top = -(1 << 30), target = F(TARGET_11) ? 11 : 15, nalive = 0, nat = 0, ntied = 0;
    unsigned at = 0, tied = 0, alive = 0;
    int bidder = e->high ? e->bidder : -1;
    if (moon >= 0) return 1u << moon;
    for (s = 0; s < n; s++) {
        if (e->out >> s & 1) continue;
        alive |= 1u << s;
        nalive++;
        if (e->scores[s] >= target) {
            at |= 1u << s;
            nat++;
            if (e->scores[s] > top) top = e->scores[s];
        }
    }
    if (nat) {
        for (s = 0; s < n; s++)
            if ((at >> s & 1) && e->scores[s] == top) { tied |= 1u << s; ntied++; }
        if (F(TIE_SHARED)) return tied;
        if (F(TIE_BIDDER_FIRST)) {
            if (bidder >= 0 && (at >> bidder & 1)) return 1u << bidder;
            if (nat == 1) return at;
        } else {
            if (ntied == 1) return tied;
            if (bidder >= 0 && (tied >> bidder & 1)) return 1u << bidder;
        }
    }
    if (nalive == 1) return alive;
    if (nalive == 0) {
        unsigned best = 0;
        top = -(1 << 30);
        for (s = 0; s < n; s++) if (e->scores[s] > top) top = e->scores[s];
        for (s = 0; s < n; s++) if (e->scores[s] == top) best |= 1u << s;
        return best;
    }
    return 0;
}

static void finish_hand(const hb_vec_cfg *cfg, hb_vec_env *e, const int *delta, int moon, float *rew)
{
    int n = cfg->players, s;
    unsigned winners;
    for (s = 0; s < n; s++) {
        e->scores[s] += delta[s];
        if (cfg->reward == 1) rew[s] += (float)delta[s];
    }
    for (s = 0; s < n; s++)
        if (e->scores[s] <= OUT_AT) e->out |= (uint8_t)(1u << s);
    winners = game_end(cfg, e, moon);
    if (e->out != (1u << n) - 1) e->dealer = (uint8_t)next_seated(e, n, e->dealer);
    e->winners = (uint8_t)winners;
    e->phase = winners ? HB_PH_GAME_OVER : HB_PH_HAND_OVER;
    if (winners && cfg->reward == 1)
        for (s = 0; s < n; s++)
            if (winners >> s & 1) rew[s] += 1.0f;
    if (cfg->reward == 2) {  /* "progress" (hucklebuck/vector/_rewards.py): toward the target */
        int target = F(TARGET_11) ? 11 : 15;
        for (s = 0; s < n; s++) {
            int b = e->scores[s] - delta[s], a = e->scores[s];
            int before = b >= target ? 0 : target - b, after = a >= target ? 0 : target - a;
            double x = winners ? (double)(winners >> s & 1) + (double)(before - target) / target
                               : (double)(before - after) / target;
            rew[s] = (float)((double)rew[s] + x);
        }
    }
}

static void score_played(const hb_vec_cfg *cfg, hb_vec_env *e, float *rew)
{
    int n = cfg->players, s, delta[8] = {0, 0, 0, 0, 0, 0, 0, 0}, moon = -1;
    for (s = 0; s < n; s++) {
        int t = e->won[s], prior = e->scores[s], stacks = F(PENALTY_STACKS) && t == 0;
        if (!(e->active >> s & 1)) continue;
        if (s != e->bidder) {
            delta[s] = t >= 1 ? t : -5;
        } else if (e->high == 5) {
            if (t == 5) {
                if (prior > 0 || (prior == 0 && F(MOON_ZERO_WINS))) {
                    moon = s;
                    delta[s] = 5;
                } else if (prior == 0 && F(MOON_ZERO_SCORES)) {
                    delta[s] = 5;
                } else {
                    delta[s] = -prior;
                }
            } else {
                delta[s] = stacks ? -20 : -15;
            }
        } else if (t >= e->high) {
            delta[s] = prior < 0 && F(ANY_BID_RESET) ? -prior : t;
        } else {
            delta[s] = stacks ? -10 : -5;
        }
    }
    finish_hand(cfg, e, delta, moon, rew);
}

static void begin_play(hb_vec_env *e)
{
    int s;
    e->active = 0;
    for (s = 0; s < 8; s++)
        if (e->declared[s] <= 5) e->active |= (uint8_t)(1u << s);
    e->phase = HB_PH_PLAY;
    e->play_started = 1;
    e->leader = e->bidder;
    e->turn = e->bidder;
    e->tlen = e->tricks = 0;
}

static void start_exchange(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int n = cfg->players, j, s;
    int first = F(DEALER_LEFT) ? e->dealer + 1 : e->bidder + 1;
    e->exch_len = e->exch_index = 0;
    for (j = 0; j < n; j++) {
        s = (first + j) % n;
        if (e->declared[s] >= 1 && e->declared[s] <= 5) e->exch[e->exch_len++] = (uint8_t)s;
    }
    if (e->exch_len) {
        e->phase = HB_PH_EXCHANGE;
        e->turn = e->exch[0];
    } else {
        begin_play(e);
    }
}

static void do_auction(const hb_vec_cfg *cfg, hb_vec_env *e, int seat, int id, float *rew)
{
    int n = cfg->players, nseated = n - popcount64(e->out), s;
    int delta[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned live;
    if (id != HB_HB_PASS) {
        e->high = (uint8_t)(id - HB_HB_BID + 2);
        e->bidder = (uint8_t)seat;
        e->passes_in_row = 0;
        if (e->high == 5) goto ended;
    } else {
        e->passed |= (uint8_t)(1u << seat);
        e->passes_in_row++;
    }
    if (F(REENTRY)) {
        if (e->high == 0 && e->passes_in_row >= nseated) goto all_passed;
        if (e->high != 0 && e->passes_in_row >= nseated - 1) goto ended;
        e->turn = (uint8_t)next_seated(e, n, seat);
        return;
    }
    live = ((1u << n) - 1) & ~(unsigned)e->out & ~(unsigned)e->passed;
    if (!live) goto all_passed;
    if (e->high != 0 && live == 1u << e->bidder) goto ended;
    s = next_seated(e, n, seat);
    while (e->passed >> s & 1) s = next_seated(e, n, s);
    e->turn = (uint8_t)s;
    return;
ended:
    e->phase = HB_PH_TRUMP;
    e->turn = e->bidder;
    return;
all_passed:
    delta[e->dealer] = 5;
    finish_hand(cfg, e, delta, -1, rew);
}

static void do_declare(const hb_vec_cfg *cfg, hb_vec_env *e, int seat, int id, float *rew)
{
    int n = cfg->players, s, nxt, all_dropped = 1;
    uint64_t hand;
    if (id == HB_HB_DROP) {
        e->declared[seat] = HB_HB_DROPPED;
        for (hand = e->hands[seat]; hand && e->aside_len < 52; hand &= hand - 1)
            e->aside[e->aside_len++] = (uint8_t)lowest_bit(hand);
        e->hands[seat] = 0;
    } else {
        e->declared[seat] = (uint8_t)(id - HB_HB_STAY);
    }
    if (seat == e->bidder) {
        start_exchange(cfg, e);
        return;
    }
    nxt = next_seated(e, n, seat);
    for (s = 0; s < n; s++)
        if (e->declared[s] <= 5) all_dropped = 0;
    if (nxt == e->bidder && all_dropped) {
        int delta[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        delta[e->bidder] = 5;
        finish_hand(cfg, e, delta, e->high == 5 && F(LONE_MOON_WINS) ? e->bidder : -1, rew);
        return;
    }
    e->turn = (uint8_t)nxt;
}

/* serve_from_stock: deal `need` cards from the stock, re-forming it from the
   set-aside pile (shuffled from the environment's stream) when it runs out. */
static uint64_t serve(hb_vec_env *e, int need)
{
    uint64_t got = 0;
    while (need > 0) {
        if (e->stock_pos >= e->stock_len) {
            if (e->aside_len == 0) break;  /* the rules' card counts make this impossible */
            memcpy(e->stock, e->aside, e->aside_len);
            e->stock_len = e->aside_len;
            e->stock_pos = 0;
            e->aside_len = 0;
            hb_v_shuffle(&e->rng, e->stock, e->stock_len);
        }
        got |= UINT64_C(1) << e->stock[e->stock_pos++];
        need--;
    }
    return got;
}

static void do_exchange(hb_vec_env *e, int seat, int id)
{
    uint64_t hand = e->hands[seat], discards = hb_discard_mask(hand, id - HB_HB_DISCARD), bits;
    hand = (hand & ~discards) | serve(e, popcount64(discards));
    for (bits = discards; bits && e->aside_len < 52; bits &= bits - 1)
        e->aside[e->aside_len++] = (uint8_t)lowest_bit(bits);
    e->hands[seat] = hand;
    e->disc[seat] = discards;
    e->exch_index++;
    if (e->exch_index < e->exch_len)
        e->turn = e->exch[e->exch_index];
    else
        begin_play(e);
}

void hb_v_hb_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id,
                   float *rew)
{
    int n = cfg->players, seat = hb_v_hb_to_act(e);
    if (e->phase == HB_PH_PLAY) {
        uint64_t bit = UINT64_C(1) << id;
        int k = popcount64(e->active);
        e->hands[seat] &= ~bit;
        e->played[seat] |= bit;
        e->tseat[e->tlen] = (uint8_t)seat;
        e->trick[e->tlen++] = (uint8_t)id;
        if (e->tlen == k) {
            int w = e->tseat[hb_i_trick_winner(&rules[e->trump], e->trump, e->trick, k)];
            e->won[w]++;
            e->leader = (uint8_t)w;
            e->turn = (uint8_t)w;
            e->tlen = 0;
            e->tricks++;
            if (e->tricks == 5) score_played(cfg, e, rew);
        } else {
            e->turn = (uint8_t)next_active(e, n, seat);
        }
        return;
    }
    switch (e->phase) {
    case HB_PH_AUCTION: do_auction(cfg, e, seat, id, rew); break;
    case HB_PH_TRUMP: {
        e->trump = (uint8_t)(id - HB_HB_TRUMP);
        e->phase = HB_PH_DECLARE;
        e->turn = (uint8_t)next_seated(e, n, e->bidder);
        break;
    }
    case HB_PH_DECLARE: do_declare(cfg, e, seat, id, rew); break;
    case HB_PH_EXCHANGE: do_exchange(e, seat, id); break;
    default: break;
    }
}

/* tensors.py observation_tensor for Hucklebuck; t holds cfg->tensor zeros. */
void hb_v_hb_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t)
{
    int n = cfg->players, s;
    int trump_at = 52 + 104 * n + 3 * n; /* the planes before it: tensor_base */
    int phase_at = trump_at + 4, won_at = phase_at + 12, stand_at = won_at + n, bidder_at = stand_at + n;
    int bid_at = bidder_at + n, passed_at = bid_at + 4, out_at = passed_at + n, decl_at = out_at + n;
    int discard_at = decl_at + 7 * n, stock_at = discard_at + 52;
#define REL(x) (((x) - seat + n) % n)
    tensor_base(e, seat, n, e->tseat, e->turn, t);
    for (s = 0; s < n; s++) {
        if (e->scores[s]) t[stand_at + REL(s)] = (float)e->scores[s];
        if (e->passed >> s & 1) t[passed_at + REL(s)] = 1.0f;
        if (e->out >> s & 1) t[out_at + REL(s)] = 1.0f;
        if (e->declared[s] <= 5) t[decl_at + 7 * REL(s) + 1 + e->declared[s]] = 1.0f;
        else if (e->declared[s] == HB_HB_DROPPED) t[decl_at + 7 * REL(s)] = 1.0f;
    }
    if (e->bidder != HB_NONE) t[bidder_at + REL(e->bidder)] = 1.0f;
    if (e->high) t[bid_at + e->high - 2] = 1.0f;
    set_cards(t + discard_at, e->disc[seat]);
    t[stock_at] = (float)(e->stock_len - e->stock_pos);
#undef REL
}
