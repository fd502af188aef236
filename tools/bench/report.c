/*
 * report.c -- pgbind-bench's corpus results: the table (a row per path, pgbind's op over the
 * baseline's or the limit alone: speedup, ratio to pg_query_raw_parse, allocations) and the same
 * in one JSON document (--json). Reads what measure.c measured; prints to standard output.
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

/* The table: a path, pgbind's op and the baseline's (or the limit alone). */
typedef struct RowDef {
	const char *name;
	int ours; /* -1 = none */
	int base; /* baseline, or the limit when ours is -1 */
	const char *goal;
} RowDef;

static const RowDef rows[] = {
	{"parse to typed tree", OP_PARSE, OP_PARSE_BASE, ">=8x, <=1.15 raw"},
	{"raw parse (the limit)", -1, OP_RAW, ""},
	{"parse vs parse_protobuf alone", OP_PARSE, OP_PARSE_PB, ">=3.5x"},
	{"JSON text from SQL", OP_JSON, OP_JSON_BASE, ">1x"},
	{"JSON text from AST", OP_JSON_AST, OP_JSON_BASE, ""},
	{"encode", OP_ENCODE, OP_ENCODE_BASE, ">=15x"},
	{"decode", OP_DECODE, OP_DECODE_BASE, ">=8x"},
	{"deparse", OP_DEPARSE, OP_DEPARSE_BASE, ">=2x"},
	{"deparse floor (libpg_query)", -1, OP_DEPARSE_FLOOR, ""},
	{"deparse, round trip checked", OP_DEPARSE_CHECKED, OP_DEPARSE_BASE, ""},
	{"check cost (vs unchecked)", OP_DEPARSE_CHECKED, OP_DEPARSE, ""},
	{"isolated deparse (vs plain)", OP_DEPARSE_ISOLATED, OP_DEPARSE, ">=0.5x"},
	{"contract check alone (vs deparse)", OP_CONTRACT, OP_DEPARSE, ""},
	{"fingerprint from AST", OP_FINGERPRINT, OP_FINGERPRINT_BASE, ">=2x"},
	{"fingerprint from SQL", OP_FINGERPRINT_SQL, OP_FINGERPRINT_BASE, ">1.2x"},
	{"normalize from AST", OP_NORMALIZE, OP_NORMALIZE_BASE, ""},
	{"normalize from SQL", OP_NORMALIZE_SQL, OP_NORMALIZE_BASE, ""},
	{"proxy: parse+fp+normalize+pb", OP_PROXY, OP_PROXY_BASE, ">=3x"},
	{"summary from SQL (protobuf)", OP_SUMMARY, OP_SUMMARY_BASE, ""},
	{"summary from AST (protobuf)", OP_SUMMARY_AST, OP_SUMMARY_BASE, ""},
};
#define N_ROWS ((int)(sizeof rows / sizeof *rows))

static void fmt_allocs(char *buf, size_t size, const Bench *b, int op, const OpResult *r)
{
	if (!allocs_seen(b->scope, op))
		snprintf(buf, size, "%8s %10s", "n/a", "n/a");
	else
		snprintf(buf, size, "%8.1f %10.0f", r->allocs, r->peak);
}

static void print_op_line(const Bench *b, const Corpus *c, const char *name, int op, int base, const OpResult *res,
						  const char *goal)
{
	const OpResult *r = &res[op];
	char speed[16] = "", allocs[40];
	if (!op_available(op)) {
		printf("%-28s %-8s %10s %8s %9s %7s %8s %10s  %s\n", name, bench_ops[op].side, "n/a", "n/a", "", "", "n/a",
			   "n/a",
			   bench_ops[op].fn        ? "(not in --only)"
			   : op == OP_SUMMARY_BASE ? "(libpg_query 18 on; this one has no pg_query_summary)"
									   : "(needs protobuf-c; this libpg_query has upb)");
		return;
	}
	if (base >= 0 && op_available(base))
		snprintf(speed, sizeof speed, "%.2fx", res[base].t / r->t);
	fmt_allocs(allocs, sizeof allocs, b, op, r);
	printf("%-28s %-8s %10.0f %8.2f %9s %7.2f %s  %s\n", name, bench_ops[op].side, (double)c->n * 1e9 / r->t,
		   (double)c->sql_bytes * 1e3 / r->t, speed, r->t / res[OP_RAW].t, allocs, goal);
}

void print_corpus_table(const Bench *b, const Corpus *c, const OpResult *res)
{
	printf("pgbind bench: %zu statements, %.2f MB of SQL, from %d files", c->n, (double)c->sql_bytes / 1e6, c->files);
	if (c->keep_every > 1)
		printf(" (--quick: every %zuth of %ld)", c->keep_every, c->candidates);
	printf("\n");
	long dropped = 0;
	for (int op = 0; op < N_OPS; op++)
		dropped += c->failed_on[op];
	if (c->syntax_errors || c->empty || c->broken || dropped) {
		printf("left out: %ld syntax errors, %ld empty", c->syntax_errors, c->empty);
		if (c->broken)
			printf(", %ld unpreparable", c->broken);
		for (int op = 0; op < N_OPS; op++)
			if (c->failed_on[op])
				printf(", %ld failing %s", c->failed_on[op], bench_ops[op].key);
		printf("\n");
	}
	printf("%d rounds, paths alternated (order rotated each round), per-statement arenas; a path's time: each chunk "
		   "of %d statements\ntimed on its own, the sum over the chunks of each one's best round\n",
		   b->rounds, CHUNK);
	printf("MB/s: 10^6 bytes of the statements' SQL text per second (every row)\n");
	printf("speedup: baseline time / pgbind time; x raw: time / pg_query_raw_parse time\n");
	printf("allocs/stmt, peak B/stmt (means): %s\n\n", scope_text(b->scope));
	printf("%-28s %-8s %10s %8s %9s %7s %8s %10s  %s\n", "path", "side", "stmts/s", "MB/s", "speedup", "x raw",
		   "allocs", "peak B", "goal");
	for (int i = 0; i < N_ROWS; i++) {
		const RowDef *row = &rows[i];
		if (row->ours >= 0) {
			print_op_line(b, c, row->name, row->ours, row->base, res, row->goal);
			print_op_line(b, c, "", row->base, -1, res, "");
		} else {
			print_op_line(b, c, row->name, row->base, -1, res, row->goal);
		}
	}
	printf("\nwhat each timed run does, per statement:\n");
	for (int op = 0; op < N_OPS; op++)
		printf("  %-8s %-24s %s\n", bench_ops[op].side, bench_ops[op].key, bench_ops[op].what);
	long fails = 0;
	for (int op = 0; op < N_OPS; op++)
		fails += res[op].fails;
	if (fails)
		printf("warning: %ld timed runs failed (they had succeeded in the preparation pass)\n", fails);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

void print_corpus_json(const Bench *b, const Corpus *c, const OpResult *res)
{
	printf("{\"mode\":\"corpus\",\"statements\":%zu,\"sql_bytes\":%zu,\"files\":%d,\"candidates\":%ld,"
		   "\"syntax_errors\":%ld,\"empty\":%ld,\"rounds\":%d,\"statistic\":\"sum of per-chunk best\",\"chunk\":%d,"
		   "\"quick\":%s,"
		   "\"alloc_scope\":\"%s\",\n \"ops\":[",
		   c->n, c->sql_bytes, c->files, c->candidates, c->syntax_errors, c->empty, b->rounds, CHUNK,
		   b->quick ? "true" : "false", scope_key(b->scope));
	bool first = true;
	for (int op = 0; op < N_OPS; op++) {
		if (!op_available(op))
			continue;
		const OpResult *r = &res[op];
		printf("%s\n  {\"key\":", first ? "" : ",");
		json_str(bench_ops[op].key);
		printf(",\"side\":\"%s\",\"what\":", bench_ops[op].side);
		json_str(bench_ops[op].what);
		printf(",\"ns\":%.0f,\"median_pass_ns\":%.0f,\"best_pass_ns\":%.0f,\"stmts_per_s\":%.1f,\"mb_per_s\":%.3f,"
			   "\"vs_raw\":%.4f",
			   r->t, r->med, r->min, (double)c->n * 1e9 / r->t, (double)c->sql_bytes * 1e3 / r->t,
			   r->t / res[OP_RAW].t);
		if (b->scope != SCOPE_NONE)
			printf(",\"allocs_per_stmt\":%.2f,\"allocs_max\":%.0f,\"peak_bytes_per_stmt\":%.0f,\"peak_bytes_max\":%.0f",
				   r->allocs, r->allocs_max, r->peak, r->peak_max);
		if (strcmp(bench_ops[op].side, "pgbind") == 0)
			printf(",\"arena_blocks_per_stmt\":%.2f,\"arena_bytes_per_stmt\":%.0f", r->arena_blocks, r->arena_bytes);
		printf(",\"rounds_ns\":[");
		for (int i = 0; i < b->rounds; i++)
			printf("%s%.0f", i ? "," : "", r->ns[i]);
		printf("]}");
		first = false;
	}
	printf("],\n \"rows\":[");
	first = true;
	for (int i = 0; i < N_ROWS; i++) {
		const RowDef *row = &rows[i];
		if (row->ours < 0 || !op_available(row->ours) || !op_available(row->base))
			continue;
		printf("%s\n  {\"path\":", first ? "" : ",");
		json_str(row->name);
		printf(",\"pgbind\":\"%s\",\"baseline\":\"%s\",\"speedup\":%.4f,\"pgbind_vs_raw\":%.4f,"
			   "\"baseline_vs_raw\":%.4f}",
			   bench_ops[row->ours].key, bench_ops[row->base].key, res[row->base].t / res[row->ours].t,
			   res[row->ours].t / res[OP_RAW].t, res[row->base].t / res[OP_RAW].t);
		first = false;
	}
	printf("]}\n");
}
