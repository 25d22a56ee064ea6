/* What the compiled search cores (solver/archway/_core.c, solver/canfield/_core.c,
 * solver/gate/_core.c) share: Python's random numbers and shuffle (so a compiled search restarts in
 * the order the Python one does), the 64-bit hash of a position's key bytes, the table of positions
 * seen, the arrays that grow as a search goes deeper, the clock, the Luby restart schedule, the check
 * for a signal's handler while the GIL is released, the verdicts and the node counts a search answers
 * with, and reading and writing rows of cards and
 * sequences of steps (Archway's core takes the mixing function, the zeroed memory, the growing arrays,
 * the clock, the signal check and the rows; its table of positions is its own, of exact keys).
 *
 * Static functions only: each core includes this once and is its own translation unit. The
 * includer has Python.h included first (PY_SSIZE_T_CLEAN defined), as Python asks.
 */

#ifndef GATEBOT_SOLVER_SEARCH_H
#define GATEBOT_SOLVER_SEARCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ---- Python's random: MT19937 as _randommodule.c has it, random.shuffle as random.py does it. ---- */

typedef struct {
    uint32_t state[624];
    int index;
} Twister;

static void twister_seed(Twister *t, uint32_t seed) {
    /* random.Random(seed) for 0 <= seed < 2**32: init_by_array with the one key word. */
    uint32_t *mt = t->state;
    mt[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + seed + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= 1)
            j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    t->index = 624;
}

static uint32_t twister_next(Twister *t) {
    uint32_t *mt = t->state;
    uint32_t y;
    if (t->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        t->index = 0;
    }
    y = mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static int bit_length(uint32_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* random.Random._randbelow(n) for 0 < n < 2**32. */
static uint32_t twister_below(Twister *t, uint32_t n) {
    int k = bit_length(n);
    uint32_t r = twister_next(t) >> (32 - k);
    while (r >= n)
        r = twister_next(t) >> (32 - k);
    return r;
}

/* random.shuffle of ``n`` items of ``size`` bytes each (at most 16): the same swaps, so the same order. */
static void shuffle(Twister *t, void *items, int n, size_t size) {
    unsigned char *base = items, swap[16];
    for (int i = n - 1; i > 0; i--) {
        int j = (int)twister_below(t, (uint32_t)i + 1);
        memcpy(swap, base + (size_t)i * size, size);
        memcpy(base + (size_t)i * size, base + (size_t)j * size, size);
        memcpy(base + (size_t)j * size, swap, size);
    }
}

/* ---- Hashing a key's bytes. ---- */

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t hash_bytes(const uint8_t *data, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, data + i, 8);
        h = mix(h ^ w) + 0x632be59bd9b4e019ULL;
    }
    uint64_t w = 0;
    memcpy(&w, data + i, n - i);
    h = mix(h ^ w ^ ((uint64_t)(n - i) << 56));
    return h ? h : 1; /* 0 marks an empty slot of a table */
}

/* ---- The positions seen: open addressing on 64-bit hashes, key 0 for an empty slot. ----
 *
 * Each core says what an entry's mark means. The table doubles when half full, up to ``limit``
 * slots (0: no limit), past which table_room answers NULL as it does when memory runs out. */

typedef struct {
    uint64_t key;
    uint32_t mark;
} Entry;

typedef struct {
    Entry *slots;
    size_t mask, count, limit;
} Table;

/* Zeroed memory, in ordinary pages. Huge pages (madvise MADV_HUGEPAGE) were asked for once, for the
 * TLB: the probes land anywhere. On the machine the figures come from they saved a tenth of the CPU
 * time in user space but cost four to six times as much in the kernel, faulting the pages in: Gate
 * deal 830's proof (7,385,036 positions) took 9.1-10.4 s with them and 6.6 s without (docs/solver.md). */
static void *zeroed(size_t bytes) { return calloc(bytes, 1); }

/* The slots of a table for ``capacity`` entries (this one's, or Archway's of exact keys): a power of
 * two, at least 1024, at least twice ``capacity``, so that it starts at most half full. */
static inline size_t table_size(size_t capacity) {
    size_t size = 1024;
    while (size < capacity * 2)
        size <<= 1;
    return size;
}

static int table_init(Table *table, size_t capacity) {
    size_t size = table_size(capacity);
    table->slots = zeroed(size * sizeof(Entry));
    table->mask = size - 1;
    table->count = 0;
    table->limit = 0;
    return table->slots != NULL;
}

static void table_free(Table *table) {
    free(table->slots);
    table->slots = NULL;
}

static inline Entry *table_slot(const Table *table, uint64_t key) {
    size_t i = (size_t)(key ^ (key >> 29)) & table->mask;
    while (table->slots[i].key && table->slots[i].key != key)
        i = (i + 1) & table->mask;
    return &table->slots[i];
}

/* The slot for ``key`` (empty if it isn't there), the table grown first if it is half full; NULL
 * when memory ran out. */
static Entry *table_room(Table *table, uint64_t key) {
    if ((table->count + 1) * 2 > table->mask + 1) {
        Table bigger;
        if (table->limit && (table->mask + 1) * 2 > table->limit)
            return NULL;
        if (!table_init(&bigger, table->mask + 1))
            return NULL;
        bigger.limit = table->limit;
        for (size_t i = 0; i <= table->mask; i++)
            if (table->slots[i].key) {
                *table_slot(&bigger, table->slots[i].key) = table->slots[i];
                bigger.count++;
            }
        free(table->slots);
        *table = bigger;
    }
    return table_slot(table, key);
}

/* ---- Arrays that grow: a search's frames, steps, lost keys. ---- */

/* ``items`` (an array of ``*room`` items of ``size`` bytes) with room for ``need``: as it is when they
 * fit, else reallocated, doubled from ``first`` (when it has no room yet) until they do, ``*room`` set
 * to the new size. When memory runs out, ``items`` as it was and ``*room`` unchanged. */
static inline void *grown(void *items, size_t *room, size_t need, size_t first, size_t size) {
    if (need <= *room)
        return items;
    size_t bigger = *room ? *room * 2 : first;
    while (bigger < need)
        bigger *= 2;
    void *moved = realloc(items, bigger * size);
    if (!moved)
        return items;
    *room = bigger;
    return moved;
}

/* Makes room in ``array`` (a pointer lvalue; ``room`` its size in items, a size_t lvalue) for
 * ``need`` items, as grown() does; 1 when they fit, 0 when memory ran out (``array`` then kept).
 * ``array``, ``room`` and ``need`` are evaluated more than once: pass plain fields and sums. */
#define GROW(array, room, need, first) \
    ((array) = grown((array), &(room), (need), (first), sizeof *(array)), (need) <= (room))

/* ---- Time, restarts, signals. ---- */

/* Whether a signal's Python handler raised (Ctrl-C: KeyboardInterrupt), which stops the search as it
 * would stop the Python one. Asked every 65,536 nodes, a few times a second: it takes the GIL. */
static int signalled(PyThreadState **thread) {
    PyEval_RestoreThread(*thread);
    int raised = PyErr_CheckSignals() < 0;
    *thread = PyEval_SaveThread();
    return raised;
}

/* Seconds on a clock that only goes forward, for the deadline. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The i-th term (from 1) of the Luby sequence, as gatebot/solver/restarts.py has it. */
static long long luby(long long i) {
    int k = 1;
    while ((1LL << k) - 1 < i)
        k++;
    while (i != (1LL << k) - 1) {
        i -= (1LL << (k - 1)) - 1;
        k = 1;
        while ((1LL << k) - 1 < i)
            k++;
    }
    return 1LL << (k - 1);
}

/* ---- A search's verdict, and what Python is told of it. ---- */

/* What a search comes to: LOST, WON and UNRESOLVED (out of budget) answer the caller; NO_MEMORY and
 * INTERRUPTED (a signal's handler raised) become exceptions. */
enum { VERDICT_LOST, VERDICT_WON, VERDICT_UNRESOLVED, VERDICT_NO_MEMORY, VERDICT_INTERRUPTED };

/* Whether ``verdict`` answers the caller, the GIL held again; when not, an exception is set (MemoryError,
 * or the signal handler's own, already set). */
static inline int verdict_reached(int verdict) {
    if (verdict == VERDICT_NO_MEMORY)
        PyErr_NoMemory();
    return verdict < VERDICT_NO_MEMORY;
}

/* The verdict as a search's ``won``: True, False, or None when out of budget (a borrowed reference). */
static inline PyObject *won_object(int verdict) {
    return verdict == VERDICT_WON ? Py_True : verdict == VERDICT_LOST ? Py_False : Py_None;
}

/* Whether a search's node count so far and its budget are ones it can count to without overflow; 0
 * with a ValueError set when not. */
static inline int node_counts_fit(long long nodes, long long max_nodes) {
    if (nodes < 0 || max_nodes > (1LL << 62) || max_nodes < -(1LL << 62) || nodes > (1LL << 62)) {
        PyErr_SetString(PyExc_ValueError, "the node counts must be between 0 and 2**62");
        return 0;
    }
    return 1;
}

/* ---- Reading Python's values. ---- */

/* ``owned`` (a new reference, or NULL with an exception set, as the call that made it answers) as a C
 * long in ``out``, the reference dropped; 0 with an exception set when there was none or it isn't an
 * int that fits. */
static inline int take_long(PyObject *owned, long *out) {
    if (!owned)
        return 0;
    *out = PyLong_AsLong(owned);
    Py_DECREF(owned);
    return !(*out == -1 && PyErr_Occurred());
}

/* ---- Rows of cards, as the Python searches hand them over: bytes of card numbers, tops last. ---- */

#define NCARDS 52

typedef struct {
    int n;
    uint8_t c[NCARDS];
} Row;

/* ``value`` (bytes of card numbers 0-51, at most 52) into ``row``; 0 with an exception set when it
 * isn't one, its message naming ``game`` ("Gate", "Canfield") and the row's ``name``. */
static int read_cards(PyObject *value, const char *game, const char *name, Row *row) {
    if (!PyBytes_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a %s position's %s must be bytes", game, name);
        return 0;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(value);
    const uint8_t *cards = (const uint8_t *)PyBytes_AS_STRING(value);
    if (n > NCARDS) {
        PyErr_Format(PyExc_ValueError, "a %s position's %s holds more than %d cards", game, name, NCARDS);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (cards[i] >= NCARDS) {
            PyErr_Format(PyExc_ValueError, "a %s position's %s holds card %d", game, name, cards[i]);
            return 0;
        }
    row->n = (int)n;
    memcpy(row->c, cards, (size_t)n);
    return 1;
}

/* ``value`` (a tuple or list of four ints: the cards on each suit's foundation, 0 to 13) into ``found``;
 * 0 with an exception set when it isn't one, its message naming ``game`` ("Gate", "Canfield"). */
static inline int read_foundations(PyObject *value, const char *game, int found[4]) {
    char message[80];
    snprintf(message, sizeof message, "a %s position's foundations must be a tuple", game);
    PyObject *counts = PySequence_Fast(value, message);
    if (!counts)
        return 0;
    int ok = PySequence_Fast_GET_SIZE(counts) == 4;
    for (int suit = 0; ok && suit < 4; suit++) {
        long count = PyLong_AsLong(PySequence_Fast_GET_ITEM(counts, suit));
        ok = count >= 0 && count <= 13;
        found[suit] = (int)count;
    }
    Py_DECREF(counts);
    if (!ok && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "a %s position has four foundations of 0 to 13 cards", game);
    return ok;
}

/* A row as Python's bytes (a ``const Row *``, untyped so that it can be a sequence_of's convert). */
static PyObject *row_bytes(const void *row) {
    const Row *cards = row;
    return PyBytes_FromStringAndSize((const char *)cards->c, cards->n);
}

/* A tuple (``tuple``) or a list of ``convert`` applied to ``n`` items lying ``stride`` bytes apart
 * from ``first`` (rows, steps, or a field of each of a run of frames); NULL with an exception set
 * when one of them couldn't be made. */
static PyObject *sequence_of(int tuple, const void *first, Py_ssize_t n, size_t stride,
                             PyObject *(*convert)(const void *)) {
    PyObject *result = tuple ? PyTuple_New(n) : PyList_New(n);
    if (!result)
        return NULL;
    const char *item = first;
    for (Py_ssize_t i = 0; i < n; i++, item += stride) {
        PyObject *made = convert(item);
        if (!made) {
            Py_DECREF(result);
            return NULL;
        }
        if (tuple)
            PyTuple_SET_ITEM(result, i, made);
        else
            PyList_SET_ITEM(result, i, made);
    }
    return result;
}

#endif
