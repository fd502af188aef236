/*
 * pgbind_convert.h -- converts a parse tree between PostgreSQL majors, as libpg_query's protobuf
 * encoding of a ParseResult: the bytes pg_query_parse_protobuf() of one major gives become the
 * bytes of another major's pg_query.proto (older to newer: "up"; newer to older: "down"). The
 * transcoders are generated tables (targets/c/generated/convert/, from both protos and
 * schema/majors.txt) that targets/c/runtime/convert.c interprets; docs/convert.md says what each
 * difference between two majors becomes and what is measured.
 */
#ifndef PGBIND_CONVERT_H
#define PGBIND_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	PGBIND_CONVERT_OK = 0,
	PGBIND_CONVERT_MALFORMED = 1, /* the input is not a valid encoding of the from-major's ParseResult */
	PGBIND_CONVERT_NO_FORM = 2,   /* a value the to-major's tree cannot hold (the message names its path) */
	PGBIND_CONVERT_TOO_DEEP = 3,  /* nested deeper than PGBIND_CONVERT_MAX_DEPTH messages */
	PGBIND_CONVERT_NO_MEMORY = 4,
	PGBIND_CONVERT_NO_PAIR = 5, /* no transcoder between these two majors was generated */
} pgbind_ConvertCode;

/* Messages nested deeper than this are refused: ParseResult is depth 0, each statement's RawStmt 1,
 * and an expression level of the tree two more (Node and the node). The interpreter recurses once
 * a level, 160-272 bytes of stack at -O2 (gcc -fstack-usage), so the deepest input needs under
 * 1 MiB (tests/convert/convert_test.c runs it on a thread of 1 MiB); unoptimized, about 1.5 MiB. */
#define PGBIND_CONVERT_MAX_DEPTH 3000

typedef struct {
	pgbind_ConvertCode code;
	size_t offset;     /* MALFORMED, NO_FORM: the input byte the problem is at */
	char message[512]; /* e.g. "stmts[0].stmt.MergeStmt.returning_clause (18) has no form in 15" */
} pgbind_ConvertError;

/*
 * Converts in (in_len bytes, from_major's encoding) to to_major's encoding, in *out (malloc'd,
 * *out_len bytes; free() it). The output's ParseResult.version is to_major's PG_VERSION_NUM (of
 * the libpg_query tree the tables were generated from). Returns PGBIND_CONVERT_OK, or a code with
 * err filled (err may be NULL) and *out NULL. Thread-safe; allocates only the output and a
 * working stack.
 */
pgbind_ConvertCode pgbind_convert_protobuf(int from_major, int to_major, const uint8_t *in, size_t in_len,
										   uint8_t **out, size_t *out_len, pgbind_ConvertError *err);

/* Whether a transcoder from from_major to to_major was built. */
int pgbind_convert_has_pair(int from_major, int to_major);

#ifdef __cplusplus
}
#endif

#endif
