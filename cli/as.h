/*
 * as.h -- the pgbind command's conversions between PostgreSQL majors (cli/as.c): `pgbind parse
 * --pg=N --as=M` (N's parse in M's form) and `pgbind deparse --pg=N` of a tree in another major's
 * form (its version says which). Compiled into each major's command; the converters and the
 * other majors are the host's (cli/major.h), never linked into a major's object.
 */
#ifndef PGBIND_CLI_AS_H
#define PGBIND_CLI_AS_H

#include "major.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The major built as n, or NULL. */
const cli_Major *cli_host_major(const cli_Host *host, int n);

/* The majors built, "15, 17, 18", for messages. */
void cli_list_majors(const cli_Host *host, char *out, size_t size);

/* The major --as names (value, of `pgbind command`): its number, or 0 after a message naming the
 * majors built (a usage error, as cli/main.c's for --pg). */
int cli_as_major(const cli_Host *host, const char *command, const char *value);

/* Converts in (from's protobuf encoding of a ParseResult) to to's, *out malloc'd: through the
 * host's converter of the pair where one was generated, else through the newest major that has a
 * pair with both (15 -> 18 -> 17); PGBIND_CONVERT_NO_PAIR when none does. err as the converter's. */
pgbind_ConvertCode cli_as_convert(const cli_Host *host, int from, int to, const uint8_t *in, size_t len, uint8_t **out,
								  size_t *out_len, pgbind_ConvertError *err);

/* The statement a converter's message names by its path ("stmts[K]..."): K, or -1. */
long cli_path_statement(const char *message);

/* What cli_as_own made of a tree of another major: own's protobuf encoding (data, len: malloc'd),
 * each statement converted alone; no_form[i] (malloc'd, n of them) the message of statement i when
 * it has no form in own (then an empty RawStmt stands in its place), else NULL. */
typedef struct {
	uint8_t *data;
	size_t len;
	char **no_form;
	size_t n;
} cli_AsTree;

/*
 * A tree read from outside (JSON or protobuf bytes, input[0 .. len)) for major own's command: its
 * ParseResult.version says its major. 0: the tree is own's (or says no version, or the version
 * cannot be found: own's reader then reports the input as before); 1: it is another major's, now
 * converted to own's in *tree (cli_as_free frees it); -1: it cannot be (a version of a major not
 * built, its JSON not that major's, bytes the converter finds malformed), why says so.
 */
int cli_as_own(const cli_Host *host, int own, const char *input, size_t len, bool json, cli_AsTree *tree, char *why,
			   size_t why_size);
void cli_as_free(cli_AsTree *tree);

/* This major's entries for the others' commands (cli/major.h's write_tree and read_json). */
char *cli_write_tree(const uint8_t *in, size_t len, const char *format, char *why, size_t why_size);
bool cli_read_json(const char *json, size_t len, uint8_t **out, size_t *out_len, char *why, size_t why_size);

#endif
