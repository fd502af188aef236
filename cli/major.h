/*
 * major.h -- what the major-neutral main of the pgbind command (cli/main.c) sees of one
 * PostgreSQL major's pgbind, and what a major's command sees of the others: one constant,
 * cli_major, defined by cli/pgbind.c, and the host (cli/host.c) main.c passes every major's
 * command. mk/majors.mk compiles the command's files once per major (against that major's
 * generated code and libpg_query tree) and links each major's into one object whose only global
 * symbol is that constant, renamed pgbind_pgNN_cli_major (scripts/majors/link-command.sh); the
 * table of every major built (build/majors/cli_table.c, written by mk/majors.mk) lists them for
 * main.c. A major's object links nothing of the others' nor the converters between majors
 * (targets/c/runtime/pgbind_convert.h, linked once into the command): it reaches them through the
 * host, so that each object stays self-contained.
 */
#ifndef PGBIND_CLI_MAJOR_H
#define PGBIND_CLI_MAJOR_H

#include "pgbind_convert.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_Major;

/* What cli/main.c gives a major's command (cli/host.c): the majors built and the converters. */
typedef struct cli_Host {
	const struct cli_Major *const *majors; /* every major built, ascending, then NULL */
	/* pgbind_convert_protobuf and pgbind_convert_has_pair (one pair's tables, both ways) */
	pgbind_ConvertCode (*convert)(int from_major, int to_major, const uint8_t *in, size_t in_len, uint8_t **out,
								  size_t *out_len, pgbind_ConvertError *err);
	int (*has_pair)(int from_major, int to_major);
} cli_Host;

typedef struct cli_Major {
	int major;                  /* the PostgreSQL major its libpg_query parses as (PG_VERSION_NUM / 10000) */
	const char *pgbind_version; /* 0.MAJOR.N, as the packages built for that major (scripts/dist.sh) */
	/* "libpg_query for PostgreSQL 17.4 (PG_VERSION_NUM 170004), release 17-6.1.0-1": the library,
	 * from its own pg_query.h, and its release (Debian's package version, or the tree's path) */
	const char *libpg_query;
	/* the command (cli/pgbind.c): argv without --pg, argv[0] the program; the exit code */
	int (*main)(int argc, char **argv, const cli_Host *host);
	/* cli/as.c, for another major's command (parse --as): this major's protobuf encoding of a
	 * ParseResult written as format, "json" (pgbind_json: what this major's libpg_query writes)
	 * or "text" (pgbind_text), malloc'd and NUL-terminated; NULL with why on failure */
	char *(*write_tree)(const uint8_t *in, size_t len, const char *format, char *why, size_t why_size);
	/* cli/as.c, for another major's command (deparse of a tree in this major's form): JSON in
	 * this major's form read (pgbind_json_read) into its protobuf encoding, *out malloc'd; false
	 * with why (the reader's message: line, column and path) */
	bool (*read_json)(const char *json, size_t len, uint8_t **out, size_t *out_len, char *why, size_t why_size);
} cli_Major;

/* cli/pgbind.c: this major's (in the command, pgbind_pgNN_cli_major). */
extern const cli_Major cli_major;

/* build/majors/cli_table.c: every major built, ascending, then NULL. */
extern const cli_Major *const cli_majors[];

/* cli/host.c: the host of the command (and of tests/majors/cli_sequence.c). */
extern const cli_Host cli_host;

#endif
