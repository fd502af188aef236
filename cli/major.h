/*
 * major.h -- what the major-neutral main of the pgbind command (cli/main.c) sees of one
 * PostgreSQL major's pgbind: one constant, cli_major, defined by cli/pgbind.c. mk/majors.mk
 * compiles the command's files once per major (against that major's generated code and
 * libpg_query tree) and links each major's into one object whose only global symbol is that
 * constant, renamed pgbind_pgNN_cli_major (scripts/majors/link-command.sh); the table of every
 * major built (build/majors/cli_table.c, written by mk/majors.mk) lists them for main.c.
 */
#ifndef PGBIND_CLI_MAJOR_H
#define PGBIND_CLI_MAJOR_H

typedef struct cli_Major {
	int major;                  /* the PostgreSQL major its libpg_query parses as (PG_VERSION_NUM / 10000) */
	const char *pgbind_version; /* 0.MAJOR.N, as the packages built for that major (scripts/dist.sh) */
	/* "libpg_query for PostgreSQL 17.4 (PG_VERSION_NUM 170004), release 17-6.1.0-1": the library,
	 * from its own pg_query.h, and its release (Debian's package version, or the tree's path) */
	const char *libpg_query;
	/* the command (cli/pgbind.c): argv without --pg, argv[0] the program; the exit code */
	int (*main)(int argc, char **argv);
} cli_Major;

/* cli/pgbind.c: this major's (in the command, pgbind_pgNN_cli_major). */
extern const cli_Major cli_major;

/* build/majors/cli_table.c: every major built, ascending, then NULL. */
extern const cli_Major *const cli_majors[];

#endif
