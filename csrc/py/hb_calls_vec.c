/*
 * hb_calls_vec.c -- VectorGame.sample_legal() and step() on the C lane, without the Python
 * around them (part of hucklebuck._hbcall).
 *
 * At 1,024 tables a step of random play took some 2 us of Python and cffi around its two calls
 * (checking the seed, a new array, converting thirteen arguments, reading the ids' buffer): about
 * as much as a whole step of one table, and in a batch on two threads time that no second thread
 * can share.  Here one C function does each: it reads the seed or the ids' buffer, and calls the
 * pool's function of the cffi core (hucklebuck._hbc) through its address, the GIL released.
 *
 * Like the other functions of this module it answers only the plain call, and returns None for
 * anything else -- a seed that is not an int in 0..2**64-1, ids that are not a one-dimensional
 * contiguous buffer of num_envs native integers, any error of the call (an illegal id: the pool
 * changes no environment then) -- so that VectorGame takes its Python path, which gives the error
 * with its message (and, for an error, makes the same call again, which fails the same way).
 *
 * A VecCalls object (its methods sample(seed) and step(actions)) holds what the pool's functions
 * are called with: the addresses of the two
 * functions, of the pool and of the lane's configuration, states and outputs, all of them owned by
 * the lane (hucklebuck.vector._clane.CLane), which makes it from its own cffi objects and keeps it
 * as long as them.  Those addresses cannot be checked here: like the cffi core's own functions,
 * vec_calls() trusts its (private) caller with them.  Everything else is checked again by the
 * pool's functions (hb_vec_calls.c), which trust no argument.
 */
#include "hb_calls.h"
#include "hb_vec.h"

typedef int (*sample_fn)(hb_vec_pool *, const hb_vec_cfg *, const void *, size_t, size_t, uint64_t, int32_t *,
                         size_t);
typedef int (*step_fn)(hb_vec_pool *, const hb_vec_cfg *, void *, size_t, size_t, const hb_vec_io *, const void *,
                       int, int, size_t, size_t *, int64_t *);

/* The two types are those of the pool's functions (a compile-time check: sizeof does not
   evaluate its operand, so the functions, which live in the other module, are not linked). */
typedef char hbc_sample_type[sizeof((sample_fn)0 == hb_vec_pool_sample)];
typedef char hbc_step_type[sizeof((step_fn)0 == hb_vec_pool_step)];

typedef struct {
    PyObject_HEAD
    sample_fn sample;
    step_fn step;
    hb_vec_pool *pool;
    const hb_vec_cfg *cfg;
    void *envs;
    size_t env_bytes, n;
    const hb_vec_io *io;
    size_t *bad;
    int64_t *bad_id;
    PyObject *zeros;   /* an array('i') of n zeros: sample_legal's answer is a copy of it */
    PyObject *last;    /* the array sample() last answered (NULL: none), used again once nobody else holds it */
} vec_calls;

static void vec_calls_dealloc(PyObject *self)
{
    Py_XDECREF(((vec_calls *)self)->zeros);
    Py_XDECREF(((vec_calls *)self)->last);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject vec_calls_type;

/* An address given as an int (0 refused), else 0 with an exception set. */
static void *address(PyObject *obj)
{
    void *p = PyLong_Check(obj) ? PyLong_AsVoidPtr(obj) : NULL;
    if (p == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "vec_calls needs non-zero addresses");
    return p;
}

/* vec_calls(sample, step, pool, cfg, envs, env_bytes, n, io, bad, bad_id, zeros): the object whose
 * methods sample() and step() are below (addresses as ints; zeros: an array of n int32 zeros). */
PyObject *hbc_vec_calls(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    vec_calls *c;
    void *p[10];
    size_t sizes[2];
    Py_buffer view;
    int i;
    (void)self;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "vec_calls() takes 11 arguments");
        return NULL;
    }
    for (i = 0; i < 10; i++) {
        if (i == 5 || i == 6) {
            sizes[i - 5] = PyLong_Check(args[i]) ? PyLong_AsSize_t(args[i]) : (size_t)-1;
            if (sizes[i - 5] == (size_t)-1) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "vec_calls needs sizes as ints");
                return NULL;
            }
            continue;
        }
        if ((p[i] = address(args[i])) == NULL) return NULL;
    }
    if (sizes[1] == 0 || sizes[1] > ((size_t)1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "vec_calls needs 1 to 2**24 environments");
        return NULL;
    }
    if (PyObject_GetBuffer(args[10], &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    i = view.ndim == 1 && view.itemsize == 4 && view.format != NULL && strcmp(view.format, "i") == 0
        && (size_t)view.shape[0] == sizes[1];
    PyBuffer_Release(&view);
    if (!i || !PySequence_Check(args[10])) {
        PyErr_SetString(PyExc_ValueError, "vec_calls needs an array('i') of one zero per environment");
        return NULL;
    }
    if ((c = PyObject_New(vec_calls, &vec_calls_type)) == NULL) return NULL;
    c->sample = (sample_fn)(uintptr_t)p[0];  /* (an address as an int: the cffi core's function) */
    c->step = (step_fn)(uintptr_t)p[1];
    c->pool = (hb_vec_pool *)p[2];
    c->cfg = (const hb_vec_cfg *)p[3];
    c->envs = p[4];
    c->env_bytes = sizes[0];
    c->n = sizes[1];
    c->io = (const hb_vec_io *)p[7];
    c->bad = (size_t *)p[8];
    c->bad_id = (int64_t *)p[9];
    Py_INCREF(args[10]);
    c->zeros = args[10];
    c->last = NULL;
    return (PyObject *)c;
}

/* Whether an object has weak references (its type's list of them is not empty). */
static int has_weakrefs(PyObject *obj)
{
    Py_ssize_t at = Py_TYPE(obj)->tp_weaklistoffset;
    return at > 0 && *(PyObject **)((char *)obj + at) != NULL;
}

/* A new reference to the array sample() answers now: the last one again when nothing else holds
 * it (no reference, no weak one: nobody can see it change), still its n ints; else a new copy of
 * the zeros, kept as the last one.  A new array per call cost some 1 us of the caller's time on
 * 1,024 tables (allocated and filled in a cache the batch's pass had just used, and on two threads
 * its lines fetched back from the other core, which writes half of them). */
static PyObject *answer(vec_calls *c)
{
    PyObject *out = c->last;
    if (out != NULL && Py_REFCNT(out) == 1 && !has_weakrefs(out) && PyObject_Size(out) == (Py_ssize_t)c->n) {
        Py_INCREF(out);
        return out;
    }
    if ((out = PySequence_GetSlice(c->zeros, 0, (Py_ssize_t)c->n)) == NULL) return NULL;
    Py_INCREF(out);
    Py_XSETREF(c->last, out);
    return out;
}

/* calls.sample(seed): sample_legal's array for an int seed in 0..2**64-1, else None. */
static PyObject *vec_sample(PyObject *self, PyObject *arg)
{
    vec_calls *c = (vec_calls *)self;
    unsigned long long seed;
    PyObject *out;
    Py_buffer view;
    int rc;
    if (!PyLong_CheckExact(arg)) MISS;  /* (a bool is not an exact int) */
    seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {  /* negative, or 2**64 and above */
        PyErr_Clear();
        MISS;
    }
    if ((out = answer(c)) == NULL) return NULL;
    if (PyObject_GetBuffer(out, &view, PyBUF_WRITABLE) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if ((size_t)view.len != 4 * c->n) {
        rc = -1;
    } else {
        Py_BEGIN_ALLOW_THREADS
        rc = c->sample(c->pool, c->cfg, c->envs, c->env_bytes, c->n, (uint64_t)seed, (int32_t *)view.buf, c->n);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    if (rc != 0) {
        Py_DECREF(out);
        MISS;
    }
    return out;
}

/* The size and signedness of a buffer's native integer format ("i", "@q", "B", ...): 0 if not one. */
static int int_format(const char *f, int *is_signed)
{
    if (f == NULL) f = "B";
    if (f[0] == '@') f++;
    if (f[0] == '\0' || f[1] != '\0') return 0;
    *is_signed = strchr("bhilqn", f[0]) != NULL;
    switch (f[0]) {
    case 'b': case 'B': return 1;
    case 'h': case 'H': return 2;
    case 'i': case 'I': return 4;
    case 'l': case 'L': return (int)sizeof(long);
    case 'q': case 'Q': return 8;
    case 'n': case 'N': return (int)sizeof(Py_ssize_t);
    default: return 0;
    }
}

/* calls.step(actions): True when actions (a one-dimensional contiguous buffer of num_envs native
 * integers) was the whole batch's legal step and is applied; else None, nothing changed. */
static PyObject *vec_step(PyObject *self, PyObject *arg)
{
    vec_calls *c = (vec_calls *)self;
    Py_buffer view;
    int rc = -1, size, is_signed = 0;
    if (!PyObject_CheckBuffer(arg)) MISS;
    if (PyObject_GetBuffer(arg, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        MISS;
    }
    size = int_format(view.format, &is_signed);
    if (size != 0 && size == view.itemsize && view.ndim == 1 && view.shape != NULL && (size_t)view.shape[0] == c->n
        && (size_t)view.len == c->n * (size_t)size) {
        Py_BEGIN_ALLOW_THREADS
        rc = c->step(c->pool, c->cfg, c->envs, c->env_bytes, c->n, c->io, view.buf, size, is_signed, c->n, c->bad,
                     c->bad_id);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    if (rc != 0) MISS;
    Py_RETURN_TRUE;
}

static PyMethodDef vec_calls_methods[] = {
    {"sample", vec_sample, METH_O,
     "sample(seed): VectorGame.sample_legal's array on the C lane, or None (take the Python path)."},
    {"step", vec_step, METH_O,
     "step(actions): True when the batch's step is applied on the C lane, else None "
     "(nothing changed: take the Python path)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject vec_calls_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hucklebuck._hbcall.VecCalls",
    .tp_basicsize = sizeof(vec_calls),
    .tp_dealloc = vec_calls_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = vec_calls_methods,
    .tp_doc = "A C lane's sample_legal and step, each in one C call (made by vec_calls()).",
};

int hbc_vec_ready(void) { return PyType_Ready(&vec_calls_type); }
