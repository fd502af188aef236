/*
 * bench.c -- pgbind-bench, the developer's benchmark (`pgbind bench` runs it; not installed): every
 * pgbind path timed against libpg_query's own route to the same result, on the same statements,
 * in one process. It links the runtime, the statement reader (reader/reader.h) and libpg_query
 * (statically where it can, with the allocator wrapped: below); the growth rows run the pgbind
 * command ($PGBIND, else the pgbind beside this program).
 *
 *   pgbind bench [--rounds=N] [--quick] [--json] [--only=PATH,...] [--dir=DIR] [FILE...]
 *   pgbind bench --growth [--rounds=N] [--quick] [--json] [--only=PATH,...]
 *
 * Corpus mode splits each file into statements as `pgbind verify` does (libpg_query's splitter;
 * psql `\` lines blanked, @extschema@/@extowner@ replaced by same-length identifiers); with no
 * FILE it reads the .sql files of DIR and DIR/extension, DIR defaulting to Debian's PostgreSQL 15
 * share directory. A statement is kept when libpg_query parses it to at least one statement and
 * every path below succeeds on it once (that pass is also the warm-up). Inputs a path needs but
 * does not produce are computed before any timing: the AST (encode, deparse, fingerprint), the
 * protobuf bytes (decode), protobuf-c's unpacked message and a buffer of its packed size (pack).
 * A timed pass runs one path over all statements; a round runs every path once, the order
 * rotated (and reversed on odd rounds) from round to round so that drift on a shared machine hits
 * all paths alike. Time is read with CLOCK_MONOTONIC around each chunk of 32 statements of a
 * pass, and a path's time is the sum over the chunks of each chunk's best round: other processes
 * only ever add time, and a chunk is short enough to have clean rounds on a busy machine (median
 * and best whole-pass times are in --json). Growth samples are batches of runs of about 2 ms,
 * each after one untimed run (warm caches whatever ran before); a size's time is its best sample.
 * pgbind paths create and free an arena per statement, as a user would, and that cost is timed.
 * MB/s are 10^6 bytes of the statements' SQL text per second for every path, so rows compare.
 *
 * Allocations are counted in a separate, untimed pass, by wrapping the allocator at link time
 * (-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup): every call from
 * an object in the link is counted, so linking libpg_query statically (libpg_query.a) counts its
 * internal allocations too (memory-context blocks, protobuf-c, result strings); calls made inside
 * libc itself (asprintf) are not. Peak is the highest live heap, by malloc_usable_size(), above
 * the level when the path started. Without the flags the wrappers are never called, __real_* stay
 * unresolved weak symbols, and the columns read n/a; with libpg_query linked dynamically only
 * pgbind's own calls are seen, and the baseline columns read n/a.
 *
 * Growth mode generates statements of n, 2n, 4n and 8n items in seven shapes (wide: select list,
 * IN list, VALUES rows, joins; deep: nested parenthesised arithmetic, nested scalar subqueries,
 * nested CASE) and prints, per path, the time at n and the ratio of each doubling: 2.0 is linear.
 * The largest statements stay at about half of the first limit any path hits on an 8 MiB stack,
 * measured on libpg_query 15-4.0.0: nested subqueries crash protobuf-c's recursive unpack
 * (SIGSEGV) from about 1,500 levels, so 8n = 800; the grammar rejects nested CASE from about
 * 2,000 levels and nested parentheses from about 3,500 (bison's stack), so 8n = 1,000 and 2,000;
 * joins nest 2,000 deep. All of it is inside pgbind's default max_depth (10,000). libpg_query's
 * fingerprint stops descending at 100 levels, so its deep shapes grow less than linearly.
 * Then the command's own input paths: `pgbind verify FILE` and `pgbind parse FILE` (protobuf, JSON,
 * text) on generated scripts of n, 2n, 4n and 8n statements (run_growth_cli).
 *
 * The files, by concern (bench.h declares what they share): routes.c the measured paths and a
 * statement's preparation, corpus.c the corpus, measure.c its timing, alloc.c the allocation
 * counting, report.c the corpus table and JSON, growth.c and growth_cli.c the growth mode; this
 * file the options and main.
 *
 * No number is judged: the exit code is 0 whenever the benchmark ran.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bench_usage(void)
{
	puts("usage: pgbind bench [--rounds=N] [--quick] [--json] [--only=PATH,...] [--dir=DIR] [FILE...]\n"
		 "       pgbind bench --growth [--rounds=N] [--quick] [--json] [--only=PATH,...]\n"
		 "Times each pgbind path against libpg_query's own route to the same result, on the same\n"
		 "statements, in one process, the paths alternated in rounds; prints statements/s, MB/s of SQL\n"
		 "text, the ratio to the baseline and to pg_query_raw_parse, and malloc calls and peak heap\n"
		 "bytes per statement. With no FILE: DIR/*.sql and DIR/extension/*.sql (DIR defaults to\n"
		 "/usr/share/postgresql/15). Files are split into statements as `pgbind verify` splits them.\n"
		 "  --rounds=N  rounds (default 15; --quick 3, with --growth 2)\n"
		 "  --quick     every k-th statement (about 200) and few rounds: proves the bench runs\n"
		 "  --growth    generated statements of n, 2n, 4n, 8n items, wide and deep, then `pgbind verify`\n"
		 "              and `pgbind parse` on scripts of n, 2n, 4n, 8n statements; time per doubling\n"
		 "  --json      one JSON document on standard output instead of the table\n"
		 "  --only=P,.. run only these paths (and raw_parse, the reference), e.g. under perf;\n"
		 "              the keys are listed at the end of the table\n"
		 "Exits 0 when the benchmark ran; no number is judged.");
}

int main(int argc, char **argv)
{
	/* `pgbind --pg=N bench` runs this program, which is built for one major (the build's) */
	const char *asked = getenv("PGBIND_BENCH_MAJOR");
	if (asked && atoi(asked) != PGBIND_PG_MAJOR) {
		fprintf(stderr,
				"pgbind bench: the benchmark is built for PostgreSQL %d, not %s: run pgbind --pg=%d bench (or build "
				"the checkout for %s: make PG_QUERY_DIR=<its libpg_query tree>)\n",
				PGBIND_PG_MAJOR, asked, PGBIND_PG_MAJOR, asked);
		return 2;
	}
	Bench b = {.rounds = 11, .dir = "/usr/share/postgresql/15"};
	int n_files = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			bench_usage();
			return 0;
		} else if (strcmp(a, "--quick") == 0) {
			b.quick = true;
		} else if (strcmp(a, "--growth") == 0) {
			b.growth = true;
		} else if (strcmp(a, "--json") == 0) {
			b.json = true;
		} else if (strncmp(a, "--rounds=", 9) == 0) {
			char *end;
			long r = strtol(a + 9, &end, 10);
			if (*end || r < 1 || r > 1000) {
				fprintf(stderr, "pgbind bench: --rounds takes 1..1000\n");
				return 2;
			}
			b.rounds = (int)r;
			b.rounds_given = true;
		} else if (strncmp(a, "--only=", 7) == 0) {
			if (!parse_only(a + 7))
				return 2;
		} else if (strncmp(a, "--dir=", 6) == 0) {
			b.dir = a + 6;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "pgbind bench: unknown option %s\n", a);
			return 2;
		} else {
			n_files++;
		}
	}
	if (!b.rounds_given)
		b.rounds = b.quick ? (b.growth ? 2 : 3) : 15;
	if (b.growth && n_files) {
		fprintf(stderr, "pgbind bench: --growth generates its statements; no FILE\n");
		return 2;
	}
	b.scope = mem_scope();
	b.trees = pgbind_Arena_New();
	if (!b.trees)
		return 2;
	int rc = 0;
	if (b.growth) {
		rc = run_growth(&b);
		if (rc == 0) {
			fflush(stdout); /* the children share it */
			rc = run_growth_cli(&b);
		}
	} else {
		Corpus c = {0};
		bool ok = true;
		for (int i = 1; ok && i < argc; i++)
			if (argv[i][0] != '-' || !argv[i][1])
				ok = corpus_read_file(&c, argv[i]);
		if (ok && n_files == 0) {
			char pattern[4096];
			snprintf(pattern, sizeof pattern, "%s/*.sql", b.dir);
			ok = corpus_glob(&c, pattern);
			snprintf(pattern, sizeof pattern, "%s/extension/*.sql", b.dir);
			ok = ok && corpus_glob(&c, pattern);
		}
		if (ok)
			corpus_prepare(&b, &c);
		if (!ok || c.n == 0) {
			fprintf(stderr, "pgbind bench: %s\n", ok ? "no statement to measure" : "cannot read the input");
			rc = 2;
		} else {
			OpResult res[N_OPS] = {{0}};
			if (!measure_corpus(&b, &c, res)) {
				fprintf(stderr, "pgbind bench: out of memory\n");
				rc = 2;
			} else if (b.json) {
				print_corpus_json(&b, &c, res);
			} else {
				print_corpus_table(&b, &c, res);
			}
			for (int op = 0; op < N_OPS; op++) {
				free(res[op].ns);
				free(res[op].chunk);
			}
		}
		for (size_t i = 0; i < c.n; i++)
			item_free(&c.items[i]);
		free(c.items);
	}
	pgbind_Arena_Free(b.trees);
	pg_query_exit();
	if (fflush(stdout) != 0)
		rc = 2;
	return rc;
}
