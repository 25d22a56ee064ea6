/* The Gate search of search.py (class Search), compiled: the same moves in the same order (the same
 * up / good / fair / late lists, the same forced single moves of every Dominances switch, the same
 * swap-then-use follow-up and focus), the same play and take-back with the same fills, the same
 * restarts with the same shuffles (Python's Mersenne Twister and random.shuffle, seeded alike, from
 * ../_search.h), so it visits the same positions as the Python search and gives the same verdict,
 * line, node count and best line. Only the set of positions seen differs: as the Canfield core
 * does, it keeps a 64-bit hash of each key's exact bytes (the bytes Search.key builds, with the
 * focus column appended for a focused search), not the bytes; the keys already in Search.seen are
 * hashed the same way when the search starts.
 *
 * A position is plain arrays of card numbers (index rank * 4 + suit, suits C D H S), tops last, the
 * stock's next card last, as Search holds them in lists. The search releases the GIL: it touches no
 * Python object between reading the start and building the answer, but for taking it back a few
 * times a second to run any signal's handler (Ctrl-C stops it as it stops the Python search).
 *
 * The table of positions seen grows as the search goes; past ``table_limit`` slots (16 bytes each) the
 * search stops as if its budget had run out, so no search can take more memory than that.
 *
 * Exposed for search.py and for the tests that hold this search to the Python one, a position
 * being (columns, left, right, waste, stock, foundations): a tuple of bytes, four bytes, a tuple of
 * four counts; the rules (single_moves, stock_fill, then the ten Dominances switches in order):
 *   search(position, rules, seen, max_nodes, max_seconds, nodes, best_score, best_first, table_limit)
 *       -> (won: True, False or None when out of budget, line, nodes, best_score, best_first)
 *   moves(position, rules) -> list of steps      play(position, step, stock_fill) -> (position, fill)
 *   key(position, focus=-1) -> the key's bytes
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_search.h"

#define MAXCOLUMNS 16
/* The most moves a position can have, with room to spare: per column a run of at most 13 cards
 * onto every column or a free space, and the gateposts' and the waste's cards. */
#define MAXMOVES 4096
/* Restarts follow the Luby sequence in units of this many nodes (search.SLICE). */
#define SLICE 1000
/* search.DRAW_CODE: the source of a draw. */
#define DRAW (-1)
/* Where an emptied column's card came from (gatebot.rules.gate.FILL_*). */
enum { FILL_NONE = -1, FILL_LEFT = 0, FILL_RIGHT = 1, FILL_WASTE = 2, FILL_STOCK = 3 };
/* The most slots the table may have unless the caller says otherwise: 2**25, 512 MiB. */
#define TABLE_LIMIT ((size_t)1 << 25)

typedef struct {
    int n; /* columns */
    int found[4];
    Row col[MAXCOLUMNS];
    Row res[2]; /* the left and the right gatepost */
    Row waste, stock;
    uint8_t talon[NCARDS]; /* 1 for the cards in the stock and the waste (Search.talon) */
} Pos;

typedef struct {
    int single, stock_fill;
    int safe_column, safe_waste, safe_reserve, safe_lone, swap_then_use, safe_stays_off, nearly_safe_column,
        stuck_draw, buried_waste, column_chains;
} Rules;

typedef struct {
    int8_t s, t, c; /* source, target, run length or foundation suit */
} Step;

static const int OTHER_COLOUR[4][2] = {{1, 2}, {0, 3}, {0, 3}, {1, 2}};
/* gatebot.rules.gate.KEY and ACCEPTS, filled at import. */
static int KEY[NCARDS], ACCEPTS[NCARDS];
/* search._SAFE_NEED. */
static int SAFE_NEED[NCARDS];

/* SUIT_BELOW[card]: the cards of its suit below it, as bits (bit c for card c); PARENTS[card]: the
 * two cards it can be built onto (none for a King). */
static uint64_t SUIT_BELOW[NCARDS + 4], PARENTS[NCARDS];
/* PARENT[card]: those two cards as numbers, NCARDS for a King's. */
static uint8_t PARENT[NCARDS][2];

static void fill_tables(void) {
    for (int card = 4; card < NCARDS + 4; card++)
        SUIT_BELOW[card] = SUIT_BELOW[card - 4] | (uint64_t)1 << (card - 4);
    for (int card = 0; card < NCARDS; card++)
        for (int k = 0; k < 2; k++) {
            int parent = card < NCARDS - 4 ? (card & ~3) + 4 + OTHER_COLOUR[card & 3][k] : NCARDS;
            PARENT[card][k] = (uint8_t)parent;
            if (parent < NCARDS)
                PARENTS[card] |= (uint64_t)1 << parent;
        }
    for (int c = 0; c < NCARDS; c++) {
        int red = (c & 3) == 1 || (c & 3) == 2;
        KEY[c] = (c >> 2) * 2 + red;
        ACCEPTS[c] = c >= 4 ? ((c >> 2) - 1) * 2 + !red : -1;
        SAFE_NEED[c] = c >= 8 ? c >> 2 : 0;
    }
}

static inline void push(Row *row, int card) { row->c[row->n++] = (uint8_t)card; }
static inline int top(const Row *row) { return row->c[row->n - 1]; }

/* ---- Playing on the search's own copy (Search.apply, Search.revert, rules.gate.fill_column). ---- */

static int fill_column(Pos *p, Row *column, int stock_fill) {
    Row *left = &p->res[0], *right = &p->res[1];
    if (left->n || right->n) {
        if (left->n >= right->n) {
            push(column, left->c[--left->n]);
            return FILL_LEFT;
        }
        push(column, right->c[--right->n]);
        return FILL_RIGHT;
    }
    if (p->waste.n) {
        push(column, p->waste.c[--p->waste.n]);
        return FILL_WASTE;
    }
    if (stock_fill && p->stock.n) {
        push(column, p->stock.c[--p->stock.n]);
        return FILL_STOCK;
    }
    return FILL_NONE;
}

static int apply(Pos *p, int stock_fill, int s, int t, int c) {
    int n = p->n;
    if (s < 0) {
        push(&p->waste, p->stock.c[--p->stock.n]);
        return FILL_NONE;
    }
    if (s < n) {
        Row *column = &p->col[s];
        if (t == n) {
            int card = column->c[--column->n];
            p->found[card & 3]++;
        } else {
            Row *to = &p->col[t];
            memcpy(to->c + to->n, column->c + column->n - c, (size_t)c);
            to->n += c;
            column->n -= c;
        }
        if (column->n)
            return FILL_NONE;
        int fill = fill_column(p, column, stock_fill);
        if (fill >= FILL_WASTE)
            p->talon[column->c[0]] = 0;
        return fill;
    }
    Row *pile = s < n + 2 ? &p->res[s - n] : &p->waste;
    int card = pile->c[--pile->n];
    if (s == n + 2)
        p->talon[card] = 0;
    if (t == n)
        p->found[card & 3]++;
    else
        push(&p->col[t], card);
    return FILL_NONE;
}

static inline int pop_foundation(Pos *p, int suit) {
    p->found[suit]--;
    return p->found[suit] * 4 + suit;
}

static void revert(Pos *p, int s, int t, int c, int fill) {
    int n = p->n;
    if (s < 0) {
        push(&p->stock, p->waste.c[--p->waste.n]);
        return;
    }
    if (s < n) {
        Row *column = &p->col[s];
        if (fill != FILL_NONE) {
            int card = column->c[--column->n];
            Row *back = fill == FILL_LEFT ? &p->res[0] : fill == FILL_RIGHT ? &p->res[1]
                      : fill == FILL_WASTE ? &p->waste : &p->stock;
            push(back, card);
            if (fill >= FILL_WASTE)
                p->talon[card] = 1;
        }
        if (t == n) {
            push(column, pop_foundation(p, c));
        } else {
            Row *from = &p->col[t];
            memcpy(column->c + column->n, from->c + from->n - c, (size_t)c);
            column->n += c;
            from->n -= c;
        }
        return;
    }
    Row *pile = s < n + 2 ? &p->res[s - n] : &p->waste;
    int card;
    if (t == n) {
        card = pop_foundation(p, c);
    } else {
        Row *from = &p->col[t];
        card = from->c[--from->n];
    }
    push(pile, card);
    if (s == n + 2)
        p->talon[card] = 1;
}

/* ---- Moves (Search.moves, _stuck, _nearly_safe, _draw_is_forced, _parent_has_use). ---- */

static int stuck(int card, const int *found, const uint8_t *talon) {
    int rank = card >> 2, suit = card & 3, blocked = 0;
    for (int lower = found[suit] * 4 + suit; lower < card; lower += 4)
        if (talon[lower]) {
            blocked = 1;
            break;
        }
    if (!blocked)
        return 0;
    if (rank < 12) {
        int parents = (rank + 1) * 4;
        for (int k = 0; k < 2; k++) {
            int other = OTHER_COLOUR[suit][k];
            if (found[other] <= rank + 1 && !talon[parents + other])
                return 0;
        }
    }
    return 1;
}

static inline int nearly_safe(int card, const int *found) {
    int rank = card >> 2, suit = card & 3;
    int a = OTHER_COLOUR[suit][0], b = OTHER_COLOUR[suit][1];
    return found[a] >= rank - 1 && found[b] >= rank - 1 && found[3 - suit] >= rank - 2;
}

static int draw_is_forced(const Pos *p) {
    if (!stuck(top(&p->waste), p->found, p->talon))
        return 0;
    for (int j = 0; j < p->n; j++)
        if (!p->col[j].n)
            return 0;
    int wanted = p->n; /* stuck cards still to find */
    int spare = p->res[0].n + p->res[1].n; /* candidates that may fail to be stuck */
    for (int k = 0; k < p->n + 2; k++) {
        const Row *cards = k < p->n ? NULL : &p->res[k - p->n];
        int count = cards ? cards->n : 1;
        for (int m = 0; m < count; m++) {
            int card = cards ? cards->c[m] : p->col[k].c[0];
            if (stuck(card, p->found, p->talon)) {
                if (!--wanted)
                    return 1;
            } else if (--spare < 0) {
                return 0;
            }
        }
    }
    return 0;
}

/* Whether ``card`` can neither go up nor be built onto a card while the cards of ``part`` (bit c for
 * card c) stay in the waste: Search._waste_is_buried's "buried under F". */
static inline int buried_under(int card, uint64_t up, uint64_t part) {
    return (part & SUIT_BELOW[card]) && !(PARENTS[card] & ~(part | up));
}

/* Search._waste_is_buried: whether some bottom part of the waste can never come out (the argument
 * is there), worked out the same way. */
static int waste_is_buried(const Pos *p) {
    int size = p->waste.n;
    if (size < 2)
        return 0;
    for (int j = 0; j < p->n; j++)
        if (!p->col[j].n)
            return 0;
    const int *found = p->found;
    /* First, cheaply, a bound with the same answer when it fails: the waste cards buried under the
     * waste below them, and the column bottoms and gatepost cards buried under all the waste but its
     * top (as F grows the buried cards only grow), must outnumber the columns. */
    uint64_t below = 0, up = 0; /* up: the cards on the foundations */
    for (int suit = 0; suit < 4; suit++)
        up |= SUIT_BELOW[found[suit] * 4 + suit];
    int bound = 0;
    for (int m = 0; m < size; m++) {
        int card = p->waste.c[m];
        bound += buried_under(card, up, below);
        below |= (uint64_t)1 << card;
    }
    if (!bound)
        return 0;
    below &= ~((uint64_t)1 << top(&p->waste));
    for (int k = 0; k < p->n + 2; k++) {
        const Row *cards = k < p->n ? NULL : &p->res[k - p->n];
        int count = cards ? cards->n : 1;
        for (int m = 0; m < count; m++)
            bound += buried_under(cards ? cards->c[m] : p->col[k].c[0], up, below);
    }
    if (bound <= p->n)
        return 0;
    /* where[card]: its place in the waste, the waste's length for a card not there, and -1 for a card
     * up and for the King's missing parents (NCARDS), so that a parent counts from its place + 1. */
    int8_t where[NCARDS + 1];
    uint8_t since[NCARDS];
    memset(where, size, NCARDS);
    where[NCARDS] = -1;
    for (int m = 0; m < size; m++)
        where[p->waste.c[m]] = (int8_t)m;
    for (int suit = 0; suit < 4; suit++)
        for (int card = suit; card < found[suit] * 4 + suit; card += 4)
            where[card] = -1;
    for (int suit = 0; suit < 4; suit++) {
        int lowest = size; /* the lowest place in the waste of a card of the suit below, not up */
        for (int card = found[suit] * 4 + suit; card < NCARDS; card += 4) {
            int first = lowest + 1, a = where[PARENT[card][0]] + 1, b = where[PARENT[card][1]] + 1;
            first = a > first ? a : first;
            since[card] = (uint8_t)(b > first ? b : first);
            lowest = where[card] < lowest ? where[card] : lowest;
        }
    }
    int above[NCARDS + 2] = {0}, fixed[NCARDS + 2] = {0}, any = 0;
    for (int m = 0; m < size; m++) {
        int j = since[p->waste.c[m]];
        if (j <= m) {
            above[j]++;
            above[m + 1]--;
            any = 1;
        }
    }
    if (!any)
        return 0;
    for (int k = 0; k < p->n + 2; k++) {
        const Row *cards = k < p->n ? NULL : &p->res[k - p->n];
        int count = cards ? cards->n : 1;
        for (int m = 0; m < count; m++) {
            int card = cards ? cards->c[m] : p->col[k].c[0];
            if (since[card] < size)
                fixed[since[card]]++;
        }
    }
    int held = 0, buried = 0;
    for (int j = 1; j < size; j++) {
        held += fixed[j];
        buried += above[j];
        if (buried && held + buried > p->n)
            return 1;
    }
    return 0;
}

/* Search._columns_are_chained's working state, as bits (bit c for card c): the column cards whose
 * place is in S, the column cards such a card lies on, and the gatepost and waste cards in S. */
typedef struct {
    uint64_t held, covered, piled, up;
} Chains;

/* SUIT_ABOVE[card]: the cards of its suit above it; CHILDREN[card]: the two cards that can be built
 * onto it (none for an Ace), as bits. */
static uint64_t SUIT_ABOVE[NCARDS], CHILDREN[NCARDS];

static void fill_chain_tables(void) {
    for (int card = 0; card < NCARDS; card++) {
        for (int above = card + 4; above < NCARDS; above += 4)
            SUIT_ABOVE[card] |= (uint64_t)1 << above;
        for (int child = 0; child < NCARDS; child++)
            if (PARENTS[child] >> card & 1)
                CHILDREN[card] |= (uint64_t)1 << child;
    }
}

/* The card can't go up: a lower card of its suit is pinned (Search._columns_are_chained's blocked). */
static inline int chains_blocked(const Chains *ch, int card) {
    return (SUIT_BELOW[card] & (ch->held | ch->covered | ch->piled)) != 0;
}

/* A parent of the card can be reached (Search._columns_are_chained's reachable). */
static inline int chains_reachable(const Chains *ch, int card) {
    return (PARENTS[card] & ~(ch->up | ch->covered | ch->piled)) != 0;
}

static int chains_fill_only(const Chains *ch, const Row *pile, int from) {
    int count = 0;
    for (int m = from; m < pile->n; m++)
        count += chains_blocked(ch, pile->c[m]) && !chains_reachable(ch, pile->c[m]);
    return count;
}

/* Search._columns_are_chained: whether some cards can never leave their places, each waiting on
 * another (the argument is there). The same largest set S, found with less work: a column card is
 * tested again only once something its test reads has changed (a card of its suit below it, or a
 * parent, no longer pinned or covered; a card on it leaving its place). Each test only gets harder
 * as S grows, so the order of the takings-out changes nothing: the answer is the Python search's. */
static int columns_are_chained(const Pos *p, int single) {
    int n = p->n;
    for (int j = 0; j < n; j++)
        if (!p->col[j].n)
            return 0;
    const Row *piles[3] = {&p->res[0], &p->res[1], &p->waste};
    if (!piles[0]->n && !piles[1]->n && !piles[2]->n)
        return 0;
    Chains ch = {0, 0, 0, 0};
    uint8_t under[NCARDS]; /* the card under a column card, NCARDS for a bottom card */
    uint64_t bottoms = 0;
    for (int suit = 0; suit < 4; suit++)
        ch.up |= SUIT_BELOW[p->found[suit] * 4 + suit];
    for (int j = 0; j < n; j++) {
        const Row *column = &p->col[j];
        under[column->c[0]] = NCARDS;
        bottoms |= (uint64_t)1 << column->c[0];
        for (int i = 0; i < column->n; i++)
            ch.held |= (uint64_t)1 << column->c[i];
        for (int i = 0; i + 1 < column->n; i++) {
            ch.covered |= (uint64_t)1 << column->c[i];
            under[column->c[i + 1]] = column->c[i];
        }
    }
    int pile_top[3];
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < piles[k]->n; i++)
            ch.piled |= (uint64_t)1 << piles[k]->c[i];
        pile_top[k] = piles[k]->n - 1;
    }
    uint64_t dirty = ch.held; /* the column cards whose test may have changed */
    for (;;) {
        uint64_t todo;
        while ((todo = dirty & ch.held)) {
            dirty = 0;
            for (; todo; todo &= todo - 1) {
                int card = __builtin_ctzll(todo);
                uint64_t bit = (uint64_t)1 << card;
                int covered = (ch.covered & bit) != 0;
                if ((!covered && !chains_blocked(&ch, card)) || ((!single || !covered) && chains_reachable(&ch, card))) {
                    ch.held &= ~bit;
                    dirty |= SUIT_ABOVE[card];
                    if (under[card] < NCARDS) {
                        int below = under[card];
                        ch.covered &= ~((uint64_t)1 << below);
                        dirty |= (uint64_t)1 << below | SUIT_ABOVE[below] | CHILDREN[below];
                    }
                }
            }
        }
        int changed = 0, empties = __builtin_popcountll(bottoms & ~ch.held);
        for (int k = 0; k < 3; k++) {
            int i = pile_top[k];
            if (i < 0)
                continue;
            /* The fill-only cards above, counted afresh each round, then kept up as cards leave (as
             * in Search._columns_are_chained). */
            int above = chains_fill_only(&ch, piles[k], i + 1), also = -1;
            while (i >= 0) {
                int card = piles[k]->c[i], leaves;
                int free = !chains_blocked(&ch, card) || chains_reachable(&ch, card);
                if (k < 2) {
                    leaves = (above <= empties && free) || above < empties;
                } else if (pile_top[0] >= 0 || pile_top[1] >= 0) {
                    leaves = !above && free;
                } else {
                    if (also < 0)
                        also = chains_fill_only(&ch, piles[0], 0) + chains_fill_only(&ch, piles[1], 0);
                    leaves = (above + (above ? also : 0) <= empties && free) || above + also < empties;
                }
                if (!leaves)
                    break;
                above += !free;
                ch.piled &= ~((uint64_t)1 << card);
                dirty |= SUIT_ABOVE[card] | CHILDREN[card];
                pile_top[k] = --i;
                changed = 1;
            }
        }
        if (pile_top[0] < 0 && pile_top[1] < 0 && pile_top[2] < 0)
            return 0;
        if (!changed)
            return 1;
    }
}

/* The columns whose top card takes a card of each KEY (Search.moves's ``accepting``), in column order. */
typedef struct {
    uint8_t at[26][MAXCOLUMNS];
    uint8_t count[26];
} Accepting;

static int parent_has_use(const Pos *p, int i, int depth, const Accepting *accepting, int free) {
    const Row *column = &p->col[i];
    int parent = column->c[column->n - depth - 1];
    if (p->found[parent & 3] == parent >> 2 || free >= 0)
        return 1;
    int moved = column->c[column->n - depth];
    int twin = (moved & ~3) | (3 - (moved & 3));
    if ((p->res[0].n && top(&p->res[0]) == twin) || (p->res[1].n && top(&p->res[1]) == twin) ||
        (p->waste.n && top(&p->waste) == twin))
        return 1;
    for (int j = 0; j < p->n; j++)
        if (j != i)
            for (int m = 0; m < p->col[j].n; m++)
                if (p->col[j].c[m] == twin)
                    return 1;
    /* The parent, with the run it sits on, moving onto another column. */
    int height = column->n, k = depth + 1, card = parent;
    while (1) {
        if (accepting->count[KEY[card]])
            return 1;
        if (k == height || ACCEPTS[column->c[column->n - k - 1]] != KEY[card])
            return 0;
        k++;
        card = column->c[column->n - k];
    }
}

#define ADD(list, count, source, target, run)                                                                        \
    do {                                                                                                              \
        (list)[count].s = (int8_t)(source);                                                                           \
        (list)[count].t = (int8_t)(target);                                                                           \
        (list)[count].c = (int8_t)(run);                                                                              \
        (count)++;                                                                                                    \
    } while (0)

static inline int only(Step *out, int source, int target, int run) {
    out[0].s = (int8_t)source;
    out[0].t = (int8_t)target;
    out[0].c = (int8_t)run;
    return 1;
}

/* The legal moves, most promising first, in Search.moves's order; a single move when a rule forces it. */
static int gen_moves(const Pos *p, const Rules *r, Step *out) {
    int n = p->n;
    const int *found = p->found;
    if (r->stuck_draw && p->stock.n && p->waste.n && draw_is_forced(p))
        return only(out, DRAW, 0, 0);
    Accepting accepting;
    memset(accepting.count, 0, sizeof accepting.count);
    int free = -1;
    for (int j = 0; j < n; j++) {
        const Row *column = &p->col[j];
        if (column->n) {
            int wanted = ACCEPTS[top(column)];
            if (wanted >= 0)
                accepting.at[wanted][accepting.count[wanted]++] = (uint8_t)j;
        } else if (free < 0) {
            free = j;
        }
    }
    Step up[MAXMOVES], good[MAXMOVES], fair[MAXMOVES], late[MAXMOVES];
    int nup = 0, ngood = 0, nfair = 0, nlate = 0;
    for (int i = 0; i < n; i++) {
        const Row *column = &p->col[i];
        if (!column->n)
            continue;
        int card = top(column), suit = card & 3, height = column->n, depth = 1;
        if (found[suit] == card >> 2) {
            int need = SAFE_NEED[card];
            if (found[OTHER_COLOUR[suit][0]] >= need && found[OTHER_COLOUR[suit][1]] >= need) {
                if (height > 1 ? r->safe_column : r->safe_lone)
                    return only(out, i, n, suit);
                ADD(up, nup, i, n, suit);
                if (r->safe_stays_off) {
                    if (height == 1 || r->single)
                        continue;
                    depth = 2;
                    card = column->c[column->n - 2];
                    if (ACCEPTS[card] != KEY[top(column)])
                        continue;
                }
            } else if (r->nearly_safe_column && height > 1 && nearly_safe(card, found)) {
                return only(out, i, n, suit);
            } else {
                ADD(up, nup, i, n, suit);
            }
        }
        while (1) {
            int key = KEY[card], ntargets = accepting.count[key];
            const uint8_t *targets = accepting.at[key];
            if (depth == height) {
                for (int k = 0; k < ntargets; k++)
                    ADD(good, ngood, i, targets[k], depth); /* empties the column: a fill */
                break;
            }
            int below = column->c[column->n - depth - 1];
            if (ACCEPTS[below] == key) {
                if ((ntargets || free >= 0) && (!r->swap_then_use || parent_has_use(p, i, depth, &accepting, free))) {
                    for (int k = 0; k < ntargets; k++)
                        ADD(late, nlate, i, targets[k], depth); /* off its parent onto the twin */
                    if (free >= 0)
                        ADD(late, nlate, i, free, depth);
                }
                if (r->single)
                    break;
                card = below;
                depth++;
                continue;
            }
            for (int k = 0; k < ntargets; k++)
                ADD(fair, nfair, i, targets[k], depth);
            if (free >= 0)
                ADD(late, nlate, i, free, depth);
            break;
        }
    }
    for (int k = 0; k < 3; k++) {
        const Row *pile = k < 2 ? &p->res[k] : &p->waste;
        int source = n + k;
        if (!pile->n)
            continue;
        int card = top(pile), suit = card & 3;
        if (found[suit] == card >> 2) {
            int need = SAFE_NEED[card];
            if (found[OTHER_COLOUR[suit][0]] >= need && found[OTHER_COLOUR[suit][1]] >= need) {
                if (k == 2 ? r->safe_waste : r->safe_reserve)
                    return only(out, source, n, suit);
                ADD(up, nup, source, n, suit);
                if (r->safe_stays_off)
                    continue;
            } else {
                ADD(up, nup, source, n, suit);
            }
        }
        int key = KEY[card];
        for (int m = 0; m < accepting.count[key]; m++)
            ADD(good, ngood, source, accepting.at[key][m], 1);
        if (free >= 0)
            ADD(late, nlate, source, free, 1);
    }
    if (p->stock.n)
        ADD(fair, nfair, DRAW, 0, 0);
    int count = 0;
    memcpy(out + count, up, (size_t)nup * sizeof(Step));
    count += nup;
    memcpy(out + count, good, (size_t)ngood * sizeof(Step));
    count += ngood;
    memcpy(out + count, fair, (size_t)nfair * sizeof(Step));
    count += nfair;
    memcpy(out + count, late, (size_t)nlate * sizeof(Step));
    count += nlate;
    return count;
}

/* ---- Keys (Search.key; _dfs appends b"\xfe" and the focus column for a focused search). ---- */

#define MAXKEY (7 + NCARDS + MAXCOLUMNS + 1 + NCARDS)

/* Python's order of bytes: the first byte that differs, else the shorter first. */
static inline int row_cmp(const Row *a, const Row *b) {
    if (a->n && b->n && a->c[0] != b->c[0]) /* columns nearly always differ in their bottom card */
        return (int)a->c[0] - (int)b->c[0];
    int n = a->n < b->n ? a->n : b->n;
    int c = n ? memcmp(a->c, b->c, (size_t)n) : 0;
    return c ? c : a->n - b->n;
}

/* The key's bytes into ``buffer`` (MAXKEY long); its length. */
static size_t build_key(const Pos *p, int focus, uint8_t *buffer) {
    size_t n = 0;
    buffer[n++] = (uint8_t)p->res[0].n;
    buffer[n++] = (uint8_t)p->res[1].n;
    buffer[n++] = (uint8_t)p->stock.n;
    for (int suit = 0; suit < 4; suit++)
        buffer[n++] = (uint8_t)p->found[suit];
    const Row *order[MAXCOLUMNS];
    for (int i = 0; i < p->n; i++) { /* sorted as bytes: Gate's rules never depend on which column is which */
        int j = i;
        while (j > 0 && row_cmp(order[j - 1], &p->col[i]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = &p->col[i];
    }
    for (int i = 0; i < p->n; i++) {
        if (i)
            buffer[n++] = '|';
        memcpy(buffer + n, order[i]->c, (size_t)order[i]->n);
        n += (size_t)order[i]->n;
    }
    if (focus >= 0) {
        buffer[n++] = 0xfe;
        memcpy(buffer + n, p->col[focus].c, (size_t)p->col[focus].n);
        n += (size_t)p->col[focus].n;
    }
    return n;
}

/* ---- The positions seen (Search.seen): an entry's mark is 1 while its key is in the set. ---- */

static inline int seen_has(const Table *table, uint64_t key) {
    const Entry *entry = table_slot(table, key);
    return entry->key && entry->mark;
}

enum { ADDED, TABLE_FULL, NO_MEMORY };

/* Puts ``key`` in the set: in its old slot if it had one (a key a restart took out), else in a new
 * one, the table grown first if it is half full; TABLE_FULL when it can't grow past its limit. */
static int seen_add(Table *table, uint64_t key) {
    Entry *entry = table_slot(table, key);
    if (!entry->key) {
        if ((table->count + 1) * 2 > table->mask + 1) {
            if (table->limit && (table->mask + 1) * 2 > table->limit)
                return TABLE_FULL;
            entry = table_room(table, key);
            if (!entry)
                return NO_MEMORY;
        }
        entry->key = key;
        table->count++;
    }
    entry->mark = 1;
    return ADDED;
}

/* Takes ``key`` out of the set; its slot stays taken, for when it comes back. */
static inline void seen_drop(Table *table, uint64_t key) {
    Entry *entry = table_slot(table, key);
    if (entry->key)
        entry->mark = 0;
}

/* ---- The search (Search.run, Search._dfs). ---- */

typedef struct {
    uint64_t key; /* the key added to the set on entering (the focused one for a focused search) */
    size_t first; /* its moves in the search's move array */
    int count, next, focus;
    Step played; /* the move being searched from here, and the fill it caused */
    int fill;
} Frame;

typedef struct {
    Pos pos;
    Rules rules;
    long long nodes, node_limit;
    double deadline;
    int best_score, has_best_first;
    Step best_first;
    Twister random;
    int shuffled;
    Table seen;
    Frame *frames;
    size_t nframes, frames_room;
    Step *steps;
    size_t nsteps, steps_room;
    PyThreadState *thread; /* the caller's, while the search runs without the GIL */
} Search;

/* What entering a position (the top of _dfs) comes to. */
enum { ENTERED, SKIPPED, WON, SPENT, FULL, OUT_OF_MEMORY, INTERRUPTED };

static int make_room(Search *s) {
    return GROW(s->frames, s->frames_room, s->nframes + 1, 256) &&
           GROW(s->steps, s->steps_room, s->nsteps + MAXMOVES, 16 * MAXMOVES);
}

/* _dfs(focus) up to its loop over the moves: a frame pushed with them, or why not. */
static int enter(Search *s, int focus) {
    const Pos *p = &s->pos;
    int score = p->found[0] + p->found[1] + p->found[2] + p->found[3];
    if (score == NCARDS)
        return WON;
    if (score > s->best_score) {
        s->best_score = score;
        s->has_best_first = s->nframes > 0;
        if (s->nframes)
            s->best_first = s->frames[0].played;
    }
    uint8_t buffer[MAXKEY];
    size_t length = build_key(p, -1, buffer);
    uint64_t key = hash_bytes(buffer, length);
    if (seen_has(&s->seen, key))
        return SKIPPED; /* searched (or being searched) with every move */
    if (focus >= 0) {
        buffer[length++] = 0xfe;
        memcpy(buffer + length, p->col[focus].c, (size_t)p->col[focus].n);
        length += (size_t)p->col[focus].n;
        key = hash_bytes(buffer, length);
        if (seen_has(&s->seen, key))
            return SKIPPED;
    }
    if (!make_room(s))
        return OUT_OF_MEMORY;
    int added = seen_add(&s->seen, key);
    if (added != ADDED)
        return added == TABLE_FULL ? FULL : OUT_OF_MEMORY;
    Frame *frame = &s->frames[s->nframes++];
    frame->key = key;
    frame->first = s->nsteps;
    frame->count = 0;
    frame->next = 0;
    frame->focus = focus;
    s->nodes++;
    if (s->nodes >= s->node_limit || (!(s->nodes & 1023) && now() > s->deadline))
        return SPENT;
    if (!(s->nodes & 0xffff) && signalled(&s->thread))
        return INTERRUPTED;
    Step *moves = s->steps + s->nsteps;
    if (s->rules.buried_waste && waste_is_buried(p))
        return ENTERED; /* lost: a node searched to the end, with no move to try (frame->count is 0) */
    if (s->rules.column_chains && columns_are_chained(p, s->rules.single))
        return ENTERED;
    int count = gen_moves(p, &s->rules, moves);
    if (focus >= 0) {
        int kept = 0;
        for (int k = 0; k < count; k++)
            if (moves[k].s == focus || moves[k].t == focus)
                moves[kept++] = moves[k];
        count = kept;
    } else if (s->shuffled && count > 2 && moves[0].t != p->n) { /* keep foundation plays first */
        shuffle(&s->random, moves, count, sizeof(Step));
    }
    frame->count = count;
    s->nsteps += (size_t)count;
    return ENTERED;
}

/* One attempt (_dfs(-1) from the start): WON with the line in the frames' ``played``, SKIPPED when
 * the start is lost (searched to the end, or already seen), or why it stopped. */
static int attempt(Search *s) {
    s->nframes = 0;
    s->nsteps = 0;
    int entered = enter(s, -1);
    if (entered != ENTERED)
        return entered;
    Pos *p = &s->pos;
    int n = p->n;
    while (1) {
        Frame *frame = &s->frames[s->nframes - 1];
        if (frame->next == frame->count) { /* searched to the end: its key stays in the set */
            s->nsteps = frame->first;
            if (--s->nframes == 0)
                return SKIPPED;
            frame = &s->frames[s->nframes - 1];
            revert(p, frame->played.s, frame->played.t, frame->played.c, frame->fill);
            continue;
        }
        Step move = s->steps[frame->first + (size_t)frame->next++];
        int fill = apply(p, s->rules.stock_fill, move.s, move.t, move.c);
        int follow = -1;
        if (s->rules.swap_then_use && move.s >= 0 && move.s < n && move.t < n && fill == FILL_NONE) {
            /* A run moved off its parent is only worth it if the next move uses the parent. */
            const Row *rest = &p->col[move.s], *moved = &p->col[move.t];
            if (rest->n && ACCEPTS[top(rest)] == KEY[moved->c[moved->n - move.c]]) {
                if (move.t == frame->focus) {
                    revert(p, move.s, move.t, move.c, fill);
                    continue;
                }
                follow = move.s;
            }
        }
        frame->played = move;
        frame->fill = fill;
        int entered = enter(s, follow);
        if (entered == SKIPPED) {
            revert(p, move.s, move.t, move.c, fill);
            continue;
        }
        if (entered != ENTERED)
            return entered;
    }
}


/* Search.run: restarts until a verdict or the budget's end. The line is the frames' ``played``,
 * frames[0 .. nframes - 1) (the last frame is the won position's, which has none). */
static int run_search(Search *s, long long max_nodes) {
    long long limit = s->nodes + max_nodes;
    const Pos root = s->pos;
    for (long long tried = 0;; tried++) {
        long long slice = s->nodes + SLICE * luby(tried + 1);
        s->node_limit = limit < slice ? limit : slice;
        s->shuffled = tried > 0;
        if (tried)
            twister_seed(&s->random, (uint32_t)tried);
        int outcome = attempt(s);
        if (outcome == WON)
            return VERDICT_WON;
        if (outcome == SKIPPED)
            return VERDICT_LOST;
        if (outcome == OUT_OF_MEMORY)
            return VERDICT_NO_MEMORY;
        if (outcome == INTERRUPTED)
            return VERDICT_INTERRUPTED;
        /* Out of budget (or of table): the current line's keys leave the set, the start comes back. */
        for (size_t i = 0; i < s->nframes; i++)
            seen_drop(&s->seen, s->frames[i].key);
        s->nframes = 0;
        s->pos = root;
        if (outcome == FULL || s->nodes >= limit || now() > s->deadline)
            return VERDICT_UNRESOLVED;
    }
}

/* ---- Between Python and C. ---- */

/* (columns, left, right, waste, stock, foundations) into ``p``; 0 with an exception set when it isn't
 * a position this core takes (each card once at most, 52 in all, four foundations of 0 to 13). */
static int read_position(PyObject *object, Pos *p) {
    memset(p, 0, sizeof *p);
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "a Gate position is a tuple (columns, left, right, waste, stock, foundations)");
        return 0;
    }
    PyObject *columns = PySequence_Fast(PyTuple_GET_ITEM(object, 0), "a Gate position's columns must be a tuple");
    if (!columns)
        return 0;
    Py_ssize_t ncolumns = PySequence_Fast_GET_SIZE(columns);
    int ok = 1;
    if (ncolumns < 1 || ncolumns > MAXCOLUMNS) {
        PyErr_Format(PyExc_ValueError, "the compiled Gate search takes 1 to %d columns", MAXCOLUMNS);
        ok = 0;
    }
    for (Py_ssize_t i = 0; ok && i < ncolumns; i++)
        ok = read_cards(PySequence_Fast_GET_ITEM(columns, i), "Gate", "column", &p->col[i]);
    Py_DECREF(columns);
    if (!ok)
        return 0;
    p->n = (int)ncolumns;
    if (!read_cards(PyTuple_GET_ITEM(object, 1), "Gate", "left reserve", &p->res[0]) ||
        !read_cards(PyTuple_GET_ITEM(object, 2), "Gate", "right reserve", &p->res[1]) ||
        !read_cards(PyTuple_GET_ITEM(object, 3), "Gate", "waste", &p->waste) ||
        !read_cards(PyTuple_GET_ITEM(object, 4), "Gate", "stock", &p->stock))
        return 0;
    if (!read_foundations(PyTuple_GET_ITEM(object, 5), "Gate", p->found))
        return 0;
    /* Every card once at most, and none on its foundation too: then no pile can outgrow its row. */
    uint8_t where[NCARDS];
    memset(where, 0, sizeof where);
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 0; rank < p->found[suit]; rank++)
            where[rank * 4 + suit] = 1;
    const Row *rows[MAXCOLUMNS + 4];
    int nrows = 0;
    for (int i = 0; i < p->n; i++)
        rows[nrows++] = &p->col[i];
    rows[nrows++] = &p->res[0];
    rows[nrows++] = &p->res[1];
    rows[nrows++] = &p->waste;
    rows[nrows++] = &p->stock;
    for (int k = 0; k < nrows; k++)
        for (int m = 0; m < rows[k]->n; m++) {
            int card = rows[k]->c[m];
            if (where[card]) {
                PyErr_Format(PyExc_ValueError, "a Gate position holds card %d twice", card);
                return 0;
            }
            where[card] = 1;
        }
    for (int m = 0; m < p->stock.n; m++)
        p->talon[p->stock.c[m]] = 1;
    for (int m = 0; m < p->waste.n; m++)
        p->talon[p->waste.c[m]] = 1;
    return 1;
}

/* (single_moves, stock_fill, safe_column, safe_waste, safe_reserve, safe_lone, swap_then_use,
 * safe_stays_off, nearly_safe_column, stuck_draw, buried_waste, column_chains): Search's options and
 * Dominances. */
static int read_rules(PyObject *object, Rules *r) {
    int *slots[] = {&r->single, &r->stock_fill, &r->safe_column, &r->safe_waste, &r->safe_reserve, &r->safe_lone,
                    &r->swap_then_use, &r->safe_stays_off, &r->nearly_safe_column, &r->stuck_draw,
                    &r->buried_waste, &r->column_chains};
    int count = (int)(sizeof slots / sizeof slots[0]);
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != count) {
        PyErr_Format(PyExc_TypeError, "the Gate search's rules are a tuple of %d truths", count);
        return 0;
    }
    for (int k = 0; k < count; k++) {
        int truth = PyObject_IsTrue(PyTuple_GET_ITEM(object, k));
        if (truth < 0)
            return 0;
        *slots[k] = truth;
    }
    return 1;
}

/* ``p`` as read_position reads it. */
static PyObject *position_object(const Pos *p) {
    PyObject *columns = sequence_of(1, p->col, p->n, sizeof(Row), row_bytes);
    if (!columns)
        return NULL;
    return Py_BuildValue("(NNNNN(iiii))", columns, row_bytes(&p->res[0]), row_bytes(&p->res[1]),
                         row_bytes(&p->waste), row_bytes(&p->stock), p->found[0], p->found[1], p->found[2],
                         p->found[3]);
}

/* A step (a ``const Step *``) as search.py writes it: (source, target, count). */
static PyObject *step_object(const void *step) {
    const Step *s = step;
    return Py_BuildValue("(iii)", (int)s->s, (int)s->t, (int)s->c);
}

/* A step (source, target, count) that can be played on ``p`` without reading or writing outside its
 * rows: its source has the cards it moves and its target is another pile (a step from Python may be
 * anything; the search's own are legal). A foundation move's count is its card's suit. */
static int read_step(PyObject *object, const Pos *p, Step *s) {
    int n = p->n;
    long values[3];
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 3)
        goto bad;
    for (int k = 0; k < 3; k++) {
        values[k] = PyLong_AsLong(PyTuple_GET_ITEM(object, k));
        if (values[k] == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto bad;
        }
    }
    long source = values[0], target = values[1], count = values[2];
    if (source == DRAW) {
        if (target != 0 || count != 0 || !p->stock.n)
            goto bad;
    } else if (source >= 0 && source < n) {
        const Row *column = &p->col[source];
        if (target == n) {
            if (!column->n || count != (top(column) & 3))
                goto bad;
        } else if (target < 0 || target >= n || target == source || count < 1 || count > column->n) {
            goto bad;
        }
    } else if (source >= n && source < n + 3) {
        const Row *pile = source < n + 2 ? &p->res[source - n] : &p->waste;
        if (!pile->n || target < 0 || target > n || (target == n ? count != (top(pile) & 3) : count != 1))
            goto bad;
    } else {
        goto bad;
    }
    s->s = (int8_t)source;
    s->t = (int8_t)target;
    s->c = (int8_t)count;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a step the Gate search can play on this position");
    return 0;
}

static PyObject *core_moves(PyObject *self, PyObject *args) {
    PyObject *position, *rules;
    if (!PyArg_ParseTuple(args, "OO:moves", &position, &rules))
        return NULL;
    Pos p;
    Rules r;
    if (!read_position(position, &p) || !read_rules(rules, &r))
        return NULL;
    Step *found = malloc(MAXMOVES * sizeof(Step));
    if (!found)
        return PyErr_NoMemory();
    PyObject *result = sequence_of(0, found, gen_moves(&p, &r, found), sizeof(Step), step_object);
    free(found);
    return result;
}

static PyObject *core_play(PyObject *self, PyObject *args) {
    PyObject *position, *object;
    int stock_fill = 0;
    if (!PyArg_ParseTuple(args, "OO|p:play", &position, &object, &stock_fill))
        return NULL;
    Pos p;
    Step s;
    if (!read_position(position, &p) || !read_step(object, &p, &s))
        return NULL;
    int fill = apply(&p, stock_fill, s.s, s.t, s.c);
    return Py_BuildValue("(Ni)", position_object(&p), fill);
}

static PyObject *core_key(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "focus", NULL};
    PyObject *position;
    int focus = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|i:key", names, &position, &focus))
        return NULL;
    Pos p;
    if (!read_position(position, &p))
        return NULL;
    if (focus < -1 || focus >= p.n) {
        PyErr_SetString(PyExc_ValueError, "the focus is a column of the position, or -1 for none");
        return NULL;
    }
    uint8_t buffer[MAXKEY];
    size_t length = build_key(&p, focus, buffer);
    return PyBytes_FromStringAndSize((const char *)buffer, (Py_ssize_t)length);
}

/* Every key of ``seen`` (an iterable of bytes) into the table, hashed as the search hashes its own. */
static int preload(Table *table, PyObject *seen) {
    PyObject *iterator = PyObject_GetIter(seen);
    if (!iterator)
        return 0;
    PyObject *item;
    while ((item = PyIter_Next(iterator))) {
        if (!PyBytes_Check(item)) {
            Py_DECREF(item);
            Py_DECREF(iterator);
            PyErr_SetString(PyExc_TypeError, "the positions seen must be keys (bytes)");
            return 0;
        }
        uint64_t key = hash_bytes((const uint8_t *)PyBytes_AS_STRING(item), (size_t)PyBytes_GET_SIZE(item));
        Py_DECREF(item);
        if (seen_add(table, key) != ADDED) {
            Py_DECREF(iterator);
            PyErr_NoMemory();
            return 0;
        }
    }
    Py_DECREF(iterator);
    return !PyErr_Occurred();
}

static PyObject *core_search(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "rules", "seen", "max_nodes", "max_seconds", "nodes", "best_score",
                            "best_first", "table_limit", NULL};
    PyObject *position, *rules, *seen, *best_first = Py_None;
    long long max_nodes, nodes = 0;
    double max_seconds;
    int best_score = -1;
    unsigned long long table_limit = TABLE_LIMIT;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOLd|LiOK:search", names, &position, &rules, &seen, &max_nodes,
                                     &max_seconds, &nodes, &best_score, &best_first, &table_limit))
        return NULL;
    if (!node_counts_fit(nodes, max_nodes))
        return NULL;
    if (table_limit < 1024) {
        PyErr_SetString(PyExc_ValueError, "the table takes at least 1024 slots");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    if (!read_position(position, &s->pos) || !read_rules(rules, &s->rules))
        goto done;
    if (!table_init(&s->seen, table_limit / 2 < (1 << 16) ? (size_t)table_limit / 2 : 1 << 16)) {
        PyErr_NoMemory();
        goto done;
    }
    s->seen.limit = (size_t)table_limit;
    if (!preload(&s->seen, seen))
        goto done;
    s->nodes = nodes;
    s->best_score = best_score;
    s->thread = PyEval_SaveThread();
    s->deadline = now() + max_seconds;
    int verdict = run_search(s, max_nodes);
    PyEval_RestoreThread(s->thread);
    if (!verdict_reached(verdict))
        goto done;
    Py_ssize_t length = verdict == VERDICT_WON ? (Py_ssize_t)s->nframes : 0;
    PyObject *line = sequence_of(1, length ? &s->frames[0].played : NULL, length, sizeof(Frame), step_object);
    if (!line)
        goto done;
    PyObject *first;
    if (s->best_score == best_score) /* never bettered: the caller's stays */
        first = Py_NewRef(best_first);
    else if (s->has_best_first)
        first = step_object(&s->best_first);
    else
        first = Py_NewRef(Py_None);
    if (!first) {
        Py_DECREF(line);
        goto done;
    }
    result = Py_BuildValue("(ONLiN)", won_object(verdict), line, s->nodes, s->best_score, first);
done:
    table_free(&s->seen);
    free(s->frames);
    free(s->steps);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, rules, seen, max_nodes, max_seconds, nodes=0, best_score=-1, best_first=None, "
     "table_limit=2**25) -> (won, line, nodes, best_score, best_first); won is None when out of budget"},
    {"moves", core_moves, METH_VARARGS, "moves(position, rules) -> the search's moves, most promising first"},
    {"play", core_play, METH_VARARGS, "play(position, step, stock_fill=False) -> (the position after step, fill)"},
    {"key", (PyCFunction)(void (*)(void))core_key, METH_VARARGS | METH_KEYWORDS,
     "key(position, focus=-1) -> the bytes that identify the position to the search"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The Gate search of gatebot.solver.gate.search, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    fill_tables();
    fill_chain_tables();
    return PyModule_Create(&module);
}
