/* Offline search for whist base rounds (league/pairing/_whist_rounds.py).

   Build and run (seconds to minutes each; keep it niced on a shared machine):
       cc -O2 -o /tmp/whist_search tools/whist_search.c -lm
       nice -n 19 /tmp/whist_search COUNT SEED [MULTIPLIER] [MOVES]
   It prints "COUNT a c b d a c b d ..." (tables a, c partnering against b, d; -1 is the
   fixed point infinity) once it finds a base round, and exits 1 if MOVES run out first. The
   result is then checked as a whole schedule by tests/pairing/test_whist.py.

   The base round is over Z_m: m = COUNT for 4n + 1 players (0 sits out), m = COUNT - 1 plus
   infinity for 4n players (1-rotational). Developing it by +1 gives a whist schedule exactly
   when the partner differences of the base round cover every nonzero residue once and the
   opponent differences every nonzero residue twice (differences with infinity excepted).

   With MULTIPLIER u (a unit of Z_m of order k > 1), the base round is made invariant under
   x -> u x: it is a table on the points fixed by u (with infinity; for 4n players these must
   be 0 and two more points f, -f) plus the images T, uT, ..., u^(k-1)T of a few searched
   tables T. This is the usual multiplier reduction in the literature on Z-cyclic designs; it
   divides the search by k.

   The search is simulated annealing on the squared distance of the difference counts from
   their targets, moving by swapping two players (or multiplying one by u), with the
   temperature swept from HOT down to COLD and up again every CYCLE moves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng_state;
static unsigned long long next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static double uniform(void) { return (next_random() >> 11) * (1.0 / 9007199254740992.0); }

enum { MAXP = 512 };
static int m, inf, order = 1, npoints, seats[MAXP], cls[MAXP], power[64];
static int partners[MAXP], opponents[MAXP];

/* Add (sign 1) or remove (sign -1) the differences of the searched table t and its images
   under the multiplier; returns the change in cost. */
static int table_change(const int *table, int sign) {
    static const int opposed[6] = {0, 0, 1, 1, 1, 1};
    static const int left[6] = {0, 2, 0, 0, 1, 1}, right[6] = {1, 3, 2, 3, 2, 3};
    int delta = 0;
    for (int j = 0; j < order; j++) {
        for (int i = 0; i < 6; i++) {
            int u = table[left[i]], v = table[right[i]];
            if (u == inf || v == inf) continue;
            int k = cls[(int)((long long)power[j] * (((u - v) % m + m) % m) % m)];
            int *count = opposed[i] ? &opponents[k] : &partners[k];
            int target = opposed[i] ? 2 : 1, old = *count, new = old + sign;
            delta += (new - target) * (new - target) - (old - target) * (old - target);
            *count = new;
        }
    }
    return delta;
}

static int change(int t, int sign) { return table_change(seats + 4 * t, sign); }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s COUNT SEED [MULTIPLIER] [MOVES]\n", argv[0]);
        return 2;
    }
    int count = atoi(argv[1]), multiplier = argc > 3 ? atoi(argv[3]) : 1;
    long long moves = argc > 4 ? atoll(argv[4]) : 4000000000LL;
    double hot = getenv("HOT") ? atof(getenv("HOT")) : 1.0;
    double cold = getenv("COLD") ? atof(getenv("COLD")) : 0.4;
    long long cycle = getenv("CYCLE") ? atoll(getenv("CYCLE")) : 20000000LL;
    rng_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)atoll(argv[2]) * 2654435761ULL;
    for (int i = 0; i < 20; i++) next_random();
    if (count < 4 || count % 4 > 1 || count >= MAXP) return 2;
    m = count % 4 ? count : count - 1;
    inf = m;
    for (int d = 0; d < m; d++) cls[d] = d < m - d ? d : m - d;
    power[0] = 1;
    while ((long long)power[order - 1] * multiplier % m != 1) {
        power[order] = (int)((long long)power[order - 1] * multiplier % m);
        if (++order >= 64) return 2;
    }

    /* The table on the fixed points, and one point of every other orbit. */
    int fixed[4], nfixed = 0, seen[MAXP] = {0};
    if (count % 4 == 0) fixed[nfixed++] = inf;
    for (int x = count % 4 ? 1 : 0; x < m; x++) {
        if (seen[x]) continue;
        int size = 0;
        for (int j = 0; j < order; j++) {
            int y = (int)((long long)power[j] * x % m);
            size += !seen[y];
            seen[y] = 1;
        }
        if (size == 1 && nfixed < 4) {
            fixed[nfixed++] = x;
        } else if (size == order) {
            seats[npoints++] = x;
        } else {
            fprintf(stderr, "multiplier %d has an orbit of size %d\n", multiplier, size);
            return 2;
        }
    }
    if (order > 1 && nfixed != 0 && nfixed != 4) {
        fprintf(stderr, "multiplier %d fixes %d points\n", multiplier, nfixed);
        return 2;
    }
    if (order == 1) nfixed = 0;
    if (npoints % 4) return 2;
    int saved_order = order;
    order = 1;
    if (nfixed) table_change(fixed, 1);
    order = saved_order;
    for (int i = npoints - 1; i > 0; i--) {
        int j = next_random() % (i + 1), s = seats[i];
        seats[i] = seats[j];
        seats[j] = s;
    }
    int tables = npoints / 4, cost = 0, best;
    for (int t = 0; t < tables; t++) change(t, 1);
    for (int k = 1; k <= m / 2; k++)
        cost += (partners[k] - 1) * (partners[k] - 1) + (opponents[k] - 2) * (opponents[k] - 2);
    best = cost;
    for (long long move = 0; move < moves && cost > 0; move++) {
        double temperature = hot * pow(cold / hot, (double)(move % cycle) / cycle);
        int i = next_random() % npoints, j = next_random() % npoints, ti = i / 4, tj = j / 4;
        int s = seats[i], times = order > 1 && next_random() % 4 == 0 && s != inf;
        if (!times && ti == tj && (i % 4) / 2 == (j % 4) / 2) continue; /* nothing changes */
        int delta = change(ti, -1) + (!times && ti != tj ? change(tj, -1) : 0);
        if (times) {
            seats[i] = (int)((long long)power[1 + next_random() % (order - 1)] * s % m);
        } else {
            seats[i] = seats[j];
            seats[j] = s;
        }
        delta += change(ti, 1) + (!times && ti != tj ? change(tj, 1) : 0);
        if (delta <= 0 || uniform() < exp(-delta / temperature)) {
            cost += delta;
            if (cost < best) best = cost;
            continue;
        }
        change(ti, -1);
        if (!times && ti != tj) change(tj, -1);
        if (!times) seats[j] = seats[i];
        seats[i] = s;
        change(ti, 1);
        if (!times && ti != tj) change(tj, 1);
    }
    if (cost) {
        fprintf(stderr, "%d: nothing found (best cost %d)\n", count, best);
        return 1;
    }
    printf("%d", count);
    if (nfixed) printf(" %d %d %d %d", fixed[0] == inf ? -1 : fixed[0], fixed[1], fixed[2], fixed[3]);
    for (int t = 0; t < tables; t++)
        for (int j = 0; j < order; j++)
            for (int s = 0; s < 4; s++) {
                int x = seats[4 * t + s];
                printf(" %d", x == inf ? -1 : (int)((long long)power[j] * x % m));
            }
    printf("\n");
    return 0;
}
