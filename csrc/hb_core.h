/*
 * hb_core.h -- the C core of hucklebuck: trick resolution and legal plays.
 *
 * Plain C99, no Python headers, no global mutable state: every function is
 * re-entrant (cffi calls them with the GIL released).  Every input is checked
 * at this boundary; nothing here trusts its caller.
 *
 * Card encoding (shared with the pure-Python core):
 *   card = suit * 13 + rank,  suit C=0 D=1 H=2 S=3,  rank 2=0 ... A=12.
 * so sorting by card number gives the protocol's canonical order.
 * A hand is a 64-bit mask with bit `card` set; bits 52..63 must be clear.
 *
 * The block between CDEF-BEGIN and CDEF-END is read verbatim by
 * csrc/build_ffi.py as the cffi cdef, so the Python binding and this header
 * cannot drift apart.
 */
#ifndef HB_CORE_H
#define HB_CORE_H

#include <stddef.h>
#include <stdint.h>

#define HB_ABI_VERSION_VALUE 1

/* CDEF-BEGIN */
enum {
    HB_OK = 0,
    HB_E_GAME = -1,       /* game id out of range */
    HB_E_TRUMP = -2,      /* trump suit out of range */
    HB_E_CARD = -3,       /* card number outside 0..51 */
    HB_E_LEN = -4,        /* trick length outside 1..8 */
    HB_E_DUP = -5,        /* the same card twice in one trick */
    HB_E_NULL = -6,       /* a required pointer was NULL */
    HB_E_MASK = -7,       /* a hand mask with bits above 51 */
    HB_E_LEAD = -8        /* the led card is also in the hand */
};

enum {
    HB_GAME_HUCKLEBUCK = 0,
    HB_GAME_BUCKEM = 1,
    HB_GAME_DEERPARK = 2,
    HB_NO_LEAD = 255,
    HB_MAX_TRICK = 8
};

typedef struct {
    uint8_t suit[52];  /* effective suit of each card (bowers move) */
    uint8_t rank[52];  /* strength within its effective suit */
    uint64_t suit_mask[4]; /* the cards of each effective suit */
} hb_rules;

/* The ABI version; the Python wrapper refuses a module whose value differs. */
int hb_abi_version(void);

/* Fill *out with the rules tables of `game` with `trump`. */
int hb_rules_init(int game, int trump, hb_rules *out);

/* Index (0-based) of the winning card of one trick, or a negative HB_E_*.
   `cards` holds `len` card numbers, leader first. */
int hb_trick_winner(int game, int trump, const char *cards, int len);

/* Legal-play mask of `hand` when `lead` was led (HB_NO_LEAD: leading).
   On error bit 63 is set and the low byte holds -HB_E_*. */
uint64_t hb_legal_mask(int game, int trump, int lead, uint64_t hand);

/* Batch: n tricks. trumps[i], lens[i] (1..8) and cards[8*i .. 8*i+lens[i]-1].
   Writes winners[i]. On error returns HB_E_* and sets *bad to the trick index. */
int hb_trick_winners(int game, size_t n, const char *trumps, const char *lens,
                     const char *cards, uint8_t *winners, size_t *bad);

/* Batch: n positions. trumps[i], leads[i] (card or HB_NO_LEAD), hands[i].
   Writes out[i]. On error returns HB_E_* and sets *bad to the position index. */
int hb_legal_masks(int game, size_t n, const char *trumps, const char *leads,
                   const uint64_t *hands, uint64_t *out, size_t *bad);
/* CDEF-END */

#endif
