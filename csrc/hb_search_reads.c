/* hb_search_reads.c -- what the cards the other seats played say about a sampled deal.
 *
 * The Monte Carlo player weighs each sampled deal by how likely it makes what the
 * other seats did.  For the cards they played, the model is the search's own
 * playout policy: a seat plays the card the policy would play from its hand then,
 * with a measured chance (NaN refused), and otherwise any other legal card.  The pure-Python
 * twin is hucklebuck/_core/_py_reads.py.
 */
#include "hb_core.h"
#include "hb_internal.h"

#define BIT(c) (UINT64_C(1) << (c))
#define FULL52 ((UINT64_C(1) << 52) - 1)

/* The ducking policy of a Deer Park seat playing for 50: lead its weakest card;
 * follow with its strongest card that does not take the lead, else its weakest. */
int hb_i_duck_card(const hb_rules *r, int trump, uint64_t hand, const uint8_t *trick, int tlen)
{
    uint64_t m, legal = hb_i_legal(r, hand, tlen ? trick[0] : -1);
    int i, top = -1, lead = tlen ? r->suit[trick[0]] : -1, lo = -1, lo_v = 1 << 30, hi = -1, hi_v = -1;
    for (i = 0; i < tlen; i++) {
        int s = r->suit[trick[i]];
        int k = ((s == trump) << 5) | ((s == lead) << 4) | r->rank[trick[i]];
        if (k > top) top = k;
    }
    for (m = legal; m; m &= m - 1) {
        int c = lowest_bit(m), s = r->suit[c], v = hb_i_power(r, trump, c) * 64 + c;
        int k = ((s == trump) << 5) | ((s == lead) << 4) | r->rank[c];
        if (v < lo_v) { lo_v = v; lo = c; }
        if (tlen && k <= top && v > hi_v) { hi_v = v; hi = c; }
    }
    return hi >= 0 ? hi : lo;
}

int hb_search_reads(const hb_search_pos *pos, const uint64_t *deals, uint32_t ndeals, const hb_search_read *reads,
                    int nreads, double *out, size_t out_len)
{
    hb_rules r;
    unsigned ducks;
    uint32_t k;
    int j, i, rc;
    if (pos == NULL || out == NULL || (deals == NULL && ndeals > 0) || (reads == NULL && nreads > 0))
        return HB_E_NULL;
    if (pos->game < 0 || pos->game > 2) return HB_E_GAME;
    if (pos->trump < 0 || pos->trump > 3 || pos->phase != HB_SP_PLAY) return HB_E_MODE;
    hb_rules_init(pos->game, pos->trump, &r);
    rc = hb_i_search_check_pos(pos, &r);
    if (rc != HB_OK) return rc;
    if (out_len < ndeals || ndeals > (1u << 22) || nreads < 0 || nreads > 64) return HB_E_LEN;
    for (j = 0; j < nreads; j++) {
        const hb_search_read *d = &reads[j];
        if (d->seat < 0 || d->seat >= pos->nseats || d->card < 0 || d->card > 51 || d->tlen < 0 || d->tlen > 7 ||
            (d->later & ~FULL52) || (d->later & BIT(d->card)) || !(d->match > 0.0 && d->match < 1.0))
            return HB_E_READ;
        for (i = 0; i < d->tlen; i++)
            if (d->trick[i] > 51) return HB_E_READ;
    }
    for (k = 0; k < (uint32_t)ndeals * 8u; k++)
        if (deals[k] & ~FULL52) return HB_E_READ;
    ducks = HB_I_DUCKS(pos);
    for (k = 0; k < ndeals; k++) {
        double w = 1.0;
        for (j = 0; j < nreads; j++) {
            const hb_search_read *d = &reads[j];
            uint64_t hand = deals[8 * (size_t)k + (size_t)d->seat] | d->later | BIT(d->card);
            uint64_t legal = hb_i_legal(&r, hand, d->tlen ? d->trick[0] : -1);
            int n = popcount64(legal), c;
            if (n <= 1) continue;
            c = (pos->game == HB_GAME_DEERPARK && ((ducks >> d->seat) & 1))
                    ? hb_i_duck_card(&r, pos->trump, hand, d->trick, d->tlen)
                    : hb_i_policy_card(&r, pos->trump, hand, d->trick, d->tlen);
            w *= c == d->card ? d->match : (1.0 - d->match) / (double)(n - 1);
        }
        out[k] = w;
    }
    return HB_OK;
}
