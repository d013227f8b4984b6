/*
 * Tabu search for the stored base tables of tournament/domain/seating/stored_layers.py.
 *
 * A developer's tool, not part of the app; find_layer_tables.py beside it compiles and runs it
 * and checks what it prints.  Plain C99, no library:
 *
 *     cc -O2 -std=c99 -o layer_tables tools/seating_designs/layer_tables.c
 *     ./layer_tables M POINTS SEED [STEPS]
 *
 * POINTS is 1 (3m + 1 players: the values 1 .. m - 1 at (m - 1) / 4 tables) or 3 (3m + 3
 * players: the values 0 .. m - 1, three of them at the fixed points' table in layers 0, 1, 2,
 * the rest at (m - 3) / 4 tables).  Every slot holds a value and a layer.  Two slots at one
 * table form a pair whose class is (layer difference, value difference) as in the module; the
 * tables are right when every class that may meet is held exactly once.  The cost counts pairs
 * beyond a class's room (one, or none for the pairs that never meet).
 *
 * Moves: exchange the values of two slots at different tables, or give a slot another layer
 * (not the fixed table's).  Each step takes the best move over every slot in a class held
 * twice, ties broken at random; a move stays forbidden for a few steps unless it beats the best
 * cost so far.  The search starts afresh every 200 m steps.  On success it prints the tables as
 * "layer.value ..." separated by "|" and returns 0; after STEPS steps it gives up with 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MOST_SLOTS 512

static unsigned long long state;
static unsigned next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state >> 11);
}

static int m, slots, fixed_layers;
static int value[MOST_SLOTS], layer[MOST_SLOTS], table_of[MOST_SLOTS];
static int mates[MOST_SLOTS][3]; /* -1 where the fixed table has only two mates */
static int count[2 * MOST_SLOTS], room[2 * MOST_SLOTS];
static long forbidden[MOST_SLOTS][MOST_SLOTS + 3]; /* step until which a move is tabu */

/* 0 .. (m - 1) / 2: one layer, values +-d apart; m + d: value d higher one layer up. */
static int pair_class(int layer_s, int value_s, int layer_t, int value_t) {
    int step = ((layer_t - layer_s) % 3 + 3) % 3, d = ((value_t - value_s) % m + m) % m;
    if (step == 0) return d < m - d ? d : m - d;
    if (step == 1) return m + d;
    return m + (m - d) % m;
}

static int excess(int c) { return count[c] > room[c] ? count[c] - room[c] : 0; }

/* The change in cost when the classes `removed` lose a pair and `added` gain one. */
static int delta(const int *removed, int n_removed, const int *added, int n_added) {
    int seen[12], n_seen = 0, before = 0, after = 0;
    for (int i = 0; i < n_removed + n_added; i++) {
        int c = i < n_removed ? removed[i] : added[i - n_removed], known = 0;
        for (int j = 0; j < n_seen; j++) known |= seen[j] == c;
        if (!known) seen[n_seen++] = c;
    }
    for (int j = 0; j < n_seen; j++) before += excess(seen[j]);
    for (int i = 0; i < n_removed; i++) count[removed[i]]--;
    for (int i = 0; i < n_added; i++) count[added[i]]++;
    for (int j = 0; j < n_seen; j++) after += excess(seen[j]);
    for (int i = 0; i < n_removed; i++) count[removed[i]]++;
    for (int i = 0; i < n_added; i++) count[added[i]]--;
    return after - before;
}

/* The classes of slot s's pairs if it held (layer l, value v). */
static int classes_of(int s, int l, int v, int *out) {
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int u = mates[s][k];
        if (u >= 0) out[n++] = pair_class(l, v, layer[u], value[u]);
    }
    return n;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s M POINTS SEED [STEPS]\n", argv[0]);
        return 2;
    }
    m = atoi(argv[1]);
    int points = atoi(argv[2]);
    state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(atoll(argv[3]) + 1);
    long most_steps = argc > 4 ? atol(argv[4]) : 1000000000L;
    if (!((points == 1 && m % 4 == 1) || (points == 3 && m % 4 == 3)) || m < 5 ||
        m >= MOST_SLOTS) {
        fprintf(stderr, "need POINTS 1 with m = 1 (mod 4) or 3 with m = 3 (mod 4), m < %d\n",
                MOST_SLOTS);
        return 2;
    }
    slots = points == 3 ? m : m - 1;
    fixed_layers = points == 3 ? 3 : 0;
    for (int c = 0; c < 2 * m; c++) room[c] = 1;
    room[0] = 0; /* a point with itself */
    room[m] = 0; /* (i, x) with (i + 1, x): the fixed points' table, or never (POINTS 3) */
    int first = 0;
    if (points == 3) {
        for (int s = 0; s < 3; s++) {
            table_of[s] = 0;
            mates[s][0] = (s + 1) % 3;
            mates[s][1] = (s + 2) % 3;
            mates[s][2] = -1;
        }
        first = 3;
    }
    for (int f = first; f < slots; f += 4)
        for (int s = f; s < f + 4; s++) {
            int k = 0;
            table_of[s] = f;
            for (int t = f; t < f + 4; t++)
                if (t != s) mates[s][k++] = t;
        }
    long restart = 200L * m, step = 0;
    clock_t started = clock();
    for (;;) {
        for (int s = 0; s < slots; s++) value[s] = points == 3 ? s : s + 1;
        for (int s = slots - 1; s > 0; s--) {
            int j = (int)(next_random() % (unsigned)(s + 1)), v = value[s];
            value[s] = value[j];
            value[j] = v;
        }
        for (int s = 0; s < slots; s++) layer[s] = s < fixed_layers ? s : (int)(next_random() % 3);
        memset(count, 0, sizeof count);
        for (int s = 0; s < slots; s++)
            for (int k = 0; k < 3; k++) {
                int t = mates[s][k];
                if (t > s) count[pair_class(layer[s], value[s], layer[t], value[t])]++;
            }
        int cost = 0;
        for (int c = 0; c < 2 * m; c++) cost += excess(c);
        int best = cost;
        memset(forbidden, 0, sizeof forbidden);
        for (long r = 0; r < restart; r++, step++) {
            if (cost == 0) goto found;
            if (step >= most_steps) {
                fprintf(stderr, "m=%d points=%d: none after %ld steps, %.1f s\n", m, points, step,
                        (double)(clock() - started) / CLOCKS_PER_SEC);
                return 1;
            }
            int best_delta = 1 << 30, move_s = -1, move_t = 0, ties = 0;
            for (int s = 0; s < slots; s++) {
                int mine[3], n_mine = classes_of(s, layer[s], value[s], mine), bad = 0;
                for (int i = 0; i < n_mine; i++) bad |= count[mine[i]] > room[mine[i]];
                if (!bad) continue;
                for (int t = 0; t < slots; t++) {
                    if (table_of[t] == table_of[s]) continue;
                    int removed[6], added[6], n_removed = 0, n_added = 0;
                    n_removed += classes_of(s, layer[s], value[s], removed);
                    n_removed += classes_of(t, layer[t], value[t], removed + n_removed);
                    n_added += classes_of(s, layer[s], value[t], added);
                    n_added += classes_of(t, layer[t], value[s], added + n_added);
                    int d = delta(removed, n_removed, added, n_added);
                    if (forbidden[s][t] > step && cost + d >= best) continue;
                    if (d < best_delta) {
                        best_delta = d, move_s = s, move_t = t, ties = 1;
                    } else if (d == best_delta && next_random() % (unsigned)++ties == 0) {
                        move_s = s, move_t = t;
                    }
                }
                if (s < fixed_layers) continue;
                for (int l = 0; l < 3; l++) {
                    if (l == layer[s]) continue;
                    int added[3];
                    int d = delta(mine, n_mine, added, classes_of(s, l, value[s], added));
                    if (forbidden[s][slots + l] > step && cost + d >= best) continue;
                    if (d < best_delta) {
                        best_delta = d, move_s = s, move_t = -1 - l, ties = 1;
                    } else if (d == best_delta && next_random() % (unsigned)++ties == 0) {
                        move_s = s, move_t = -1 - l;
                    }
                }
            }
            if (move_s < 0) continue;
            int s = move_s, t = move_t, classes[3], n;
            long until = step + 3 + next_random() % 8;
            n = classes_of(s, layer[s], value[s], classes);
            for (int i = 0; i < n; i++) count[classes[i]]--;
            if (t >= 0) {
                n = classes_of(t, layer[t], value[t], classes);
                for (int i = 0; i < n; i++) count[classes[i]]--;
                int v = value[s];
                value[s] = value[t];
                value[t] = v;
                n = classes_of(t, layer[t], value[t], classes);
                for (int i = 0; i < n; i++) count[classes[i]]++;
                forbidden[s][t] = forbidden[t][s] = until;
            } else {
                forbidden[s][slots + layer[s]] = until;
                layer[s] = -1 - t;
            }
            n = classes_of(s, layer[s], value[s], classes);
            for (int i = 0; i < n; i++) count[classes[i]]++;
            cost += best_delta;
            if (cost < best) best = cost;
        }
    }
found:
    fprintf(stderr, "m=%d points=%d: found after %ld steps, %.1f s\n", m, points, step,
            (double)(clock() - started) / CLOCKS_PER_SEC);
    for (int s = 0; s < slots; s++) {
        if (s > 0 && table_of[s] != table_of[s - 1]) printf("| ");
        printf("%d.%d%s", layer[s], value[s], s + 1 < slots ? " " : "\n");
    }
    return 0;
}
