/*
 * verify.h -- what the files of `pgbind verify` share: the counts, how a mismatch is reported, and
 * the entry points of its parts. cli/verify.c reads the files and runs the checks of each
 * statement; cli/verify_deparse.c judges the deparse; cli/verify_oracle.c runs libpg_query, the
 * oracle, in other processes (targets/c/runtime/proc.h); cli/verify_coverage.c counts the node
 * kinds and fields seen. The runtime's internal functions they use come through
 * targets/c/runtime/pgbind_oracle.h, never internal.h.
 */
#ifndef PGBIND_VERIFY_H
#define PGBIND_VERIFY_H

#include "pgbind.h"
#include "pgbind_oracle.h"
#include "pgbind_reflect.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	const char *name;
	long passed, failed;
} Check;

enum {
	CHECK_PROTOBUF,
	CHECK_DECODE,
	CHECK_REENCODE,
	CHECK_TO_NODES,
	CHECK_DEPARSE,
	CHECK_DEPARSE_REFUSED,
	CHECK_DEPARSE_KEEPS,
	CHECK_DEPARSE_THEIRS_WRONG,
	CHECK_DEPARSE_MEMORY,
	CHECK_DEPARSE_DEPTH,
	CHECK_DEPARSE_ISOLATED,
	CHECK_ROUND_TRIP,
	CHECK_ROUND_TRIP_BUGS,
	CHECK_DEPARSER_FAILS,
	CHECK_FINGERPRINT,
	CHECK_NORMALIZE,
	CHECK_FILE_FINGERPRINT,
	CHECK_FILE_NORMALIZE,
	CHECK_LIBRARY_CRASHED,
	CHECK_SCAN,
	CHECK_JSON,
	CHECK_JSON_READ,
	CHECK_SYNTAX_ERRORS,
	CHECK_SUMMARY,
	N_CHECKS
};

typedef struct {
	Check checks[N_CHECKS];
	long statements;
	long json_lost, json_lost_statements; /* values libpg_query's JSON loses (its negative-integer bug) */
	/* coverage: per message, seen; per message field, seen set */
	bool msg_seen[PGBIND_MESSAGE_COUNT];
	bool *field_seen[PGBIND_MESSAGE_COUNT];
	bool coverage;
	bool verbose; /* list the statements libpg_query's deparser gets wrong */
	long unsound; /* parsed trees that break a rule of the deparse contract, deparsed right in the server */
} Verify;

/* ---- verify.c ---- */

/* Counts one check's outcome. */
void verify_report(Verify *v, int check, bool ok);
/* Prints a MISMATCH line: where, the statement, what differs. */
void verify_mismatch(const char *file, int line, size_t stmt_at, const char *stmt, const char *what);
/* libpg_query, the oracle, crashed (in its process) or wrote what cannot be right where pgbind
 * answered: its bug, counted on its own row and named; pgbind's answer is not compared. line 0:
 * the whole file. */
void verify_library_crashed(Verify *v, const char *file, int line, const char *what, const char *how);
/* Whether pgbind's message is libpg_query's (pgbind_Status.message holds the first sizeof - 1
 * bytes of a longer one). */
bool verify_same_message(const char *ours, const char *theirs);

/* ---- verify_deparse.c ---- */

/* The deparse of tree (parsed from stmt, libpg_query's bytes want) against libpg_query's, and the
 * round-trip check (--check) against verify's own reading: one deparse for both. */
void verify_deparse(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
					const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want, size_t want_len);

/* ---- verify_coverage.c ---- */

/* Marks the node kinds and fields tree sets as seen. */
void verify_cover(Verify *v, const pgbind_ParseResult *tree);
/* Writes what was seen to path (and a summary line to stdout); false when it cannot be written. */
bool verify_write_coverage(Verify *v, const char *path);

/* ---- verify_oracle.c: libpg_query in another process ---- */

typedef enum { ORACLE_OK, ORACLE_ERROR, ORACLE_DIED } OracleFate;

typedef struct {
	OracleFate fate;
	uint64_t fingerprint; /* ORACLE_OK of a fingerprint */
	char *text;   /* malloc'd: the normalized text or deparsed SQL (ORACLE_OK) or the error message; else NULL */
	char why[96]; /* ORACLE_DIED: how */
} Oracle;

/* libpg_query's pg_query_normalize (or pg_query_fingerprint) of sql, in the oracle's server. */
void oracle_normalize(const char *sql, bool normalize, Oracle *out);
/* pg_query_deparse_protobuf of these bytes, in the oracle's server (this process never runs
 * libpg_query's deparser: a tree no rule of the contract covers may crash it). */
void oracle_deparse(const uint8_t *bytes, size_t len, Oracle *out);
/* The oracle's server ended (at the end of the run). */
void oracle_stop(void);

/* libpg_query's pg_query_parse_protobuf of a statement, as verify compares it: its error (message
 * and cursor) or its bytes, malloc'd; died: the signal that ended the child it ran in. */
typedef struct {
	int died;
	char *message; /* the error's; NULL when it parsed */
	int cursorpos;
	uint8_t *data;
	size_t len;
} TheirParse;
/* in_child: in a child of its own (a deep statement: libpg_query's parse writes its protobuf
 * recursively), else here. */
void oracle_parse(const char *stmt, bool in_child, TheirParse *out);
/* verify_to_nodes in a child, for a deep tree: libpg_query's reader may crash on it. *died: the
 * signal that ended the child (0: it answered). */
bool oracle_to_nodes_in_child(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why,
							  size_t size, int *died);

#endif
