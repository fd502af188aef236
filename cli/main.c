/*
 * main.c -- the pgbind command's entry, the same for every PostgreSQL major: it takes --pg=N out
 * of the command line (before the subcommand, `pgbind --pg=17 parse`, or among its options,
 * `pgbind parse --pg=17`; never after `--`), and runs major N's command (cli/pgbind.c, compiled and
 * linked once per major: cli/major.h) on the rest. Without --pg, the newest major built. `pgbind
 * --version` lists every major built. Depends on libc, the table of majors mk/majors.mk writes
 * (build/majors/cli_table.c) and the host every major's command gets (cli/host.c: that table and
 * the converters between majors, for parse --as and deparse of another major's tree); nothing here
 * knows a major's code or its libpg_query.
 */
#include "major.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_USAGE = 2 }; /* cli/pgbind.c's exit codes: 2, the command line is wrong */

/* The majors built, "15, 17, 18", for messages. */
static void list_majors(char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; cli_majors[i] && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%d", i ? ", " : "", cli_majors[i]->major);
}

static const cli_Major *newest(void)
{
	const cli_Major *m = cli_majors[0];
	for (int i = 1; cli_majors[i]; i++)
		if (cli_majors[i]->major > m->major)
			m = cli_majors[i];
	return m;
}

/* The major --pg names, or NULL after a message. */
static const cli_Major *major_named(const char *value)
{
	char built[256];
	list_majors(built, sizeof built);
	char *end;
	long n = strtol(value, &end, 10);
	if (!*value || *end || n <= 0) {
		fprintf(stderr, "pgbind: --pg takes a PostgreSQL major (built: %s), not '%s'\n", built, value);
		return NULL;
	}
	for (int i = 0; cli_majors[i]; i++)
		if (cli_majors[i]->major == n)
			return cli_majors[i];
	fprintf(stderr,
			"pgbind: --pg=%s: PostgreSQL %ld is not built into this pgbind (built: %s; pgbind --version lists them)\n",
			value, n, built);
	return NULL;
}

static void version(const cli_Major *chosen)
{
	printf("pgbind %s\n", chosen->pgbind_version);
	for (int i = 0; cli_majors[i]; i++)
		printf("%s: --pg=%d%s\n", cli_majors[i]->libpg_query, cli_majors[i]->major,
			   cli_majors[i] == newest() ? " (the default)" : "");
}

int main(int argc, char **argv)
{
	/* argv without --pg: at most argc entries and the NULL */
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	if (!rest) {
		fputs("pgbind: out of memory\n", stderr);
		return 1;
	}
	const char *pg = NULL;
	int n = 0;
	bool options_end = false;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		if (i > 0 && !options_end && strncmp(arg, "--pg=", 5) == 0) {
			pg = arg + 5;
		} else if (i > 0 && !options_end && strcmp(arg, "--pg") == 0) {
			if (i + 1 >= argc) {
				fputs("pgbind: option --pg needs a value (a PostgreSQL major: pgbind --version lists them)\n", stderr);
				free(rest);
				return EXIT_USAGE;
			}
			pg = argv[++i];
		} else {
			options_end = options_end || (i > 0 && strcmp(arg, "--") == 0);
			rest[n++] = argv[i];
		}
	}
	const cli_Major *m = pg ? major_named(pg) : newest();
	int rc;
	if (!m)
		rc = EXIT_USAGE;
	else if (n >= 2 && strcmp(rest[1], "--version") == 0) {
		version(m);
		rc = fflush(stdout) == 0 ? 0 : 1;
	} else
		rc = m->main(n, rest, &cli_host);
	free(rest);
	return rc;
}
