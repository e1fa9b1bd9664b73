/*
 * hb_calls_play.h -- what hb_calls_play.c (a legal card played in one call) and hb_calls_trick.c
 * (the trick it completes, finished in C) share inside hucklebuck._hbcall.  Not for other files:
 * the names are short, so each is given a prefixed symbol here.
 */
#ifndef HB_CALLS_PLAY_H
#define HB_CALLS_PLAY_H

#include "hb_calls.h"

#define trick_type hbp_trick_type
#define off_current hbp_off_current
#define off_seats hbp_off_seats
#define linked_play hbp_linked_play
#define small_int hbp_small_int
#define attr hbp_attr
#define plain_done hbp_plain_done
#define game_attr hbp_game_attr
#define intern hbp_intern
#define s_phase hbp_s_phase
#define s_play hbp_s_play
#define s_hands hbp_s_hands
#define s_actions hbp_s_actions
#define s_events hbp_s_events
#define s_shared hbp_s_shared
#define s_seat hbp_s_seat
#define s_card hbp_s_card
#define s_finish hbp_s_finish
#define s_done hbp_s_done
#define s_hand_no hbp_s_hand_no
#define finish_trick_here hbp_finish_trick_here
#define unlink_trick hbp_unlink_trick

/* A slot of an object at a given offset (the TrickPlay slots, found by link_play). */
#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* What a play reads of the game: every attribute read (and so any Python code such a
   read may run) before anything is checked or changed. */
typedef struct {
    PyObject *phase, *play, *shared, *hands, *actions, *events;
    PyObject *dict; /* the game's __dict__ when its type is a plain one (plain_dict), else NULL */
} game_view;

/* hb_calls_play.c (set by link_play) */
extern PyTypeObject *trick_type;            /* hucklebuck.games.base.TrickPlay */
extern Py_ssize_t off_current, off_seats;  /* its slots current and seats */
extern int linked_play;
extern PyObject *s_phase, *s_play, *s_hands, *s_actions, *s_events, *s_shared, *s_seat, *s_card, *s_finish,
    *s_done;
/* What the _trick_done of the plain type last checked was (borrowed; see plain_dict). */
extern PyObject *plain_done;
/* An exact int in 0 .. limit - 1, else -1 (no error left set). */
long small_int(PyObject *obj, long limit);
/* obj.<name> (a new reference), or NULL with no error set when it cannot be read. */
PyObject *attr(PyObject *obj, PyObject *name);
/* game.<name> from its plain dict when given, else through getattr (see attr). */
PyObject *game_attr(PyObject *game, PyObject *dict, PyObject *name);
/* An interned name kept for the life of the process: 0, or -1 with an exception set. */
int intern(PyObject **where, const char *text);

/* hb_calls_trick.c */
extern PyObject *s_hand_no;  /* "_hand_no" (NULL before link_trick) */
/* Complete the trick whose last card was just added, in C: 1 done, 0 not taken (nothing changed),
   -1 on an error (exception set). */
int finish_trick_here(PyObject *game, const game_view *v);
/* Forget link_trick (its offsets belong to the TrickPlay type linked before). */
void unlink_trick(void);

#endif
