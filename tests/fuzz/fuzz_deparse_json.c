/*
 * fuzz_deparse_json.c -- libFuzzer target: arbitrary bytes as JSON for pgbind_json_read, then
 * deparsed: what the reader accepts, pgbind_deparse turns into SQL or refuses, never crashing the
 * calling process (a tree from outside: the deparser runs isolated, pgbind_Options.isolate_deparse,
 * and its crash in the child is an error, counted); and the contract's generated walk agrees with
 * its reference walk.
 */
#include "../contract_same.h"
#include "pgbind.h"
#include "pgbind_json.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the generated contract walk and the reference one agree, or the run stops with both verdicts */
static void walks_agree(const pgbind_ParseResult *tree)
{
	char why[1200];
	if (!contract_walks_agree(tree, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		abort();
	}
}

/* The isolated deparse of tree: SQL or an error with a status; the deparser's death in its child
 * is one, noted in the log (tests/fuzz/run.sh counts them). */
static void deparse_isolated(const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	static const pgbind_Options isolated = {.isolate_deparse = true};
	pgbind_Status status = {0};
	if (pgbind_deparse(tree, &isolated, arena, &status))
		return;
	if (status.code == PGBIND_OK)
		abort(); /* a failure says why */
	if (status.code == PGBIND_ERROR_DEPARSER_CRASHED)
		fprintf(stderr, "pgbind fuzz: the isolated deparser crashed: %s\n", status.message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_json_read((const char *)data, size, NULL, arena, &status);
	if (tree)
		walks_agree(tree);
	if (tree)
		deparse_isolated(tree, arena);
	pgbind_Arena_Free(arena);
	return 0;
}
