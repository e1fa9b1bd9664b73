/*
 * hb_calls_trick.c -- the trick completed by a compiled play (hb_calls_play.c), finished in C
 * (hucklebuck._hbcall).
 *
 * When play()/play_id() add a trick's last card while the C core is selected, finish_trick_here
 * does what TrickPlay.finish_trick and TrickGame._trick_done do in Python (the winner from the C
 * core, the Trick and TrickEvent records, the trick state turned to the winner), then calls the
 * game's own _hand_played after the hand's last trick.  Like the rest of the module it answers only
 * the plain case and trusts nothing: for anything else (another core, a game whose _trick_done is
 * its own, a slot of another type or out of range) it changes nothing and the caller calls the
 * Python methods, which do the same or raise.
 */
#include "hb_calls_play.h"

static PyTypeObject *trick_cls;     /* hucklebuck.games.base.Trick */
static PyTypeObject *event_cls;     /* hucklebuck.games.base.TrickEvent */
static PyObject *engine_trick_done; /* TrickGame._trick_done (a game class that overrides it is not done here) */
PyObject *s_hand_no;
static PyObject *s_hand_played, *s_leader, *s_seats, *s_cards, *s_winner, *s_hand, *s_number, *s_trick;
static Py_ssize_t off_order, off_leader, off_tricks, off_won, off_game_id, off_trump;
static Py_ssize_t hand_size;
static int linked_trick;

void unlink_trick(void)
{
    linked_trick = 0;
}

/* object.__new__(cls) with its fields set as object.__setattr__ would (the frozen dataclass's own
   __init__ and __setattr__ skipped, as build_frozen does); a new reference, or NULL with an
   exception set. */
static PyObject *frozen(PyTypeObject *cls, PyObject *const *names, PyObject *const *values, int count)
{
    PyObject *empty = PyTuple_New(0), *obj;
    int i;
    if (empty == NULL) return NULL;
    obj = PyBaseObject_Type.tp_new(cls, empty, NULL);
    Py_DECREF(empty);
    if (obj == NULL) return NULL;
    for (i = 0; i < count; i++)
        if (PyObject_GenericSetAttr(obj, names[i], values[i]) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    return obj;
}

/* Complete the trick whose last card was just added: what TrickPlay.finish_trick and the game's
   _trick_done do (the winner from the C core, so only while it is the selected core), then the
   game's own _hand_played after the last trick.  1 done, 0 not taken here (nothing changed: the
   caller calls the Python methods), -1 on an error (exception set; from memory before anything
   changed, or from _hand_played). */
int finish_trick_here(PyObject *game, const game_view *v)
{
    PyObject *play = v->play, *current = SLOT(play, off_current), *seats = SLOT(play, off_seats);
    PyObject *order = SLOT(play, off_order), *tricks = SLOT(play, off_tricks), *won = SLOT(play, off_won);
    PyObject *leader = SLOT(play, off_leader), *hand_no = NULL, *cards = NULL, *trick = NULL;
    PyObject *grown = NULL, *rotated = NULL, *fresh = NULL, *count = NULL, *number = NULL, *event = NULL;
    PyObject *winner_obj, *names[4], *values[4];
    unsigned char row[HB_MAX_TRICK];
    uint64_t mask;
    Py_ssize_t n, size, k, at = -1;
    long game_id, trump, index, winner, taken;
    int sel, rc = 0;
    if (!linked_trick) return 0;
    if (v->dict != NULL) {  /* a plain type: its _trick_done as checked, and none of the instance's own */
        if (plain_done != engine_trick_done || PyDict_GetItemWithError(v->dict, s_done) != NULL) return 0;
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
    } else {  /* the game's _trick_done is the engine's (not a class's or an instance's own) */
        PyObject *bound = attr(game, s_done);
        int own = bound != NULL && PyMethod_Check(bound) && PyMethod_GET_FUNCTION(bound) == engine_trick_done &&
                  PyMethod_GET_SELF(bound) == game;
        Py_XDECREF(bound);
        if (!own) return 0;
    }
    if ((sel = c_core_selected()) <= 0) {
        if (sel < 0) PyErr_Clear();  /* the Python path asks the core again, and says why */
        return 0;
    }
    if (order == NULL || tricks == NULL || won == NULL || leader == NULL || !PyTuple_CheckExact(order) ||
        !PyTuple_CheckExact(tricks) || !PyList_CheckExact(won) || !PyLong_CheckExact(leader) ||
        PyList_GET_SIZE(won) != PyList_GET_SIZE(v->hands))
        return 0;
    if ((game_id = small_int(SLOT(play, off_game_id), 3)) < 0 || (trump = small_int(SLOT(play, off_trump), 4)) < 0)
        return 0;
    n = card_row(current, row, HB_MAX_TRICK, &mask);
    if (n < 1 || n != PyTuple_GET_SIZE(seats)) return 0;
    index = hb_trick_winner((int)game_id, (int)trump, (const char *)row, (int)n);
    if (index < 0 || index >= n) return 0;
    winner_obj = PyTuple_GET_ITEM(seats, index);
    if ((winner = small_int(winner_obj, PyList_GET_SIZE(won))) < 0) return 0;
    if ((taken = small_int(PyList_GET_ITEM(won, winner), HB_MAX_TRICK * 8)) < 0) return 0;
    size = PyTuple_GET_SIZE(order);
    for (k = 0; k < size; k++)
        if (small_int(PyTuple_GET_ITEM(order, k), PyList_GET_SIZE(won)) == winner) at = k;
    if (at < 0) return 0;
    hand_no = game_attr(game, v->dict, s_hand_no);
    if (hand_no == NULL || !PyLong_CheckExact(hand_no)) goto out;
    /* everything the change needs, before anything changes */
    rc = -1;
    if ((cards = PyList_AsTuple(current)) == NULL) goto out;
    names[0] = s_leader, names[1] = s_seats, names[2] = s_cards, names[3] = s_winner;
    values[0] = leader, values[1] = seats, values[2] = cards, values[3] = winner_obj;
    if ((trick = frozen(trick_cls, names, values, 4)) == NULL) goto out;
    if ((grown = PyTuple_New(PyTuple_GET_SIZE(tricks) + 1)) == NULL) goto out;
    for (k = 0; k < PyTuple_GET_SIZE(tricks); k++) {
        Py_INCREF(PyTuple_GET_ITEM(tricks, k));
        PyTuple_SET_ITEM(grown, k, PyTuple_GET_ITEM(tricks, k));
    }
    Py_INCREF(trick);
    PyTuple_SET_ITEM(grown, k, trick);
    if ((rotated = PyTuple_New(size)) == NULL) goto out;
    for (k = 0; k < size; k++) {  /* order turned to start at the winner (TrickPlay._rotated) */
        PyObject *seat = PyTuple_GET_ITEM(order, (at + k) % size);
        Py_INCREF(seat);
        PyTuple_SET_ITEM(rotated, k, seat);
    }
    if ((fresh = PyList_New(0)) == NULL || (count = PyLong_FromLong(taken + 1)) == NULL) goto out;
    if ((number = PyLong_FromSsize_t(PyTuple_GET_SIZE(grown))) == NULL) goto out;
    names[0] = s_hand, names[1] = s_number, names[2] = s_trick;
    values[0] = hand_no, values[1] = number, values[2] = trick;
    if ((event = frozen(event_cls, names, values, 3)) == NULL) goto out;
    if (PyList_Append(v->events, event) < 0) goto out;
    /* the change: stores that cannot fail (each slot owns its new value; the old ones go) */
    {
        PyObject *old[5];
        old[0] = tricks, old[1] = leader, old[2] = seats, old[3] = current, old[4] = PyList_GET_ITEM(won, winner);
        SLOT(play, off_tricks) = grown, grown = NULL;
        Py_INCREF(winner_obj);
        SLOT(play, off_leader) = winner_obj;
        SLOT(play, off_seats) = rotated, rotated = NULL;
        SLOT(play, off_current) = fresh, fresh = NULL;
        PyList_SET_ITEM(won, winner, count), count = NULL;
        for (k = 0; k < 5; k++) Py_DECREF(old[k]);  /* a list of Cards, tuples and ints: no Python code */
    }
    rc = 1;
    if (PyTuple_GET_SIZE(SLOT(play, off_tricks)) == hand_size) {  /* the hand's last trick: score it */
        PyObject *r = PyObject_CallMethodNoArgs(game, s_hand_played);
        if (r == NULL) rc = -1;
        Py_XDECREF(r);
    }
out:
    Py_XDECREF(hand_no);
    Py_XDECREF(cards);
    Py_XDECREF(trick);
    Py_XDECREF(grown);
    Py_XDECREF(rotated);
    Py_XDECREF(fresh);
    Py_XDECREF(count);
    Py_XDECREF(number);
    Py_XDECREF(event);
    return rc;
}

/* link_trick(Trick, TrickEvent, trick_done, hand_size): after link_play, what a trick completed here
 * needs: the two record types, the engine's TrickGame._trick_done and the tricks of a hand. */
PyObject *hbc_link_trick(PyObject *self, PyObject *args)
{
    PyObject *tcls, *ecls, *done;
    Py_ssize_t size, offs[6];
    static const char *const slots[6] = {"order", "leader", "tricks", "won", "game_id", "trump"};
    int i;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!On:link_trick", &PyType_Type, &tcls, &PyType_Type, &ecls, &done, &size))
        return NULL;
    if (!linked_play) {
        PyErr_SetString(PyExc_RuntimeError, "link_trick needs link_play first");
        return NULL;
    }
    if (size < 1 || size > 52) {
        PyErr_SetString(PyExc_ValueError, "link_trick: a hand has 1 to 52 tricks");
        return NULL;
    }
    for (i = 0; i < 6; i++)
        if ((offs[i] = slot_offset(trick_type, slots[i])) < 0) return NULL;
    if (intern(&s_hand_no, "_hand_no") || intern(&s_hand_played, "_hand_played") || intern(&s_leader, "leader") ||
        intern(&s_seats, "seats") || intern(&s_cards, "cards") || intern(&s_winner, "winner") ||
        intern(&s_hand, "hand") || intern(&s_number, "number") || intern(&s_trick, "trick"))
        return NULL;
    linked_trick = 0;
    set_ref((PyObject **)&trick_cls, tcls);
    set_ref((PyObject **)&event_cls, ecls);
    set_ref(&engine_trick_done, done);
    off_order = offs[0], off_leader = offs[1], off_tricks = offs[2], off_won = offs[3];
    off_game_id = offs[4], off_trump = offs[5];
    hand_size = size;
    linked_trick = 1;
    Py_RETURN_NONE;
}
