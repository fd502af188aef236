/*
 * growth.c -- pgbind-bench --growth: statements of n, 2n, 4n and 8n items in seven shapes (wide:
 * select list, IN list, VALUES rows, joins; deep: nested parenthesised arithmetic, nested scalar
 * subqueries, nested CASE), every path timed on each size in batches of runs of about 2 ms, and
 * printed per path as the time at n and the ratio of each doubling (2.0 is linear). bench.c's
 * opening comment says how the sizes were chosen. Entry point run_growth; growth_cli.c adds the
 * command's own rows.
 */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void buf_printf(Buf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap : 4096;
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *grown = realloc(b->s, cap);
		if (!grown) {
			b->oom = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
}

static void gen_targets(Buf *b, int n)
{
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++) {
		const char *sep = i ? ", " : "";
		switch (i % 4) {
		case 0:
			buf_printf(b, "%sc%d", sep, i);
			break;
		case 1:
			buf_printf(b, "%sc%d + %d AS x%d", sep, i, i, i);
			break;
		case 2:
			buf_printf(b, "%s'v%d'", sep, i);
			break;
		default:
			buf_printf(b, "%slower(c%d)", sep, i);
			break;
		}
	}
	buf_printf(b, " FROM t");
}

static void gen_in_list(Buf *b, int n)
{
	buf_printf(b, "SELECT a FROM t WHERE a IN (");
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s%d", i ? ", " : "", i);
	buf_printf(b, ")");
}

static void gen_values(Buf *b, int n)
{
	buf_printf(b, "INSERT INTO t (a, b, c) VALUES ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s(%d, 'x%d', %d.5)", i ? ", " : "", i, i, i);
}

static void gen_joins(Buf *b, int n)
{
	buf_printf(b, "SELECT t0.a FROM t0");
	for (int i = 1; i <= n; i++)
		buf_printf(b, " JOIN t%d ON t%d.a = t%d.a", i, i - 1, i);
}

static void gen_expr(Buf *b, int n)
{
	static const char opchars[] = "+*-";
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "(c%d %c ", i, opchars[i % 3]);
	buf_printf(b, "1");
	for (int i = 0; i < n; i++)
		buf_printf(b, ")");
	buf_printf(b, " FROM t");
}

static void gen_subquery(Buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "SELECT (");
	buf_printf(b, "SELECT 1");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(b, ") FROM t%d", i);
}

static void gen_case(Buf *b, int n)
{
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "CASE WHEN c%d > %d THEN ", i, i);
	buf_printf(b, "0");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(b, " ELSE %d END", i);
	buf_printf(b, " FROM t");
}

typedef struct Shape {
	const char *name;
	const char *unit; /* what n counts */
	int n, quick_n;
	void (*gen)(Buf *b, int n);
} Shape;

static const Shape shapes[] = {
	{"wide/select-list", "select-list items", 1000, 100, gen_targets},
	{"wide/in-list", "IN-list items", 1000, 100, gen_in_list},
	{"wide/values", "VALUES rows of 3", 500, 50, gen_values},
	{"wide/joins", "joins (left-deep JoinExpr chain)", 250, 25, gen_joins},
	{"deep/expr", "nested parenthesised operators", 250, 25, gen_expr},
	{"deep/subquery", "nested scalar subqueries", 100, 10, gen_subquery},
	{"deep/case", "nested CASE", 125, 12, gen_case},
};
#define N_SHAPES ((int)(sizeof shapes / sizeof *shapes))

typedef struct ShapeResult {
	int n;
	Item items[N_SIZES];
	uint32_t failed[N_SIZES]; /* per size, a bit per op that failed */
	long reps[N_OPS][N_SIZES];
	double *ns[N_OPS][N_SIZES]; /* per round: time of one run */
	double t[N_OPS][N_SIZES];   /* best over the rounds */
	double allocs[N_OPS][N_SIZES];
	double peak[N_OPS][N_SIZES];
} ShapeResult;

static bool op_ok_all_sizes(const ShapeResult *s, int op)
{
	if (!op_available(op))
		return false;
	for (int k = 0; k < N_SIZES; k++)
		if (s->failed[k] & (1u << op))
			return false;
	return true;
}

static bool growth_prepare(Bench *b, const Shape *shape, ShapeResult *s)
{
	s->n = b->quick ? shape->quick_n : shape->n;
	for (int k = 0; k < N_SIZES; k++) {
		Buf buf = {0};
		shape->gen(&buf, s->n << k);
		if (buf.oom) {
			free(buf.s);
			return false;
		}
		s->items[k].sql = buf.s;
		s->items[k].sql_len = buf.len;
		int prep = item_prepare(b, &s->items[k], &s->failed[k]);
		if (prep != PREP_OK) {
			fprintf(stderr, "pgbind bench: %s at %d: libpg_query %s\n", shape->name, s->n << k,
					prep == PREP_SYNTAX ? "reports a syntax error" : "gives no statement");
			return false;
		}
	}
	return true;
}

static void measure_growth(const Bench *b, ShapeResult *s, double budget_ns)
{
	for (int op = 0; op < N_OPS; op++) {
		for (int k = 0; k < N_SIZES; k++) {
			s->ns[op][k] = calloc((size_t)b->rounds, sizeof(double));
			if (!op_ok_all_sizes(s, op))
				continue;
			/* calibrate: enough runs per sample to fill the budget */
			uint64_t t0 = now_ns();
			bench_ops[op].fn(&s->items[k], NULL);
			double once = (double)(now_ns() - t0);
			long reps = once > 0 ? (long)(budget_ns / once) : 1000;
			s->reps[op][k] = reps < 1 ? 1 : reps > 100000 ? 100000 : reps;
			OpResult r = {0};
			count_allocs(op, &s->items[k], 1, &r);
			s->allocs[op][k] = r.allocs;
			s->peak[op][k] = r.peak;
		}
	}
	for (int r = 0; r < b->rounds; r++) {
		for (int j = 0; j < N_OPS; j++) {
			int op = round_op(r, j);
			if (!op_ok_all_sizes(s, op))
				continue;
			bool (*fn)(const Item *, ArenaUse *) = bench_ops[op].fn;
			for (int kk = 0; kk < N_SIZES; kk++) {
				int k = (r & 1) ? N_SIZES - 1 - kk : kk;
				long reps = s->reps[op][k];
				fn(&s->items[k], NULL); /* untimed: every sample starts with warm caches */
				uint64_t t0 = now_ns();
				for (long i = 0; i < reps; i++)
					fn(&s->items[k], NULL);
				s->ns[op][k][r] = (double)(now_ns() - t0) / (double)reps;
			}
		}
	}
	for (int op = 0; op < N_OPS; op++)
		for (int k = 0; k < N_SIZES; k++)
			s->t[op][k] = bench_best(s->ns[op][k], b->rounds);
}

/* The order of the growth rows: each pgbind path, then its baseline. */
static const int growth_order[] = {OP_PARSE,           OP_PARSE_BASE,      OP_RAW,         OP_JSON,
								   OP_JSON_AST,        OP_JSON_BASE,       OP_ENCODE,      OP_ENCODE_BASE,
								   OP_DECODE,          OP_DECODE_BASE,     OP_DEPARSE,     OP_DEPARSE_BASE,
								   OP_DEPARSE_FLOOR,   OP_DEPARSE_CHECKED, OP_FINGERPRINT, OP_FINGERPRINT_SQL,
								   OP_FINGERPRINT_BASE};

static void print_growth_table(const Bench *b, const ShapeResult *res, double budget_ns)
{
	printf("pgbind bench --growth: statements of n, 2n, 4n, 8n items; %d rounds, paths alternated; each sample a "
		   "batch of runs\nfilling ~%.1f ms after one untimed run, per-run arenas; time per run: the best sample over "
		   "the rounds. Doubling "
		   "ratios t(2n)/t(n),\nt(4n)/t(2n), t(8n)/t(4n): 2.0 is linear, 4.0 quadratic.\nallocs: %s\n",
		   b->rounds, budget_ns / 1e6, scope_text(b->scope));
	double lo[N_OPS], hi[N_OPS];
	for (int op = 0; op < N_OPS; op++)
		lo[op] = 1e300, hi[op] = 0;
	for (int si = 0; si < N_SHAPES; si++) {
		const ShapeResult *s = &res[si];
		printf("\n%s: n = %d %s; SQL %zu, %zu, %zu, %zu bytes\n", shapes[si].name, s->n, shapes[si].unit,
			   s->items[0].sql_len, s->items[1].sql_len, s->items[2].sql_len, s->items[3].sql_len);
		printf("  %-24s %-8s %12s %7s %7s %7s   %s\n", "path", "side", "t(n) us", "x2n", "x4n", "x8n",
			   "allocs n -> 8n");
		for (size_t j = 0; j < sizeof growth_order / sizeof *growth_order; j++) {
			int op = growth_order[j];
			if (!op_available(op))
				continue;
			if (!op_ok_all_sizes(s, op)) {
				printf("  %-24s %-8s %12s  (failed at some size)\n", bench_ops[op].key, bench_ops[op].side, "-");
				continue;
			}
			printf("  %-24s %-8s %12.1f", bench_ops[op].key, bench_ops[op].side, s->t[op][0] / 1e3);
			for (int k = 1; k < N_SIZES; k++) {
				double ratio = s->t[op][k] / s->t[op][k - 1];
				printf(" %7.2f", ratio);
				if (ratio < lo[op])
					lo[op] = ratio;
				if (ratio > hi[op])
					hi[op] = ratio;
			}
			if (allocs_seen(b->scope, op))
				printf("   %.0f -> %.0f\n", s->allocs[op][0], s->allocs[op][N_SIZES - 1]);
			else
				printf("   n/a\n");
		}
	}
	printf("\nper path, over all shapes: the smallest and the largest doubling ratio\n");
	for (size_t j = 0; j < sizeof growth_order / sizeof *growth_order; j++) {
		int op = growth_order[j];
		if (!op_available(op) || hi[op] == 0)
			continue;
		printf("  %-24s %-8s %5.2f .. %5.2f\n", bench_ops[op].key, bench_ops[op].side, lo[op], hi[op]);
	}
}

static void print_growth_json(const Bench *b, const ShapeResult *res)
{
	printf("{\"mode\":\"growth\",\"rounds\":%d,\"statistic\":\"best\",\"quick\":%s,\"alloc_scope\":\"%s\","
		   "\n \"shapes\":[",
		   b->rounds, b->quick ? "true" : "false", scope_key(b->scope));
	for (int si = 0; si < N_SHAPES; si++) {
		const ShapeResult *s = &res[si];
		printf("%s\n  {\"name\":\"%s\",\"n\":%d,\"sql_bytes\":[%zu,%zu,%zu,%zu],\"ops\":[", si ? "," : "",
			   shapes[si].name, s->n, s->items[0].sql_len, s->items[1].sql_len, s->items[2].sql_len,
			   s->items[3].sql_len);
		bool first = true;
		for (int op = 0; op < N_OPS; op++) {
			if (!op_available(op))
				continue;
			printf("%s\n   {\"key\":\"%s\",\"side\":\"%s\",\"ok\":%s", first ? "" : ",", bench_ops[op].key,
				   bench_ops[op].side, op_ok_all_sizes(s, op) ? "true" : "false");
			first = false;
			if (!op_ok_all_sizes(s, op)) {
				printf("}");
				continue;
			}
			printf(",\"ns\":[%.1f,%.1f,%.1f,%.1f],\"doubling\":[%.4f,%.4f,%.4f]", s->t[op][0], s->t[op][1], s->t[op][2],
				   s->t[op][3], s->t[op][1] / s->t[op][0], s->t[op][2] / s->t[op][1], s->t[op][3] / s->t[op][2]);
			if (b->scope != SCOPE_NONE)
				printf(",\"allocs\":[%.0f,%.0f,%.0f,%.0f],\"peak_bytes\":[%.0f,%.0f,%.0f,%.0f]", s->allocs[op][0],
					   s->allocs[op][1], s->allocs[op][2], s->allocs[op][3], s->peak[op][0], s->peak[op][1],
					   s->peak[op][2], s->peak[op][3]);
			printf("}");
		}
		printf("]}");
	}
	printf("]"); /* run_growth_cli adds "cli" and closes the document */
}

int run_growth(Bench *b)
{
	ShapeResult *res = calloc(N_SHAPES, sizeof *res);
	if (!res)
		return 2;
	double budget_ns = b->quick ? 0.5e6 : 2e6;
	int rc = 0;
	for (int si = 0; si < N_SHAPES && rc == 0; si++) {
		if (!growth_prepare(b, &shapes[si], &res[si]))
			rc = 2;
		else
			measure_growth(b, &res[si], budget_ns);
	}
	if (rc == 0) {
		if (b->json)
			print_growth_json(b, res);
		else
			print_growth_table(b, res, budget_ns);
	}
	for (int si = 0; si < N_SHAPES; si++) {
		for (int k = 0; k < N_SIZES; k++)
			item_free(&res[si].items[k]);
		for (int op = 0; op < N_OPS; op++)
			for (int k = 0; k < N_SIZES; k++)
				free(res[si].ns[op][k]);
	}
	free(res);
	return rc;
}
