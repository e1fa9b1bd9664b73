/*
 * hb_calls_play.c -- a legal card played in a game's play phase, in one call (hucklebuck._hbcall).
 *
 * play(game, action) and play_id(game, i) do what the engine's TrickGame._quick_play does
 * (hucklebuck/games/engine.py) for the typed action and for its integer id: when it is the
 * legal play of the seat to play, record it, take the card from the hand and add it to the
 * trick, and complete the trick when it was the trick's last card (in C while the C core is
 * selected: hb_calls_trick.c; else the game's own finish_trick and _trick_done, called back).
 * legal(game, typed) lists the legal plays of the seat to play (what legal_action_ids and
 * legal_actions list in the play phase), changing nothing.
 * hand_masks(hands) gives the mask of each hand of a deal.
 *
 * Like every function of the module, each answers only the plain case: the game's own objects
 * of their exact types (the interned Cards, the shared Play actions, the trick state), a play
 * that is legal now, a trick state the game does not share with a copy.  For anything else it
 * returns None having changed nothing and run no Python code of its own, and the caller takes
 * its Python path, which applies the action or says why it is refused.  Unlike the other
 * functions these are not tied to a core: the only core call (the trick's winner) is made by
 * the game's own finish_trick, on the selected core.
 *
 * Nothing is trusted: the link checks what it is given, every attribute read is checked for
 * its exact type and range before anything changes, and everything the change needs is built
 * first, so that a failure (memory) leaves the game as it was.
 */
#include "hb_calls.h"
#include "hb_calls_play.h"

#include <structmember.h>

static PyObject *play_phase;      /* Phase.PLAY */
static PyTypeObject *play_type;   /* hucklebuck.actions.Play */
PyTypeObject *trick_type;  /* hucklebuck.games.base.TrickPlay */
static PyObject *shared_plays;    /* hucklebuck.games.ids.PLAYS: per seat, the 52 shared Plays */
Py_ssize_t off_current, off_seats;
static Py_ssize_t off_suit_of, off_suit_masks, off_played;
PyObject *s_phase, *s_play, *s_hands, *s_actions, *s_events, *s_shared, *s_seat, *s_card,
    *s_finish, *s_done;
int linked_play;

/* An exact int in 0 .. 2**52 - 1 as *out: 1, else 0 (no error left set). */
static int mask_of(PyObject *obj, uint64_t *out)
{
    long long v;
    int overflow;
    if (obj == NULL || !PyLong_CheckExact(obj)) return 0;
    /* (not PyLong_AsUnsignedLongLong: CPython 3.11 reads a two-digit int through a byte array) */
    v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || v < 0) return 0;  /* an exact int raises nothing here */
    if ((unsigned long long)v >> 52) return 0;
    *out = (uint64_t)v;
    return 1;
}

/* An exact int in 0 .. limit - 1, else -1 (no error left set). */
long small_int(PyObject *obj, long limit)
{
    long v;
    if (obj == NULL || !PyLong_CheckExact(obj)) return -1;
    v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return v >= 0 && v < limit ? v : -1;
}

/* game.<name> (a new reference), or NULL with no error set when it cannot be read. */
PyObject *attr(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) PyErr_Clear();
    return v;
}

/* A game's own attributes read straight from its __dict__ (no type lookup per read): taken for a
 * game whose type (as last modified: its version tag) has no attribute of any name read here,
 * so that the instance dict is where Python's own read finds them; checked once per type and
 * version (the last type seen is kept).  Anything else reads through PyObject_GetAttr. */
static PyTypeObject *plain_type;  /* borrowed: compared by address and version tag only */
static unsigned int plain_tag;
PyObject *plain_done;  /* what the type's _trick_done was when it was checked (borrowed) */

/* 1 when `obj` is not an attribute of `type` (nor of its metaclass), else 0 (no error left set). */
static int type_lacks(PyTypeObject *type, PyObject *name)
{
    PyObject *found = PyObject_GetAttr((PyObject *)type, name);
    if (found == NULL) {
        PyErr_Clear();
        return 1;
    }
    Py_DECREF(found);
    return 0;
}

/* The game's __dict__ (a new reference) when its type is a plain one, else NULL (no error set). */
static PyObject *plain_dict(PyObject *game)
{
    PyTypeObject *type = Py_TYPE(game);
    PyObject *dict;
    if (type != plain_type || type->tp_version_tag != plain_tag || plain_tag == 0) {
        PyObject **names[] = {&s_phase, &s_play, &s_shared, &s_hands, &s_actions, &s_events, &s_hand_no};
        size_t i;
        PyObject *done;
        unsigned int tag;
        (void)type_lacks(type, s_phase);  /* a lookup gives the type a version tag if it can have one */
        tag = type->tp_version_tag;
        if (!(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tag == 0) return NULL;
        for (i = 0; i < sizeof names / sizeof names[0]; i++)
            if (*names[i] == NULL || !type_lacks(type, *names[i])) return NULL;
        done = PyObject_GetAttr((PyObject *)type, s_done);  /* a plain function on the class */
        if (done == NULL) PyErr_Clear();
        plain_done = done;
        Py_XDECREF(done);  /* kept for comparison only (the class holds it while its version holds) */
        if (type->tp_version_tag != tag || !(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return NULL;
        plain_type = type;  /* (no lookup above changed the type: its version is the one checked) */
        plain_tag = tag;
    }
    dict = PyObject_GenericGetDict(game, NULL);
    if (dict == NULL) PyErr_Clear();
    else if (!PyDict_CheckExact(dict)) Py_CLEAR(dict);
    return dict;
}

/* game.<name> (a new reference) from its plain `dict` when given, else through getattr; NULL with no
   error set when it cannot be read. */
PyObject *game_attr(PyObject *game, PyObject *dict, PyObject *name)
{
    PyObject *v;
    if (dict == NULL) return attr(game, name);
    v = PyDict_GetItemWithError(dict, name);
    if (v == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_INCREF(v);
    return v;
}


static void view_clear(game_view *v)
{
    Py_CLEAR(v->phase);
    Py_CLEAR(v->play);
    Py_CLEAR(v->shared);
    Py_CLEAR(v->hands);
    Py_CLEAR(v->actions);
    Py_CLEAR(v->events);
    Py_CLEAR(v->dict);
}

/* Read the view; 1 when it is a play phase this file takes (exact types), else 0. */
static int view_read(PyObject *game, game_view *v)
{
    PyObject *d;
    memset(v, 0, sizeof *v);
    d = v->dict = plain_dict(game);
    if ((v->phase = game_attr(game, d, s_phase)) == NULL || v->phase != play_phase) return 0;
    if ((v->play = game_attr(game, d, s_play)) == NULL || Py_TYPE(v->play) != trick_type) return 0;
    if ((v->shared = game_attr(game, d, s_shared)) == NULL || v->shared != Py_False) return 0;
    if ((v->hands = game_attr(game, d, s_hands)) == NULL || !PyList_CheckExact(v->hands)) return 0;
    if ((v->actions = game_attr(game, d, s_actions)) == NULL || !PyList_CheckExact(v->actions)) return 0;
    if ((v->events = game_attr(game, d, s_events)) == NULL || !PyList_CheckExact(v->events)) return 0;
    return 1;
}

/* The seat to play now (from the trick state), or -1 when the state is not the plain one. */
static long seat_to_play(const game_view *v)
{
    PyObject *current = SLOT(v->play, off_current), *seats = SLOT(v->play, off_seats);
    if (current == NULL || seats == NULL || !PyList_CheckExact(current) || !PyTuple_CheckExact(seats))
        return -1;
    if (PyList_GET_SIZE(current) >= PyTuple_GET_SIZE(seats)) return -1;
    return small_int(PyTuple_GET_ITEM(seats, PyList_GET_SIZE(current)), PyList_GET_SIZE(v->hands));
}

/* The mask of the suit led by card `led` (the trick's first card), as the trick state's own
   tables give it: 1 and the mask in *out, else 0 (not the plain state; no error left set). */
static int suit_led_mask(PyObject *play, PyObject *led_card, uint64_t *out)
{
    PyObject *suit_of = SLOT(play, off_suit_of), *masks = SLOT(play, off_suit_masks);
    int led = card_number(led_card);
    Py_ssize_t k;
    if (led < 0 || suit_of == NULL || masks == NULL || !PyBytes_CheckExact(suit_of) ||
        PyBytes_GET_SIZE(suit_of) != 52 || !PyTuple_CheckExact(masks) || PyTuple_GET_SIZE(masks) != 4)
        return 0;
    k = (unsigned char)PyBytes_AS_STRING(suit_of)[led];
    return k <= 3 && mask_of(PyTuple_GET_ITEM(masks, k), out);
}

/* Play `card` (its number) as `action` for `seat` (the seat to play): 1 done, 0 not taken here
   (nothing changed), -1 on an error (exception set; from the trick's completion, the game's
   own code, or memory before anything changed). */
static int play_card(PyObject *game, const game_view *v, PyObject *action, long seat, int card)
{
    PyObject *play = v->play, *current = SLOT(play, off_current), *seats = SLOT(play, off_seats);
    PyObject *played = SLOT(play, off_played), *old, *hand, *grown, *done, *was;
    uint64_t held, bit = UINT64_C(1) << card, follow = bit;
    Py_ssize_t n = PyList_GET_SIZE(current), k, size;
    if (!mask_of(PyList_GET_ITEM(v->hands, seat), &held) || !(held & bit)) return 0;
    if (n > 0) {  /* the suit led, as the trick state's own tables give it */
        uint64_t suit_mask;
        if (!suit_led_mask(play, PyList_GET_ITEM(current, 0), &suit_mask)) return 0;
        follow = held & suit_mask;
    }
    if (!(follow & bit) && follow) return 0;  /* neither follows suit nor shows the seat cannot */
    if (played == NULL || !PyList_CheckExact(played) || seat >= PyList_GET_SIZE(played)) return 0;
    old = PyList_GET_ITEM(played, seat);
    if (!PyTuple_CheckExact(old)) return 0;
    /* everything the change needs, before anything changes */
    size = PyTuple_GET_SIZE(old);
    if ((hand = PyLong_FromUnsignedLongLong((unsigned long long)(held ^ bit))) == NULL) return -1;
    if ((grown = PyTuple_New(size + 1)) == NULL) {
        Py_DECREF(hand);
        return -1;
    }
    for (k = 0; k < size; k++) {
        PyObject *item = PyTuple_GET_ITEM(old, k);
        Py_INCREF(item);
        PyTuple_SET_ITEM(grown, k, item);
    }
    if ((done = PyLong_FromLong(card)) == NULL) goto undo0;
    PyTuple_SET_ITEM(grown, size, done);
    /* the change: three appends (each may fail only for memory; undone then), two stores */
    if (PyList_Append(v->actions, action) < 0) goto undo0;
    if (PyList_Append(v->events, action) < 0) goto undo1;
    if (PyList_Append(current, card_object(card)) < 0) goto undo2;
    was = PyList_GET_ITEM(v->hands, seat);
    PyList_SET_ITEM(v->hands, seat, hand);  /* the lists own the new items; the old ones go */
    PyList_SET_ITEM(played, seat, grown);
    Py_DECREF(was);  /* an int and a tuple of ints: no Python code runs */
    Py_DECREF(old);
    if (PyList_GET_SIZE(current) == PyTuple_GET_SIZE(seats)) {  /* the trick's last card */
        PyObject *trick, *r;
        int done_here = finish_trick_here(game, v);
        if (done_here != 0) return done_here < 0 ? -1 : 1;
        trick = PyObject_CallMethodNoArgs(play, s_finish);
        if (trick == NULL) return -1;
        r = PyObject_CallMethodObjArgs(game, s_done, play, trick, NULL);
        Py_DECREF(trick);
        if (r == NULL) return -1;
        Py_DECREF(r);
    }
    return 1;
undo2:
    (void)PyList_SetSlice(v->events, PyList_GET_SIZE(v->events) - 1, PyList_GET_SIZE(v->events), NULL);
undo1:
    (void)PyList_SetSlice(v->actions, PyList_GET_SIZE(v->actions) - 1, PyList_GET_SIZE(v->actions), NULL);
undo0:
    Py_DECREF(hand);
    Py_DECREF(grown);
    return -1;
}

/* ------------------------------------------------------------------ legal */
/* The number of the lowest set bit of a mask that is not 0. */
static int lowest_bit(uint64_t mask)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(mask);
#else
    int i = 0;
    while (!(mask & 1)) mask >>= 1, i++;
    return i;
#endif
}

/* legal(game, typed): the legal plays of the seat to play while the game is in its play phase,
 * as legal_action_ids() (typed False: card numbers, ascending) or legal_actions() (typed True:
 * the shared Plays of that seat, in the same order) list them; None for anything else (another
 * phase, a state not of the exact types, typed not a bool).  Reads only: nothing changes, and a
 * trick state shared with a copy is read as it is (the Python paths read it too). */
PyObject *hbc_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *phase = NULL, *play = NULL, *hands = NULL, *dict = NULL, *current, *row = NULL, *out = NULL;
    uint64_t held, mask, m;
    Py_ssize_t count = 0, k = 0;
    long seat;
    int i, typed;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "legal() takes 2 arguments");
        return NULL;
    }
    if (!linked_play || (args[1] != Py_True && args[1] != Py_False)) MISS;
    typed = args[1] == Py_True;
    dict = plain_dict(args[0]);
    if ((phase = game_attr(args[0], dict, s_phase)) == NULL || phase != play_phase) goto miss;
    if ((play = game_attr(args[0], dict, s_play)) == NULL || Py_TYPE(play) != trick_type) goto miss;
    if ((hands = game_attr(args[0], dict, s_hands)) == NULL || !PyList_CheckExact(hands)) goto miss;
    {
        game_view v;  /* seat_to_play reads only the trick state and the number of hands */
        memset(&v, 0, sizeof v);
        v.play = play;
        v.hands = hands;
        seat = seat_to_play(&v);
    }
    if (seat < 0 || !mask_of(PyList_GET_ITEM(hands, seat), &held)) goto miss;
    current = SLOT(play, off_current);
    mask = held;
    if (PyList_GET_SIZE(current) > 0) {  /* the cards of the suit led, if the seat has any */
        uint64_t suit_mask;
        if (!suit_led_mask(play, PyList_GET_ITEM(current, 0), &suit_mask)) goto miss;
        if (held & suit_mask) mask = held & suit_mask;
    }
    if (typed) {
        if (seat >= PyTuple_GET_SIZE(shared_plays)) goto miss;
        row = PyTuple_GET_ITEM(shared_plays, seat);  /* checked at link: 52 Plays each */
    }
    for (m = mask; m; m &= m - 1) count++;
    if ((out = PyList_New(count)) == NULL) goto done;
    for (; mask; mask &= mask - 1) {  /* the set bits, lowest first */
        PyObject *item;
        i = lowest_bit(mask);
        if (row != NULL) {
            item = PyTuple_GET_ITEM(row, i);
            Py_INCREF(item);
        } else if ((item = PyLong_FromLong(i)) == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, k++, item);
    }
    goto done;
miss:
    out = Py_None;
    Py_INCREF(out);
done:
    Py_XDECREF(dict);
    Py_XDECREF(phase);
    Py_XDECREF(play);
    Py_XDECREF(hands);
    return out;
}

/* ------------------------------------------------------------------ entry points */
/* play(game, action): True when `action` (a Play) was the legal play of the seat to play and
 * is applied, else None (nothing changed: the caller takes its Python path). */
PyObject *hbc_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    game_view v;
    PyObject *seat_obj, *card_obj;
    long seat;
    int card, rc = 0;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play() takes 2 arguments");
        return NULL;
    }
    if (!linked_play || Py_TYPE(args[1]) != play_type) MISS;
    seat_obj = attr(args[1], s_seat);
    card_obj = attr(args[1], s_card);
    if (view_read(args[0], &v)) {
        seat = seat_to_play(&v);
        card = card_obj != NULL ? card_number(card_obj) : -1;
        if (seat >= 0 && card >= 0 && small_int(seat_obj, PyList_GET_SIZE(v.hands)) == seat)
            rc = play_card(args[0], &v, args[1], seat, card);
    }
    view_clear(&v);
    Py_XDECREF(seat_obj);
    Py_XDECREF(card_obj);
    if (rc < 0) return NULL;
    if (rc == 0) MISS;
    Py_RETURN_TRUE;
}

/* play_id(game, i): the same for the play of card number i (0..51) by the seat to play. */
PyObject *hbc_play_id(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    game_view v;
    long seat, card;
    int rc = 0;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play_id() takes 2 arguments");
        return NULL;
    }
    if (!linked_play || (card = small_int(args[1], 52)) < 0) MISS;
    if (view_read(args[0], &v) && (seat = seat_to_play(&v)) >= 0 && seat < PyTuple_GET_SIZE(shared_plays)) {
        PyObject *row = PyTuple_GET_ITEM(shared_plays, seat);  /* checked at link: 52 Plays each */
        rc = play_card(args[0], &v, PyTuple_GET_ITEM(row, card), seat, (int)card);
    }
    view_clear(&v);
    if (rc < 0) return NULL;
    if (rc == 0) MISS;
    Py_RETURN_TRUE;
}

/* hand_masks(hands): [the mask of each hand] for a tuple of tuples of distinct interned Cards,
 * else None. */
PyObject *hbc_hand_masks(PyObject *self, PyObject *hands)
{
    PyObject *out, *m;
    Py_ssize_t n, i;
    unsigned char numbers[52];
    uint64_t mask;
    (void)self;
    if (!PyTuple_CheckExact(hands)) MISS;
    n = PyTuple_GET_SIZE(hands);
    for (i = 0; i < n; i++)  /* every hand read first: no list to undo */
        if (!PyTuple_CheckExact(PyTuple_GET_ITEM(hands, i)) || card_row(PyTuple_GET_ITEM(hands, i), numbers, 52, &mask) < 0)
            MISS;
    if ((out = PyList_New(n)) == NULL) return NULL;
    for (i = 0; i < n; i++) {
        (void)card_row(PyTuple_GET_ITEM(hands, i), numbers, 52, &mask);
        if ((m = PyLong_FromUnsignedLongLong((unsigned long long)mask)) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

/* ------------------------------------------------------------------ link */
int intern(PyObject **where, const char *text)
{
    if (*where == NULL && (*where = PyUnicode_InternFromString(text)) == NULL) return -1;
    return 0;
}

/* link_play(phase, Play, TrickPlay, plays): Phase.PLAY, the Play and TrickPlay types, and
 * hucklebuck.games.ids.PLAYS (per seat, a tuple of the 52 shared Plays of that seat). */
PyObject *hbc_link_play(PyObject *self, PyObject *args)
{
    PyObject *phase, *ptype, *ttype, *table;
    Py_ssize_t offs[5];
    static const char *const slots[5] = {"current", "seats", "suit_of", "suit_masks", "played"};
    Py_ssize_t i, k;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!O!O!:link_play", &phase, &PyType_Type, &ptype, &PyType_Type, &ttype,
                          &PyTuple_Type, &table))
        return NULL;
    for (i = 0; i < 5; i++)
        if ((offs[i] = slot_offset((PyTypeObject *)ttype, slots[i])) < 0) return NULL;
    for (i = 0; i < PyTuple_GET_SIZE(table); i++) {
        PyObject *row = PyTuple_GET_ITEM(table, i);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) != 52) {
            PyErr_SetString(PyExc_ValueError, "link_play needs 52 plays per seat");
            return NULL;
        }
        for (k = 0; k < 52; k++)
            if (Py_TYPE(PyTuple_GET_ITEM(row, k)) != (PyTypeObject *)ptype) {
                PyErr_SetString(PyExc_TypeError, "link_play: every shared play must be a Play");
                return NULL;
            }
    }
    if (intern(&s_phase, "_phase") || intern(&s_play, "_play") || intern(&s_hands, "_hands") ||
        intern(&s_actions, "_actions") || intern(&s_events, "_events") || intern(&s_shared, "_play_shared") ||
        intern(&s_seat, "seat") || intern(&s_card, "card") || intern(&s_finish, "finish_trick") ||
        intern(&s_done, "_trick_done"))
        return NULL;
    linked_play = 0;
    unlink_trick();  /* its offsets are of the TrickPlay type linked before: link_trick again */
    set_ref(&play_phase, phase);
    set_ref((PyObject **)&play_type, ptype);
    set_ref((PyObject **)&trick_type, ttype);
    set_ref(&shared_plays, table);
    off_current = offs[0];
    off_seats = offs[1];
    off_suit_of = offs[2];
    off_suit_masks = offs[3];
    off_played = offs[4];
    linked_play = 1;
    Py_RETURN_NONE;
}
