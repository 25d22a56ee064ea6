/* The Archway search of search.py (class Search), compiled: the same moves in the same order (the
 * pruned moves of Search._pruned_moves with their safe plays and meeting-point order, or every legal
 * move as Search._bare_moves gives them), the same play and take-back, the same transposition key,
 * and the same depth-first search with the same lost table: a position goes into it only when every
 * move from it led to a lost position or to one searched to the end cleanly, and a move skipped
 * because its position was seen (a cycle, or a position the caller put in ``seen``) taints its
 * position and every ancestor. So it visits the same positions as the Python search and gives the
 * same verdict, line, node count, best line (Search.value) and lost positions.
 *
 * Its table holds the exact keys, not hashes of them: a key is the int Search.key builds, 72 bits
 * (four 10-bit column codes, then four 8-bit foundation codes), here as its low 64 bits and its top
 * byte. An entry is seen (in Search.seen) or lost (in Search.lost); lost wins, as the Python search
 * asks the lost set first.
 *
 * A position is four columns of card numbers (index rank * 4 + suit, suits C D H S), tops last,
 * whether each column is still a bottom part of its column at the start of the search (its key code
 * is then that column and its length), the 52 arch counts and the foundation sizes. The search
 * releases the GIL: it touches no Python object between reading the start and building the answer,
 * but for taking it back a few times a second to run any signal's handler (Ctrl-C stops it as it
 * stops the Python search).
 *
 * Exposed for search.py and for the tests that hold this search to the Python one, a position being
 * (columns, origin, arch, up, down): a tuple of four bytes, four truths, 52 bytes of arch counts, two
 * tuples of four foundation sizes; the rules (prune, kit):
 *   search(position, rules, lost, seen, max_nodes, max_seconds, nodes, best_score, best_first, packed)
 *       -> (won: True, False or None when out of budget, line, nodes, best_score, best_first, proved)
 *       (the line: the win's steps; when out of budget, the steps to the position the search was in;
 *       ``proved``: the keys it proved lost, packed in bytes, which a later search takes back in
 *       ``packed``, a list of them, beside ``lost``, a set of ints, and keys(proved) makes ints: a
 *       hint's search proves thousands of positions lost and reads them again seldom, and making
 *       each an int for Search.lost took longer than the search)
 *   moves(position, rules) -> list of steps      play(position, step) -> position
 *   key(position, rules) -> int                   value(position) -> int
 *   look_ahead(position, rules, look_nodes, beam_width, buried_weight, space_weight, max_seconds)
 *       -> (step or None, positions looked at, each first step's best (value, rating)): search._look_ahead
 *       when the exact search ran out, the same beam over the same positions, rated with the same floats
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_search.h"

#define NCOLUMNS 4
/* Step codes (search.py): sources 0..3 a column, ARCH + card an arch card, PAIR + suit a suit's two
 * foundations (reversing); targets 0..3 a space, then the foundations, a meeting play, the arch. */
#define ARCH 4
#define PAIR 56
enum { ACE = 4, KING = 5, MEET = 6, BACK = 7 };
/* The most moves a position can have: every column top and arch card onto two foundations and into
 * each space, eight reversing moves, four back to the arch; with room to spare. */
#define MAXMOVES 512
#define EMPTY_CODE 52
#define ORIGIN_CODE 64
#define WON_SCORE 104

typedef struct {
    Row col[NCOLUMNS];
    uint8_t origin[NCOLUMNS];
    uint8_t arch[NCARDS];
    int in_arch[4];
    int up[4], down[4];
    int score;
} Pos;

typedef struct {
    int prune, kit;
} Rules;

typedef struct {
    int8_t s, t;
} Step;

/* What Search.undo needs: the step, the card it moved (-1 for reversing), the suit's old sizes, and
 * whether the source column was still a bottom part of its starting one. */
typedef struct {
    Step step;
    int8_t card, old_up, old_down, was_origin;
} Record;

/* A key: the int's low 64 bits and its top byte. */
typedef struct {
    uint64_t lo;
    uint32_t hi;
} Key;

/* search._SIZES and search._FOLDED: a suit's foundation code in a key, by up * 14 + down. */
static int SIZES[14 * 14], FOLDED[14 * 14];

static void fill_tables(void) {
    for (int u = 0; u < 14; u++)
        for (int d = 0; d < 14; d++) {
            int code = u && d ? ((u - 1) | (d - 1) << 4) : 0;
            SIZES[u * 14 + d] = code;
            FOLDED[u * 14 + d] = u + d == 13 ? 176 : code;
        }
}

/* ---- The position (Search.apply, undo, key, value). ---- */

static Record apply(Pos *p, Step step) {
    int source = step.s, target = step.t, card, was_origin = 0;
    if (source < ARCH) {
        Row *column = &p->col[source];
        card = column->c[--column->n];
        was_origin = p->origin[source];
        if (!column->n)
            p->origin[source] = 0;
    } else if (source < PAIR) {
        card = source - ARCH;
        p->arch[card]--;
        p->in_arch[card & 3]--;
    } else {
        card = -1;
    }
    int suit = card < 0 ? source - PAIR : card & 3;
    Record record = {step, (int8_t)card, (int8_t)p->up[suit], (int8_t)p->down[suit], (int8_t)was_origin};
    if (card < 0) { /* reversing */
        if (target == ACE) {
            p->down[suit]--;
            p->up[suit]++;
        } else {
            p->up[suit]--;
            p->down[suit]++;
        }
    } else if (target < ARCH) {
        Row *space = &p->col[target];
        space->c[space->n++] = (uint8_t)card;
    } else if (target == ACE) {
        p->up[suit]++;
        p->score++;
    } else if (target == KING) {
        p->down[suit]++;
        p->score++;
    } else if (target == MEET) {
        int rank = card >> 2;
        p->up[suit] = rank + 1;
        p->down[suit] = 13 - rank;
        p->score++;
    } else {
        p->arch[card]++;
        p->in_arch[suit]++;
    }
    return record;
}

static void undo(Pos *p, const Record *record) {
    int source = record->step.s, target = record->step.t, card = record->card, suit;
    if (card < 0) {
        suit = source - PAIR;
    } else {
        suit = card & 3;
        if (target < ARCH) {
            p->col[target].n--;
        } else if (target == BACK) {
            p->arch[card]--;
            p->in_arch[suit]--;
        } else {
            p->score--;
        }
        if (source < ARCH) {
            Row *column = &p->col[source];
            column->c[column->n++] = (uint8_t)card;
            p->origin[source] = (uint8_t)record->was_origin;
        } else {
            p->arch[card]++;
            p->in_arch[suit]++;
        }
    }
    p->up[suit] = record->old_up;
    p->down[suit] = record->old_down;
}

static Key make_key(const Pos *p, int prune) {
    int codes[NCOLUMNS];
    for (int i = 0; i < NCOLUMNS; i++) {
        const Row *column = &p->col[i];
        codes[i] = p->origin[i] ? ORIGIN_CODE + 97 * i + column->n : column->n ? column->c[0] : EMPTY_CODE;
    }
    for (int i = 1; i < NCOLUMNS; i++) /* sorted, as the Python key's */
        for (int j = i; j > 0 && codes[j - 1] > codes[j]; j--) {
            int swap = codes[j];
            codes[j] = codes[j - 1];
            codes[j - 1] = swap;
        }
    const int *sizes = prune ? FOLDED : SIZES;
    Key key;
    key.lo = (uint64_t)codes[0] | (uint64_t)codes[1] << 10 | (uint64_t)codes[2] << 20 | (uint64_t)codes[3] << 30 |
             (uint64_t)sizes[p->up[0] * 14 + p->down[0]] << 40 | (uint64_t)sizes[p->up[1] * 14 + p->down[1]] << 48 |
             (uint64_t)sizes[p->up[2] * 14 + p->down[2]] << 56;
    key.hi = (uint32_t)sizes[p->up[3] * 14 + p->down[3]];
    return key;
}

/* Search.stranded: the longest run of consecutive ranks of ``suit`` in the arch while it meets. */
static int stranded(const Pos *p, int suit) {
    if (p->up[suit] + p->down[suit] != 13)
        return 0;
    int longest = 0, run = 0;
    for (int card = suit; card < NCARDS; card += 4) {
        run = p->arch[card] ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

/* Search.value: the cards home plus what the arch can still put up of the meeting suits. */
static int value(const Pos *p) {
    int extra = 0;
    for (int suit = 0; suit < 4; suit++)
        extra += stranded(p, suit);
    return p->score + extra;
}

/* ---- The moves (Search._pruned_moves, Search._bare_moves). ---- */

static inline int one(Step *out, int source, int target) {
    out[0].s = (int8_t)source;
    out[0].t = (int8_t)target;
    return 1;
}

static inline void put(Step *out, int *count, int source, int target) {
    out[*count].s = (int8_t)source;
    out[*count].t = (int8_t)target;
    (*count)++;
}

/* The columns by their length, shortest first, ties in column order (Python's stable sort). */
static void by_length(const Pos *p, int *order) {
    for (int i = 0; i < NCOLUMNS; i++)
        order[i] = i;
    for (int i = 1; i < NCOLUMNS; i++)
        for (int j = i; j > 0 && p->col[order[j - 1]].n > p->col[order[j]].n; j--) {
            int swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
}

static int pruned_moves(const Pos *p, const Rules *r, Step *out) {
    int top[NCOLUMNS]; /* each column's top card, -1 for an empty one */
    for (int i = 0; i < NCOLUMNS; i++)
        top[i] = p->col[i].n ? p->col[i].c[p->col[i].n - 1] : -1;
    Step column_ups[2 * 4 * NCOLUMNS], arch_ups[8];
    int ncolumn_ups = 0, narch_ups = 0, nmeets = 0;
    struct {
        int distance, rank, column;
    } meets[NCOLUMNS];
    for (int suit = 0; suit < 4; suit++) {
        int u = p->up[suit], d = p->down[suit], total = u + d;
        if (total == 26)
            continue;
        if (p->in_arch[suit] == 26 - total) { /* all in the arch: safe (rule 2c) */
            if (total == 13) {
                int best = 0, distance = 99;
                for (int rank = 0; rank < 13; rank++) {
                    int gap = abs((rank > 1 ? rank : 1) - u);
                    if (gap < distance) {
                        distance = gap;
                        best = rank;
                    }
                }
                return one(out, ARCH + best * 4 + suit, MEET);
            }
            int card = u * 4 + suit;
            if (u < 13 && p->arch[card])
                return one(out, ARCH + card, ACE);
            if (d >= 13) /* can't be: with every card of the suit in the arch, the Ace foundation's is there */
                return 0;
            return one(out, ARCH + (12 - d) * 4 + suit, KING);
        }
        if (total == 13) { /* meeting: a card of the suit from a column goes up, reversing first (rule 3) */
            for (int i = 0; i < NCOLUMNS; i++)
                if (top[i] >= 0 && (top[i] & 3) == suit) {
                    int rank = top[i] >> 2;
                    meets[nmeets].distance = abs((rank > 1 ? rank : 1) - u);
                    meets[nmeets].rank = rank;
                    meets[nmeets].column = i;
                    nmeets++;
                }
            continue;
        }
        int ace = u < 13 ? u * 4 + suit : -1;
        /* When both foundations want one rank, the Ace one does. */
        int king = d < 13 && !(total < 13 && 12 - d == u) ? (12 - d) * 4 + suit : -1;
        for (int which = 0; which < 2; which++) {
            int card = which ? king : ace, target = which ? KING : ACE;
            if (card < 0)
                continue;
            int count = p->arch[card], first = -1;
            for (int i = 0; i < NCOLUMNS; i++)
                if (top[i] == card) {
                    first = i;
                    break;
                }
            if (first >= 0) {
                if (total >= 14 || count)
                    return one(out, first, target);
                for (int i = first; i < NCOLUMNS; i++)
                    if (top[i] == card)
                        put(column_ups, &ncolumn_ups, i, target);
            } else if (count) {
                if (total >= 14 || count == 2)
                    return one(out, ARCH + card, target);
                put(arch_ups, &narch_ups, ARCH + card, target);
            }
        }
    }
    int count = 0;
    for (int k = 0; k < ncolumn_ups; k++)
        out[count++] = column_ups[k];
    for (int k = 0; k < narch_ups; k++)
        out[count++] = arch_ups[k];
    /* meets.sort(): by distance, then rank, then column (no two entries share a column). */
    for (int i = 1; i < nmeets; i++)
        for (int j = i; j > 0; j--) {
            int earlier = meets[j - 1].distance != meets[j].distance ? meets[j - 1].distance > meets[j].distance
                          : meets[j - 1].rank != meets[j].rank       ? meets[j - 1].rank > meets[j].rank
                                                                     : meets[j - 1].column > meets[j].column;
            if (!earlier)
                break;
            int swap;
            swap = meets[j].distance, meets[j].distance = meets[j - 1].distance, meets[j - 1].distance = swap;
            swap = meets[j].rank, meets[j].rank = meets[j - 1].rank, meets[j - 1].rank = swap;
            swap = meets[j].column, meets[j].column = meets[j - 1].column, meets[j - 1].column = swap;
        }
    for (int k = 0; k < nmeets; k++)
        put(out, &count, meets[k].column, MEET);
    int order[NCOLUMNS];
    by_length(p, order);
    if (r->kit) {
        for (int k = 0; k < NCOLUMNS; k++)
            if (p->col[order[k]].n)
                put(out, &count, order[k], BACK);
    } else {
        int space = -1;
        for (int i = 0; i < NCOLUMNS && space < 0; i++)
            if (!p->col[i].n)
                space = i;
        if (space >= 0)
            for (int k = 0; k < NCOLUMNS; k++)
                if (p->col[order[k]].n > 1)
                    put(out, &count, order[k], space);
    }
    return count;
}

static int bare_moves(const Pos *p, const Rules *r, Step *out) {
    int sources[NCOLUMNS + NCARDS], cards[NCOLUMNS + NCARDS], nsources = 0, spaces[NCOLUMNS], nspaces = 0;
    for (int i = 0; i < NCOLUMNS; i++)
        if (p->col[i].n) {
            sources[nsources] = i;
            cards[nsources++] = p->col[i].c[p->col[i].n - 1];
        } else {
            spaces[nspaces++] = i;
        }
    for (int card = 0; card < NCARDS; card++)
        if (p->arch[card]) {
            sources[nsources] = ARCH + card;
            cards[nsources++] = card;
        }
    int count = 0;
    for (int k = 0; k < nsources; k++) {
        int rank = cards[k] >> 2, suit = cards[k] & 3;
        if (rank == p->up[suit])
            put(out, &count, sources[k], ACE);
        if (rank == 12 - p->down[suit])
            put(out, &count, sources[k], KING);
    }
    for (int suit = 0; suit < 4; suit++)
        if (p->up[suit] + p->down[suit] == 13) {
            if (p->up[suit] > 1)
                put(out, &count, PAIR + suit, KING);
            if (p->down[suit] > 1)
                put(out, &count, PAIR + suit, ACE);
        }
    for (int k = 0; k < nsources; k++)
        for (int m = 0; m < nspaces; m++)
            if (sources[k] != spaces[m])
                put(out, &count, sources[k], spaces[m]);
    if (r->kit)
        for (int i = 0; i < NCOLUMNS; i++)
            if (p->col[i].n)
                put(out, &count, i, BACK);
    return count;
}

static inline int gen_moves(const Pos *p, const Rules *r, Step *out) {
    return r->prune ? pruned_moves(p, r, out) : bare_moves(p, r, out);
}

/* ---- The table of positions seen and lost: open addressing on the exact keys. ---- */

enum { FREE = 0, SEEN = 1, LOST = 2 };

typedef struct {
    uint64_t lo;
    uint32_t hi, state;
} Slot;

typedef struct {
    Slot *slots;
    size_t mask, count;
} Keys;

static int keys_init(Keys *keys, size_t capacity) {
    size_t size = table_size(capacity);
    keys->slots = zeroed(size * sizeof(Slot));
    keys->mask = size - 1;
    keys->count = 0;
    return keys->slots != NULL;
}

static inline Slot *keys_slot(const Keys *keys, Key key) {
    size_t i = (size_t)mix(key.lo ^ ((uint64_t)key.hi << 56 | (uint64_t)key.hi)) & keys->mask;
    while (keys->slots[i].state && (keys->slots[i].lo != key.lo || keys->slots[i].hi != key.hi))
        i = (i + 1) & keys->mask;
    return &keys->slots[i];
}

static inline int keys_state(const Keys *keys, Key key) { return keys_slot(keys, key)->state; }

/* Marks ``key`` ``state`` (LOST overrides SEEN), adding it if it isn't there; 0 when memory ran out. */
static int keys_mark(Keys *keys, Key key, int state) {
    Slot *slot = keys_slot(keys, key);
    if (!slot->state) {
        if ((keys->count + 1) * 2 > keys->mask + 1) {
            Keys bigger;
            if (!keys_init(&bigger, keys->mask + 1))
                return 0;
            for (size_t i = 0; i <= keys->mask; i++)
                if (keys->slots[i].state) {
                    Key old = {keys->slots[i].lo, keys->slots[i].hi};
                    *keys_slot(&bigger, old) = keys->slots[i];
                    bigger.count++;
                }
            free(keys->slots);
            *keys = bigger;
            slot = keys_slot(keys, key);
        }
        slot->lo = key.lo;
        slot->hi = key.hi;
        keys->count++;
    }
    if (slot->state != LOST)
        slot->state = (uint32_t)state;
    return 1;
}

/* ---- The search (Search.run). ---- */

typedef struct {
    Key key;
    size_t first; /* its moves in the search's move array */
    int count, next, clean;
    Record played; /* the move being searched from here */
} Frame;

typedef struct {
    Pos pos;
    Rules rules;
    long long nodes, node_limit;
    double deadline;
    int best_score, has_best_first;
    Step best_first;
    Keys keys;
    Key *lost; /* the keys this search proved lost, in order */
    size_t nlost, lost_room;
    Frame *frames;
    size_t nframes, frames_room;
    Step *steps;
    size_t nsteps, steps_room;
    Step winning; /* the step onto the won position */
    int won_by_step; /* whether the line ends with ``winning`` (not when the start was won) */
    PyThreadState *thread; /* the caller's, while the search runs without the GIL */
} Search;


/* A frame for the position reached, its moves generated; 0 when memory ran out. */
static int push(Search *s, Key key) {
    if (!GROW(s->frames, s->frames_room, s->nframes + 1, 256) ||
        !GROW(s->steps, s->steps_room, s->nsteps + MAXMOVES, 64 * MAXMOVES))
        return 0;
    Frame *frame = &s->frames[s->nframes++];
    frame->key = key;
    frame->first = s->nsteps;
    frame->count = gen_moves(&s->pos, &s->rules, s->steps + s->nsteps);
    frame->next = 0;
    frame->clean = 1;
    s->nsteps += (size_t)frame->count;
    return 1;
}

static int prove_lost(Search *s, Key key) {
    if (!GROW(s->lost, s->lost_room, s->nlost + 1, 1024))
        return 0;
    s->lost[s->nlost++] = key;
    return keys_mark(&s->keys, key, LOST);
}

/* Search.run from s->pos: the line (when won) is the frames' ``played`` steps, then ``winning``. */
static int run_search(Search *s, long long max_nodes) {
    if (s->pos.score == WON_SCORE)
        return VERDICT_WON;
    long long limit = s->nodes + max_nodes;
    Pos *p = &s->pos;
    Key root = make_key(p, s->rules.prune);
    if (keys_state(&s->keys, root) == LOST)
        return VERDICT_LOST;
    if (!keys_mark(&s->keys, root, SEEN) || !push(s, root))
        return VERDICT_NO_MEMORY;
    while (s->nframes) {
        Frame *frame = &s->frames[s->nframes - 1];
        if (frame->next == frame->count) {
            s->nframes--;
            s->nsteps = frame->first;
            if (frame->clean) {
                if (!prove_lost(s, frame->key))
                    return VERDICT_NO_MEMORY;
            } else if (s->nframes) {
                s->frames[s->nframes - 1].clean = 0;
            }
            if (s->nframes)
                undo(p, &s->frames[s->nframes - 1].played);
            continue;
        }
        Step step = s->steps[frame->first + (size_t)frame->next++];
        Record record = apply(p, step);
        if (p->score == WON_SCORE) {
            s->nframes--; /* the line is the frames' steps below this one, then this step */
            s->winning = step;
            s->won_by_step = 1;
            return VERDICT_WON;
        }
        Key key = make_key(p, s->rules.prune);
        int state = keys_state(&s->keys, key);
        if (state) {
            if (state == SEEN)
                frame->clean = 0;
            undo(p, &record);
            continue;
        }
        s->nodes++;
        if (s->nodes >= limit || (!(s->nodes & 1023) && now() > s->deadline)) {
            s->nframes--; /* the line searched when the budget ran out: the frames' steps below this one */
            return VERDICT_UNRESOLVED;
        }
        if (!(s->nodes & 0xffff) && signalled(&s->thread))
            return VERDICT_INTERRUPTED;
        int reached = value(p);
        if (reached > s->best_score) {
            s->best_score = reached;
            s->has_best_first = 1;
            s->best_first = s->nframes > 1 ? s->frames[0].played.step : step;
        }
        frame->played = record;
        if (!keys_mark(&s->keys, key, SEEN) || !push(s, key))
            return VERDICT_NO_MEMORY;
    }
    return VERDICT_LOST;
}

/* ---- The look-ahead (search._look_ahead, _roll_out, _rating, Search.buried). ---- */

/* Search.buried: the cards on the cards the foundations want next, the nearest copy of each. */
static int buried(const Pos *p) {
    int depth[NCARDS];
    for (int card = 0; card < NCARDS; card++)
        depth[card] = p->arch[card] ? 0 : 13;
    for (int i = 0; i < NCOLUMNS; i++) {
        const Row *column = &p->col[i];
        for (int index = 0; index < column->n; index++) {
            int above = column->n - 1 - index, card = column->c[index];
            if (above < depth[card])
                depth[card] = above;
        }
    }
    int cost = 0;
    for (int suit = 0; suit < 4; suit++) {
        int u = p->up[suit], d = p->down[suit];
        if (u + d == 13 || u + d == 26)
            continue;
        if (u < 13)
            cost += depth[u * 4 + suit];
        if (d < 13 && 12 - d != u)
            cost += depth[(12 - d) * 4 + suit];
    }
    return cost;
}

/* _rating: value - buried_weight * buried + space_weight * spaces, rounded step by step as Python
 * does it (volatile: no fused multiply-add may skip a rounding, or a tie could break otherwise). */
static double rating(const Pos *p, double buried_weight, double space_weight) {
    int spaces = 0;
    for (int i = 0; i < NCOLUMNS; i++)
        spaces += !p->col[i].n;
    volatile double weighted = buried_weight * (double)buried(p);
    volatile double spaced = space_weight * (double)spaces;
    volatile double less = (double)value(p) - weighted;
    return less + spaced;
}

/* The most steps a roll-out takes: with the pruned moves every step puts a card up or one of a
 * column's cards into the arch or a space, so a line ends long before; the bare rules' may cycle. */
#define ROLL_LIMIT 4096

/* _roll_out: the search's first choice from ``start`` to the end; the most cards home on the way. */
static int roll_out(const Pos *start, const Rules *r, long long *steps) {
    Pos p = *start;
    Step moves[MAXMOVES];
    int best = value(&p), taken = 0;
    while (taken < ROLL_LIMIT && gen_moves(&p, r, moves)) {
        apply(&p, moves[0]);
        taken++;
        int reached = value(&p);
        if (reached > best)
            best = reached;
    }
    *steps = taken;
    return best;
}

/* A position the beam keeps: its rating, its order among its layer's (later first), and the first
 * step of its line (the index of that step's first occurrence among the first steps). */
typedef struct {
    double rating;
    long long order;
    int first;
    Pos pos;
} Beam;

static int beam_cmp(const void *a, const void *b) {
    const Beam *x = a, *y = b; /* best first: the higher rating, then the higher order */
    if (x->rating != y->rating)
        return x->rating > y->rating ? -1 : 1;
    return x->order > y->order ? -1 : x->order < y->order;
}

typedef struct {
    Beam *items;
    size_t n, room;
} Layer;

static int layer_add(Layer *layer, double rated, long long order, int first, const Pos *p) {
    if (!GROW(layer->items, layer->room, layer->n + 1, 64))
        return 0;
    Beam *item = &layer->items[layer->n++];
    item->rating = rated;
    item->order = order;
    item->first = first;
    item->pos = *p;
    return 1;
}

typedef struct {
    int nfirsts;
    Step firsts[MAXMOVES];
    int owner[MAXMOVES]; /* the index of each first step's first occurrence (a step's entry in ``most``) */
    int most_value[MAXMOVES];
    double most_rating[MAXMOVES];
    long long looked;
    int answer; /* an index into firsts, -1 for none */
} Look;

/* _look_ahead from ``root`` (its answer, the positions it looked at, each first step's best); 0 when
 * memory ran out. */
static int look_ahead(const Pos *root, const Rules *r, long long look_nodes, long long beam_width,
                      double buried_weight, double space_weight, double deadline, Look *look) {
    int n = look->nfirsts = gen_moves(root, r, look->firsts);
    look->looked = 0;
    look->answer = n ? 0 : -1;
    if (n <= 1)
        return 1;
    Keys seen;
    Layer layer = {NULL, 0, 0}, children = {NULL, 0, 0};
    if (!keys_init(&seen, (size_t)(look_nodes < 4096 ? look_nodes : 4096) + 256)) /* it grows as it needs */
        return 0;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        look->owner[i] = i;
        for (int j = 0; j < i; j++)
            if (look->firsts[j].s == look->firsts[i].s && look->firsts[j].t == look->firsts[i].t) {
                look->owner[i] = j;
                break;
            }
    }
    for (int i = 0; ok && i < n; i++) {
        Pos p = *root;
        apply(&p, look->firsts[i]);
        ok = keys_mark(&seen, make_key(&p, r->prune), SEEN);
        double rated = rating(&p, buried_weight, space_weight);
        long long steps;
        int best = roll_out(&p, r, &steps);
        look->looked += steps + 1;
        Step seconds[MAXMOVES];
        int count = gen_moves(&p, r, seconds);
        for (int k = 0; k < count; k++) { /* and the plain line after each reply */
            Pos after = p;
            apply(&after, seconds[k]);
            int line = roll_out(&after, r, &steps);
            look->looked += steps + 1;
            if (line > best)
                best = line;
        }
        look->most_value[look->owner[i]] = best;
        look->most_rating[look->owner[i]] = rated;
        ok = ok && layer_add(&layer, rated, -(long long)i, look->owner[i], &p);
    }
    long long counter = n;
    while (ok && layer.n && look->looked < look_nodes && now() < deadline) {
        qsort(layer.items, layer.n, sizeof(Beam), beam_cmp);
        children.n = 0;
        size_t kept = layer.n < (size_t)beam_width ? layer.n : (size_t)beam_width;
        for (size_t e = 0; ok && e < kept; e++) {
            const Beam *item = &layer.items[e];
            Step moves[MAXMOVES];
            int count = gen_moves(&item->pos, r, moves);
            for (int k = 0; ok && k < count; k++) {
                Pos p = item->pos;
                apply(&p, moves[k]);
                look->looked++;
                Key key = make_key(&p, r->prune);
                if (keys_state(&seen, key))
                    continue;
                ok = keys_mark(&seen, key, SEEN);
                double rated = rating(&p, buried_weight, space_weight);
                int reached = value(&p), first = item->first;
                if (reached > look->most_value[first] ||
                    (reached == look->most_value[first] && rated > look->most_rating[first])) {
                    look->most_value[first] = reached;
                    look->most_rating[first] = rated;
                }
                counter++;
                ok = ok && layer_add(&children, rated, -counter, first, &p);
            }
        }
        Layer swap = layer;
        layer = children;
        children = swap;
    }
    for (int i = 1; i < n; i++) { /* max(firsts): the first of the best */
        int a = look->owner[i], b = look->owner[look->answer];
        if (look->most_value[a] > look->most_value[b] ||
            (look->most_value[a] == look->most_value[b] && look->most_rating[a] > look->most_rating[b]))
            look->answer = i;
    }
    free(seen.slots);
    free(layer.items);
    free(children.items);
    return ok;
}

/* ---- Between Python and C. ---- */

static int read_count(PyObject *object, const char *what, int most, int *count) {
    long value = PyLong_AsLong(object);
    if (value == -1 && PyErr_Occurred())
        return 0;
    if (value < 0 || value > most) {
        PyErr_Format(PyExc_ValueError, "an Archway position's %s must be 0 to %d", what, most);
        return 0;
    }
    *count = (int)value;
    return 1;
}

/* (columns, origin, arch, up, down) into ``p``; 0 with an exception set when it isn't a position this
 * core takes: four columns, foundations of 0 to 13 cards, and no card more than twice in all. */
static int read_position(PyObject *object, Pos *p) {
    memset(p, 0, sizeof *p);
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 5) {
        PyErr_SetString(PyExc_TypeError, "an Archway position is a tuple (columns, origin, arch, up, down)");
        return 0;
    }
    PyObject *parts[4];
    const char *names[4] = {"columns", "origin", "Ace foundations", "King foundations"};
    int slots[4] = {0, 1, 3, 4};
    for (int k = 0; k < 4; k++) {
        parts[k] = PyTuple_GET_ITEM(object, slots[k]);
        if (!PyTuple_Check(parts[k]) || PyTuple_GET_SIZE(parts[k]) != NCOLUMNS) {
            PyErr_Format(PyExc_TypeError, "an Archway position's %s are a tuple of four", names[k]);
            return 0;
        }
    }
    for (int i = 0; i < NCOLUMNS; i++) {
        if (!read_cards(PyTuple_GET_ITEM(parts[0], i), "Archway", "column", &p->col[i]))
            return 0;
        int truth = PyObject_IsTrue(PyTuple_GET_ITEM(parts[1], i));
        if (truth < 0)
            return 0;
        p->origin[i] = (uint8_t)truth;
        if (!read_count(PyTuple_GET_ITEM(parts[2], i), "foundation sizes", 13, &p->up[i]) ||
            !read_count(PyTuple_GET_ITEM(parts[3], i), "foundation sizes", 13, &p->down[i]))
            return 0;
    }
    PyObject *arch = PyTuple_GET_ITEM(object, 2);
    if (!PyBytes_Check(arch) || PyBytes_GET_SIZE(arch) != NCARDS) {
        PyErr_SetString(PyExc_TypeError, "an Archway position's arch is 52 bytes of counts");
        return 0;
    }
    memcpy(p->arch, PyBytes_AS_STRING(arch), NCARDS);
    /* No card more than twice (two decks), counting the foundations: then no move can overfill a row. */
    int copies[NCARDS];
    for (int card = 0; card < NCARDS; card++)
        copies[card] = p->arch[card];
    for (int suit = 0; suit < 4; suit++) {
        for (int rank = 0; rank < p->up[suit]; rank++)
            copies[rank * 4 + suit]++;
        for (int rank = 13 - p->down[suit]; rank < 13; rank++)
            copies[rank * 4 + suit]++;
    }
    for (int i = 0; i < NCOLUMNS; i++)
        for (int m = 0; m < p->col[i].n; m++)
            copies[p->col[i].c[m]]++;
    for (int card = 0; card < NCARDS; card++)
        if (copies[card] > 2) {
            PyErr_Format(PyExc_ValueError, "an Archway position holds card %d more than twice", card);
            return 0;
        }
    for (int card = 0; card < NCARDS; card++)
        p->in_arch[card & 3] += p->arch[card];
    for (int suit = 0; suit < 4; suit++)
        p->score += p->up[suit] + p->down[suit];
    return 1;
}

static int read_rules(PyObject *object, Rules *r) {
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 2) {
        PyErr_SetString(PyExc_TypeError, "the Archway search's rules are a tuple (prune, kit)");
        return 0;
    }
    int prune = PyObject_IsTrue(PyTuple_GET_ITEM(object, 0)), kit = PyObject_IsTrue(PyTuple_GET_ITEM(object, 1));
    if (prune < 0 || kit < 0)
        return 0;
    r->prune = prune;
    r->kit = kit;
    return 1;
}

/* ``p`` as read_position reads it. */
static PyObject *position_object(const Pos *p) {
    PyObject *columns = sequence_of(1, p->col, NCOLUMNS, sizeof(Row), row_bytes);
    if (!columns)
        return NULL;
    return Py_BuildValue("(N(OOOO)y#(iiii)(iiii))", columns, p->origin[0] ? Py_True : Py_False,
                         p->origin[1] ? Py_True : Py_False, p->origin[2] ? Py_True : Py_False,
                         p->origin[3] ? Py_True : Py_False, (const char *)p->arch, (Py_ssize_t)NCARDS, p->up[0],
                         p->up[1], p->up[2], p->up[3], p->down[0], p->down[1], p->down[2], p->down[3]);
}

/* A step (a ``const Step *``) as search.py writes it: (source, target). */
static PyObject *step_object(const void *step) {
    const Step *s = step;
    return Py_BuildValue("(ii)", (int)s->s, (int)s->t);
}

/* A key as the int Search.key gives. */
static PyObject *key_object(Key key) {
    PyObject *low = PyLong_FromUnsignedLongLong(key.lo);
    if (!low || !key.hi)
        return low;
    PyObject *high = PyLong_FromUnsignedLong(key.hi), *shift = PyLong_FromLong(64), *shifted = NULL, *whole = NULL;
    if (high && shift)
        shifted = PyNumber_Lshift(high, shift);
    if (shifted)
        whole = PyNumber_Or(shifted, low);
    Py_XDECREF(high);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    Py_DECREF(low);
    return whole;
}

/* An int key (0 to 2**72) into ``key``; 0 with an exception set when it isn't one. */
static int read_key(PyObject *object, Key *key) {
    if (!PyLong_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "an Archway position's key is an int");
        return 0;
    }
    key->lo = PyLong_AsUnsignedLongLongMask(object);
    if (key->lo == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = shift ? PyNumber_Rshift(object, shift) : NULL;
    Py_XDECREF(shift);
    long value;
    if (!take_long(high, &value))
        return 0;
    if (value < 0 || value > 255) {
        PyErr_SetString(PyExc_ValueError, "an Archway position's key is an int from 0 to 2**72");
        return 0;
    }
    key->hi = (uint32_t)value;
    return 1;
}

/* Keys packed in bytes, as a search hands back the positions it proved lost: each its low 64 bits and
 * its top byte as native 64- and 32-bit words. Only this core writes and reads them. */
#define KEY_BYTES 12

static void write_key(char *bytes, Key key) {
    memcpy(bytes, &key.lo, 8);
    memcpy(bytes + 8, &key.hi, 4);
}

/* ``packed`` (bytes of keys) into ``keys`` marked lost, or (``keys`` NULL) as a list of ints. */
static PyObject *unpack_keys(PyObject *packed, Keys *keys) {
    if (!PyBytes_Check(packed) || PyBytes_GET_SIZE(packed) % KEY_BYTES) {
        PyErr_SetString(PyExc_TypeError, "packed keys are bytes as a search gives them");
        return NULL;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(packed) / KEY_BYTES;
    const char *bytes = PyBytes_AS_STRING(packed);
    PyObject *list = keys ? NULL : PyList_New(n);
    if (!keys && !list)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        Key key;
        memcpy(&key.lo, bytes + k * KEY_BYTES, 8);
        memcpy(&key.hi, bytes + k * KEY_BYTES + 8, 4);
        if (key.hi > 255) {
            Py_XDECREF(list);
            PyErr_SetString(PyExc_ValueError, "packed keys are bytes as a search gives them");
            return NULL;
        }
        if (keys) {
            if (!keys_mark(keys, key, LOST))
                return PyErr_NoMemory();
            continue;
        }
        PyObject *item = key_object(key);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return keys ? Py_NewRef(Py_None) : list;
}

/* A step (source, target) that can be played on ``p`` without reading or writing outside it (a step
 * from Python may be anything; the search's own are legal). */
static int read_step(PyObject *object, const Pos *p, Step *s) {
    long values[2];
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 2)
        goto bad;
    for (int k = 0; k < 2; k++) {
        values[k] = PyLong_AsLong(PyTuple_GET_ITEM(object, k));
        if (values[k] == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto bad;
        }
    }
    long source = values[0], target = values[1];
    if (target < 0 || target > BACK)
        goto bad;
    int card, suit;
    if (source >= 0 && source < ARCH) {
        if (!p->col[source].n || target == source)
            goto bad;
        card = p->col[source].c[p->col[source].n - 1];
    } else if (source >= ARCH && source < PAIR) {
        card = (int)source - ARCH;
        if (!p->arch[card] || target == BACK)
            goto bad;
    } else if (source >= PAIR && source < PAIR + 4) {
        suit = (int)source - PAIR;
        /* Reversing: the suit's foundations meet and the giving one keeps its base. */
        if (p->up[suit] + p->down[suit] != 13 || (target == ACE ? p->down[suit] <= 1 : target == KING ? p->up[suit] <= 1 : 1))
            goto bad;
        goto good;
    } else {
        goto bad;
    }
    suit = card & 3;
    if (target < ARCH) {
        if (p->col[target].n) /* a card only goes into a space */
            goto bad;
    } else if (target == ACE) {
        if (p->up[suit] != (card >> 2))
            goto bad;
    } else if (target == KING) {
        if (12 - p->down[suit] != (card >> 2))
            goto bad;
    } else if (target == MEET) {
        if (p->up[suit] + p->down[suit] != 13)
            goto bad;
    }
good:
    s->s = (int8_t)source;
    s->t = (int8_t)target;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a step the Archway search can play on this position");
    return 0;
}

/* A function's two arguments, a position and its rules (``format``: "OO:" and its name), into ``p`` and
 * ``r``; 0 with an exception set when they aren't ones. */
static int read_position_and_rules(PyObject *args, const char *format, Pos *p, Rules *r) {
    PyObject *position, *rules;
    return PyArg_ParseTuple(args, format, &position, &rules) && read_position(position, p) && read_rules(rules, r);
}

static PyObject *core_moves(PyObject *self, PyObject *args) {
    Pos p;
    Rules r;
    if (!read_position_and_rules(args, "OO:moves", &p, &r))
        return NULL;
    Step found[MAXMOVES];
    return sequence_of(0, found, gen_moves(&p, &r, found), sizeof(Step), step_object);
}

static PyObject *core_play(PyObject *self, PyObject *args) {
    PyObject *position, *object;
    if (!PyArg_ParseTuple(args, "OO:play", &position, &object))
        return NULL;
    Pos p;
    Step s;
    if (!read_position(position, &p) || !read_step(object, &p, &s))
        return NULL;
    apply(&p, s);
    return position_object(&p);
}

static PyObject *core_key(PyObject *self, PyObject *args) {
    Pos p;
    Rules r;
    if (!read_position_and_rules(args, "OO:key", &p, &r))
        return NULL;
    return key_object(make_key(&p, r.prune));
}

static PyObject *core_value(PyObject *self, PyObject *position) {
    Pos p;
    if (!read_position(position, &p))
        return NULL;
    return PyLong_FromLong(value(&p));
}

static PyObject *core_keys(PyObject *self, PyObject *packed) { return unpack_keys(packed, NULL); }

static PyObject *core_look_ahead(PyObject *self, PyObject *args) {
    PyObject *position, *rules;
    long long look_nodes, beam_width;
    double buried_weight, space_weight, max_seconds;
    if (!PyArg_ParseTuple(args, "OOLLddd:look_ahead", &position, &rules, &look_nodes, &beam_width, &buried_weight,
                          &space_weight, &max_seconds))
        return NULL;
    if (look_nodes < 0 || look_nodes > (1LL << 40) || beam_width < 1 || beam_width > (1LL << 20)) {
        PyErr_SetString(PyExc_ValueError, "the look-ahead takes 0 to 2**40 positions and a beam 1 to 2**20 wide");
        return NULL;
    }
    if (max_seconds != max_seconds || buried_weight != buried_weight || space_weight != space_weight) {
        PyErr_SetString(PyExc_ValueError, "the look-ahead's weights and seconds must be numbers");
        return NULL;
    }
    Pos p;
    Rules r;
    if (!read_position(position, &p) || !read_rules(rules, &r))
        return NULL;
    Look *look = malloc(sizeof(Look));
    if (!look)
        return PyErr_NoMemory();
    PyThreadState *thread = PyEval_SaveThread();
    int ok = look_ahead(&p, &r, look_nodes, beam_width, buried_weight, space_weight, now() + max_seconds, look);
    PyEval_RestoreThread(thread);
    PyObject *result = NULL;
    if (!ok) {
        PyErr_NoMemory();
    } else {
        int n = look->nfirsts > 1 ? look->nfirsts : 0;
        PyObject *most = PyList_New(n);
        for (int i = 0; most && i < n; i++) {
            int owner = look->owner[i];
            PyObject *item = Py_BuildValue("(id)", look->most_value[owner], look->most_rating[owner]);
            if (!item)
                Py_CLEAR(most);
            else
                PyList_SET_ITEM(most, i, item);
        }
        PyObject *answer = look->answer < 0 ? Py_NewRef(Py_None) : step_object(&look->firsts[look->answer]);
        if (most && answer)
            result = Py_BuildValue("(NLN)", answer, look->looked, most);
        else {
            Py_XDECREF(most);
            Py_XDECREF(answer);
        }
    }
    free(look);
    return result;
}

/* Every key of ``keys`` (an iterable of ints) into the table, marked ``state``. */
static int preload(Keys *keys, PyObject *iterable, int state) {
    PyObject *iterator = PyObject_GetIter(iterable);
    if (!iterator)
        return 0;
    PyObject *item;
    while ((item = PyIter_Next(iterator))) {
        Key key;
        int ok = read_key(item, &key);
        Py_DECREF(item);
        if (ok && !keys_mark(keys, key, state)) {
            PyErr_NoMemory();
            ok = 0;
        }
        if (!ok) {
            Py_DECREF(iterator);
            return 0;
        }
    }
    Py_DECREF(iterator);
    return !PyErr_Occurred();
}

static int read_best_first(PyObject *object, int *has, Step *step) {
    *has = object != Py_None;
    if (!*has)
        return 1;
    long values[2];
    if (PyTuple_Check(object) && PyTuple_GET_SIZE(object) == 2) {
        for (int k = 0; k < 2; k++)
            values[k] = PyLong_AsLong(PyTuple_GET_ITEM(object, k));
        if (!PyErr_Occurred() && values[0] >= 0 && values[0] < PAIR + 4 && values[1] >= 0 && values[1] <= BACK) {
            step->s = (int8_t)values[0];
            step->t = (int8_t)values[1];
            return 1;
        }
        PyErr_Clear();
    }
    PyErr_SetString(PyExc_ValueError, "best_first is a step (source, target) or None");
    return 0;
}

static PyObject *core_search(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "rules", "lost", "seen", "max_nodes", "max_seconds", "nodes",
                            "best_score", "best_first", "packed", NULL};
    PyObject *position, *rules, *lost, *seen, *best_first = Py_None, *packed = NULL;
    long long max_nodes, nodes = 0;
    double max_seconds;
    int best_score = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOLd|LiOO:search", names, &position, &rules, &lost, &seen,
                                     &max_nodes, &max_seconds, &nodes, &best_score, &best_first, &packed))
        return NULL;
    if (packed && !PyTuple_Check(packed) && !PyList_Check(packed)) {
        PyErr_SetString(PyExc_TypeError, "packed is a list of the bytes earlier searches gave");
        return NULL;
    }
    if (!node_counts_fit(nodes, max_nodes))
        return NULL;
    if (max_seconds != max_seconds) {
        PyErr_SetString(PyExc_ValueError, "max_seconds must be a number");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    if (!read_position(position, &s->pos) || !read_rules(rules, &s->rules) ||
        !read_best_first(best_first, &s->has_best_first, &s->best_first))
        goto done;
    Py_ssize_t known = PyObject_Length(lost);
    if (known < 0)
        goto done;
    for (Py_ssize_t k = 0; packed && k < PySequence_Fast_GET_SIZE(packed); k++) {
        PyObject *blob = PySequence_Fast_GET_ITEM(packed, k);
        known += PyBytes_Check(blob) ? PyBytes_GET_SIZE(blob) / KEY_BYTES : 0;
    }
    if (!keys_init(&s->keys, (size_t)known + 4096)) {
        PyErr_NoMemory();
        goto done;
    }
    if (!preload(&s->keys, seen, SEEN) || !preload(&s->keys, lost, LOST))
        goto done;
    for (Py_ssize_t k = 0; packed && k < PySequence_Fast_GET_SIZE(packed); k++) {
        PyObject *loaded = unpack_keys(PySequence_Fast_GET_ITEM(packed, k), &s->keys);
        if (!loaded)
            goto done;
        Py_DECREF(loaded);
    }
    s->nodes = nodes;
    s->best_score = best_score;
    s->thread = PyEval_SaveThread();
    s->deadline = now() + max_seconds;
    int verdict = run_search(s, max_nodes);
    PyEval_RestoreThread(s->thread);
    if (!verdict_reached(verdict))
        goto done;
    PyObject *proved = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(s->nlost * KEY_BYTES));
    if (!proved)
        goto done;
    for (size_t k = 0; k < s->nlost; k++)
        write_key(PyBytes_AS_STRING(proved) + k * KEY_BYTES, s->lost[k]);
    PyObject *line;
    if (verdict == VERDICT_UNRESOLVED || (verdict == VERDICT_WON && s->won_by_step)) {
        size_t length = s->nframes + (verdict == VERDICT_WON);
        line = PyTuple_New((Py_ssize_t)length);
        for (size_t k = 0; line && k < length; k++) {
            PyObject *step = step_object(k < s->nframes ? &s->frames[k].played.step : &s->winning);
            if (!step)
                Py_CLEAR(line);
            else
                PyTuple_SET_ITEM(line, (Py_ssize_t)k, step);
        }
    } else {
        line = PyTuple_New(0);
    }
    if (!line) {
        Py_DECREF(proved);
        goto done;
    }
    PyObject *first = s->has_best_first ? step_object(&s->best_first) : Py_NewRef(Py_None);
    if (!first) {
        Py_DECREF(proved);
        Py_DECREF(line);
        goto done;
    }
    result = Py_BuildValue("(ONLiNN)", won_object(verdict), line, s->nodes, s->best_score, first, proved);
done:
    free(s->keys.slots);
    free(s->lost);
    free(s->frames);
    free(s->steps);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, rules, lost, seen, max_nodes, max_seconds, nodes=0, best_score=0, best_first=None, "
     "packed=()) -> (won, line, nodes, best_score, best_first, proved); won is None when out of budget"},
    {"moves", core_moves, METH_VARARGS, "moves(position, rules) -> the search's moves, most promising first"},
    {"play", core_play, METH_VARARGS, "play(position, step) -> the position after step"},
    {"key", core_key, METH_VARARGS, "key(position, rules) -> the int that identifies the position to the search"},
    {"value", core_value, METH_O, "value(position) -> the cards home plus what the arch can still put up"},
    {"keys", core_keys, METH_O, "keys(packed) -> the keys a search packed in bytes, as ints"},
    {"look_ahead", core_look_ahead, METH_VARARGS,
     "look_ahead(position, rules, look_nodes, beam_width, buried_weight, space_weight, max_seconds) "
     "-> (step or None, positions looked at, each first step's (value, rating) when there were two or more)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The Archway search of gatebot.solver.archway.search, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    fill_tables();
    return PyModule_Create(&module);
}
