/*
 * hb_vec_dp.c -- Deer Park Euchre as a state machine: the twin of
 * hucklebuck/games/deerpark.py and _deerpark_scoring.py (every option, 3-7
 * players, 8 with the dealer's-last-card turnup), and of its tensor layout
 * (hucklebuck/games/tensors.py).
 */
#include <string.h>
#include "hb_vec_internal.h"

#define START_SCORE 20
#define LOW_GOAL 0
#define HIGH_GOAL 50

int hb_v_dp_check_cfg(const hb_vec_cfg *cfg)
{
    int eight = (cfg->flags & HB_VEC_DP_FLAG_EIGHT) != 0;
    if (cfg->flags & ~127) return HB_E_V_CFG;
    if (cfg->players < 3 || cfg->players > 8 || (cfg->players == 8 && !eight)) return HB_E_V_CFG;
    return HB_OK;
}

int hb_v_dp_check_env(const hb_vec_cfg *cfg, const hb_vec_env *e)
{
    int n = cfg->players, s;
    uint64_t all = 0;
    if (e->dealer >= n || e->tlen >= n || e->tricks > 5 || e->hand_len > HB_VEC_HAND_LOG) return HB_E_V_STATE;
    if (e->term > 2 || e->turned > 51) return HB_E_V_STATE;
    if ((e->trump > 3 && e->trump != HB_NONE) || (e->discard > 51 && e->discard != HB_NONE)) return HB_E_V_STATE;
    if (e->maker >= n && e->maker != HB_NONE) return HB_E_V_STATE;
    switch (e->phase) {
    case HB_PH_ORDER: case HB_PH_CALL:
        if (e->index >= n || e->turn >= n) return HB_E_V_STATE;
        break;
    case HB_PH_DEALER_DISCARD:
        if (e->trump > 3 || e->maker >= n || e->turn >= n) return HB_E_V_STATE;
        break;
    case HB_PH_PLAY:
        if (e->trump > 3 || e->maker >= n || e->leader >= n || e->tricks >= 5) return HB_E_V_STATE;
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
    for (s = 0; s < e->tlen; s++)
        if (e->trick[s] > 51) return HB_E_V_STATE;
    return HB_OK;
}

static int locked(const hb_vec_cfg *cfg, const hb_vec_env *e, int s)
{
    if ((cfg->flags & HB_VEC_DP_FLAG_LOCK_PERMANENT) && (e->ever_locked >> s & 1)) return 1;
    return e->scores[s] >= cfg->lock_at;
}

static void begin_play(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    int n = cfg->players;
    int eldest = (e->dealer + 1) % n;
    e->leader = (uint8_t)((cfg->flags & HB_VEC_DP_FLAG_MAKER_LEADS) ? e->maker : eldest);
    e->phase = HB_PH_PLAY;
    e->play_started = 1;
    e->tlen = 0;
    e->tricks = 0;
}

static void pick_up(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    if (e->has_kitty) {
        e->hands[e->dealer] |= UINT64_C(1) << e->turned;
        e->phase = HB_PH_DEALER_DISCARD;
        e->turn = e->dealer;
    } else {
        begin_play(cfg, e);  /* eight players: the dealer already holds the turned card */
    }
}

/* Deal the next hand from the environment's random source (deerpark.py _random_deal). */
void hb_v_dp_deal(const hb_vec_cfg *cfg, hb_vec_env *e)
{
    /* The deck in order, card by card, a suit's ranks low..12 copied 16 bytes at once (the bytes
       past the suit's are overwritten by the next suit's, or lie past the deck: 13 - low <= 10). */
    static const uint8_t in_order[52 + 16] = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
        27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51};
    int n = cfg->players, low = 11 - n, size = 0, s, j, o, dealt = 5 * n;
    uint8_t cards[52];
    for (s = 0; s < 4; s++) {
        memcpy(cards + size, in_order + 13 * s + low, 16);
        size += 13 - low;
    }
    hb_v_dp_shuffle(cfg, e, cards, size);  /* (from the thread's memo when it holds it) */
    for (s = 0; s < 8; s++) {
        e->hands[s] = 0;
        e->played[s] = 0;
        e->won[s] = 0;
        e->trick[s] = 0;
    }
    /* one card each from the eldest hand on: the eldest's are cards 0, n, 2n, ..., the next seat's
       1, n + 1, ...; each hand gathered in a register, stored once */
    s = (e->dealer + 1) % n;
    if (n == 4) {  /* (the common table: the loops unrolled, a constant count) */
        for (o = 0; o < 4; o++) {
            uint64_t hand = (UINT64_C(1) << cards[o]) | (UINT64_C(1) << cards[o + 4]) | (UINT64_C(1) << cards[o + 8])
                            | (UINT64_C(1) << cards[o + 12]) | (UINT64_C(1) << cards[o + 16]);
            e->hands[s] = hand;
            s = (s + 1) & 3;
        }
    } else {
        for (o = 0; o < n; o++) {
            uint64_t hand = 0;
            for (j = o; j < dealt; j += n) hand |= UINT64_C(1) << cards[j];
            e->hands[s] = hand;
            if (++s == n) s = 0;
        }
    }
    e->has_kitty = (uint8_t)(dealt < size);
    e->turned = e->has_kitty ? cards[dealt] : cards[dealt - 1];
    e->trump = e->maker = HB_NONE;
    e->requirement = 0;
    e->discard = e->discard_seat = HB_NONE;
    e->passed_order = e->passed_call = 0;
    e->tlen = e->tricks = e->play_started = 0;
    e->leader = 0;
    e->index = 0;
    if (e->turned / 13 == 0) {  /* a turned club: clubs are trump, the dealer makes with 2 to take */
        e->trump = 0;
        e->maker = e->dealer;
        e->requirement = 2;
        if ((cfg->flags & HB_VEC_DP_FLAG_CLUB_PICKUP) && e->has_kitty)
            pick_up(cfg, e);
        else
            begin_play(cfg, e);
        return;
    }
    e->phase = HB_PH_ORDER;
    e->turn = (uint8_t)((e->dealer + 1) % n);
}

static void set_id(uint64_t legal[2], int id) { legal[id >> 6] |= UINT64_C(1) << (id & 63); }

void hb_v_dp_legal(const hb_vec_cfg *cfg, const hb_rules *rules, const hb_vec_env *e, uint64_t legal[2])
{
    int seat = hb_v_dp_to_act(e, cfg->players), s;
    legal[0] = legal[1] = 0;
    if (seat < 0) return;
    if (e->phase == HB_PH_PLAY) {
        uint64_t hand = e->hands[seat];
        if (e->tlen > 0) {
            uint64_t follow = hand & rules[e->trump].suit_mask[rules[e->trump].suit[e->trick[0]]];
            if (follow) hand = follow;
        }
        legal[0] = hand;
    } else if (e->phase == HB_PH_ORDER) {
        set_id(legal, HB_DP_PASS);
        if (!locked(cfg, e, seat)) set_id(legal, HB_DP_ORDER);
    } else if (e->phase == HB_PH_CALL) {
        if (seat == e->dealer) {  /* stuck: must name a suit, whatever the score */
            for (s = 0; s < 4; s++) set_id(legal, HB_DP_CALL + s);
        } else {
            set_id(legal, HB_DP_PASS);
            if (!locked(cfg, e, seat))
                for (s = 0; s < 4; s++)
                    if (!(cfg->flags & HB_VEC_DP_FLAG_ROUND2_EXCLUDES) || s != e->turned / 13)
                        set_id(legal, HB_DP_CALL + s);
        }
    } else {  /* the dealer's discard */
        uint64_t hand = e->hands[seat];
        while (hand) {
            set_id(legal, HB_DP_DISCARD + lowest_bit(hand));
            hand &= hand - 1;
        }
    }
}

static int distance(int sc) { return sc <= LOW_GOAL ? LOW_GOAL - sc : sc - HIGH_GOAL; }

/* reward "progress" (hucklebuck/vector/_rewards.py): how far a score is from the
   nearer goal, 0 at or past one; a score starts PROGRESS_SPAN from the nearer. */
#define PROGRESS_SPAN 20
static int gap(int sc)
{
    if (sc <= LOW_GOAL || sc >= HIGH_GOAL) return 0;
    return sc - LOW_GOAL < HIGH_GOAL - sc ? sc - LOW_GOAL : HIGH_GOAL - sc;
}

/* _deerpark_scoring.py: score the five tricks, then the winners (bits) or 0. */
static void score_hand(const hb_vec_cfg *cfg, hb_vec_env *e, float *rew)
{
    int n = cfg->players, s, delta[8], far = -1000000, nbest = 0, nreached = 0;
    unsigned reached = 0, best = 0, winners = 0;
    for (s = 0; s < n; s++) {
        int t = e->won[s];
        int need = s == e->maker ? e->requirement : 1;
        if (t >= need)
            delta[s] = -t;
        else if (s == e->maker && (cfg->flags & HB_VEC_DP_FLAG_FAILED_TRICKS))
            delta[s] = 5 - t;
        else
            delta[s] = 5;
    }
    for (s = 0; s < n; s++) {
        e->scores[s] += delta[s];
        if (e->scores[s] >= cfg->lock_at) e->ever_locked |= (uint8_t)(1u << s);
        if (cfg->reward == 1) rew[s] += (float)-delta[s];
        if (e->scores[s] <= LOW_GOAL || e->scores[s] >= HIGH_GOAL) {
            reached |= 1u << s;
            nreached++;
            if (distance(e->scores[s]) > far) far = distance(e->scores[s]);
        }
    }
    if (nreached == 1) {
        winners = reached;
    } else if (nreached > 1) {
        for (s = 0; s < n; s++)
            if ((reached >> s & 1) && distance(e->scores[s]) == far) { best |= 1u << s; nbest++; }
        if (nbest == 1 || (cfg->flags & HB_VEC_DP_FLAG_TIE_SHARED))
            winners = best;
        else if (best >> e->maker & 1)
            winners = 1u << e->maker;
    }
    e->dealer = (uint8_t)((e->dealer + 1) % n);
    e->winners = (uint8_t)winners;
    e->phase = winners ? HB_PH_GAME_OVER : HB_PH_HAND_OVER;
    if (winners && cfg->reward == 1)
        for (s = 0; s < n; s++)
            if (winners >> s & 1) rew[s] += 1.0f;
    if (cfg->reward == 2)
        for (s = 0; s < n; s++) {
            int before = gap(e->scores[s] - delta[s]), after = gap(e->scores[s]);
            double x = winners ? (double)(winners >> s & 1) + (double)(before - PROGRESS_SPAN) / PROGRESS_SPAN
                               : (double)(before - after) / PROGRESS_SPAN;
            rew[s] = (float)((double)rew[s] + x);
        }
}

void hb_v_dp_apply(const hb_vec_cfg *cfg, const hb_rules *rules, hb_vec_env *e, int id, float *rew)
{
    int n = cfg->players, seat = hb_v_dp_to_act(e, n);
    if (e->phase == HB_PH_PLAY) {
        hb_v_dp_play(e, seat, id);
        if (e->tlen == n) {
            hb_v_dp_end_trick(rules, e, n);
            if (e->tricks == 5) score_hand(cfg, e, rew);
        }
        return;
    }
    if (id == HB_DP_PASS) {
        if (e->phase == HB_PH_ORDER) e->passed_order |= (uint8_t)(1u << seat);
        else e->passed_call |= (uint8_t)(1u << seat);
        e->index++;
        if (e->phase == HB_PH_ORDER && e->index == n) {  /* round 2: the card is turned down */
            e->phase = HB_PH_CALL;
            e->index = 0;
        }
        e->turn = (uint8_t)((e->dealer + 1 + e->index) % n);
    } else if (id == HB_DP_ORDER) {
        e->trump = (uint8_t)(e->turned / 13);
        e->maker = (uint8_t)seat;
        e->requirement = 3;
        pick_up(cfg, e);
    } else if (id >= HB_DP_CALL) {
        e->trump = (uint8_t)(id - HB_DP_CALL);
        e->maker = (uint8_t)seat;
        e->requirement = (uint8_t)(seat == e->dealer ? 2 : 3);
        begin_play(cfg, e);
    } else {  /* the dealer's discard */
        e->hands[seat] &= ~(UINT64_C(1) << (id - HB_DP_DISCARD));
        e->discard = (uint8_t)(id - HB_DP_DISCARD);
        e->discard_seat = (uint8_t)seat;
        begin_play(cfg, e);
    }
}

/* tensors.py observation_tensor for Deer Park Euchre; t holds cfg->tensor zeros. */
void hb_v_dp_tensor(const hb_vec_cfg *cfg, const hb_vec_env *e, int seat, float *t)
{
    int n = cfg->players, s;
    int trump_at = 52 + 104 * n + 3 * n; /* the planes before it: tensor_base */
    int phase_at = trump_at + 4, won_at = phase_at + 12, stand_at = won_at + n, turned_at = stand_at + n;
    int maker_at = turned_at + 52, req_at = maker_at + n, locked_at = req_at + 2;
    int porder_at = locked_at + n, pcall_at = porder_at + n, discard_at = pcall_at + n;
#define REL(x) (((x) - seat + n) % n)
    tensor_base(e, seat, n, NULL, (e->leader + e->tlen) % n, t);
    for (s = 0; s < n; s++) {
        if (e->scores[s]) t[stand_at + REL(s)] = (float)e->scores[s];
        if (e->scores[s] >= cfg->lock_at) t[locked_at + REL(s)] = 1.0f;
        if ((cfg->flags & HB_VEC_DP_FLAG_LOCK_PERMANENT) && (e->ever_locked >> s & 1))
            t[locked_at + REL(s)] = 1.0f;
        if (e->passed_order >> s & 1) t[porder_at + REL(s)] = 1.0f;
        if (e->passed_call >> s & 1) t[pcall_at + REL(s)] = 1.0f;
    }
    t[turned_at + e->turned] = 1.0f;
    if (e->maker != HB_NONE) t[maker_at + REL(e->maker)] = 1.0f;
    if (e->requirement) t[req_at + (e->requirement == 2 ? 0 : 1)] = 1.0f;
    if (e->discard != HB_NONE && e->discard_seat == seat) t[discard_at + e->discard] = 1.0f;
#undef REL
}
