/*
 * cli_sequence.c -- every major's pgbind command (build/majors/pgNN/cmd/pgbind.o, cli/major.h) in one
 * process, called one after another, each with its own static state: the deparse server
 * (targets/c/runtime/pg_route.c, proc.c) and its pthread_atfork handler, the runtime's tables. The
 * command itself runs one major per process (cli/main.c); this is what holds when a program calls
 * several (mk/majors.mk links it with the command's table of majors and its host, cli/host.c).
 *
 *   cli_sequence FILE   (FILE: SET TIME ZONE INTERVAL '1 hour')
 *
 * Deparses FILE with each major in the order 15, every other built, 15 again, and again the others:
 * the known answers (tests/run.sh's cli part has them per build) are 15's SQL `SET timezone TO `
 * (exit 0), and an error from 17 on (exit 1: 17's deparser dies of SIGSEGV in its server, 18's
 * raises an error), never a signal; a server one major started, or lost, leaves the others' alone.
 * Prints "ok - ..." or "not ok - ..." per call and "N passed, M failed"; exit 1 on any failure, 2
 * when the build lacks 15.
 */
#include "major.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

/* major m's `pgbind deparse FILE`, its standard output and error in out (cut to size) */
static int deparse(const cli_Major *m, const char *file, char *out, size_t size)
{
	char path[] = "/tmp/cli_sequence.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("cli_sequence: mkstemp");
		exit(2);
	}
	unlink(path);
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(1), saved_err = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	char *argv[] = {"pgbind", "deparse", (char *)file, NULL};
	int rc = m->main(3, argv, &cli_host);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	ssize_t n = pread(fd, out, size - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return rc;
}

static void check(const cli_Major *m, const char *file)
{
	char out[4096];
	int rc = deparse(m, file, out, sizeof out);
	bool ok = rc == 0 || rc == 1; /* a major without a known answer: no signal */
	if (m->major == 15)
		ok = rc == 0 && strcmp(out, "SET timezone TO \n") == 0;
	else if (m->major >= 17)
		ok = rc == 1 && strstr(out, ":1:1: error: statement 1: ") != NULL;
	printf("%s - deparse with %d: exit %d, %s", ok ? "ok" : "not ok", m->major, rc, out);
	ok ? passed++ : failed++;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: cli_sequence FILE\n", stderr);
		return 2;
	}
	const cli_Major *pg15 = NULL;
	for (int i = 0; cli_majors[i]; i++)
		if (cli_majors[i]->major == 15)
			pg15 = cli_majors[i];
	if (!pg15) {
		fputs("cli_sequence: the build has no PostgreSQL 15\n", stderr);
		return 2;
	}
	for (int round = 0; round < 2; round++) {
		check(pg15, argv[1]);
		for (int i = 0; cli_majors[i]; i++)
			if (cli_majors[i] != pg15)
				check(cli_majors[i], argv[1]);
	}
	check(pg15, argv[1]);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
