/* Offline search for whist base rounds (league/pairing/_whist_rounds.py), in two steps:
   partnerships first, then tables.

   Build and run (keep it niced on a shared machine):
       cc -O2 -o /tmp/whist_starter_search tools/whist_starter_search.c -lm
       [NEAR=k] nice -n 19 /tmp/whist_starter_search COUNT SEED [NODES_PER_STARTER] [STARTERS]
   It prints "COUNT a c b d a c b d ..." (tables a, c partnering against b, d; -1 is the
   fixed point infinity) once it finds a base round, and exits 1 if STARTERS run out first.
   The result is then checked as a whole schedule by tests/pairing/test_whist.py.

   The base round is over Z_m: m = COUNT for 4n + 1 players (0 sits out), m = COUNT - 1 plus
   infinity for 4n players (1-rotational, infinity partnering 0, which a translation always
   arranges). Its partnerships have every nonzero difference +-d exactly once, so they form a
   *starter* of Z_m: pairs splitting the nonzero residues whose differences are each +-d
   once. So:

   1. take a starter: at random, by backtracking over a random order of partners; or, with
      NEAR=k (4n players), from simulated annealing on the whole base round (as in
      tools/whist_search.c), each time its partnerships form a starter and its opponent
      counts are off by at most k in all (sum of squares), since a starter that nearly
      seats is likelier to seat exactly;
   2. seat its partnerships two by two at tables so that the opponent differences cover
      every class +-d exactly twice: an exact cover with multiplicities (30 partnerships each
      used once, 29 classes each twice for 60 players), solved by depth-first search that
      branches on the partnership or class with the fewest tables left (a class needing two
      takes the first of its tables that is used, leaving out those before it), within
      NODES_PER_STARTER nodes; then the next starter.

   Whole trees grow about fivefold per 4 players (0.15 million nodes for 40, 0.8 million for
   44), and only some starters seat at all; CP-SAT on the same seating problem could not
   settle a 44-player starter in a minute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xorshift.h"

enum { MAXM = 256, MAXP = MAXM / 2 + 1 };


static int m, inf, count_players, np, nclasses;
static int first_of[MAXP], second_of[MAXP]; /* partnerships */
static int cls[MAXM];
/* opponent classes of partnerships i and j seated together (2 or 4 of them) */
static unsigned char opp[MAXP][MAXP][4], nopp[MAXP][MAXP];
static unsigned char excluded[MAXP][MAXP];
static int matched[MAXP], mate[MAXP], have[MAXM];
static long long nodes, node_limit;

static int class_of(int u, int v) { return cls[((u - v) % m + m) % m]; }

/* A random starter: partner[x] for the nonzero residues (all but `alone`). */
static int partner[MAXM + 1], used_class[MAXM];
static long long starter_steps;
static int build_starter(int alone) {
    int x = 1;
    while (x < m && (x == alone || partner[x] >= 0)) x++;
    if (x >= m) return 1;
    if (++starter_steps > 200000) return 0;
    int candidates[MAXM], n = 0;
    for (int y = x + 1; y < m; y++)
        if (y != alone && partner[y] < 0 && !used_class[class_of(x, y)]) candidates[n++] = y;
    for (int i = n - 1; i > 0; i--) {
        int j = next_random() % (i + 1), t = candidates[i];
        candidates[i] = candidates[j];
        candidates[j] = t;
    }
    for (int i = 0; i < n; i++) {
        int y = candidates[i], c = class_of(x, y);
        partner[x] = y, partner[y] = x, used_class[c] = 1;
        if (build_starter(alone)) return 1;
        partner[x] = partner[y] = -1, used_class[c] = 0;
    }
    return 0;
}

static int fits(int i, int j) {
    if (excluded[i][j]) return 0;
    int add[MAXM];
    for (int k = 0; k < nopp[i][j]; k++) add[opp[i][j][k]] = 0;
    for (int k = 0; k < nopp[i][j]; k++)
        if (have[opp[i][j][k]] + ++add[opp[i][j][k]] > 2) return 0;
    return 1;
}

static void seat(int i, int j, int sign) {
    matched[i] = matched[j] = sign > 0;
    mate[i] = j, mate[j] = i;
    for (int k = 0; k < nopp[i][j]; k++) have[opp[i][j][k]] += sign;
}

/* Depth-first search over the tables still possible (opts: i * MAXP + j, i < j). */
static int open_partnerships;
static int search_from(const int *opts, int nopts) {
    if (++nodes > node_limit) return 0;
    if (!open_partnerships) return 1;
    int options_of[MAXP] = {0}, class_options[MAXM] = {0}, class_room[MAXM] = {0};
    for (int o = 0; o < nopts; o++) {
        int i = opts[o] / MAXP, j = opts[o] % MAXP, seen[4], ns = 0;
        options_of[i]++, options_of[j]++;
        for (int k = 0; k < nopp[i][j]; k++) {
            int c = opp[i][j][k], dup = 0;
            class_room[c]++;
            for (int s = 0; s < ns; s++) dup |= seen[s] == c;
            if (!dup) seen[ns++] = c, class_options[c]++;
        }
    }
    /* Branch on the partnership, or the class, with the fewest choices: a partnership or a
       class needing one more table picks one of its tables; a class needing two picks the
       first of its tables (in the order tried) that is used, leaving out those before it. */
    int best = -1, best_choices = 1 << 30, best_is_class = 0;
    for (int i = 0; i < np; i++)
        if (!matched[i] && options_of[i] < best_choices) best = i, best_choices = options_of[i];
    for (int c = 1; c < nclasses; c++) {
        int need = 2 - have[c];
        if (need > class_room[c]) return 0;
        int choices = class_options[c] - (need == 2 && class_room[c] == 2 * class_options[c]);
        if (need && choices < best_choices) best = c, best_choices = choices, best_is_class = 1;
    }
    if (best_choices <= 0) return 0;
    /* the tables to try, those covering the classes with the least room first */
    int branch[MAXP * MAXP / 2], n = 0;
    double score[MAXP * MAXP / 2];
    for (int o = 0; o < nopts; o++) {
        int i = opts[o] / MAXP, j = opts[o] % MAXP, holds = 0;
        double sc = 0;
        for (int k = 0; k < nopp[i][j]; k++) {
            int c = opp[i][j][k];
            holds |= c == best;
            sc += 1.0 / (1 + class_room[c] - (2 - have[c]));
        }
        if (best_is_class ? !holds : i != best && j != best) continue;
        int t = n++;
        while (t > 0 && score[t - 1] < sc) branch[t] = branch[t - 1], score[t] = score[t - 1], t--;
        branch[t] = opts[o], score[t] = sc;
    }
    int found = 0, child[MAXP * MAXP / 2];
    for (int t = 0; t < n && !found; t++) {
        int i = branch[t] / MAXP, j = branch[t] % MAXP, nchild = 0;
        seat(i, j, 1);
        open_partnerships -= 2;
        for (int o = 0; o < nopts; o++) {
            int a = opts[o] / MAXP, b = opts[o] % MAXP;
            if (!matched[a] && !matched[b] && fits(a, b)) child[nchild++] = opts[o];
        }
        found = search_from(child, nchild);
        if (!found) seat(i, j, -1), open_partnerships += 2;
        excluded[i][j] = 1;
    }
    for (int t = 0; t < n; t++) excluded[branch[t] / MAXP][branch[t] % MAXP] = 0;
    return found;
}

static int search(void) {
    int opts[MAXP * MAXP / 2], nopts = 0;
    open_partnerships = 0;
    for (int i = 0; i < np; i++) {
        if (matched[i]) continue;
        open_partnerships++;
        for (int j = i + 1; j < np; j++)
            if (!matched[j] && fits(i, j)) opts[nopts++] = i * MAXP + j;
    }
    return search_from(opts, nopts);
}


/* Starters from annealing on the whole base round (partner and opponent counts, moving by
   swapping two players, as tools/whist_search.c): each time the partnerships form a starter
   and the opponent counts are off by at most `near` in all, that starter is handed to the
   exact seating search. Starters that nearly seat are the likeliest to seat exactly. */
static int slot[MAXM + 4], pcount[MAXM], ocount[MAXM], pcost, ocost;
static int whole_change(int t, int sign) {
    static const int opposed[6] = {0, 0, 1, 1, 1, 1};
    static const int left[6] = {0, 2, 0, 0, 1, 1}, right[6] = {1, 3, 2, 3, 2, 3};
    int delta = 0;
    for (int i = 0; i < 6; i++) {
        int u = slot[4 * t + left[i]], v = slot[4 * t + right[i]];
        if (u == inf || v == inf) continue;
        int k = class_of(u, v), *count = opposed[i] ? &ocount[k] : &pcount[k];
        int target = opposed[i] ? 2 : 1, old = *count, new = old + sign;
        int d = (new - target) * (new - target) - (old - target) * (old - target);
        if (opposed[i]) ocost += d;
        else pcost += d;
        delta += d;
        *count = new;
    }
    return delta;
}

static int annealed_starter(int near) {
    static int started;
    int nt = (m + 1) / 4;
    if (!started) {
        started = 1;
        for (int i = 0; i <= m; i++) slot[i] = i;
        for (int i = m; i > 0; i--) {
            int j = next_random() % (i + 1), t = slot[i];
            slot[i] = slot[j], slot[j] = t;
        }
        pcost = m / 2, ocost = 4 * (m / 2); /* every count still 0 */
        for (int t = 0; t < nt; t++) whole_change(t, 1);
    }
    double hot = 1.0, cold = 0.4;
    long long cycle = 20000000;
    for (long long move = 0;; move++) {
        double temperature = hot * pow(cold / hot, (double)(move % cycle) / cycle);
        int i = next_random() % (m + 1), j = next_random() % (m + 1);
        int ti = i / 4, tj = j / 4;
        if (ti == tj && i / 2 == j / 2) continue;
        int delta = whole_change(ti, -1) + (ti != tj ? whole_change(tj, -1) : 0), x = slot[i];
        slot[i] = slot[j], slot[j] = x;
        delta += whole_change(ti, 1) + (ti != tj ? whole_change(tj, 1) : 0);
        if (!(delta <= 0 || uniform() < exp(-delta / temperature))) {
            whole_change(ti, -1);
            if (ti != tj) whole_change(tj, -1);
            slot[j] = slot[i], slot[i] = x;
            whole_change(ti, 1);
            if (ti != tj) whole_change(tj, 1);
            continue;
        }
        if (delta >= 0 || pcost || ocost > near) continue;
        /* a starter: translate it so that infinity partners 0 */
        int at = 0;
        while (slot[at] != inf) at++;
        int z = slot[at ^ 1];
        for (int x = 0; x <= m; x++) partner[x] = -1;
        for (int k = 0; k <= m; k += 2)
            if (slot[k] != inf && slot[k + 1] != inf) {
                int u = ((slot[k] - z) % m + m) % m, v = ((slot[k + 1] - z) % m + m) % m;
                partner[u] = v, partner[v] = u;
            }
        return 1;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s COUNT SEED [NODES_PER_STARTER] [STARTERS]\n", argv[0]);
        return 2;
    }
    count_players = atoi(argv[1]);
    node_limit = argc > 3 ? atoll(argv[3]) : 2000000;
    long long starters = argc > 4 ? atoll(argv[4]) : 1000000;
    int near = getenv("NEAR") ? atoi(getenv("NEAR")) : -1;
    rng_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)atoll(argv[2]) * 2654435761ULL;
    for (int i = 0; i < 20; i++) next_random();
    if (count_players < 8 || count_players % 4 > 1 || count_players > MAXM) return 2;
    m = count_players % 4 ? count_players : count_players - 1;
    inf = m;
    nclasses = m / 2 + 1; /* classes 1 .. m/2 */
    for (int d = 0; d < m; d++) cls[d] = d < m - d ? d : m - d;
    for (long long s = 0; s < starters; s++) {
        for (int x = 0; x <= m; x++) partner[x] = -1;
        memset(used_class, 0, sizeof used_class);
        starter_steps = 0;
        int alone = count_players % 4 ? 0 : -1; /* 0 sits out, or partners infinity */
        if (alone < 0) alone = 0;
        if (near >= 0 ? !annealed_starter(near) : !build_starter(alone)) continue;
        np = 0;
        if (count_players % 4 == 0) first_of[np] = inf, second_of[np++] = 0;
        for (int x = 1; x < m; x++)
            if (partner[x] > x) first_of[np] = x, second_of[np++] = partner[x];
        for (int i = 0; i < np; i++)
            for (int j = 0; j < np; j++) {
                int n = 0, pi[2] = {first_of[i], second_of[i]}, pj[2] = {first_of[j], second_of[j]};
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        if (pi[a] != inf && pj[b] != inf) opp[i][j][n++] = class_of(pi[a], pj[b]);
                nopp[i][j] = n;
            }
        memset(matched, 0, sizeof matched);
        memset(have, 0, sizeof have);
        nodes = 0;
        if (search()) {
            fprintf(stderr, "starter %lld, %lld nodes\n", s, nodes);
            printf("%d", count_players);
            for (int i = 0; i < np; i++)
                if (mate[i] > i)
                    printf(" %d %d %d %d", first_of[i] == inf ? -1 : first_of[i], second_of[i],
                           first_of[mate[i]], second_of[mate[i]]);
            printf("\n");
            return 0;
        }
        fprintf(stderr, "starter %lld: %lld nodes, nothing\n", s, nodes);
    }
    return 1;
}
