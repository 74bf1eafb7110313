/* The whist searches' random numbers: xorshift64 (seeded by setting rng_state, never to 0),
   and a uniform double in [0, 1) from its top 53 bits. */
#ifndef XORSHIFT_H
#define XORSHIFT_H

static unsigned long long rng_state;

static unsigned long long next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double uniform(void) { return (next_random() >> 11) * (1.0 / 9007199254740992.0); }

#endif
