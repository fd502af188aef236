/*
 * cli.h -- what the pgbind command's files share: the statement reader (reader/reader.h, its own
 * library) and the subcommands.
 */
#ifndef PGBIND_CLI_H
#define PGBIND_CLI_H

#include "../reader/reader.h"

#include <stdbool.h>
#include <stddef.h>

struct pgbind_ParseResult;
#include <stdint.h>

/* verify_pg.c: to_nodes(tree) is equal() to libpg_query's reading of want, and writes want back. */
bool verify_to_nodes(const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why,
					 size_t size);

/* verify.c: every comparison of `pgbind verify` on a text as on a file's content (prepared and
 * split into statements the same way, each statement verified alone); returns the failed checks.
 * The fuzzer's oracle: an input it keeps fails `pgbind verify` as a file. */
long verify_sql(const char *sql);

/* verify_pg.c: libpg_query's reading of want is not equal() to the tree's own nodes (empty strings
 * kept): the protocol lost something. */
bool verify_protocol_loses(const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len);
/* Whether the two trees, turned into PostgreSQL nodes with "" kept, hold equal() statements, one
 * by one (equal() ignores locations; RawStmt's stmt_len, the text's, is not compared). */
bool verify_same_nodes(const struct pgbind_ParseResult *a, const struct pgbind_ParseResult *b);

typedef struct cli_JsonVerdict {
	bool text_ok; /* pgbind_json == pg_query_parse's JSON, the known bug aside */
	bool read_ok; /* JSON -> AST -> protobuf == pg_query_parse_protobuf; read(ours) == tree */
	int lost;     /* values libpg_query's JSON lost (negative Integers) in this statement */
	char text_why[768];
	char read_why[768];
} cli_JsonVerdict;

/* json_verify.c: the JSON checks of one statement libpg_query parsed into want (its protobuf). */
void verify_json(const char *stmt, const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len,
				 cli_JsonVerdict *verdict);
/* Whether the linked libpg_query writes an Integer below zero as {} in its JSON (15-4.0.0). */
bool library_loses_negative_integers(void);
/* That bug applied to pgbind's JSON where the library has it ({"ival":-N} -> {}; a '{' followed
 * by "ival":- cannot occur inside a JSON string): a malloc'd copy, NULL when memory ran out;
 * *n_applied counts the values lost. */
char *json_with_known_bugs(const char *json, int *n_applied);

struct pgbind_Summary;
#include <stdio.h>
/* summary.c: summary as one line of JSON (no newline): the proto's field names, every field
 * written, an absent string null, contexts by their proto names, aliases an object. */
void cli_print_summary_json(const struct pgbind_Summary *summary, FILE *out);

/* verify_summary.c: pgbind_summary's protobuf against the linked libpg_query's pg_query_summary
 * (alias entries as a set: libpg_query writes them in a random order). 1 equal, 0 not (why says
 * how), -1 not compared: the library has no pg_query_summary (before 18). */
int verify_summary(const char *stmt, const struct pgbind_ParseResult *tree, char *why, size_t size);
/* Whether two SummaryResult protobufs are equal but for the order of their alias entries. */
bool cli_summary_bytes_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);
/* The bytes as text for a message (printable ASCII kept, the rest \xNN), cut to fit size. */
void cli_summary_show(char *out, size_t size, const uint8_t *data, size_t len);

/* verify.c: `pgbind verify` (argv[0] is "verify"); the exit code. */
int cli_verify(int argc, char **argv);

#endif
