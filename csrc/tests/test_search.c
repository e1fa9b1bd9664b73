/* Standalone test of the Monte Carlo decision search (hb_search.c), built with
 * -fsanitize=address,undefined in CI: valid positions of every phase of the
 * three games are searched (every record must be sane), then random and
 * hostile positions and candidates must be refused or searched without any
 * read or write outside the buffers. */
#include <stdio.h>
#include <string.h>
#include "hb_core.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { failures++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

static uint64_t rng_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A fresh deal: the deciding seat holds 5 cards, everyone else 5 hidden ones. */
static void fresh(hb_search_pos *p, int game, int phase, int n, int seat, uint64_t *st)
{
    uint8_t deck[52];
    int i, j, low = game == HB_GAME_DEERPARK ? 11 - n : 0, nd = 0;
    memset(p, 0, sizeof *p);
    p->game = game; p->phase = phase; p->nseats = n; p->seat = seat; p->dealer = (seat + n - 1) % n;
    p->trump = -1; p->bidder = -1; p->turned = -1;
    for (i = 0; i < 4; i++) for (j = low; j < 13; j++) deck[nd++] = (uint8_t)(13 * i + j);
    for (i = nd - 1; i > 0; i--) {
        int k = (int)(rng_next(st) % (uint64_t)(i + 1));
        uint8_t t = deck[i]; deck[i] = deck[k]; deck[k] = t;
    }
    for (i = 0; i < n; i++) p->size[i] = 5;
    for (i = 0; i < 5; i++) p->known[seat] |= UINT64_C(1) << deck[i];
    for (i = 5; i < nd; i++) p->pool |= UINT64_C(1) << deck[i];
}

static int search(const hb_search_pos *p, const hb_search_cand *c, int nc, uint32_t samples)
{
    static int8_t out[64 * 64 * HB_SEARCH_REC];
    static unsigned calls = 0;
    /* every other search solves the play with open cards, some with a budget that runs out */
    int method = (calls & 1) ? HB_SEARCH_SOLVER : HB_SEARCH_PLAYOUT;
    uint64_t limit = (calls & 2) ? 40 : 5000;
    int rc, i, k;
    calls++;
    rc = hb_search_ex(p, c, nc, 7, samples, method, limit, out, sizeof out);
    if (rc != HB_OK) return rc;
    for (k = 0; k < nc * (int)samples; k++) {
        const int8_t *r = out + k * HB_SEARCH_REC;
        int total = 0, playing = 0;
        for (i = 0; i < 8; i++) if (r[i] >= 0) { total += r[i]; playing++; }
        CHECK(r[10] >= 0 && r[10] <= 2);
        if (r[10] == 0) CHECK(total == 5 && playing >= 2 && playing <= p->nseats);
    }
    return rc;
}

static void valid_positions(void)
{
    uint64_t st = 1;
    int it;
    for (it = 0; it < 200; it++) {
        hb_search_pos p;
        hb_search_cand c[8];
        int n = 3 + it % 3, seat = it % n, t = (int)(rng_next(&st) % 4);
        uint64_t hand, low;
        /* Hucklebuck auction: pass or bid 2-5 */
        fresh(&p, HB_GAME_HUCKLEBUCK, HB_SP_AUCTION, n, seat, &st);
        memset(c, 0, sizeof c);
        c[0].arg = 0; c[1].arg = 2; c[2].arg = 3; c[3].arg = 5;
        CHECK(search(&p, c, 4, 16) == HB_OK);
        /* Hucklebuck declare after the bidder named trump */
        p.phase = HB_SP_DECLARE; p.trump = t; p.high = 2; p.bidder = (seat + 1) % n;
        hand = p.known[seat];
        low = hand & (hand - 1) ? hand & ~(hand & (hand - 1)) : hand;  /* its lowest card */
        c[0].arg = -1; c[0].cards = 0;
        c[1].arg = 0; c[1].cards = 0;
        c[2].arg = 1; c[2].cards = low;
        CHECK(search(&p, c, 3, 16) == HB_OK);
        /* Hucklebuck play: lead any card */
        p.phase = HB_SP_PLAY; p.leader = seat;
        for (int i = 0; i < n; i++) p.state[i] = 1;
        c[0].arg = 0; c[0].cards = low;
        CHECK(search(&p, c, 1, 16) == HB_OK);
        /* Buck 'Em stay or fold; then the draw */
        fresh(&p, HB_GAME_BUCKEM, HB_SP_STAY_FOLD, n + 2, seat, &st);
        p.trump = t;
        p.turned = 63 - __builtin_clzll(p.pool);  /* the highest unseen card is the upcard */
        p.pool &= ~(UINT64_C(1) << p.turned);
        memset(c, 0, sizeof c);
        c[0].arg = 0; c[1].arg = 1;
        CHECK(search(&p, c, 2, 16) == HB_OK);
        p.phase = HB_SP_DRAW; p.state[seat] = 2;
        for (int i = 0; i < n + 2; i++) if (i != seat) p.state[i] = (uint8_t)(i % 2 ? 2 : 1);
        for (int i = 0; i < n + 2; i++) if (p.state[i] == 1) p.size[i] = 0;
        c[0].arg = 0; c[0].cards = 0; c[1].arg = 0; c[1].cards = low;
        hand = p.known[seat];
        c[1].cards = hand & ~(hand & (hand - 1));
        CHECK(search(&p, c, 2, 16) == HB_OK);
        /* Deer Park order up or pass */
        fresh(&p, HB_GAME_DEERPARK, HB_SP_ORDER, n, seat, &st);
        p.turned = 63 - __builtin_clzll(p.pool);
        p.pool &= ~(UINT64_C(1) << p.turned);
        memset(c, 0, sizeof c);
        c[0].arg = 0; c[1].arg = 1;
        CHECK(search(&p, c, 2, 16) == HB_OK);
        p.phase = HB_SP_CALL;
        c[0].arg = p.seat == p.dealer ? t : -1; c[1].arg = t;
        CHECK(search(&p, c, 2, 16) == HB_OK);
    }
}

static void refusals(void)
{
    uint64_t st = 5;
    hb_search_pos p;
    hb_search_cand c[2];
    int8_t out[4 * HB_SEARCH_REC];
    uint64_t hands[16];
    fresh(&p, HB_GAME_HUCKLEBUCK, HB_SP_AUCTION, 4, 0, &st);
    memset(c, 0, sizeof c);
    CHECK(hb_search(NULL, c, 1, 1, 1, out, sizeof out) == HB_E_NULL);
    CHECK(hb_search(&p, NULL, 1, 1, 1, out, sizeof out) == HB_E_NULL);
    CHECK(hb_search(&p, c, 1, 1, 1, NULL, sizeof out) == HB_E_NULL);
    CHECK(hb_search(&p, c, 0, 1, 1, out, sizeof out) == HB_E_CAND);
    CHECK(hb_search(&p, c, 65, 1, 1, out, sizeof out) == HB_E_CAND);
    CHECK(hb_search(&p, c, 1, 1, 0, out, sizeof out) == HB_E_LEN);
    CHECK(hb_search(&p, c, 1, 1, 5, out, sizeof out) == HB_E_LEN);  /* out too small */
    CHECK(hb_search_ex(&p, c, 1, 1, 1, 2, 0, out, sizeof out) == HB_E_MODE);  /* no such method */
    CHECK(hb_search_ex(&p, c, 1, 1, 1, -1, 0, out, sizeof out) == HB_E_MODE);
    {   /* the cancel flag: unset, a normal search; set, it stops before the first sample */
        int off = 0, on = 1;
        CHECK(hb_search_cancel(&p, c, 1, 1, 1, HB_SEARCH_SOLVER, 0, &off, out, sizeof out) == HB_OK);
        CHECK(hb_search_cancel(&p, c, 1, 1, 1, HB_SEARCH_SOLVER, 0, &on, out, sizeof out) == HB_E_CANCELLED);
        CHECK(hb_search_cancel(&p, c, 1, 1, 1, HB_SEARCH_PLAYOUT, 0, &on, out, sizeof out) == HB_E_CANCELLED);
    }
    {   /* picks: strictly increasing, each below the deals drawn, and as many as the samples */
        uint32_t up[2] = {1, 3}, same[2] = {2, 2}, down[2] = {3, 1}, past[2] = {0, 4};
        int8_t all[4 * HB_SEARCH_REC];
        CHECK(hb_search_pick(&p, c, 1, 9, 4, up, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_OK);
        CHECK(hb_search(&p, c, 1, 9, 4, all, sizeof all) == HB_OK);
        CHECK(memcmp(out, all + HB_SEARCH_REC, HB_SEARCH_REC) == 0);
        CHECK(memcmp(out + HB_SEARCH_REC, all + 3 * HB_SEARCH_REC, HB_SEARCH_REC) == 0);
        CHECK(hb_search_pick(&p, c, 1, 9, 4, same, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_PICK);
        CHECK(hb_search_pick(&p, c, 1, 9, 4, down, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_PICK);
        CHECK(hb_search_pick(&p, c, 1, 9, 4, past, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_PICK);
        CHECK(hb_search_pick(&p, c, 1, 9, 1, up, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_LEN);
        CHECK(hb_search_pick(&p, c, 1, 9, 4, NULL, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_NULL);
        CHECK(hb_search_pick(&p, c, 1, 9, 1u << 23, up, 2, HB_SEARCH_PLAYOUT, 0, NULL, out, sizeof out) == HB_E_LEN);
    }
    c[0].arg = 1;  /* a bid of 1 */
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) == HB_E_CAND);
    c[0].arg = 0;
    c[0].cards = p.pool & (0 - p.pool);  /* a card it does not hold */
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) == HB_E_CAND);
    c[0].cards = 0;
    p.known[1] = p.known[0];
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) == HB_E_DUP);
    p.known[1] = 0;
    p.phase = HB_SP_ORDER;
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) == HB_E_MODE);
    p.phase = HB_SP_AUCTION;
    p.size[2] = 7;
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) == HB_E_LEN);
    p.size[2] = 5;
    p.pool &= p.pool - 1;
    p.pool &= ~(UINT64_C(0x1FFF));
    p.size[3] = 6;
    CHECK(hb_search(&p, c, 1, 1, 1, out, sizeof out) != HB_OK);
    CHECK(hb_search_sample(&p, 1, 2, hands, 4) != HB_OK);
}

static void hostile(void)
{
    uint64_t st = 99;
    int it;
    for (it = 0; it < 20000; it++) {
        hb_search_pos p;
        hb_search_cand c[3];
        int8_t out[3 * 4 * HB_SEARCH_REC];
        uint64_t hands[8 * 4];
        unsigned char *raw = (unsigned char *)&p;
        size_t i;
        if (it % 2) {
            for (i = 0; i < sizeof p; i++) raw[i] = (unsigned char)rng_next(&st);
        } else {  /* near-valid: a real position with a few fields scrambled */
            fresh(&p, (int)(rng_next(&st) % 3), (int)(rng_next(&st) % 10), 3 + (int)(rng_next(&st) % 5),
                  0, &st);
            p.trump = (int)(rng_next(&st) % 5) - 1;
            p.turned = (int)(rng_next(&st) % 53) - 1;
            p.leader = (int)(rng_next(&st) % 8);
            p.high = (int)(rng_next(&st) % 6);
            p.bidder = (int)(rng_next(&st) % 9) - 1;
            p.trick_len = (int)(rng_next(&st) % 3);
            for (i = 0; i < 8; i++) {
                p.state[i] = (uint8_t)(rng_next(&st) % 16);
                p.voids[i] = (uint8_t)(rng_next(&st) % 3 == 0 ? rng_next(&st) % 16 : 0);
                p.trick[i] = (uint8_t)(rng_next(&st) % 52);
            }
            p.pool &= ~(UINT64_C(1) << p.trick[0]) & ~(UINT64_C(1) << p.trick[1]);
            if (p.turned >= 0) p.pool &= ~(UINT64_C(1) << p.turned);
        }
        for (i = 0; i < 3; i++) {
            c[i].arg = (int)(rng_next(&st) % 8) - 2;
            c[i].cards = rng_next(&st) & p.known[0 < p.nseats && p.nseats <= 8 && p.seat >= 0 && p.seat < 8
                                                  ? p.seat : 0];
            if (rng_next(&st) % 2) c[i].cards &= c[i].cards - 1 ? 0 - c[i].cards : ~UINT64_C(0);
        }
        (void)hb_search(&p, c, 1 + (int)(rng_next(&st) % 3), rng_next(&st), 4, out, sizeof out);
        (void)hb_search_sample(&p, rng_next(&st), 4, hands, 32);
        {   /* card-play reads: scrambled reads and deals, on the same positions */
            hb_search_read rd[3];
            double w[4];
            unsigned char *rr = (unsigned char *)rd;
            uint32_t picks[2] = {(uint32_t)(rng_next(&st) % 6), (uint32_t)(rng_next(&st) % 6)};
            for (i = 0; i < sizeof rd; i++) rr[i] = (unsigned char)rng_next(&st);
            for (i = 0; i < 3; i++) {
                if (rng_next(&st) % 2) {  /* near-valid */
                    rd[i].seat = (int)(rng_next(&st) % 9) - 1; rd[i].card = (int)(rng_next(&st) % 53);
                    rd[i].tlen = (int)(rng_next(&st) % 9) - 1; rd[i].later &= ((UINT64_C(1) << 52) - 1);
                    rd[i].match = (double)(rng_next(&st) % 12) / 10.0;
                }
            }
            for (i = 0; i < 32; i++) if (rng_next(&st) % 2) hands[i] &= (UINT64_C(1) << 52) - 1;
            if (rng_next(&st) % 2) { p.phase = HB_SP_PLAY; p.trump = (int)(rng_next(&st) % 4); }
            (void)hb_search_reads(&p, hands, 4, rd, (int)(rng_next(&st) % 4), w, 4);
            (void)hb_search_pick(&p, c, 1, rng_next(&st), 6, picks, 2, HB_SEARCH_PLAYOUT, 0, NULL, out,
                                 sizeof out);
        }
    }
}

/* Reads on a valid play position: a forced card counts 1, the policy's card its match,
 * another card the rest of the chance shared; bad reads are refused. */
static void reads(void)
{
    uint64_t st = 17, deal[8] = {0};
    hb_search_pos p;
    hb_search_read rd;
    double w[2];
    fresh(&p, HB_GAME_HUCKLEBUCK, HB_SP_PLAY, 4, 0, &st);
    p.trump = 0; p.leader = 3; p.trick_len = 1;
    p.state[0] = p.state[1] = p.state[2] = p.state[3] = 1;
    p.size[3] = 4;
    {   /* seat 3 led the lowest pool card */
        int c = __builtin_ctzll(p.pool);
        p.trick[0] = (uint8_t)c;
        p.pool &= ~(UINT64_C(1) << c);
        memset(&rd, 0, sizeof rd);
        rd.seat = 3; rd.card = c; rd.tlen = 0; rd.match = 0.6;
    }
    /* deal seat 3 four pool cards: the policy leads its strongest card, not the lowest one */
    {
        uint64_t m = p.pool;
        int k;
        for (k = 0; k < 4; k++) { deal[3] |= m & (0 - m); m &= m - 1; }
        CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_OK);
        CHECK(w[0] > 0.099 && w[0] < 0.101);  /* (1 - 0.6) / 4 of five legal cards */
        deal[3] = 0;  /* the led card was its only card: forced */
        CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_OK && w[0] == 1.0);
    }
    rd.match = 1.0;
    CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_E_READ);
    rd.match = 0.6; rd.seat = 4;
    CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_E_READ);
    rd.seat = 3; rd.later = UINT64_C(1) << rd.card;
    CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_E_READ);
    rd.later = 0; deal[2] = UINT64_C(1) << 60;
    CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_E_READ);
    deal[2] = 0;
    CHECK(hb_search_reads(&p, deal, 3, &rd, 1, w, 2) == HB_E_LEN);  /* out too small */
    CHECK(hb_search_reads(NULL, deal, 1, &rd, 1, w, 2) == HB_E_NULL);
    p.phase = HB_SP_AUCTION;
    CHECK(hb_search_reads(&p, deal, 1, &rd, 1, w, 2) == HB_E_MODE);
}

int main(void)
{
    valid_positions();
    refusals();
    hostile();
    reads();
    if (failures) {
        fprintf(stderr, "search tests: %d failures\n", failures);
        return 1;
    }
    printf("search tests: all checks passed\n");
    return 0;
}
