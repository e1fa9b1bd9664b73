/* hb_core.c -- trick resolution and legal plays; see hb_core.h. */
#include "hb_core.h"

#define RANK_JACK 9
#define RANK_LEFT_BOWER 13
#define RANK_RIGHT_BOWER 14
#define CARD_MASK_ALL ((UINT64_C(1) << 52) - 1)
#define MASK_ERROR(code) ((UINT64_C(1) << 63) | (uint64_t)(uint8_t)(-(code)))

int hb_abi_version(void) { return HB_ABI_VERSION_VALUE; }

int hb_rules_init(int game, int trump, hb_rules *out)
{
    int card;
    if (out == NULL) return HB_E_NULL;
    if (game < HB_GAME_HUCKLEBUCK || game > HB_GAME_DEERPARK) return HB_E_GAME;
    if (trump < 0 || trump > 3) return HB_E_TRUMP;
    for (card = 0; card < 52; card++) {
        out->suit[card] = (uint8_t)(card / 13);
        out->rank[card] = (uint8_t)(card % 13);
    }
    if (game == HB_GAME_DEERPARK) {
        /* Same-colour partner: clubs<->spades (0<->3), diamonds<->hearts (1<->2). */
        int partner = 3 - trump;
        int right = trump * 13 + RANK_JACK;
        int left = partner * 13 + RANK_JACK;
        out->rank[right] = RANK_RIGHT_BOWER;
        out->suit[left] = (uint8_t)trump;
        out->rank[left] = RANK_LEFT_BOWER;
    }
    for (card = 0; card < 4; card++) out->suit_mask[card] = 0;
    for (card = 0; card < 52; card++)
        out->suit_mask[out->suit[card]] |= UINT64_C(1) << card;
    return HB_OK;
}

/* Winner of a trick already validated against `rules`.  Each card gets the key
 * (is trump, follows the lead, strength); the largest key wins.  The led card's
 * key is at least 16, so cards that neither follow nor trump never win. */
static int winner_of(const hb_rules *rules, int trump, const unsigned char *cards, int len)
{
    int best = 0, best_key = -1, i;
    int lead_suit = rules->suit[cards[0]];
    for (i = 0; i < len; i++) {
        int c = cards[i], s = rules->suit[c];
        int key = ((s == trump) << 5) | ((s == lead_suit) << 4) | rules->rank[c];
        if (key > best_key) { best_key = key; best = i; }
    }
    return best;
}

static int check_trick(const unsigned char *cards, int len)
{
    uint64_t seen = 0;
    int i;
    if (len < 1 || len > HB_MAX_TRICK) return HB_E_LEN;
    for (i = 0; i < len; i++) {
        uint64_t bit;
        if (cards[i] > 51) return HB_E_CARD;
        bit = UINT64_C(1) << cards[i];
        if (seen & bit) return HB_E_DUP;
        seen |= bit;
    }
    return HB_OK;
}

int hb_trick_winner(int game, int trump, const char *cards, int len)
{
    hb_rules rules;
    int rc;
    if (cards == NULL) return HB_E_NULL;
    rc = hb_rules_init(game, trump, &rules);
    if (rc != HB_OK) return rc;
    rc = check_trick((const unsigned char *)cards, len);
    if (rc != HB_OK) return rc;
    return winner_of(&rules, trump, (const unsigned char *)cards, len);
}

static int legal_one(const hb_rules *rules, int lead, uint64_t hand, uint64_t *out)
{
    uint64_t follow;
    if (hand & ~CARD_MASK_ALL) return HB_E_MASK;
    if (lead == HB_NO_LEAD) { *out = hand; return HB_OK; }
    if (lead < 0 || lead > 51) return HB_E_CARD;
    if (hand & (UINT64_C(1) << lead)) return HB_E_LEAD;
    follow = hand & rules->suit_mask[rules->suit[lead]];
    *out = follow ? follow : hand;
    return HB_OK;
}

uint64_t hb_legal_mask(int game, int trump, int lead, uint64_t hand)
{
    hb_rules rules;
    uint64_t out = 0;
    int rc = hb_rules_init(game, trump, &rules);
    if (rc != HB_OK) return MASK_ERROR(rc);
    rc = legal_one(&rules, lead, hand, &out);
    if (rc != HB_OK) return MASK_ERROR(rc);
    return out;
}

/* The four rules tables of a game, built once per batch call on the stack. */
static int init_all(int game, hb_rules rules[4])
{
    int t, rc;
    for (t = 0; t < 4; t++) {
        rc = hb_rules_init(game, t, &rules[t]);
        if (rc != HB_OK) return rc;
    }
    return HB_OK;
}

int hb_trick_winners(int game, size_t n, const char *trumps, const char *lens,
                     const char *cards, uint8_t *winners, size_t *bad)
{
    hb_rules rules[4];
    size_t i;
    int rc;
    if (bad == NULL) return HB_E_NULL;
    *bad = 0;
    if (n > 0 && (trumps == NULL || lens == NULL || cards == NULL || winners == NULL))
        return HB_E_NULL;
    rc = init_all(game, rules);
    if (rc != HB_OK) return rc;
    for (i = 0; i < n; i++) {
        int trump = (unsigned char)trumps[i];
        int len = (unsigned char)lens[i];
        const unsigned char *row = (const unsigned char *)cards + i * HB_MAX_TRICK;
        if (trump > 3) { *bad = i; return HB_E_TRUMP; }
        rc = check_trick(row, len);
        if (rc != HB_OK) { *bad = i; return rc; }
        winners[i] = (uint8_t)winner_of(&rules[trump], trump, row, len);
    }
    return HB_OK;
}

int hb_legal_masks(int game, size_t n, const char *trumps, const char *leads,
                   const uint64_t *hands, uint64_t *out, size_t *bad)
{
    hb_rules rules[4];
    size_t i;
    int rc;
    if (bad == NULL) return HB_E_NULL;
    *bad = 0;
    if (n > 0 && (trumps == NULL || leads == NULL || hands == NULL || out == NULL))
        return HB_E_NULL;
    rc = init_all(game, rules);
    if (rc != HB_OK) return rc;
    for (i = 0; i < n; i++) {
        int trump = (unsigned char)trumps[i];
        if (trump > 3) { *bad = i; return HB_E_TRUMP; }
        rc = legal_one(&rules[trump], (unsigned char)leads[i], hands[i], &out[i]);
        if (rc != HB_OK) { *bad = i; return rc; }
    }
    return HB_OK;
}
