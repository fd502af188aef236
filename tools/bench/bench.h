/*
 * bench.h -- what pgbind-bench's files share: a prepared statement (Item) and the paths over it
 * (routes.c), the run's options (Bench), the corpus (corpus.c), the measurements (measure.c,
 * alloc.c), the report (report.c) and the growth mode (growth.c, growth_cli.c); bench.c is the
 * entry point and says what the benchmark does. Not installed: a developer's program.
 */
#ifndef PGBIND_BENCH_H
#define PGBIND_BENCH_H

#include "pg_query.h"
#if defined(PGBIND_BENCH_PROTOBUF_C) && !defined(PGBIND_HAVE_PROTOBUF_C)
/* upb's libpg_query (18): protoc-c's code for its pg_query.proto, built by the Makefile, is the
 * protobuf-c baseline (the message types and names are those libpg_query up to 17 installs) */
#define PGBIND_HAVE_PROTOBUF_C
#endif
#ifdef PGBIND_HAVE_PROTOBUF_C
#include "pg_query.pb-c.h"
#endif
#include "pgbind.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A statement and what the paths need of it, computed before any timing (item_prepare). */
typedef struct Item {
	char *sql;
	size_t sql_len;
	uint8_t *pb; /* libpg_query's protobuf bytes (pgbind_encode writes the same) */
	size_t pb_len;
#ifdef PGBIND_HAVE_PROTOBUF_C
	PgQuery__ParseResult *msg; /* protobuf-c's unpacking of pb */
	uint8_t *packbuf;          /* get_packed_size(msg) bytes, for the pack baselines */
#endif
	pgbind_ParseResult *tree; /* pgbind_parse(sql), in Bench.trees */
} Item;

/* Arena use of one pgbind run, reported by the ops when asked (the untimed pass). */
typedef struct ArenaUse {
	size_t blocks;
	size_t bytes;
} ArenaUse;

typedef struct OpDef {
	const char *key;  /* name in --json */
	const char *side; /* pgbind, baseline or limit */
	const char *what; /* what one run does */
	bool (*fn)(const Item *it, ArenaUse *use);
} OpDef;

enum {
	OP_PARSE,
	OP_PARSE_BASE,
	OP_RAW,
	OP_PARSE_PB,
	OP_JSON,
	OP_JSON_AST,
	OP_JSON_BASE,
	OP_ENCODE,
	OP_ENCODE_BASE,
	OP_DECODE,
	OP_DECODE_BASE,
	OP_DEPARSE,
	OP_DEPARSE_BASE,
	OP_DEPARSE_FLOOR,
	OP_DEPARSE_CHECKED,
	OP_DEPARSE_ISOLATED,
	OP_CONTRACT,
	OP_FINGERPRINT,
	OP_FINGERPRINT_SQL,
	OP_FINGERPRINT_BASE,
	OP_NORMALIZE,
	OP_NORMALIZE_SQL,
	OP_NORMALIZE_BASE,
	OP_PROXY,
	OP_PROXY_BASE,
	OP_SUMMARY,
	OP_SUMMARY_AST,
	OP_SUMMARY_BASE,
	N_OPS
};

extern const OpDef bench_ops[N_OPS];

/* Whether op runs: it exists in this build and --only selected it (raw_parse always does). */
bool op_available(int op);
/* Parses --only=KEY[,KEY...]; false, with a message, on an unknown key. */
bool parse_only(const char *list);

/* The run's options, and the arena of the precomputed trees. */
typedef struct Bench {
	int rounds;
	bool rounds_given;
	bool quick;
	bool json;
	bool growth;
	const char *dir;
	int scope;
	pgbind_Arena *trees; /* the precomputed ASTs, outside any timing */
} Bench;

enum { PREP_OK, PREP_SYNTAX, PREP_EMPTY, PREP_BROKEN };

/* Frees what item_prepare computed and it->sql, and zeroes it. */
void item_free(Item *it);
/* Computes what the paths need from it->sql, then runs every path once; *failed gets a bit per
 * path that failed. A PREP_ value. */
int item_prepare(Bench *b, Item *it, uint32_t *failed);

typedef struct Corpus {
	Item *items;
	size_t n, cap;
	size_t sql_bytes;
	int files;
	long candidates, syntax_errors, empty, broken;
	size_t keep_every;
	long failed_on[N_OPS];
} Corpus;

/* Adds the statements of a file (or the files a pattern matches: none is no error); false, with a
 * message, when one cannot be read. */
bool corpus_read_file(Corpus *c, const char *path);
bool corpus_glob(Corpus *c, const char *pattern);
/* Keeps every k-th statement (--quick), then prepares each, dropping the ones a path fails on. */
void corpus_prepare(Bench *b, Corpus *c);

/* Statements per timed chunk: each pass is timed in chunks, and a path's time is the sum over the
 * chunks of each chunk's best time over the rounds. Interference from other processes only ever
 * adds time, and a chunk (0.05 to 1 ms on the Debian corpus) is much shorter than a scheduler
 * time slice, so every chunk has clean rounds even on a busy machine; a 70 ms pass rarely does. */
#define CHUNK 32

typedef struct OpResult {
	double *ns;                       /* per round: time of the whole pass */
	double *chunk;                    /* per chunk: best time over the rounds */
	double t;                         /* the path's time: sum of the chunks' best */
	double med;                       /* median pass time over the rounds (for --json) */
	double min;                       /* best pass time (for --json) */
	double allocs, allocs_max;        /* malloc-family calls: mean per statement, most in one */
	double peak, peak_max;            /* peak live bytes above the start: mean per statement, most */
	double arena_blocks, arena_bytes; /* pgbind arena use per statement (pgbind paths) */
	long fails;
} OpResult;

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
/* The smallest of n values (0 for none). */
double bench_best(const double *v, int n);
/* The order of the paths in round r: rotated by r, reversed on odd rounds. */
int round_op(int r, int k);
/* Times every available path over the corpus (after count_allocs); false when memory ran out. */
bool measure_corpus(const Bench *b, const Corpus *c, OpResult *res);

enum { SCOPE_NONE, SCOPE_PGBIND, SCOPE_ALL };
/* What the link lets alloc.c count: nothing, this program's own calls, or libpg_query's as well. */
int mem_scope(void);
/* The scope in words for the table, and its key in --json. */
const char *scope_text(int scope);
const char *scope_key(int scope);
/* Whether op's allocations are counted in that scope (a baseline's only with libpg_query.a). */
bool allocs_seen(int scope, int op);
/* One untimed pass of op over n statements with the allocator counting, per statement. */
void count_allocs(int op, const Item *items, size_t n, OpResult *res);

/* The corpus results as a table, or as one JSON document. */
void print_corpus_table(const Bench *b, const Corpus *c, const OpResult *res);
void print_corpus_json(const Bench *b, const Corpus *c, const OpResult *res);

/* A growing string for generated SQL; oom stays set once memory ran out (buf_printf then does
 * nothing). */
typedef struct Buf {
	char *s;
	size_t len, cap;
	bool oom;
} Buf;

/* Appends to b as printf would. */
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --growth's sizes: n, 2n, 4n, 8n. */
#define N_SIZES 4
/* --growth: the generated statements' rows; 0, or 2 when it could not run. */
int run_growth(Bench *b);
/* --growth's rows of the command itself, after run_growth's (in --json it closes the document). */
int run_growth_cli(const Bench *b);

#endif
