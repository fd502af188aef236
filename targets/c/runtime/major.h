/*
 * major.h -- how the library reaches another PostgreSQL major's libpg_query at run time
 * (pgbind_Options.pg_major; docs/majors.md section 2). Three pieces share it:
 *
 *   - targets/c/runtime/major.c (in every copy of the runtime): the hooks the public functions call
 *     at their top when options->pg_major is set, and pgbind_majors(). The library's own major goes
 *     back to the public function with pg_major 0; a major not built is PGBIND_ERROR_ARGUMENT; any
 *     other goes to the dispatch below, when the program has it.
 *   - targets/c/runtime/major_entry.c, compiled once per other major against that major's generated
 *     code and tree, linked with its libpg_query into one object exporting one constant,
 *     pgbind_pgNN_lib_major (scripts/majors/link-command.sh, mk/lib-majors.mk): that major's
 *     pgbind functions at the protobuf and string level, its answers written into the caller's
 *     memory through pgbind_MajorOut.
 *   - targets/c/runtime/dispatch.c, in libpgbind.a only (with the generated table of the entries,
 *     build/majors/lib_table.c): converts between the library's form and the entry's major
 *     (pgbind_convert_protobuf) and calls the entry.
 *
 * Only types of pgbind.h that no major's generated code shapes cross between copies (pgbind_Options,
 * pgbind_Status, pgbind_Summary, strings and protobuf bytes), so each copy may be compiled against
 * its own major's pgbind_ast.h; the entry records their sizes and PGBIND_MAJOR_ABI, checked before
 * a call.
 */
#ifndef PGBIND_MAJOR_H
#define PGBIND_MAJOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbind.h"

/* The shape of pgbind_MajorEntry: raised when it changes. */
#define PGBIND_MAJOR_ABI 1

/* Where an entry writes what it returns: the caller's arena, through the library's allocator. */
typedef struct pgbind_MajorOut {
	void *(*alloc)(void *ctx, size_t size);
	void *ctx;
} pgbind_MajorOut;

/* One token of a major's scan, its numbers by name (each major numbers pg_query.proto's Token and
 * KeywordKind its own way). The names are static strings of the entry's major. */
typedef struct pgbind_MajorToken {
	int32_t start;
	int32_t end;
	const char *token;
	const char *keyword_kind;
} pgbind_MajorToken;

/* One major's pgbind (targets/c/runtime/major_entry.c). Trees travel as that major's protobuf
 * encoding of a ParseResult; options are the caller's with pg_major 0 (the entry's own major). */
typedef struct pgbind_MajorEntry {
	int abi;                                        /* PGBIND_MAJOR_ABI */
	size_t options_size, status_size, summary_size; /* sizeof of the shared types, as compiled */
	pgbind_Major info;                              /* info.own is false */
	bool (*parse)(const char *sql, const pgbind_Options *options, const pgbind_MajorOut *out, const uint8_t **data,
				  size_t *len, pgbind_Status *status);
	const char *(*deparse)(const uint8_t *data, size_t len, const pgbind_Options *options, const pgbind_MajorOut *out,
						   pgbind_Status *status);
	bool (*fingerprint)(const uint8_t *data, size_t len, const pgbind_Options *options, uint64_t *fingerprint,
						pgbind_Status *status);
	const char *(*normalize)(const uint8_t *data, size_t len, const char *sql, const pgbind_Options *options,
							 const pgbind_MajorOut *out, pgbind_Status *status);
	const char *(*truncate)(const uint8_t *data, size_t len, int max_length, const pgbind_Options *options,
							const pgbind_MajorOut *out, pgbind_Status *status);
	/* pgbind_summary of the tree (data, len), or, when sql is not NULL, pgbind_summary_sql of sql */
	pgbind_Summary *(*summary)(const uint8_t *data, size_t len, const char *sql, int truncate_limit,
							   const pgbind_Options *options, const pgbind_MajorOut *out, pgbind_Status *status);
	bool (*scan)(const char *sql, const pgbind_Options *options, const pgbind_MajorOut *out, pgbind_MajorToken **tokens,
				 size_t *n_tokens, pgbind_Status *status);
} pgbind_MajorEntry;

/* build/majors/lib_table.c's (mk/lib-majors.mk), in libpgbind.a: the other majors' entries, then NULL. */
extern const pgbind_MajorEntry *const pgbind_lib_majors[];

/* targets/c/runtime/major_entry.c's, in each other major's object (pgbind_pgNN_lib_major there). */
extern const pgbind_MajorEntry lib_major;

/* What the library adds to the runtime (targets/c/runtime/dispatch.c): the entries of the other
 * majors and the route through each. major.c refers to it weakly: a program without it (the
 * shared library, the command's copies of the runtime, tests that compile the runtime themselves)
 * holds its own major alone. */
typedef struct pgbind_MajorDispatch {
	int own_major;                           /* the major the dispatch's conversions target */
	const pgbind_MajorEntry *const *entries; /* build/majors/lib_table.c: ascending, then NULL */
	pgbind_ParseResult *(*parse)(const pgbind_MajorEntry *e, const char *sql, const pgbind_Options *options,
								 pgbind_Arena *arena, pgbind_Status *status);
	const char *(*deparse)(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const pgbind_Options *options,
						   pgbind_Arena *arena, pgbind_Status *status);
	bool (*fingerprint)(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const pgbind_Options *options,
						uint64_t *fingerprint, pgbind_Status *status);
	const char *(*normalize)(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const char *sql,
							 const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status);
	const char *(*truncate)(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, int max_length,
							const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status);
	pgbind_Summary *(*summary)(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const char *sql,
							   int truncate_limit, const pgbind_Options *options, pgbind_Arena *arena,
							   pgbind_Status *status);
	pgbind_ScanResult *(*scan)(const pgbind_MajorEntry *e, const char *sql, const pgbind_Options *options,
							   pgbind_Arena *arena, pgbind_Status *status);
} pgbind_MajorDispatch;

/* The hook, one line at the top of each public function that takes options: another major than
 * pg_major 0 goes to call, one of the functions below (targets/c/runtime/major.c), e.g.
 *   PGBIND_OTHER_MAJOR(options, pgbind_major_parse(sql, options, arena, status)); */
#define PGBIND_OTHER_MAJOR(options, call) \
	if ((options) && (options)->pg_major) \
	return call

pgbind_ParseResult *pgbind_major_parse(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
									   pgbind_Status *status);
const char *pgbind_major_deparse(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								 pgbind_Status *status);
bool pgbind_major_fingerprint(const pgbind_ParseResult *tree, const pgbind_Options *options, uint64_t *fingerprint,
							  pgbind_Status *status);
const char *pgbind_major_normalize(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
								   pgbind_Arena *arena, pgbind_Status *status);
const char *pgbind_major_truncate(const pgbind_ParseResult *tree, int max_length, const pgbind_Options *options,
								  pgbind_Arena *arena, pgbind_Status *status);
pgbind_Summary *pgbind_major_summary(const pgbind_ParseResult *tree, int truncate_limit, const pgbind_Options *options,
									 pgbind_Arena *arena, pgbind_Status *status);
pgbind_Summary *pgbind_major_summary_sql(const char *sql, int truncate_limit, const pgbind_Options *options,
										 pgbind_Arena *arena, pgbind_Status *status);
pgbind_ScanResult *pgbind_major_scan(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status);

#endif
