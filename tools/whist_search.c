/* Offline search for whist base rounds (league/pairing/_whist_rounds.py).

   Build and run (seconds to minutes each; keep it niced on a shared machine):
       cc -O2 -o /tmp/whist_search tools/whist_search.c -lm
       [FIXED=a,c,b,d,...] [HALF=f,g] [SELF=i] [CROSS=j] \
           nice -n 19 /tmp/whist_search COUNT SEED [MULTIPLIER] [MOVES]
   It prints "COUNT a c b d a c b d ..." (tables a, c partnering against b, d; -1 is the
   fixed point infinity) once it finds a base round, and exits 1 if MOVES run out first. The
   result is then checked as a whole schedule by tests/pairing/test_whist.py.

   The base round is over Z_m: m = COUNT for 4n + 1 players (0 sits out), m = COUNT - 1 plus
   infinity for 4n players (1-rotational). Developing it by +1 gives a whist schedule exactly
   when the partner differences of the base round cover every nonzero residue once and the
   opponent differences every nonzero residue twice (differences with infinity excepted).

   With MULTIPLIER u (a unit of Z_m of order k > 1), the base round is made invariant under
   x -> u x, the usual multiplier reduction for cyclic designs, which divides the search by
   about k. The points u fixes (with infinity) sit at given tables: FIXED lists whole tables,
   HALF=f,g the table (f, g) v (a, ua) with a searched; by default, when u fixes 0 and two
   more points f, -f, the table (inf, 0) v (f, -f). Every other table T comes with its images
   T, uT, ..., u^(k-1)T, except that for an involution (k = 2) SELF=i tables are
   (a, ua) v (b, ub) and CROSS=j tables are (a, b) v (ua, ub), each its own image.

   The search is simulated annealing on the squared distance of the difference counts from
   their targets, moving by swapping two players (or multiplying one by u; with PAIRS=k, one
   move in k swaps two whole partnerships), with the temperature swept from HOT down to COLD
   and up again every CYCLE moves.

   60 players (Z_59 and infinity) is out of its reach: 59 is prime and 58 = 2 * 29, so the only
   multiplier that could fix a base round is -1, which forces the patterned form that cannot
   work (league/pairing/whist.py), and plain annealing runs stalled at cost 4. The base round
   for 60 came from tools/whist_starter_search.c instead. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xorshift.h"


enum { MAXP = 512, ORBIT = 0, SELF = 1, CROSS = 2, HALF = 3 };
static int m, inf, order = 1, power[64], cls[MAXP], partners[MAXP], opponents[MAXP];
static int nslots, slots[MAXP], item_of[MAXP], nitems, kind[MAXP], first[MAXP], half[2];

static int times(int j, int x) { return x == inf ? inf : (int)((long long)power[j] * x % m); }

/* Add (sign 1) or remove (sign -1) the differences of one table; the change in cost. */
static int table_change(const int *table, int sign) {
    static const int opposed[6] = {0, 0, 1, 1, 1, 1};
    static const int left[6] = {0, 2, 0, 0, 1, 1}, right[6] = {1, 3, 2, 3, 2, 3};
    int delta = 0;
    for (int i = 0; i < 6; i++) {
        int u = table[left[i]], v = table[right[i]];
        if (u == inf || v == inf) continue;
        int k = cls[((u - v) % m + m) % m];
        int *count = opposed[i] ? &opponents[k] : &partners[k];
        int target = opposed[i] ? 2 : 1, old = *count, new = old + sign;
        delta += (new - target) * (new - target) - (old - target) * (old - target);
        *count = new;
    }
    return delta;
}

/* The tables of item t (written to out, 4 numbers each); returns how many. */
static int tables_of(int t, int *out) {
    const int *s = slots + first[t];
    switch (kind[t]) {
    case SELF:
        out[0] = s[0], out[1] = times(1, s[0]), out[2] = s[1], out[3] = times(1, s[1]);
        return 1;
    case CROSS:
        out[0] = s[0], out[1] = s[1], out[2] = times(1, s[0]), out[3] = times(1, s[1]);
        return 1;
    case HALF:
        out[0] = half[0], out[1] = half[1], out[2] = s[0], out[3] = times(1, s[0]);
        return 1;
    default:
        for (int j = 0; j < order; j++)
            for (int i = 0; i < 4; i++) out[4 * j + i] = times(j, s[i]);
        return order;
    }
}

static int change(int t, int sign) {
    int tables[256], n = tables_of(t, tables), delta = 0;
    for (int i = 0; i < n; i++) delta += table_change(tables + 4 * i, sign);
    return delta;
}

static int parse(const char *text, int *out) {
    int n = 0;
    for (const char *p = text; p && *p;) {
        out[n++] = atoi(p);
        p = strchr(p, ',');
        if (p) p++;
    }
    return n;
}

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
    int selfs = getenv("SELF") ? atoi(getenv("SELF")) : 0;
    int crosses = getenv("CROSS") ? atoi(getenv("CROSS")) : 0;
    int pairs = getenv("PAIRS") ? atoi(getenv("PAIRS")) : 0;
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
    if ((selfs || crosses || getenv("HALF")) && order != 2) return 2;

    /* Fixed tables, and one point of every orbit of size `order` for the searched slots. */
    int fixed[MAXP], nfixed = parse(getenv("FIXED"), fixed), nhalf = parse(getenv("HALF"), half);
    int placed[MAXP + 1] = {0}, free_points[MAXP], nfree = 0, fixed_points = 0;
    for (int i = 0; i < nfixed; i++) placed[fixed[i] < 0 ? inf : fixed[i]] = 1;
    for (int i = 0; i < nhalf; i++) placed[half[i]] = 1;
    if (count % 4) placed[0] = 1; /* sits out */
    for (int x = 0; x < m; x++) {
        if (placed[x]) continue;
        int size = 0;
        for (int j = 0; j < order; j++) size += !placed[times(j, x)], placed[times(j, x)] = 1;
        if (size == order) free_points[nfree++] = x;
        else if (size == 1) fixed[nfixed++] = x, fixed_points++;
        else return fprintf(stderr, "an orbit of size %d\n", size), 2;
    }
    if (count % 4 == 0 && !placed[inf]) { /* infinity, fixed by any multiplier */
        if (order == 1) free_points[nfree++] = inf;
        else fixed[nfixed++] = inf, fixed_points++;
    }
    if (fixed_points) { /* the default fixed table */
        if (!(order > 1 && count % 4 == 0 && fixed_points == 4 && nfixed == 4)) {
            fprintf(stderr, "%d fixed points not seated (FIXED, HALF)\n", fixed_points);
            return 2;
        }
        int f = 2; /* (inf, 0) v (f, -f), in increasing order of f */
        fixed[0] = inf, fixed[1] = 0;
        for (int x = 1; x < m; x++)
            if (times(1, x) == x) fixed[f++] = x;
    }
    for (int i = 0; i < nfixed; i++) fixed[i] = fixed[i] < 0 ? inf : fixed[i];
    for (int i = 0; i < nfixed; i += 4) table_change(fixed + i, 1);
    if (nhalf) kind[nitems] = HALF, first[nitems++] = nslots, nslots += 1;
    for (int i = 0; i < selfs; i++) kind[nitems] = SELF, first[nitems++] = nslots, nslots += 2;
    for (int i = 0; i < crosses; i++) kind[nitems] = CROSS, first[nitems++] = nslots, nslots += 2;
    while (nslots < nfree) kind[nitems] = ORBIT, first[nitems++] = nslots, nslots += 4;
    if (nslots != nfree) return fprintf(stderr, "%d slots for %d orbits\n", nslots, nfree), 2;
    for (int t = 0; t < nitems; t++)
        for (int s = first[t]; s < (t + 1 < nitems ? first[t + 1] : nslots); s++) item_of[s] = t;
    for (int i = nfree - 1; i > 0; i--) {
        int j = next_random() % (i + 1), s = free_points[i];
        free_points[i] = free_points[j];
        free_points[j] = s;
    }
    memcpy(slots, free_points, sizeof(int) * nfree);

    int cost = 0, best;
    for (int t = 0; t < nitems; t++) change(t, 1);
    for (int k = 1; k <= m / 2; k++)
        cost += (partners[k] - 1) * (partners[k] - 1) + (opponents[k] - 2) * (opponents[k] - 2);
    best = cost;
    for (long long move = 0; move < moves && cost > 0; move++) {
        double temperature = hot * pow(cold / hot, (double)(move % cycle) / cycle);
        int i = next_random() % nslots, j = next_random() % nslots;
        int ti = item_of[i], tj = item_of[j], s = slots[i];
        int multiply = order > 1 && next_random() % 4 == 0;
        if (!multiply && ti == tj && (kind[ti] != ORBIT || (i - first[ti]) / 2 == (j - first[ti]) / 2))
            continue; /* nothing changes */
        int delta = change(ti, -1) + (!multiply && ti != tj ? change(tj, -1) : 0);
        int i2 = -1, j2 = -1; /* with PAIRS=k, one move in k swaps whole partnerships */
        if (pairs && !multiply && ti != tj && kind[ti] == ORBIT && kind[tj] == ORBIT &&
            next_random() % pairs == 0)
            i2 = first[ti] + ((i - first[ti]) ^ 1), j2 = first[tj] + ((j - first[tj]) ^ 1);
        if (multiply) {
            slots[i] = times(1 + next_random() % (order - 1), s);
        } else {
            slots[i] = slots[j];
            slots[j] = s;
        }
        if (i2 >= 0) {
            int s2 = slots[i2];
            slots[i2] = slots[j2];
            slots[j2] = s2;
        }
        delta += change(ti, 1) + (!multiply && ti != tj ? change(tj, 1) : 0);
        if (delta <= 0 || uniform() < exp(-delta / temperature)) {
            cost += delta;
            if (cost < best) best = cost;
            continue;
        }
        change(ti, -1);
        if (!multiply && ti != tj) change(tj, -1);
        if (i2 >= 0) {
            int s2 = slots[i2];
            slots[i2] = slots[j2];
            slots[j2] = s2;
        }
        if (!multiply) slots[j] = slots[i];
        slots[i] = s;
        change(ti, 1);
        if (!multiply && ti != tj) change(tj, 1);
    }
    if (cost) {
        fprintf(stderr, "%d: nothing found (best cost %d)\n", count, best);
        return 1;
    }
    printf("%d", count);
    for (int i = 0; i < nfixed; i++) printf(" %d", fixed[i] == inf ? -1 : fixed[i]);
    for (int t = 0; t < nitems; t++) {
        int tables[256], n = tables_of(t, tables);
        for (int i = 0; i < 4 * n; i++) printf(" %d", tables[i] == inf ? -1 : tables[i]);
    }
    printf("\n");
    return 0;
}
