/* The Canfield search of search.py, compiled: the same moves in the same order, the same pruning
 * rules (safe plays, deadlocks), the same Luby restarts with the same shuffles (Python's Mersenne
 * Twister and random.shuffle, seeded alike), so it visits the same positions as the Python search
 * and gives the same verdict, line and node count; only the form a position's key is kept in differs.
 *
 * A position is plain arrays of card numbers (index (rank - 1) * 4 + suit, suits C D H S), tops
 * last, as search.Position holds them in bytes, but for the talon: one row in its order and where
 * the waste ends (see Pos). The search releases the GIL: it touches no Python
 * object between reading the start position and building the answer, but for taking it back a few
 * times a second to run any signal's handler (Ctrl-C stops it as it stops the Python search).
 *
 * Exposed for search.py and for the tests that hold this search to the Python one:
 *   solve(position, max_nodes, max_seconds, safe, deadlocks, seed) -> (verdict, line, nodes)
 *   solve_each(positions, max_nodes, max_seconds, safe, deadlocks) -> [(verdict, line, nodes)], one lost set
 *   moves(position, safe=True) -> list of steps        play(position, step) -> the fields of a Position
 *   key(position, step=None) -> int (after step: as the search works it out, checked against the played position's)
 *   deadlocked(position) -> bool
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_search.h"

#define RANKS 13
#define MAXPILES 4
#define UNLIMITED (-1)
/* Restarts follow the Luby sequence in units of this many nodes (search.SLICE). */
#define SLICE 2000

#define RANK(card) ((card) >> 2)
#define SUIT(card) ((card) & 3)

typedef struct {
    int base, draw, passes, blocked, partial, any_space, npiles;
    /* Whether every pile is a run, each card one rank below the card it lies on, as every move keeps
     * them: a card's rank then follows from the pile's first card and its place (see closes_circle). */
    int runs;
    int found[4];
    Row reserve, piles[MAXPILES];
    /* The talon in its order: the waste from the bottom, then the stock from the top. Turning the talon,
     * a pass's end included, never changes that order, only where the waste ends: the waste is
     * talon.c[0 .. waste), the stock the rest, its top first. */
    Row talon;
    int waste;
    /* The piles' and the talon's parts of the position's key, kept up to date move by move (see Keys). */
    uint64_t piles_key, talon_key;
} Pos;

/* Step kinds, and the two sources that aren't piles. A talon move's target -1 is the foundation. */
enum { K_F, K_T, K_P, K_W, K_D, K_N };
#define SRC_R (-1)
#define SRC_W (-2)
#define TO_F (-1)

typedef struct {
    int8_t kind, a, b, c;
} Step;

/* The two suits of the other colour, by suit (C D H S). */
static const int OTHER_COLOUR[4][2] = {{1, 2}, {0, 3}, {0, 3}, {1, 2}};

/* ---- The rules (search.py's moves, play, turn, _safe). ---- */

static inline int wanted_card(const Pos *p, int suit) {
    int count = p->found[suit], rank = p->base + count;
    if (count >= RANKS)
        return -1;
    return (rank < RANKS ? rank : rank - RANKS) * 4 + suit;
}

/* Whether neither card that could be built on ``card`` can ever be laid on it, in a whole-pile game
 * (search._never_laid): each is up, of a rank never built, or lies on another card in a pile. */
static int never_laid(const Pos *p, int card) {
    if (p->partial || p->any_space)
        return 0;
    int rank = (RANK(card) + RANKS - 1) % RANKS;
    for (int k = 0; k < 2; k++) {
        int suit = OTHER_COLOUR[card & 3][k], builder = rank * 4 + suit;
        if (p->found[suit] > (rank - p->base + RANKS) % RANKS || rank == p->blocked)
            continue;
        int lying = 0;
        for (int i = 0; i < p->npiles && !lying; i++)
            lying = p->piles[i].n > 1 && memchr(p->piles[i].c + 1, builder, (size_t)p->piles[i].n - 1) != NULL;
        if (!lying)
            return 0;
    }
    return 1;
}

static int is_safe(const Pos *p, int card) {
    int rank = (RANK(card) - p->base + RANKS) % RANKS; /* 0 for the base card */
    int first = p->found[OTHER_COLOUR[card & 3][0]], second = p->found[OTHER_COLOUR[card & 3][1]];
    int others = first < second ? first : second;
    if (p->blocked != (p->base + RANKS - 1) % RANKS)
        return others >= (rank ? rank : RANKS) || never_laid(p, card);
    if (others >= rank)
        return 1;
    int same = p->found[3 - (card & 3)];
    return (others >= rank - 1 && same >= rank - 2) || never_laid(p, card);
}

static inline int stock_count(const Pos *p) { return p->talon.n - p->waste; }

/* Where the waste ends and the passes left after ``turns`` turns of a talon of ``total`` cards, each
 * turn taking cards from the stock, or once it is out turning the waste over: a stock's worth of
 * turns at a time rather than one by one. */
static inline void turned(int total, int draw, int turns, int *waste, int *passes) {
    while (turns > 0) {
        int stock = total - *waste;
        if (stock) {
            int now = (stock + draw - 1) / draw; /* the turns that take the stock out */
            if (now > turns)
                now = turns;
            *waste += now * draw < stock ? now * draw : stock;
            turns -= now;
        } else {
            *waste = 0;
            if (*passes != UNLIMITED)
                (*passes)--;
            turns--;
        }
    }
}

/* One turn of the talon. */
static inline void turn_once(Pos *p) { turned(p->talon.n, p->draw, 1, &p->waste, &p->passes); }

typedef struct {
    int turns, card;
} Top;

/* Each waste top the talon can show by turning, nearest first (search.talon_tops): the card before
 * where the waste ends, as the turns move that end along the talon's order; only the cards in
 * ``playable`` (a bit a card), the rest having nowhere to go. */
static int talon_tops(const Pos *p, uint64_t playable, Top *out) {
    int ns = stock_count(p), nw = p->waste, passes = p->passes, count = 0, turns = 0;
    uint64_t seen = 0; /* a bit a stock length, which stands for (len(stock), len(waste)): their sum is fixed */
    while (!(seen >> ns & 1)) {
        seen |= (uint64_t)1 << ns;
        if (nw && (playable >> p->talon.c[nw - 1] & 1)) {
            out[count].turns = turns;
            out[count].card = p->talon.c[nw - 1];
            count++;
        }
        if (ns) {
            int taken = p->draw < ns ? p->draw : ns;
            nw += taken;
            ns -= taken;
        } else if (nw && passes != 0) {
            ns = nw;
            nw = 0;
            if (passes != UNLIMITED)
                passes--;
        } else {
            break;
        }
        turns++;
    }
    return count;
}

/* The most moves a position can have, with room to spare: talon moves, pile moves, the reserve's. */
#define MAXMOVES 1024

static inline void add(Step *out, int *n, int kind, int a, int b, int c) {
    Step *s = &out[(*n)++];
    s->kind = (int8_t)kind;
    s->a = (int8_t)a;
    s->b = (int8_t)b;
    s->c = (int8_t)c;
}

/* The legal moves, most promising first, in search.moves's order (only the safe one, when ``safe``). */
static int gen_moves(const Pos *p, int safe, Step *out) {
    int n = 0;
    int wanted[4];
    for (int suit = 0; suit < 4; suit++)
        wanted[suit] = wanted_card(p, suit);
    if (p->reserve.n) {
        int card = p->reserve.c[p->reserve.n - 1];
        if (wanted[card & 3] == card) {
            if (safe && is_safe(p, card)) {
                add(out, &n, K_F, SRC_R, 0, 0);
                return n;
            }
            add(out, &n, K_F, SRC_R, 0, 0);
        }
    }
    for (int i = 0; i < p->npiles; i++) {
        const Row *pile = &p->piles[i];
        if (pile->n) {
            int card = pile->c[pile->n - 1];
            if (wanted[card & 3] == card) {
                if (safe && is_safe(p, card)) {
                    n = 0;
                    add(out, &n, K_F, i, 0, 0);
                    return n;
                }
                add(out, &n, K_F, i, 0, 0);
            }
        }
    }
    /* The piles each card would build on: the two cards one rank lower in the other colour. */
    int8_t takers[NCARDS][MAXPILES];
    int8_t ntakers[NCARDS];
    memset(ntakers, 0, sizeof ntakers);
    uint64_t playable = 0; /* the cards that can go anywhere: up, or onto a pile */
    for (int suit = 0; suit < 4; suit++)
        if (wanted[suit] >= 0)
            playable |= (uint64_t)1 << wanted[suit];
    for (int i = 0; i < p->npiles; i++) {
        const Row *pile = &p->piles[i];
        if (pile->n) {
            int top = pile->c[pile->n - 1];
            int rank = (RANK(top) + RANKS - 1) % RANKS;
            if (rank != p->blocked) {
                for (int k = 0; k < 2; k++) {
                    int card = rank * 4 + OTHER_COLOUR[top & 3][k];
                    takers[card][ntakers[card]++] = (int8_t)i;
                    playable |= (uint64_t)1 << card;
                }
            }
        }
    }
    int spaces[MAXPILES], nspaces = 0;
    if (!p->reserve.n)
        for (int i = 0; i < p->npiles; i++)
            if (!p->piles[i].n)
                spaces[nspaces++] = i;
    Top talon[2 * NCARDS + 2];
    int ntalon = talon_tops(p, nspaces ? ~(uint64_t)0 : playable, talon);
    for (int t = 0; t < ntalon; t++) {
        int card = talon[t].card;
        if (wanted[card & 3] == card)
            add(out, &n, K_W, talon[t].turns, TO_F, 0);
    }
    for (int source = 0; source < p->npiles; source++) { /* moving a pile brings out a reserve card */
        const Row *pile = &p->piles[source];
        if (!pile->n)
            continue;
        if (p->partial) {
            for (int count = pile->n; count > 0; count--) {
                int card = pile->c[pile->n - count];
                for (int k = 0; k < ntakers[card]; k++)
                    if (takers[card][k] != source)
                        add(out, &n, K_P, source, takers[card][k], count);
            }
        } else {
            int card = pile->c[0];
            for (int k = 0; k < ntakers[card]; k++)
                if (takers[card][k] != source)
                    add(out, &n, K_P, source, takers[card][k], pile->n);
        }
    }
    if (p->reserve.n) {
        int card = p->reserve.c[p->reserve.n - 1];
        for (int k = 0; k < ntakers[card]; k++)
            add(out, &n, K_T, SRC_R, takers[card][k], 0);
    }
    for (int t = 0; t < ntalon; t++) {
        int card = talon[t].card;
        for (int k = 0; k < ntakers[card]; k++)
            add(out, &n, K_W, talon[t].turns, takers[card][k], 0);
        for (int k = 0; k < nspaces; k++)
            add(out, &n, K_W, talon[t].turns, spaces[k], 0);
    }
    if (nspaces && p->any_space)
        for (int source = 0; source < p->npiles; source++)
            if (p->piles[source].n > 1)
                add(out, &n, K_P, source, spaces[0], 1);
    return n;
}

/* ---- Keys: what makes two positions the same to the search (search._key). ----
 *
 * The key holds the reserve's length, the foundations, the piles as a set (they are interchangeable)
 * and the talon: with unlimited passes at the start of a pass its card order (the waste from the bottom,
 * then the stock from the top: turning the talon never changes it), else that order and where the waste
 * ends, and the passes left. A sequence of distinct cards is known by the pairs of cards next to each
 * other in it, end marks included, so each part is kept as the exclusive-or of a random number per pair
 * (a Zobrist key): a move changes a few pairs whatever it moves, and the key of the position a move
 * leads to costs a few lookups rather than writing out and hashing the whole position. The piles' pairs
 * make one set, whatever pile they are in, which is the piles taken as a set; an empty pile or talon
 * counts for nothing (its one pair, the two end marks, is 0). Python's search keys the same content
 * exactly, as bytes; this key is 64 bits of it. */

#define BOTTOM NCARDS       /* under a pile's first card; in the talon, before its first card */
#define TOP (NCARDS + 1)    /* over a pile's last card; in the talon, after its last card */
#define ENDS (NCARDS + 2)

static uint64_t PILE_PAIR[ENDS][ENDS], TALON_PAIR[ENDS][ENDS], FOUND_KEY[4][RANKS + 1], RESERVE_KEY[NCARDS + 1],
    WASTE_END_KEY[NCARDS + 1], CYCLE_KEY;

/* The random numbers of the keys, the same in every process (splitmix64 from a fixed seed). */
static void keys_numbers(void) {
    uint64_t state = 0x67617465626f74ULL;
    uint64_t *tables[] = {&PILE_PAIR[0][0], &TALON_PAIR[0][0], &FOUND_KEY[0][0], RESERVE_KEY, WASTE_END_KEY, &CYCLE_KEY};
    size_t sizes[] = {ENDS * ENDS, ENDS * ENDS, 4 * (RANKS + 1), NCARDS + 1, NCARDS + 1, 1};
    for (int t = 0; t < 6; t++) {
        for (size_t i = 0; i < sizes[t]; i++) {
            uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            tables[t][i] = z ^ (z >> 31);
        }
    }
    PILE_PAIR[BOTTOM][TOP] = TALON_PAIR[BOTTOM][TOP] = 0;
}

/* The pairs of ``cards`` (``n`` of them, between the two end marks) in ``pairs``. */
static uint64_t sequence_key(uint64_t pairs[ENDS][ENDS], const uint8_t *cards, int n) {
    uint64_t key = 0;
    int before = BOTTOM;
    for (int i = 0; i < n; i++) {
        key ^= pairs[before][cards[i]];
        before = cards[i];
    }
    return key ^ pairs[before][TOP];
}

/* Works out ``p``'s piles and talon keys afresh (a position read from Python). */
static void rekey(Pos *p) {
    p->piles_key = 0;
    for (int i = 0; i < p->npiles; i++)
        p->piles_key ^= sequence_key(PILE_PAIR, p->piles[i].c, p->piles[i].n);
    p->talon_key = sequence_key(TALON_PAIR, p->talon.c, p->talon.n);
}

/* What the key holds besides how the talon lies. */
static inline uint64_t held_key(const Pos *p) {
    return p->piles_key ^ p->talon_key ^ RESERVE_KEY[p->reserve.n] ^ FOUND_KEY[0][p->found[0]] ^
           FOUND_KEY[1][p->found[1]] ^ FOUND_KEY[2][p->found[2]] ^ FOUND_KEY[3][p->found[3]];
}

/* The key from what it holds besides how the talon lies, and how it lies: with unlimited passes every
 * talon state at the start of a pass shares the key of the talon's order; else where the waste ends
 * and the passes left tell states apart. */
static inline uint64_t with_talon_lie(uint64_t held, int stock, int waste, int passes, int draw) {
    uint64_t key = held ^ CYCLE_KEY;
    if (passes != UNLIMITED || (stock && waste % draw))
        key = held ^ WASTE_END_KEY[waste] ^ mix(0x70617373ULL + (uint64_t)(passes + 1));
    return key ? key : 1; /* 0 marks an empty slot of a set of keys */
}

static uint64_t pos_key(const Pos *p) {
    return with_talon_lie(held_key(p), stock_count(p), p->waste, p->passes, p->draw);
}

/* The key of the same position with its talon turned to the start of its pass, if that differs (0 if not). */
static uint64_t cycle_key(const Pos *p) {
    if (p->passes != UNLIMITED || !stock_count(p) || p->waste % p->draw == 0)
        return 0;
    return with_talon_lie(held_key(p), 0, 0, UNLIMITED, p->draw);
}

/* What putting ``card`` between ``before`` and ``after`` changes in a key of ``pairs``, or taking it out
 * from between them: its two pairs come or go, and the pair of its neighbours goes or comes. */
static inline uint64_t spliced(uint64_t pairs[ENDS][ENDS], int before, int card, int after) {
    return pairs[before][card] ^ pairs[card][after] ^ pairs[before][after];
}

/* What moving a pile's run, from its card ``first`` up, off the card ``below`` onto the card ``top``
 * (either BOTTOM for none) changes in the piles' key: the run's top keeps the end mark over it. */
static inline uint64_t run_moved(int below, int first, int top) {
    return PILE_PAIR[below][first] ^ PILE_PAIR[below][TOP] ^ PILE_PAIR[top][TOP] ^ PILE_PAIR[top][first];
}

/* A pile's top card, or BOTTOM when it is empty. */
static inline int top_card(const Row *pile) { return pile->n ? pile->c[pile->n - 1] : BOTTOM; }

/* ``card`` onto pile ``i``. */
static inline void pile_push(Pos *p, int i, int card) {
    Row *row = &p->piles[i];
    p->piles_key ^= spliced(PILE_PAIR, top_card(row), card, TOP);
    row->c[row->n++] = (uint8_t)card;
}

/* Pile ``i``'s top card, taken off. */
static inline int pile_pop(Pos *p, int i) {
    Row *row = &p->piles[i];
    int card = row->c[--row->n];
    p->piles_key ^= spliced(PILE_PAIR, top_card(row), card, TOP);
    return card;
}

/* The waste's top card, taken off: in the talon's order it lies between the card under it and the stock's top. */
static inline int waste_pop(Pos *p) {
    Row *talon = &p->talon;
    int at = --p->waste, card = talon->c[at];
    int before = at ? talon->c[at - 1] : BOTTOM, after = at + 1 < talon->n ? talon->c[at + 1] : TOP;
    p->talon_key ^= spliced(TALON_PAIR, before, card, after);
    memmove(talon->c + at, talon->c + at + 1, (size_t)(talon->n - at - 1));
    talon->n--;
    return card;
}

/* Pile ``from``'s top ``count`` cards onto pile ``to``, in their order. */
static inline void pile_move(Pos *p, int from, int to, int count) {
    Row *source = &p->piles[from], *target = &p->piles[to];
    int below = source->n > count ? source->c[source->n - count - 1] : BOTTOM;
    p->piles_key ^= run_moved(below, source->c[source->n - count], top_card(target));
    memcpy(target->c + target->n, source->c + source->n - count, (size_t)count);
    target->n += count;
    source->n -= count;
}

/* An emptied pile takes the reserve's top card, if there is one. */
static inline void fill(Pos *p, int source) {
    if (!p->piles[source].n && p->reserve.n)
        pile_push(p, source, p->reserve.c[--p->reserve.n]);
}

/* The position after ``s``, which must be legal (search.play). */
static void play_step(Pos *p, const Step *s) {
    switch (s->kind) {
    case K_W: {
        turned(p->talon.n, p->draw, s->a, &p->waste, &p->passes);
        int card = waste_pop(p);
        if (s->b == TO_F)
            p->found[SUIT(card)]++;
        else
            pile_push(p, s->b, card);
        break;
    }
    case K_D:
    case K_N:
        turn_once(p);
        break;
    case K_P: {
        pile_move(p, s->a, s->b, s->c);
        fill(p, s->a);
        break;
    }
    default: { /* K_F, K_T */
        int card;
        if (s->a == SRC_R) {
            card = p->reserve.c[--p->reserve.n];
        } else if (s->a == SRC_W) {
            card = waste_pop(p);
        } else {
            card = pile_pop(p, s->a);
            fill(p, s->a);
        }
        if (s->kind == K_F)
            p->found[SUIT(card)]++;
        else
            pile_push(p, s->b, card);
    }
    }
}

/* Whether ``s`` can be played on ``p`` without reading or writing outside its rows (a step from
 * Python may be anything; the search's own are legal). */
static int playable(const Pos *p, const Step *s) {
    int to_pile = -1, adds = 1;
    switch (s->kind) {
    case K_W: {
        int waste = p->waste, passes = p->passes;
        if (s->a < 0)
            return 0;
        turned(p->talon.n, p->draw, s->a, &waste, &passes);
        if (!waste)
            return 0;
        to_pile = s->b;
        break;
    }
    case K_D:
    case K_N:
        return 1;
    case K_P:
        if (s->a < 0 || s->a >= p->npiles || s->b < 0 || s->b >= p->npiles || s->a == s->b)
            return 0;
        if (s->c < 1 || s->c > p->piles[s->a].n)
            return 0;
        to_pile = s->b;
        adds = s->c;
        break;
    default:
        if (s->a == SRC_R) {
            if (!p->reserve.n)
                return 0;
        } else if (s->a == SRC_W) {
            if (!p->waste)
                return 0;
        } else if (s->a < 0 || s->a >= p->npiles || !p->piles[s->a].n) {
            return 0;
        }
        if (s->kind == K_T) {
            if (s->b < 0 || s->b >= p->npiles || s->b == s->a)
                return 0;
            to_pile = s->b;
        }
    }
    if (to_pile == TO_F || to_pile == -1)
        return 1;
    if (to_pile < 0 || to_pile >= p->npiles)
        return 0;
    return p->piles[to_pile].n + adds <= NCARDS;
}

/* The key of the position ``s`` leads to from ``p``, worked out from the pairs the step changes without
 * playing it: what the search does for every move it makes, so as to look each one up before it is
 * played. It must be pos_key of play_step's position (the tests hold it to that). */
static uint64_t key_after(const Pos *p, const Step *s) {
    uint64_t piles = p->piles_key, talon = p->talon_key;
    int found[4] = {p->found[0], p->found[1], p->found[2], p->found[3]};
    int reserve = p->reserve.n, stock = stock_count(p), waste = p->waste, passes = p->passes;
    int card = -1, to = TO_F; /* the card played (-1: none), and where it goes */
    switch (s->kind) {
    case K_P: {
        const Row *from = &p->piles[s->a];
        int below = from->n > s->c ? from->c[from->n - s->c - 1] : BOTTOM;
        piles ^= run_moved(below, from->c[from->n - s->c], top_card(&p->piles[s->b]));
        if (from->n == s->c && reserve) /* the emptied pile takes the reserve's top */
            piles ^= spliced(PILE_PAIR, BOTTOM, p->reserve.c[--reserve], TOP);
        break;
    }
    case K_D:
    case K_N:
    case K_W: { /* turning changes where the waste ends, never the talon's order */
        turned(p->talon.n, p->draw, s->kind == K_W ? s->a : 1, &waste, &passes);
        stock = p->talon.n - waste;
        if (s->kind != K_W)
            break;
        card = p->talon.c[waste - 1];
        int before = waste > 1 ? p->talon.c[waste - 2] : BOTTOM, after = stock ? p->talon.c[waste] : TOP;
        talon ^= spliced(TALON_PAIR, before, card, after);
        waste--;
        to = s->b;
        break;
    }
    default: /* K_F, K_T */
        if (s->a == SRC_R) {
            card = p->reserve.c[--reserve];
        } else if (s->a == SRC_W) {
            card = p->talon.c[--waste];
            int before = waste ? p->talon.c[waste - 1] : BOTTOM, after = stock ? p->talon.c[waste + 1] : TOP;
            talon ^= spliced(TALON_PAIR, before, card, after);
        } else {
            const Row *from = &p->piles[s->a];
            card = from->c[from->n - 1];
            piles ^= spliced(PILE_PAIR, from->n > 1 ? from->c[from->n - 2] : BOTTOM, card, TOP);
            if (from->n == 1 && reserve) /* the emptied pile takes the reserve's top */
                piles ^= spliced(PILE_PAIR, BOTTOM, p->reserve.c[--reserve], TOP);
        }
        to = s->kind == K_F ? TO_F : s->b;
    }
    if (card >= 0) {
        if (to == TO_F) {
            found[SUIT(card)]++;
        } else { /* onto pile ``to``, which is not the one the card left */
            piles ^= spliced(PILE_PAIR, top_card(&p->piles[to]), card, TOP);
        }
    }
    uint64_t held = piles ^ talon ^ RESERVE_KEY[reserve] ^ FOUND_KEY[0][found[0]] ^ FOUND_KEY[1][found[1]] ^
                    FOUND_KEY[2][found[2]] ^ FOUND_KEY[3][found[3]];
    return with_talon_lie(held, stock, waste, passes, p->draw);
}

/* ---- Deadlocks (search.deadlocked, search.closes_circle). ---- */

static void build_under(const Pos *p, int *under) {
    for (int card = 0; card < NCARDS; card++)
        under[card] = -1;
    for (int i = 0; i < p->npiles; i++)
        for (int k = 1; k < p->piles[i].n; k++)
            under[p->piles[i].c[k]] = p->piles[i].c[k - 1];
}

static inline int next_of_suit(int card) {
    return RANK(card) != RANKS - 1 ? card + 4 : SUIT(card);
}

/* Whether "goes up before" (a card before the one it lies on, a suit in order) runs in a circle. */
static int is_deadlocked(const Pos *p) {
    int under[NCARDS];
    build_under(p, under);
    int last = (p->base + RANKS - 1) % RANKS;
    char state[NCARDS]; /* 0 new, 1 on the current path, 2 done */
    memset(state, 0, sizeof state);
    int stack[NCARDS], edge[NCARDS];
    for (int first = 0; first < NCARDS; first++) {
        if (under[first] < 0 || state[first])
            continue;
        int depth = 0;
        stack[0] = first;
        edge[0] = 0;
        state[first] = 1;
        depth = 1;
        while (depth) {
            int card = stack[depth - 1];
            int following = -1;
            while (following < 0 && edge[depth - 1] < 2) {
                int which = edge[depth - 1]++;
                if (which == 0)
                    following = under[card];
                else if (RANK(card) != last)
                    following = next_of_suit(card);
            }
            if (following < 0) {
                state[card] = 2;
                depth--;
                continue;
            }
            if (state[following] == 1)
                return 1;
            if (!state[following]) {
                state[following] = 1;
                stack[depth] = following;
                edge[depth] = 0;
                depth++;
            }
        }
    }
    return 0;
}

/* Whether ``upper``, just laid on ``lower``, closes a circle (the position before had none). */
static int closes_circle(const Pos *p, int upper, int lower) {
    int base = p->base, last = (base + RANKS - 1) % RANKS;
    if (RANK(lower) != base) { /* a circle must wrap round at a last-rank card on a base card */
        int any = 0;
        for (int i = 0; i < p->npiles && !any; i++) {
            const Row *pile = &p->piles[i];
            if (pile->n < 2)
                continue;
            if (p->runs) { /* the first base card of a run lies this far up from its first card */
                any = (RANK(pile->c[0]) - base + RANKS) % RANKS < pile->n - 1;
                continue;
            }
            for (int k = 0; k + 1 < pile->n; k++)
                if (RANK(pile->c[k]) == base) {
                    any = 1;
                    break;
                }
        }
        if (!any)
            return 0;
    }
    int under[NCARDS];
    build_under(p, under);
    uint64_t seen = (uint64_t)1 << lower; /* a bit a card */
    int stack[NCARDS], depth = 0;
    stack[depth++] = lower;
    while (depth) {
        int card = stack[--depth];
        if (card == upper)
            return 1;
        int beneath = under[card];
        if (beneath >= 0 && !(seen >> beneath & 1)) {
            seen |= (uint64_t)1 << beneath;
            stack[depth++] = beneath;
        }
        if (RANK(card) != last) {
            int following = next_of_suit(card);
            if (!(seen >> following & 1)) {
                seen |= (uint64_t)1 << following;
                stack[depth++] = following;
            }
        }
    }
    return 0;
}

/* The card ``s`` laid on another pile's top card, and that card; 0 if it laid none (search.laid). */
static int laid(const Pos *before, const Step *s, const Pos *after, int *upper, int *lower) {
    if (s->kind == K_P || s->kind == K_T || (s->kind == K_W && s->b != TO_F)) {
        const Row *below = &before->piles[s->b];
        if (below->n) {
            *upper = after->piles[s->b].c[below->n];
            *lower = below->c[below->n - 1];
            return 1;
        }
    }
    return 0;
}

/* ---- The positions searched: a set of those proved lost, and the positions on the line. ----
 *
 * The Python search keeps two sets, the positions lost (kept across restarts) and those seen in the
 * current restart. A position seen in this restart has either been searched to the end (and is
 * lost) or is still on the line being searched (the search never leaves one otherwise, but for a
 * win, which ends it), so "seen" is "lost, or on the line": the lost set holds bare 64-bit keys (8
 * bytes a position, half a table of keys and marks, so half the memory to clear and to miss in),
 * and the line's positions are a small set of their own. */

typedef struct {
    uint64_t *slots; /* size + SPILL slots; 0 marks an empty one: no key is 0 */
    size_t mask, count; /* size - 1, a power of two less one */
} KeySet;

/* Slots past the last home slot, where runs that start near the end go on rather than wrapping round
 * to the start: a set that only grows can then double in place (keys_grow). At most half the home
 * slots are taken, so a run of SPILL taken slots is next to impossible; if one comes, the set doubles. */
#define SPILL 256

/* Huge pages for a big set, where the system gives them for the asking (Linux's "madvise" setting):
 * its probes land anywhere, and with 4 KiB pages most would miss the TLB too. */
static void advise_huge(uint64_t *slots, size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (count * sizeof(uint64_t) >= ((size_t)4 << 20)) {
        uintptr_t first = ((uintptr_t)slots + 4095) & ~(uintptr_t)4095, end = (uintptr_t)(slots + count);
        madvise((void *)first, (size_t)(end - first) & ~(size_t)4095, MADV_HUGEPAGE);
    }
#else
    (void)slots;
    (void)count;
#endif
}

static int keys_init(KeySet *set, size_t size) {
    set->slots = calloc(size + SPILL, sizeof(uint64_t));
    set->mask = size - 1;
    set->count = 0;
    if (set->slots)
        advise_huge(set->slots, size + SPILL);
    return set->slots != NULL;
}

static void keys_free(KeySet *set) {
    free(set->slots);
    set->slots = NULL;
}

static inline size_t keys_home(const KeySet *set, uint64_t key) { return (size_t)(key ^ (key >> 29)) & set->mask; }

static inline void keys_prefetch(const KeySet *set, uint64_t key) {
    __builtin_prefetch(&set->slots[keys_home(set, key)]);
}

static inline int keys_has(const KeySet *set, uint64_t key) {
    const uint64_t *slot = set->slots + keys_home(set, key), *end = set->slots + set->mask + 1 + SPILL;
    for (; slot < end && *slot; slot++)
        if (*slot == key)
            return 1;
    return 0;
}

/* Puts ``key``, not in the set, into the first empty slot from its home; 0 if its run reached the end. */
static inline int keys_place(KeySet *set, uint64_t key) {
    for (size_t i = keys_home(set, key); i <= set->mask + SPILL; i++)
        if (!set->slots[i]) {
            set->slots[i] = key;
            return 1;
        }
    return 0;
}

/* Doubles the set where it lies, so that only the new half is fresh memory: the old half's keys move
 * up or stay, none is copied to a second table. In order of slot, each key of the old home slots is
 * taken out and placed again from its new home, which is its old one or that plus the old size: a key
 * placed in the lower half lands at or before the slot it left, so no run crosses a key not yet placed.
 * The old spill slots' keys are set aside first and placed last. 0 when memory ran out. */
static int keys_grow(KeySet *set) {
    size_t size = set->mask + 1, bigger = size * 2;
    uint64_t *slots = realloc(set->slots, (bigger + SPILL) * sizeof(uint64_t));
    if (!slots)
        return 0;
    memset(slots + size + SPILL, 0, size * sizeof(uint64_t));
    advise_huge(slots, bigger + SPILL);
    uint64_t spilled[SPILL];
    size_t nspilled = 0;
    for (size_t i = size; i < size + SPILL; i++)
        if (slots[i]) {
            spilled[nspilled++] = slots[i];
            slots[i] = 0;
        }
    set->slots = slots;
    set->mask = bigger - 1;
    for (size_t i = 0; i < size; i++) {
        uint64_t key = slots[i];
        if (key) {
            slots[i] = 0;
            if (!keys_place(set, key))
                return 0;
        }
    }
    for (size_t k = 0; k < nspilled; k++)
        if (!keys_place(set, spilled[k]))
            return 0;
    return 1;
}

/* Adds ``key``, the set doubled first when it is half full; 0 when memory ran out. */
static int keys_add(KeySet *set, uint64_t key) {
    if ((set->count + 1) * 2 > set->mask + 1 && !keys_grow(set))
        return 0;
    while (1) {
        for (size_t i = keys_home(set, key); i <= set->mask + SPILL; i++) {
            if (set->slots[i] == key)
                return 1;
            if (!set->slots[i]) {
                set->slots[i] = key;
                set->count++;
                return 1;
            }
        }
        if (!keys_grow(set)) /* a run reached the end */
            return 0;
    }
}

/* Takes ``key`` out (the line's set only), shifting back the keys that probed past it. */
static void keys_remove(KeySet *set, uint64_t key) {
    size_t end = set->mask + 1 + SPILL, i = keys_home(set, key);
    while (i < end && set->slots[i] != key) {
        if (!set->slots[i])
            return;
        i++;
    }
    if (i == end)
        return;
    size_t hole = i;
    for (size_t j = hole + 1; j < end && set->slots[j]; j++)
        if (keys_home(set, set->slots[j]) <= hole) { /* its run passes the hole: it may fill it */
            set->slots[hole] = set->slots[j];
            hole = j;
        }
    set->slots[hole] = 0;
    set->count--;
}

/* ---- The search (search.Search). ---- */

typedef struct {
    Pos pos;
    uint64_t key;
    size_t first; /* its moves in the search's move array */
    int count, next;
} Frame;

typedef struct {
    long long max_nodes, nodes;
    double deadline;
    int safe, deadlocks;
    Twister random; /* seeded with ``seed`` on the first restart: a search done in its first slice never shuffles */
    uint32_t seed;
    int seeded;
    KeySet lost; /* the positions searched to the end, kept across restarts */
    KeySet line; /* the positions on the line under way */
    Frame *frames;
    size_t nframes, frames_room;
    Step *steps;
    uint64_t *keys; /* keys[i]: the key of the position steps[i] leads to */
    size_t nsteps, steps_room, keys_room;
    Step *path; /* path[i]: the step from frames[i] to frames[i + 1] */
    size_t path_room;
    PyThreadState *thread; /* the caller's, while the search runs without the GIL */
} Search;

enum { DONE_LOST, DONE_WON, SLICE_SPENT, NO_MEMORY, INTERRUPTED };

/* The place of the next frame's position, room made for it; NULL when out of memory. */
static Pos *next_pos(Search *s) {
    if (!GROW(s->frames, s->frames_room, s->nframes + 1, 256) ||
        !GROW(s->path, s->path_room, s->nframes + 1, 256) ||
        !GROW(s->steps, s->steps_room, s->nsteps + MAXMOVES, 16 * MAXMOVES) ||
        !GROW(s->keys, s->keys_room, s->nsteps + MAXMOVES, 16 * MAXMOVES))
        return NULL;
    return &s->frames[s->nframes].pos;
}

/* Pushes a frame for the position next_pos placed, with the moves to search from it (none when
 * deadlocked); 0 when out of memory. It was reached by ``step`` from the top frame, or is the start
 * when there is no frame. */
static int push_frame(Search *s, uint64_t key, int shuffled, const Step *step) {
    const Pos *before = s->nframes ? &s->frames[s->nframes - 1].pos : NULL;
    Frame *frame = &s->frames[s->nframes++];
    const Pos *p = &frame->pos;
    frame->key = key;
    frame->first = s->nsteps;
    frame->next = 0;
    frame->count = 0;
    if (!keys_add(&s->line, key))
        return 0;
    if (s->deadlocks && !p->partial && !p->any_space) {
        int upper, lower;
        if (before == NULL) {
            if (is_deadlocked(p))
                return 1; /* lost: searched to the end at once */
        } else if (laid(before, step, p, &upper, &lower) && closes_circle(p, upper, lower)) {
            return 1;
        }
    }
    Step *found = s->steps + s->nsteps;
    int n = gen_moves(p, s->safe, found);
    if (shuffled && n > 2)
        shuffle(&s->random, found + 1, n - 1, sizeof(Step));
    /* Every move's key now, and a prefetch of its place in the lost set: most of the search's time
     * went on waiting for those places one by one, each a miss in a table of hundreds of MB. */
    uint64_t *keys = s->keys + s->nsteps;
    for (int i = 0; i < n; i++) {
        keys[i] = key_after(p, &found[i]);
        keys_prefetch(&s->lost, keys[i]);
    }
    frame->count = n;
    s->nsteps += (size_t)n;
    return 1;
}

static int search_slice(Search *s, const Pos *start, long long limit, int shuffled) {
    if (shuffled && !s->seeded) {
        twister_seed(&s->random, s->seed);
        s->seeded = 1;
    }
    s->nframes = 0;
    s->nsteps = 0;
    memset(s->line.slots, 0, (s->line.mask + 1 + SPILL) * sizeof(uint64_t)); /* a new restart, a new line */
    s->line.count = 0;
    Pos *first = next_pos(s);
    if (!first)
        return NO_MEMORY;
    *first = *start;
    if (!push_frame(s, pos_key(start), shuffled, NULL))
        return NO_MEMORY;
    while (s->nframes) {
        Frame *frame = &s->frames[s->nframes - 1];
        if (frame->next == frame->count) {
            uint64_t dominated = cycle_key(&frame->pos);
            keys_remove(&s->line, frame->key);
            if (!keys_add(&s->lost, frame->key) || (dominated && !keys_add(&s->lost, dominated)))
                return NO_MEMORY;
            s->nsteps = frame->first;
            s->nframes--;
            continue;
        }
        size_t index = frame->first + (size_t)frame->next++;
        uint64_t key = s->keys[index];
        if (keys_has(&s->line, key) || keys_has(&s->lost, key))
            continue; /* seen in this restart, or lost */
        Step step = s->steps[index];
        Pos *after = next_pos(s); /* the position is played where its frame will hold it */
        if (!after)
            return NO_MEMORY;
        frame = &s->frames[s->nframes - 1]; /* after any realloc */
        *after = frame->pos;
        play_step(after, &step);
        s->nodes++;
        if ((s->nodes & 255) == 0) {
            if (s->nodes >= limit || now() > s->deadline)
                return SLICE_SPENT;
            if ((s->nodes & 0xffff) == 0 && signalled(&s->thread))
                return INTERRUPTED;
        }
        s->path[s->nframes - 1] = step;
        if (after->found[0] + after->found[1] + after->found[2] + after->found[3] == NCARDS)
            return DONE_WON;
        if (!push_frame(s, key, shuffled, &step))
            return NO_MEMORY;
    }
    return DONE_LOST;
}

/* Runs the search; the verdict (VERDICT_NO_MEMORY when memory ran out, VERDICT_INTERRUPTED when a
 * signal's handler raised). The line is s->path[0 .. s->nframes). */
static int run_search(Search *s, const Pos *start) {
    long long attempt = 0;
    while (1) {
        attempt++;
        long long budget = luby(attempt) * SLICE;
        if (s->max_nodes - s->nodes < budget)
            budget = s->max_nodes - s->nodes;
        int outcome = search_slice(s, start, s->nodes + budget, attempt > 1);
        if (outcome == DONE_WON)
            return VERDICT_WON;
        if (outcome == DONE_LOST)
            return VERDICT_LOST;
        if (outcome == NO_MEMORY)
            return VERDICT_NO_MEMORY;
        if (outcome == INTERRUPTED)
            return VERDICT_INTERRUPTED;
        if (s->nodes >= s->max_nodes || now() > s->deadline)
            return VERDICT_UNRESOLVED;
    }
}

/* ---- Between Python and C. ---- */

static PyObject *S_f, *S_t, *S_p, *S_W, *S_d, *S_n, *S_r, *S_w;

static int read_int(PyObject *position, const char *name, int low, int high, int *out) {
    long number;
    if (!take_long(PyObject_GetAttrString(position, name), &number))
        return 0;
    if (number < low || number > high) {
        PyErr_Format(PyExc_ValueError, "a Canfield position's %s can't be %ld", name, number);
        return 0;
    }
    *out = (int)number;
    return 1;
}

static int read_bool(PyObject *position, const char *name, int *out) {
    PyObject *value = PyObject_GetAttrString(position, name);
    if (!value)
        return 0;
    int truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    if (truth < 0)
        return 0;
    *out = truth;
    return 1;
}

static int read_row(PyObject *position, const char *name, Row *row) {
    PyObject *value = PyObject_GetAttrString(position, name);
    if (!value)
        return 0;
    int ok = read_cards(value, "Canfield", name, row);
    Py_DECREF(value);
    return ok;
}

/* A search.Position read into ``p``; 0 with an exception set when it isn't one this core takes. */
static int read_position(PyObject *position, Pos *p) {
    Row stock, waste;
    memset(p, 0, sizeof *p);
    if (!read_int(position, "base", 0, RANKS - 1, &p->base) || !read_int(position, "draw", 1, NCARDS, &p->draw) ||
        !read_int(position, "passes", -1, 30000, &p->passes) ||
        !read_int(position, "blocked", -1, RANKS - 1, &p->blocked) || !read_bool(position, "partial", &p->partial) ||
        !read_bool(position, "any_space", &p->any_space) || !read_row(position, "reserve", &p->reserve) ||
        !read_row(position, "stock", &stock) || !read_row(position, "waste", &waste))
        return 0;
    PyObject *foundations = PyObject_GetAttrString(position, "foundations");
    if (!foundations)
        return 0;
    int ok = read_foundations(foundations, "Canfield", p->found);
    Py_DECREF(foundations);
    if (!ok)
        return 0;
    PyObject *piles = PyObject_GetAttrString(position, "piles");
    if (!piles)
        return 0;
    PyObject *rows = PySequence_Fast(piles, "a Canfield position's piles must be a tuple");
    Py_DECREF(piles);
    if (!rows)
        return 0;
    Py_ssize_t npiles = PySequence_Fast_GET_SIZE(rows);
    ok = npiles >= 1 && npiles <= MAXPILES;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "the compiled Canfield search takes 1 to %d piles", MAXPILES);
    for (Py_ssize_t i = 0; ok && i < npiles; i++)
        ok = read_cards(PySequence_Fast_GET_ITEM(rows, i), "Canfield", "pile", &p->piles[i]);
    Py_DECREF(rows);
    if (!ok)
        return 0;
    p->npiles = (int)npiles;
    p->runs = 1;
    for (int i = 0; i < p->npiles; i++)
        for (int k = 1; k < p->piles[i].n; k++)
            if (RANK(p->piles[i].c[k]) != (RANK(p->piles[i].c[k - 1]) + RANKS - 1) % RANKS)
                p->runs = 0;
    int total = p->reserve.n + stock.n + waste.n;
    for (int i = 0; i < p->npiles; i++)
        total += p->piles[i].n;
    if (total > NCARDS) {
        PyErr_SetString(PyExc_ValueError, "a Canfield position holds more than 52 cards");
        return 0;
    }
    memcpy(p->talon.c, waste.c, (size_t)waste.n); /* in the talon's order: the waste, then the stock top first */
    for (int k = 0; k < stock.n; k++)
        p->talon.c[waste.n + k] = stock.c[stock.n - 1 - k];
    p->talon.n = waste.n + stock.n;
    p->waste = waste.n;
    rekey(p);
    return 1;
}

static PyObject *source_object(int source) {
    if (source == SRC_R)
        return Py_NewRef(S_r);
    if (source == SRC_W)
        return Py_NewRef(S_w);
    return PyLong_FromLong(source);
}

/* A step as search.py writes it: ("f", source), ("t", source, pile), ("p", pile, pile, count),
 * ("W", turns, "f" or pile), ("d",), ("n",). */
static PyObject *step_object(const void *step) {
    const Step *s = step;
    switch (s->kind) {
    case K_F: {
        PyObject *source = source_object(s->a);
        return source ? Py_BuildValue("(ON)", S_f, source) : NULL;
    }
    case K_T: {
        PyObject *source = source_object(s->a);
        return source ? Py_BuildValue("(ONi)", S_t, source, (int)s->b) : NULL;
    }
    case K_P:
        return Py_BuildValue("(Oiii)", S_p, (int)s->a, (int)s->b, (int)s->c);
    case K_W:
        if (s->b == TO_F)
            return Py_BuildValue("(OiO)", S_W, (int)s->a, S_f);
        return Py_BuildValue("(Oii)", S_W, (int)s->a, (int)s->b);
    case K_D:
        return Py_BuildValue("(O)", S_d);
    default:
        return Py_BuildValue("(O)", S_n);
    }
}

static int read_source(PyObject *value, int *out) {
    if (PyUnicode_Check(value)) {
        if (PyUnicode_CompareWithASCIIString(value, "r") == 0) {
            *out = SRC_R;
            return 1;
        }
        if (PyUnicode_CompareWithASCIIString(value, "w") == 0) {
            *out = SRC_W;
            return 1;
        }
        return 0;
    }
    long number = PyLong_AsLong(value);
    if (number == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (number < 0 || number >= MAXPILES)
        return 0;
    *out = (int)number;
    return 1;
}

static int read_number(PyObject *value, int high, int *out) {
    long number = PyLong_AsLong(value);
    if (number == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (number < 0 || number > high)
        return 0;
    *out = (int)number;
    return 1;
}

static int read_step(PyObject *object, Step *s) {
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(object, 0)))
        goto bad;
    Py_ssize_t size = PyTuple_GET_SIZE(object);
    PyObject *kind = PyTuple_GET_ITEM(object, 0);
    int a = 0, b = 0, c = 0;
    memset(s, 0, sizeof *s);
    if (size == 1 && PyUnicode_CompareWithASCIIString(kind, "d") == 0) {
        s->kind = K_D;
    } else if (size == 1 && PyUnicode_CompareWithASCIIString(kind, "n") == 0) {
        s->kind = K_N;
    } else if (size == 2 && PyUnicode_CompareWithASCIIString(kind, "f") == 0) {
        if (!read_source(PyTuple_GET_ITEM(object, 1), &a))
            goto bad;
        s->kind = K_F;
    } else if (size == 3 && PyUnicode_CompareWithASCIIString(kind, "t") == 0) {
        if (!read_source(PyTuple_GET_ITEM(object, 1), &a) || !read_number(PyTuple_GET_ITEM(object, 2), MAXPILES - 1, &b))
            goto bad;
        s->kind = K_T;
    } else if (size == 4 && PyUnicode_CompareWithASCIIString(kind, "p") == 0) {
        if (!read_number(PyTuple_GET_ITEM(object, 1), MAXPILES - 1, &a) ||
            !read_number(PyTuple_GET_ITEM(object, 2), MAXPILES - 1, &b) ||
            !read_number(PyTuple_GET_ITEM(object, 3), NCARDS, &c))
            goto bad;
        s->kind = K_P;
    } else if (size == 3 && PyUnicode_CompareWithASCIIString(kind, "W") == 0) {
        PyObject *target = PyTuple_GET_ITEM(object, 2);
        if (!read_number(PyTuple_GET_ITEM(object, 1), 2 * NCARDS + 2, &a))
            goto bad;
        if (PyUnicode_Check(target)) {
            if (PyUnicode_CompareWithASCIIString(target, "f") != 0)
                goto bad;
            b = TO_F;
        } else if (!read_number(target, MAXPILES - 1, &b)) {
            goto bad;
        }
        s->kind = K_W;
    } else {
        goto bad;
    }
    s->a = (int8_t)a;
    s->b = (int8_t)b;
    s->c = (int8_t)c;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a step of the Canfield search");
    return 0;
}

/* The fields of search.Position, in its order, for ``p``. */
static PyObject *position_fields(const Pos *p) {
    Row stock = {.n = stock_count(p)}, waste = {.n = p->waste};
    memcpy(waste.c, p->talon.c, (size_t)p->waste);
    for (int k = 0; k < stock.n; k++)
        stock.c[k] = p->talon.c[p->talon.n - 1 - k];
    PyObject *piles = sequence_of(1, p->piles, p->npiles, sizeof(Row), row_bytes);
    if (!piles)
        return NULL;
    return Py_BuildValue("(iN(iiii)NNNiiOiO)", p->base, row_bytes(&p->reserve), p->found[0], p->found[1],
                         p->found[2], p->found[3], piles, row_bytes(&stock), row_bytes(&waste), p->draw,
                         p->passes, p->partial ? Py_True : Py_False, p->blocked, p->any_space ? Py_True : Py_False);
}

static PyObject *core_moves(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "safe", NULL};
    PyObject *position;
    int safe = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p:moves", names, &position, &safe))
        return NULL;
    Pos p;
    if (!read_position(position, &p))
        return NULL;
    Step found[MAXMOVES];
    int n = gen_moves(&p, safe, found);
    return sequence_of(0, found, n, sizeof(Step), step_object);
}

static PyObject *core_play(PyObject *self, PyObject *args) {
    PyObject *position, *object;
    if (!PyArg_ParseTuple(args, "OO:play", &position, &object))
        return NULL;
    Pos p;
    Step s;
    if (!read_position(position, &p) || !read_step(object, &s))
        return NULL;
    if (!playable(&p, &s)) {
        PyErr_SetString(PyExc_ValueError, "that step can't be played on this Canfield position");
        return NULL;
    }
    play_step(&p, &s);
    return position_fields(&p);
}

static PyObject *core_key(PyObject *self, PyObject *args) {
    PyObject *position, *object = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:key", &position, &object))
        return NULL;
    Pos p;
    Step step;
    if (!read_position(position, &p))
        return NULL;
    if (object == Py_None)
        return PyLong_FromUnsignedLongLong(pos_key(&p));
    if (!read_step(object, &step))
        return NULL;
    if (!playable(&p, &step)) {
        PyErr_SetString(PyExc_ValueError, "that step can't be played on this Canfield position");
        return NULL;
    }
    /* The key the search looks the step up by, which must be the one the played position keeps. */
    uint64_t ahead = key_after(&p, &step);
    play_step(&p, &step);
    if (ahead != pos_key(&p)) {
        PyErr_SetString(PyExc_AssertionError, "the key worked out from the step is not the played position's");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(ahead);
}

static PyObject *core_deadlocked(PyObject *self, PyObject *position) {
    Pos p;
    if (!read_position(position, &p))
        return NULL;
    return PyBool_FromLong(is_deadlocked(&p));
}

/* A search's answer, (verdict, line, nodes); NULL with an exception set when it ran out of memory or
 * a signal's handler raised. */
static PyObject *search_answer(const Search *s, int verdict) {
    if (!verdict_reached(verdict))
        return NULL;
    Py_ssize_t length = verdict == VERDICT_WON ? (Py_ssize_t)s->nframes : 0;
    PyObject *line = sequence_of(1, s->path, length, sizeof(Step), step_object);
    if (!line)
        return NULL;
    static const char *verdicts[] = {"lost", "winnable", "unresolved"};
    return Py_BuildValue("(sNL)", verdicts[verdict], line, s->nodes);
}

/* The sizes a search's sets start at: a hint's 2,000-position searches never double them. */
#define LOST_START (1 << 14)
#define LINE_START (1 << 10)

/* Readies the zeroed ``s`` to search with these switches; 0 with MemoryError set when memory ran out
 * (search_free gives back what was made). */
static int search_open(Search *s, int safe, int deadlocks) {
    s->safe = safe;
    s->deadlocks = deadlocks;
    if (keys_init(&s->lost, LOST_START) && keys_init(&s->line, LINE_START))
        return 1;
    PyErr_NoMemory();
    return 0;
}

/* Gives back what a search holds (its sets may be unmade: freeing NULL does nothing). */
static void search_free(Search *s) {
    keys_free(&s->lost);
    keys_free(&s->line);
    free(s->frames);
    free(s->path);
    free(s->steps);
    free(s->keys);
}

static PyObject *core_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "max_nodes", "max_seconds", "safe", "deadlocks", "seed", NULL};
    PyObject *position;
    long long max_nodes = 2000000;
    double max_seconds = 10.0;
    int safe = 1, deadlocks = 1;
    unsigned long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Ldppk:solve", names, &position, &max_nodes, &max_seconds,
                                     &safe, &deadlocks, &seed))
        return NULL;
    if (seed > 0xffffffffUL) {
        PyErr_SetString(PyExc_ValueError, "the seed must fit in 32 bits");
        return NULL;
    }
    Pos start;
    if (!read_position(position, &start))
        return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (!search_open(&s, safe, deadlocks)) {
        search_free(&s);
        return NULL;
    }
    s.max_nodes = max_nodes;
    s.seed = (uint32_t)seed;
    s.thread = PyEval_SaveThread();
    s.deadline = now() + max_seconds;
    int verdict = run_search(&s, &start);
    PyEval_RestoreThread(s.thread);
    PyObject *result = search_answer(&s, verdict);
    search_free(&s);
    return result;
}

/* Decides each of ``positions`` in turn, each with a budget of its own and all within one deadline,
 * sharing the set of positions proved lost: what one search proves lost, the next doesn't search again.
 * The hint weighs every move on one imagined deal this way, and the moves' searches overlap. */
static PyObject *core_solve_each(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"positions", "max_nodes", "max_seconds", "safe", "deadlocks", NULL};
    PyObject *positions;
    long long max_nodes = 2000000;
    double max_seconds = 10.0;
    int safe = 1, deadlocks = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Ldpp:solve_each", names, &positions, &max_nodes,
                                     &max_seconds, &safe, &deadlocks))
        return NULL;
    PyObject *items = PySequence_Fast(positions, "solve_each takes a sequence of positions");
    if (!items)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    PyObject *results = PyList_New(count);
    Pos *starts = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(Pos));
    Search s;
    memset(&s, 0, sizeof s);
    if (!results || !starts) {
        if (!starts)
            PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (!read_position(PySequence_Fast_GET_ITEM(items, i), &starts[i]))
            goto fail;
    if (!search_open(&s, safe, deadlocks))
        goto fail;
    double deadline = now() + max_seconds;
    for (Py_ssize_t i = 0; i < count; i++) {
        s.nodes = 0;
        s.max_nodes = max_nodes;
        s.deadline = deadline;
        s.seeded = 0; /* each start's restarts shuffle as a search of its own */
        s.thread = PyEval_SaveThread();
        int verdict = run_search(&s, &starts[i]);
        PyEval_RestoreThread(s.thread);
        PyObject *result = search_answer(&s, verdict);
        if (!result)
            goto fail;
        PyList_SET_ITEM(results, i, result);
    }
    goto done;
fail:
    Py_CLEAR(results);
done:
    search_free(&s);
    PyMem_Free(starts);
    Py_DECREF(items);
    return results;
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))core_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(position, max_nodes, max_seconds, safe, deadlocks, seed) -> (verdict, line, nodes)"},
    {"solve_each", (PyCFunction)(void (*)(void))core_solve_each, METH_VARARGS | METH_KEYWORDS,
     "solve_each(positions, max_nodes, max_seconds, safe, deadlocks) -> [(verdict, line, nodes)], one lost set"},
    {"moves", (PyCFunction)(void (*)(void))core_moves, METH_VARARGS | METH_KEYWORDS,
     "moves(position, safe=True) -> the search's moves, most promising first"},
    {"play", core_play, METH_VARARGS, "play(position, step) -> the fields of the position after step"},
    {"key", core_key, METH_VARARGS,
     "key(position, step=None) -> what makes two positions the same to the search (of the position after step)"},
    {"deadlocked", core_deadlocked, METH_O, "deadlocked(position) -> whether some card can never go up"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The Canfield search of gatebot.solver.canfield.search, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    keys_numbers();
    const char *texts[] = {"f", "t", "p", "W", "d", "n", "r", "w"};
    PyObject **slots[] = {&S_f, &S_t, &S_p, &S_W, &S_d, &S_n, &S_r, &S_w};
    for (int i = 0; i < 8; i++) {
        *slots[i] = PyUnicode_InternFromString(texts[i]);
        if (!*slots[i])
            return NULL;
    }
    return PyModule_Create(&module);
}
