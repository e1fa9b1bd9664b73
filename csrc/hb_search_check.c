/* hb_search_check.c -- the argument checks of the Monte Carlo search (hb_search.c):
 * a position as the deciding seat sees it, and each candidate action.  The C
 * code never trusts its caller: every field is checked before a card is dealt.
 * The pure-Python twin is hucklebuck/_core/_py_search_check.py (same codes). */
#include "hb_core.h"
#include "hb_internal.h"

#define FULL52 ((UINT64_C(1) << 52) - 1)
#define BIT(c) (UINT64_C(1) << (c))
#define popc popcount64

static int phase_game(int phase)
{
    if (phase == HB_SP_PLAY) return -1;
    if (phase <= HB_SP_EXCHANGE) return HB_GAME_HUCKLEBUCK;
    if (phase <= HB_SP_DEALER_DISCARD) return HB_GAME_DEERPARK;
    return HB_GAME_BUCKEM;
}

/* Seats in play order for the current trick (play phase). */
static int play_order(const hb_search_pos *p, int *order, int *lp)
{
    int i, nact = 0;
    *lp = -1;
    for (i = 0; i < p->nseats; i++)
        if (p->state[i] & 1) { if (i == p->leader) *lp = nact; order[nact++] = i; }
    return nact;
}

int hb_i_search_check_pos(const hb_search_pos *p, const hb_rules *r)
{
    int i, n, need = 0, g;
    uint64_t seen = 0;
    if (p->game < 0 || p->game > 2) return HB_E_GAME;
    if (p->phase < 0 || p->phase > HB_SP_DRAW) return HB_E_MODE;
    g = phase_game(p->phase);
    if (g >= 0 && g != p->game) return HB_E_MODE;
    n = p->nseats;
    if (n < 2 || n > 8) return HB_E_SEATS;
    if (p->seat < 0 || p->seat >= n || p->dealer < 0 || p->dealer >= n) return HB_E_SEATS;
    if (p->trump < -1 || p->trump > 3) return HB_E_TRUMP;
    if (p->trump < 0 && !(p->phase == HB_SP_AUCTION || p->phase == HB_SP_TRUMP || p->phase == HB_SP_ORDER ||
                          p->phase == HB_SP_CALL))
        return HB_E_TRUMP;
    if (p->pool & ~FULL52) return HB_E_MASK;
    if (p->flags < 0 || p->flags >= (1 << 16) || (HB_I_DUCKS(p) >> n) != 0) return HB_E_MODE;
    for (i = 0; i < 8; i++)
        if (p->win_bid[i] > 5 || (i >= n && p->win_bid[i])) return HB_E_MODE;
    for (i = 0; i < 8; i++) {
        if (i >= n) {
            if (p->size[i] || p->known[i] || p->voids[i] || p->barred[i]) return HB_E_SEATS;
            continue;
        }
        if ((p->known[i] | p->barred[i]) & ~FULL52) return HB_E_MASK;
        if (p->known[i] & (seen | p->pool)) return HB_E_DUP;
        seen |= p->known[i];
        if (p->size[i] > 6 || popc(p->known[i]) > p->size[i]) return HB_E_LEN;
        if (p->voids[i] > 15 || p->won[i] > 5) return HB_E_LEN;
        if (p->voids[i] && p->trump < 0) return HB_E_TRUMP;
        if (p->voids[i] && r != NULL) {
            int s;
            for (s = 0; s < 4; s++)
                if ((p->voids[i] >> s & 1) && (p->known[i] & r->suit_mask[s])) return HB_E_DUP;
        }
        if (i != p->seat) need += p->size[i] - popc(p->known[i]);
    }
    if (popc(p->known[p->seat]) != p->size[p->seat]) return HB_E_LEN;
    if (p->size[p->seat] == 0) return HB_E_SEATS;
    if (need > popc(p->pool)) return HB_E_NODEAL;
    if (p->trick_len < 0 || p->trick_len > 7) return HB_E_LEN;
    for (i = 0; i < p->trick_len; i++) {
        int c = p->trick[i];
        if (c > 51) return HB_E_CARD;
        if ((seen | p->pool) & BIT(c)) return HB_E_DUP;
        seen |= BIT(c);
    }
    if (p->turned < -1 || p->turned > 51) return HB_E_CARD;
    if (p->phase == HB_SP_PLAY) {
        int order[8], lp, nact = play_order(p, order, &lp);
        if (lp < 0 || p->trick_len >= nact) return HB_E_SEATS;
        if (order[(lp + p->trick_len) % nact] != p->seat) return HB_E_SEATS;
        for (i = 0; i < n; i++) {  /* equal hands at the trick's start; inactive seats hold nothing */
            int j, played = 0, in_play = (p->state[i] & 1) != 0;
            for (j = 0; j < p->trick_len; j++) if (order[(lp + j) % nact] == i) played = 1;
            if (!in_play && p->size[i] != 0) return HB_E_LEN;
            if (in_play && p->size[i] + played != p->size[p->seat]) return HB_E_LEN;
        }
    } else {
        if (p->trick_len != 0) return HB_E_LEN;
        for (i = 0; i < n; i++) {  /* before play: five cards a hand (the Deer Park dealer's six) */
            int full = (p->phase == HB_SP_DEALER_DISCARD && i == p->seat) ? 6 : 5, st = p->state[i] & 7;
            int out_ok = p->phase == HB_SP_AUCTION || p->phase == HB_SP_TRUMP || st == 1;
            if (p->size[i] != full && !(p->size[i] == 0 && out_ok && i != p->seat)) return HB_E_LEN;
            if (p->size[i] == 0 && p->phase >= HB_SP_ORDER && p->phase <= HB_SP_DEALER_DISCARD) return HB_E_LEN;
            if (p->size[i] == full && st == 1 && p->phase != HB_SP_AUCTION && p->phase < HB_SP_ORDER)
                return HB_E_LEN;
            if (p->size[i] == full && st == 1 && p->phase >= HB_SP_STAY_FOLD) return HB_E_LEN;
        }
    }
    if (p->phase == HB_SP_AUCTION) {
        if (p->high < 0 || p->high > 5 || p->bidder < -1 || p->bidder >= n) return HB_E_MODE;
        if ((p->high == 0) != (p->bidder < 0)) return HB_E_MODE;
    }
    if (p->phase >= HB_SP_TRUMP && p->phase <= HB_SP_EXCHANGE) {
        if (p->high < 2 || p->high > 5 || p->bidder < 0 || p->bidder >= n) return HB_E_MODE;
        if (p->phase == HB_SP_TRUMP && p->bidder != p->seat) return HB_E_SEATS;
    }
    if (p->phase >= HB_SP_ORDER && p->phase <= HB_SP_DEALER_DISCARD) {
        if (p->turned < 0) return HB_E_CARD;
        /* nobody holds the turned card before the order, but an eight-player dealer, whose last card it is */
        if (p->phase == HB_SP_ORDER && ((p->pool | (seen & ~p->known[p->dealer])) & BIT(p->turned)))
            return HB_E_DUP;
        if (p->phase == HB_SP_DEALER_DISCARD) {
            if (p->seat != p->dealer || p->bidder < 0 || p->bidder >= n || p->high < 2 || p->high > 3)
                return HB_E_SEATS;
        } else if (p->bidder != -1) {
            return HB_E_MODE;
        }
    }
    if (p->phase >= HB_SP_ORDER) {  /* the turned card or upcard is never dealt from the pool */
        if (p->turned < 0) return HB_E_CARD;
        if (p->pool & BIT(p->turned)) return HB_E_DUP;
    }
    if (p->bidder < -1 || p->bidder >= n || p->high < 0 || p->high > 5) return HB_E_MODE;
    return HB_OK;
}

int hb_i_search_check_cand(const hb_search_pos *p, const hb_rules *r, const hb_search_cand *c)
{
    uint64_t hand = p->known[p->seat];
    int a = c->arg;
    if (c->cards & ~hand) return HB_E_CAND;
    switch (p->phase) {
    case HB_SP_PLAY:
        if (popc(c->cards) != 1) return HB_E_CAND;
        if (!(hb_i_legal(r, hand, p->trick_len ? p->trick[0] : -1) & c->cards)) return HB_E_CAND;
        return HB_OK;
    case HB_SP_AUCTION:
        if (c->cards || !(a == 0 || (a >= 2 && a <= 5 && a > p->high))) return HB_E_CAND;
        return HB_OK;
    case HB_SP_TRUMP:
        return (c->cards || a < 0 || a > 3) ? HB_E_CAND : HB_OK;
    case HB_SP_DECLARE:
        if (a < -1 || a > 5) return HB_E_CAND;
        if (a == -1 && p->seat == p->bidder) return HB_E_CAND;
        if (popc(c->cards) != (a < 0 ? 0 : a)) return HB_E_CAND;
        return HB_OK;
    case HB_SP_EXCHANGE:
        return (a != 0 || popc(c->cards) != p->state[p->seat] - 3) ? HB_E_CAND : HB_OK;
    case HB_SP_ORDER:
        return (c->cards || (a != 0 && a != 1)) ? HB_E_CAND : HB_OK;
    case HB_SP_CALL:
        if (a == -1 && p->seat == p->dealer) return HB_E_CAND;  /* the stuck dealer must name a suit */
        return (c->cards || a < -1 || a > 3) ? HB_E_CAND : HB_OK;
    case HB_SP_DEALER_DISCARD:
        return (a != 0 || popc(c->cards) != 1) ? HB_E_CAND : HB_OK;
    case HB_SP_STAY_FOLD:
        if (c->cards || a < 0 || a > 2) return HB_E_CAND;
        if (a == 2 && !(hand & BIT(13 * p->trump))) return HB_E_CAND;
        return HB_OK;
    case HB_SP_DRAW:
        return (a != 0 || popc(c->cards) > 3) ? HB_E_CAND : HB_OK;
    default:
        return HB_E_CAND;
    }
}

