/*
 * hb_calls.c -- the module hucklebuck._hbcall: whole one-call functions in C.
 *
 * trick_winner, legal_plays and parse_cards of the public API, for the C core
 * (solve: hb_calls_solve.c; evaluate_hand: hb_calls_eval.c; the games' helpers pick and
 * shuffle: hb_calls_games.c; VectorGame.sample_legal and step on the C lane: hb_calls_vec.c).
 * Each reads the library's own objects directly (the interned Cards, a Suit,
 * a GameKind or its name, a CardSet's mask) and calls the same rule functions
 * as the cffi core (hb_core.c is compiled into this module too).
 *
 * Each function answers only the plain, valid call: every argument of the
 * library's own exact types (or a game name, a suit letter, a string of
 * cards), and only while the C core is the selected core.  For anything else
 * -- another core, another type, an error of any kind -- it returns None and
 * runs no Python code at all, and the caller takes the Python path, which is
 * the same on both cores and raises the errors.  So a result from here is
 * always the result the Python path gives, and an error always comes from the
 * Python path, with the same class and message on both cores.
 *
 * Nothing here trusts its caller: the link_* functions check what they are given, and
 * hb_trick_winner / hb_legal_mask check their inputs again.
 *
 * This file needs Python.h, so it lives apart from the plain C files of csrc/ (which CI also
 * compiles as plain C under the sanitizers).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "hb_core.h"
#include "hb_calls.h"

/* The interface version; hucklebuck/_fast.py refuses a module whose value differs. */
#define HB_CALLS_VERSION 5
#define HB_FULL_MASK ((UINT64_C(1) << 52) - 1)

/* What link() was given (strong references, kept for the life of the process). */
static PyObject *override_var;   /* hucklebuck._core._override (a ContextVar) */
static PyObject *core_globals;   /* hucklebuck._core's module dict ("_default") */
static PyObject *c_core;         /* the C core object, or NULL before it is loaded */
static PyTypeObject *card_type;  /* hucklebuck.cards.Card */
static PyTypeObject *set_type;   /* hucklebuck.cards.CardSet */
static Py_ssize_t card_off;      /* offset of Card._index */
static Py_ssize_t mask_off;      /* offset of CardSet._mask */
static PyObject *cards[52];      /* the interned Cards, by number */
static PyObject *suits[4];       /* Suit.CLUBS ... Suit.SPADES */
static PyObject *games[3];       /* the GameKind members, by core id */
static PyObject *names[3];       /* their protocol names */
static PyObject *default_key;    /* "_default" */
static int linked_cards, linked_games;

/* 1 when the selected core (hucklebuck._core.get_core()) is the C core, 0 if not, -1 on error. */
int c_core_selected(void)
{
    PyObject *chosen, *core = NULL;
    int found;
    if (c_core == NULL || override_var == NULL || !linked_cards || !linked_games) return 0;
    if (PyContextVar_Get(override_var, NULL, &chosen) < 0) return -1;
    if (chosen != NULL && chosen != Py_None) {
        if (PyTuple_CheckExact(chosen) && PyTuple_GET_SIZE(chosen) >= 1) core = PyTuple_GET_ITEM(chosen, 0);
    } else {
        PyObject *dflt = PyDict_GetItemWithError(core_globals, default_key);  /* borrowed */
        if (dflt == NULL && PyErr_Occurred()) {
            Py_XDECREF(chosen);
            return -1;
        }
        if (dflt != NULL && PyTuple_CheckExact(dflt) && PyTuple_GET_SIZE(dflt) >= 1)
            core = PyTuple_GET_ITEM(dflt, 0);
    }
    found = core == c_core;
    Py_XDECREF(chosen);
    return found;
}

/* The number of an interned Card, or -1 for anything else. */
int card_number(PyObject *obj)
{
    PyObject *index;
    long i;
    if (Py_TYPE(obj) != card_type) return -1;
    index = *(PyObject **)((char *)obj + card_off);
    if (index == NULL || !PyLong_CheckExact(index)) return -1;
    i = PyLong_AsLong(index);
    if (i == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    if (i < 0 || i > 51 || cards[i] != obj) return -1;
    return (int)i;
}

/* The interned Card of number i (0..51; borrowed; NULL before link_cards). */
PyObject *card_object(int i) { return cards[i]; }

/* The core id of a GameKind member or of a game's exact name, else -1. */
int game_id(PyObject *obj)
{
    int i;
    for (i = 0; i < 3; i++)
        if (obj == games[i] || obj == names[i]) return i;
    if (PyUnicode_CheckExact(obj))
        for (i = 0; i < 3; i++)
            if (PyUnicode_Compare(obj, names[i]) == 0) return i;
    return -1;
}

/* The number of a Suit member or of a suit letter C, D, H, S, else -1. */
int suit_id(PyObject *obj)
{
    int i;
    for (i = 0; i < 4; i++)
        if (obj == suits[i]) return i;
    if (PyUnicode_CheckExact(obj) && PyUnicode_GET_LENGTH(obj) == 1) {
        switch (PyUnicode_READ_CHAR(obj, 0)) {
        case 'C': return 0;
        case 'D': return 1;
        case 'H': return 2;
        case 'S': return 3;
        default: break;
        }
    }
    return -1;
}

/* A tuple or list (exact types) of distinct interned Cards, at most `most` of them, as card
 * numbers in `out`; their mask in *mask.  Returns the count, or -1 for anything else. */
Py_ssize_t card_row(PyObject *seq, unsigned char *out, Py_ssize_t most, uint64_t *mask)
{
    Py_ssize_t n, i;
    PyObject **items;
    uint64_t seen = 0;
    if (PyTuple_CheckExact(seq)) {
        n = PyTuple_GET_SIZE(seq);
        items = &PyTuple_GET_ITEM(seq, 0);
    } else if (PyList_CheckExact(seq)) {
        n = PyList_GET_SIZE(seq);
        items = ((PyListObject *)seq)->ob_item;
    } else {
        return -1;
    }
    if (n > most) return -1;
    for (i = 0; i < n; i++) {  /* no Python code runs here: the list cannot change under us */
        int c = card_number(items[i]);
        uint64_t bit;
        if (c < 0) return -1;
        bit = UINT64_C(1) << c;
        if (seen & bit) return -1;
        seen |= bit;
        out[i] = (unsigned char)c;
    }
    *mask = seen;
    return n;
}

/* 1 and the mask in *mask for a CardSet (exact type) with a valid mask, else 0. */
int set_mask(PyObject *obj, uint64_t *mask)
{
    PyObject *m;
    unsigned long long v;
    if (Py_TYPE(obj) != set_type) return 0;
    m = *(PyObject **)((char *)obj + mask_off);
    if (m == NULL || !PyLong_CheckExact(m)) return 0;
    v = PyLong_AsUnsignedLongLong(m);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {  /* negative or too large */
        PyErr_Clear();
        return 0;
    }
    if (v & ~HB_FULL_MASK) return 0;
    *mask = (uint64_t)v;
    return 1;
}

static PyObject *new_set(uint64_t mask)
{
    PyObject *obj, *value = PyLong_FromUnsignedLongLong((unsigned long long)mask);
    if (value == NULL) return NULL;
    obj = set_type->tp_alloc(set_type, 0);
    if (obj == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    *(PyObject **)((char *)obj + mask_off) = value;  /* as object.__setattr__(obj, "_mask", value) */
    return obj;
}


/* ------------------------------------------------------------------ trick_winner */
static PyObject *calls_trick_winner(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned char row[HB_MAX_TRICK];
    uint64_t mask;
    Py_ssize_t n;
    int sel, game, trump, rc;
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "trick_winner() takes 3 arguments");
        return NULL;
    }
    sel = c_core_selected();
    if (sel < 0) return NULL;
    if (!sel) MISS;
    game = game_id(args[0]);
    trump = suit_id(args[1]);
    if (game < 0 || trump < 0) MISS;
    n = card_row(args[2], row, HB_MAX_TRICK, &mask);
    if (n < 1) MISS;
    rc = hb_trick_winner(game, trump, (const char *)row, (int)n);
    if (rc < 0) MISS;
    return PyLong_FromLong(rc);
}

/* ------------------------------------------------------------------ legal_plays */
static PyObject *calls_legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned char row[HB_MAX_TRICK], hand_row[64];
    uint64_t hand, played, out;
    int sel, game, trump;
    Py_ssize_t n;
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "legal_plays() takes 4 arguments");
        return NULL;
    }
    sel = c_core_selected();
    if (sel < 0) return NULL;
    if (!sel) MISS;
    game = game_id(args[0]);
    trump = suit_id(args[1]);
    if (game < 0 || trump < 0) MISS;
    if (!set_mask(args[2], &hand) && card_row(args[2], hand_row, 52, &hand) < 0) MISS;
    n = card_row(args[3], row, HB_MAX_TRICK, &played);
    if (n < 0 || (hand & played)) MISS;
    out = hb_legal_mask(game, trump, n ? row[0] : HB_NO_LEAD, hand);
    if (out >> 63) MISS;
    return new_set(out);
}

/* ------------------------------------------------------------------ parse_cards */
static int suit_char(Py_UCS4 ch)
{
    switch (ch) {
    case 'c': case 'C': case 0x2663: case 0x2667: return 0;  /* ♣ ♧ */
    case 'd': case 'D': case 0x2666: case 0x2662: return 1;  /* ♦ ♢ */
    case 'h': case 'H': case 0x2665: case 0x2661: return 2;  /* ♥ ♡ */
    case 's': case 'S': case 0x2660: case 0x2664: return 3;  /* ♠ ♤ */
    default: return -1;
    }
}

static int rank_char(Py_UCS4 ch)
{
    if (ch >= '2' && ch <= '9') return (int)(ch - '0');
    switch (ch) {
    case 't': case 'T': return 10;
    case 'j': case 'J': return 11;
    case 'q': case 'Q': return 12;
    case 'k': case 'K': return 13;
    case 'a': case 'A': return 14;
    default: return -1;
    }
}

/* Characters this parser knows: ASCII and the eight suit glyphs.  Any other character
 * (which str.lower() might map onto a rank or suit letter) sends the call to Python. */
static int known_char(Py_UCS4 ch) { return ch < 128 || (ch >= 0x2660 && ch <= 0x2667); }

/* The card number of text[start:end] as parse_card reads a token without spaces, else -1. */
static int token_card(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t len = end - start;
    int suit, rank;
    if (len < 2 || len > 3) return -1;
    suit = suit_char(PyUnicode_READ(kind, data, end - 1));
    if (suit < 0) return -1;
    if (len == 2) {
        rank = rank_char(PyUnicode_READ(kind, data, start));
    } else {
        rank = PyUnicode_READ(kind, data, start) == '1' && PyUnicode_READ(kind, data, start + 1) == '0' ? 10 : -1;
    }
    if (rank < 0) return -1;
    return suit * 13 + rank - 2;
}

/* A separator of text.replace(",", " ").split(). */
static int separator(Py_UCS4 ch) { return ch == ',' || Py_UNICODE_ISSPACE(ch); }

/* Card numbers of a whole string into out (room for len / 2 + 1); the count, or -1. */
static Py_ssize_t parse_text(PyObject *text, unsigned char *out)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), i = 0, n = 0;
    while (i < len) {
        Py_ssize_t start;
        int c;
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (separator(ch)) {
            i++;
            continue;
        }
        start = i;
        while (i < len) {
            ch = PyUnicode_READ(kind, data, i);
            if (separator(ch)) break;
            if (!known_char(ch)) return -1;
            i++;
        }
        c = token_card(kind, data, start, i);
        if (c < 0) return -1;
        out[n++] = (unsigned char)c;
    }
    return n;
}

/* One item of an iterable: an interned Card, or a string parse_card reads (spaces around it). */
static int parse_item(PyObject *item)
{
    int kind;
    const void *data;
    Py_ssize_t start = 0, end, i;
    if (!PyUnicode_CheckExact(item)) return card_number(item);
    kind = PyUnicode_KIND(item);
    data = PyUnicode_DATA(item);
    end = PyUnicode_GET_LENGTH(item);
    while (start < end && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, start))) start++;
    while (end > start && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1))) end--;
    for (i = start; i < end; i++)
        if (!known_char(PyUnicode_READ(kind, data, i))) return -1;
    return token_card(kind, data, start, end);
}

static PyObject *card_tuple(const unsigned char *numbers, Py_ssize_t n)
{
    PyObject *out = PyTuple_New(n);
    Py_ssize_t i;
    if (out == NULL) return NULL;
    for (i = 0; i < n; i++) {
        Py_INCREF(cards[numbers[i]]);
        PyTuple_SET_ITEM(out, i, cards[numbers[i]]);
    }
    return out;
}

static PyObject *calls_parse_cards(PyObject *self, PyObject *text)
{
    unsigned char small[64], *numbers = small;
    PyObject *out = NULL;
    Py_ssize_t n, room;
    int sel = c_core_selected();
    (void)self;
    if (sel < 0) return NULL;
    if (!sel) MISS;
    if (PyUnicode_CheckExact(text)) {
        room = PyUnicode_GET_LENGTH(text) / 2 + 1;
    } else if (PyTuple_CheckExact(text) || PyList_CheckExact(text)) {
        room = Py_SIZE(text);
    } else {
        MISS;
    }
    if (room > (Py_ssize_t)sizeof small) {
        numbers = PyMem_Malloc((size_t)room);
        if (numbers == NULL) return PyErr_NoMemory();
    }
    if (PyUnicode_CheckExact(text)) {
        n = parse_text(text, numbers);
    } else {
        PyObject **items = PyTuple_CheckExact(text) ? &PyTuple_GET_ITEM(text, 0) : ((PyListObject *)text)->ob_item;
        Py_ssize_t i;
        n = room;
        for (i = 0; i < room; i++) {  /* no Python code runs here: the list cannot change under us */
            int c = parse_item(items[i]);
            if (c < 0) {
                n = -1;
                break;
            }
            numbers[i] = (unsigned char)c;
        }
    }
    if (n >= 0) {
        out = card_tuple(numbers, n);
    } else {
        out = Py_None;
        Py_INCREF(out);
    }
    if (numbers != small) PyMem_Free(numbers);
    return out;
}

/* ------------------------------------------------------------------ link */
Py_ssize_t slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = type->tp_dict ? PyDict_GetItemString(type->tp_dict, name) : NULL;  /* borrowed */
    PyMemberDef *member;
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX || member->offset <= 0) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    return member->offset;
}

void set_ref(PyObject **where, PyObject *value)
{
    PyObject *old = *where;
    Py_XINCREF(value);
    *where = value;
    Py_XDECREF(old);
}

static PyObject *calls_link_core(PyObject *self, PyObject *args)
{
    PyObject *var, *globals, *core;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O:link_core", &PyContextVar_Type, &var, &PyDict_Type, &globals, &core))
        return NULL;
    set_ref(&override_var, var);
    set_ref(&core_globals, globals);
    set_ref(&c_core, core == Py_None ? NULL : core);
    Py_RETURN_NONE;
}

static PyObject *calls_link_cards(PyObject *self, PyObject *args)
{
    PyObject *ctype, *stype, *all, *suit_tuple;
    Py_ssize_t coff, moff;
    int i;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:link_cards", &PyType_Type, &ctype, &PyType_Type, &stype,
                          &PyTuple_Type, &all, &PyTuple_Type, &suit_tuple))
        return NULL;
    if (PyTuple_GET_SIZE(all) != 52 || PyTuple_GET_SIZE(suit_tuple) != 4) {
        PyErr_SetString(PyExc_ValueError, "link_cards needs 52 cards and 4 suits");
        return NULL;
    }
    if ((coff = slot_offset((PyTypeObject *)ctype, "_index")) < 0) return NULL;
    if ((moff = slot_offset((PyTypeObject *)stype, "_mask")) < 0) return NULL;
    for (i = 0; i < 52; i++) {
        PyObject *card = PyTuple_GET_ITEM(all, i);
        PyObject *index = Py_TYPE(card) == (PyTypeObject *)ctype ? *(PyObject **)((char *)card + coff) : NULL;
        if (index == NULL || !PyLong_CheckExact(index) || PyLong_AsLong(index) != i) {
            PyErr_Format(PyExc_ValueError, "card %d is not the card with number %d", i, i);
            return NULL;
        }
    }
    linked_cards = 0;
    set_ref((PyObject **)&card_type, ctype);
    set_ref((PyObject **)&set_type, stype);
    card_off = coff;
    mask_off = moff;
    for (i = 0; i < 52; i++) set_ref(&cards[i], PyTuple_GET_ITEM(all, i));
    for (i = 0; i < 4; i++) set_ref(&suits[i], PyTuple_GET_ITEM(suit_tuple, i));
    linked_cards = 1;
    Py_RETURN_NONE;
}

static PyObject *calls_link_games(PyObject *self, PyObject *args)
{
    PyObject *members, *game_names;
    int i;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!:link_games", &PyTuple_Type, &members, &PyTuple_Type, &game_names))
        return NULL;
    if (PyTuple_GET_SIZE(members) != 3 || PyTuple_GET_SIZE(game_names) != 3) {
        PyErr_SetString(PyExc_ValueError, "link_games needs 3 games and 3 names");
        return NULL;
    }
    for (i = 0; i < 3; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(game_names, i))) {
            PyErr_SetString(PyExc_TypeError, "game names must be str");
            return NULL;
        }
    }
    linked_games = 0;
    for (i = 0; i < 3; i++) {
        set_ref(&games[i], PyTuple_GET_ITEM(members, i));
        set_ref(&names[i], PyTuple_GET_ITEM(game_names, i));
    }
    linked_games = 1;
    Py_RETURN_NONE;
}

static PyMethodDef calls_methods[] = {
    {"trick_winner", (PyCFunction)(void (*)(void))calls_trick_winner, METH_FASTCALL,
     "trick_winner(game, trump, cards): the winner on the C core, or None (take the Python path)."},
    {"legal_plays", (PyCFunction)(void (*)(void))calls_legal_plays, METH_FASTCALL,
     "legal_plays(game, trump, hand, trick): the CardSet on the C core, or None (take the Python path)."},
    {"parse_cards", calls_parse_cards, METH_O,
     "parse_cards(text): the tuple of Cards on the C core, or None (take the Python path)."},
    {"pick", (PyCFunction)(void (*)(void))hbc_pick, METH_FASTCALL,
     "pick(mask, items): the items at the set bits of mask, lowest first, or None (take the Python path)."},
    {"shuffle", (PyCFunction)(void (*)(void))hbc_shuffle, METH_FASTCALL,
     "shuffle(getrandbits, cards): random.shuffle's pass over a list, drawing from getrandbits."},
    {"solve", (PyCFunction)(void (*)(void))hbc_solve, METH_FASTCALL,
     "solve(game, trump, hands, leader, seat): a short solve on the C core, or None (take the Python path)."},
    {"evaluate", (PyCFunction)(void (*)(void))hbc_evaluate, METH_FASTCALL,
     "evaluate(game, trump, hand, players, seat, leader, seen, in_play, samples, seed, method, workers, "
     "short_handed, executor, chunk_size, progress, node_limit): a plain playout evaluation on the C core, "
     "or None (take the Python path)."},
    {"link_evaluate", hbc_link_evaluate, METH_VARARGS,
     "link_evaluate(result_type, packs): the type of evaluate's answer and the pack masks "
     "(by core id, player count 0..8, short_handed)."},
    {"play", (PyCFunction)(void (*)(void))hbc_play, METH_FASTCALL,
     "play(game, action): True when the Play was the legal play now and is applied, else None "
     "(nothing changed: take the Python path)."},
    {"play_id", (PyCFunction)(void (*)(void))hbc_play_id, METH_FASTCALL,
     "play_id(game, i): the same for the play of card number i by the seat to play."},
    {"legal", (PyCFunction)(void (*)(void))hbc_legal, METH_FASTCALL,
     "legal(game, typed): the legal plays of the seat to play in the play phase, as card numbers "
     "(typed False) or the shared Plays (typed True), or None (take the Python path)."},
    {"hand_masks", hbc_hand_masks, METH_O,
     "hand_masks(hands): the mask of each hand (a tuple of tuples of distinct Cards), or None."},
    {"link_play", hbc_link_play, METH_VARARGS,
     "link_play(phase, Play, TrickPlay, plays): Phase.PLAY, the two types and the shared Plays by seat."},
    {"link_trick", hbc_link_trick, METH_VARARGS,
     "link_trick(Trick, TrickEvent, trick_done, hand_size): what completing a trick in play() needs."},
    {"vec_calls", (PyCFunction)(void (*)(void))hbc_vec_calls, METH_FASTCALL,
     "vec_calls(sample, step, pool, cfg, envs, env_bytes, n, io, bad, bad_id, zeros): what a C lane's "
     "VectorGame.sample_legal and step in C: a VecCalls, whose methods sample(seed) and step(actions) "
     "call the lane's pool (addresses as ints, owned by the lane)."},
    {"link_core", calls_link_core, METH_VARARGS,
     "link_core(override, core_globals, c_core): how to find the selected core, and the C core (or None)."},
    {"link_cards", calls_link_cards, METH_VARARGS,
     "link_cards(Card, CardSet, cards, suits): the card types, the 52 interned Cards and the 4 Suits."},
    {"link_games", calls_link_games, METH_VARARGS,
     "link_games(members, names): the GameKind members and their names, by core id."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef calls_module = {
    PyModuleDef_HEAD_INIT, "hucklebuck._hbcall",
    "The one-call functions on the C core (see csrc/py/hb_calls.c).", -1, calls_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__hbcall(void)
{
    PyObject *m = PyModule_Create(&calls_module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "VERSION", HB_CALLS_VERSION) < 0) goto fail;
    if (hbc_vec_ready() < 0) goto fail;
    if (default_key == NULL && (default_key = PyUnicode_InternFromString("_default")) == NULL) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
