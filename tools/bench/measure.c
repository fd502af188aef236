/*
 * measure.c -- timing the corpus: every path over every statement, in rounds, the order of the
 * paths rotated (and reversed on odd rounds) so that drift on a shared machine hits all alike;
 * each pass timed in chunks of CHUNK statements, a path's time the sum over the chunks of each
 * chunk's best round (measure_corpus). The allocation pass comes first (alloc.c). Depends on
 * bench.h's paths and libc's clock.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[n > 0 ? n : 1];
	memcpy(s, v, (size_t)n * sizeof *v);
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	return n == 0 ? 0 : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double bench_best(const double *v, int n)
{
	double m = n ? v[0] : 0;
	for (int i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* The order of the paths in round r: rotated by r, reversed on odd rounds. */
int round_op(int r, int k)
{
	int kk = (r & 1) ? N_OPS - 1 - k : k;
	return (kk + r) % N_OPS;
}

bool measure_corpus(const Bench *b, const Corpus *c, OpResult *res)
{
	size_t n_chunks = (c->n + CHUNK - 1) / CHUNK;
	for (int op = 0; op < N_OPS; op++) {
		res[op].ns = calloc((size_t)b->rounds, sizeof(double));
		res[op].chunk = malloc(n_chunks * sizeof(double));
		if (!res[op].ns || !res[op].chunk)
			return false;
		for (size_t ch = 0; ch < n_chunks; ch++)
			res[op].chunk[ch] = 1e300;
		if (op_available(op))
			count_allocs(op, c->items, c->n, &res[op]);
	}
	for (int r = 0; r < b->rounds; r++) {
		for (int k = 0; k < N_OPS; k++) {
			int op = round_op(r, k);
			if (!op_available(op))
				continue;
			bool (*fn)(const Item *, ArenaUse *) = bench_ops[op].fn;
			double *chunk = res[op].chunk;
			long fails = 0;
			double pass = 0;
			for (size_t ch = 0; ch < n_chunks; ch++) {
				size_t end = ch * CHUNK + CHUNK < c->n ? ch * CHUNK + CHUNK : c->n;
				uint64_t t0 = now_ns();
				for (size_t i = ch * CHUNK; i < end; i++)
					fails += !fn(&c->items[i], NULL);
				double dt = (double)(now_ns() - t0);
				pass += dt;
				if (dt < chunk[ch])
					chunk[ch] = dt;
			}
			res[op].ns[r] = pass;
			res[op].fails += fails;
		}
	}
	for (int op = 0; op < N_OPS; op++) {
		res[op].t = 0;
		for (size_t ch = 0; ch < n_chunks; ch++)
			res[op].t += res[op].chunk[ch];
		res[op].med = median(res[op].ns, b->rounds);
		res[op].min = bench_best(res[op].ns, b->rounds);
	}
	return true;
}
