/*
 * one_process.c -- the test of the link layer (docs/majors.md, mk/majors.mk): every major's
 * libpg_query, renamed by scripts/majors/link-major.sh, and the unrenamed libpg_query a user's own
 * program links (-lpg_query), in one process. Each is seen through tests/majors/answers.c; the
 * majors are build/majors/table.c's (generated from MAJORS).
 *
 *   one_process [--threads=N] [--rounds=N] FILE...
 *
 * Inputs: a few statements written here, then each FILE's whole text. Checks:
 *   1. every copy's answers to every input equal those of the same major's own library alone in
 *      another process (tests/majors/reference.c, run here), byte for byte;
 *   2. facts known without running anything: the JSON of each copy carries its own header's
 *      PG_VERSION_NUM (so a call did not land in another major's code), whose major is the one the
 *      build says; SELECT JSON_OBJECT('a': 1) is a syntax error at ':' (cursor position 23, 1-based)
 *      before PostgreSQL 16, which added the SQL/JSON constructors, and a JsonObjectConstructor with
 *      a JsonKeyValue from 16 on; every copy fingerprints SELECT 1;
 *   3. N threads (4) calling every copy at once, R rounds (2) over every input, each answer equal
 *      to the reference (run under ThreadSanitizer by make check too).
 * Prints "ok - ..." / "not ok - ..." lines and "P passed, F failed"; exit 0 when none failed, 1 when
 * one did, 2 on bad usage or an input or reference that cannot be read or run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "answers.h"
#include "read_file.h"

#define JSON_OBJECT_SQL "SELECT JSON_OBJECT('a': 1)"

/* Statements whose answers differ between majors (MERGE ... RETURNING is 17's, JSON_OBJECT 16's),
 * and plain ones, so that a copy answering for another major is seen. */
static const char *const builtin[] = {
	JSON_OBJECT_SQL,
	"SELECT 1",
	"SELECT a, b FROM t WHERE a = $1 AND b IN ('x', 'y') ORDER BY 1",
	"MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE RETURNING *",
	"SELECT a FROM t WHERE",
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

typedef struct Copy {
	const char *label;
	int major;
	const MajorApi *api;
	const char *reference;
	char **expected; /* per input, the reference's answers */
} Copy;

static int n_inputs;
static const char **input_name;
static char **input_sql;
static Copy copies[64];
static int n_copies;
static int passed, failed;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s - ", ok ? "ok" : "not ok");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	if (ok)
		passed++;
	else
		failed++;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("one_process: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* Runs a reference program on every input and returns its answers, one per input. */
static char **run_reference(const char *path)
{
	char **argv = calloc((size_t)n_inputs * 2 + 2, sizeof *argv);
	if (!argv)
		die("out of memory");
	int argc = 0;
	argv[argc++] = (char *)path;
	for (int i = 0; i < n_inputs; i++) {
		if (i < (int)N_BUILTIN) {
			argv[argc++] = "-c";
			argv[argc++] = input_sql[i];
		} else {
			argv[argc++] = (char *)input_name[i];
		}
	}
	int fd[2];
	if (pipe(fd) != 0)
		die("pipe failed");
	pid_t pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(path, argv);
		fprintf(stderr, "one_process: cannot run %s\n", path);
		_exit(127);
	}
	close(fd[1]);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	ssize_t n;
	while (out && (n = read(fd[0], out + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len - 1 == 0)
			out = realloc(out, cap *= 2);
	}
	close(fd[0]);
	int status;
	if (!out || waitpid(pid, &status, 0) != pid)
		die("reading %s failed", path);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("%s ended with %s %d", path, WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	out[len] = '\0';
	char **answers = calloc((size_t)n_inputs, sizeof *answers);
	char *p = out, *end = out + len;
	for (int i = 0; i < n_inputs; i++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t size = nl ? strtoul(p, NULL, 10) : 0;
		if (!answers || !nl || size > (size_t)(end - nl - 1))
			die("%s wrote %d answers for %d inputs", path, i, n_inputs);
		answers[i] = strndup(nl + 1, size);
		p = nl + 1 + size;
	}
	if (p != end)
		die("%s wrote more than %d answers", path, n_inputs);
	free(out);
	free(argv);
	return answers;
}

/* The first line where two answers differ, for the failure message. */
static void show_difference(const char *got, const char *want)
{
	size_t i = 0, line = 1, start = 0;
	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	printf("    line %zu: got  %.160s\n", line, got + start);
	printf("    line %zu: want %.160s\n", line, want + start);
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void check_facts(const Copy *c)
{
	int v = c->api->version_num;
	char want[64];
	snprintf(want, sizeof want, "parse: {\"version\":%d,", v);
	char *one = c->api->answers("SELECT 1");
	check(v / 10000 == c->major && starts_with(one, want),
		  "%s: SELECT 1's JSON carries PG_VERSION_NUM %d of the header it was compiled against, major %d", c->label, v,
		  c->major);
	const char *fp = strstr(one, "\nfingerprint: ");
	check(fp && strspn(fp + 14, "0123456789abcdef") == 16 && fp[30] == '\n', "%s: fingerprints SELECT 1 (%.16s)",
		  c->label, fp ? fp + 14 : "(none)");
	free(one);
	char *json = c->api->answers(JSON_OBJECT_SQL);
	if (c->major < 16)
		check(starts_with(json, "parse error: syntax error at or near \":\" (cursorpos 23,") &&
				  strstr(json, "\nfingerprint error: syntax error at or near \":\""),
			  "%s: %s is a syntax error at ':' before PostgreSQL 16", c->label, JSON_OBJECT_SQL);
	else
		check(starts_with(json, want) && strstr(json, "{\"JsonObjectConstructor\":") &&
				  strstr(json, "{\"JsonKeyValue\":") && strstr(json, "\nfingerprint: "),
			  "%s: %s parses to a JsonObjectConstructor from PostgreSQL 16 on, and fingerprints", c->label,
			  JSON_OBJECT_SQL);
	free(json);
}

static int threads_rounds = 2;
static int mismatches;
static long calls;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

/* Each thread goes through every (copy, input) pair, from its own starting point, so that at any
 * moment the threads are in different majors' code. */
static void *thread_main(void *arg)
{
	int id = (int)(long)arg;
	int total = n_copies * n_inputs, bad = 0;
	long n = 0;
	for (int r = 0; r < threads_rounds; r++) {
		for (int k = 0; k < total; k++) {
			int j = (k + id * (total / 4 + 1)) % total;
			const Copy *c = &copies[j % n_copies];
			int i = j / n_copies;
			char *a = c->api->answers(input_sql[i]);
			if (strcmp(a, c->expected[i]) != 0)
				bad++;
			free(a);
			n++;
		}
	}
	pthread_mutex_lock(&count_lock);
	mismatches += bad;
	calls += n;
	pthread_mutex_unlock(&count_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int n_threads = 4, first_file = 1;
	for (; first_file < argc && starts_with(argv[first_file], "--"); first_file++) {
		const char *a = argv[first_file];
		if (starts_with(a, "--threads="))
			n_threads = atoi(a + 10);
		else if (starts_with(a, "--rounds="))
			threads_rounds = atoi(a + 9);
		else
			die("unknown option %s (usage: one_process [--threads=N] [--rounds=N] FILE...)", a);
	}
	if (n_threads < 1 || n_threads > 64 || threads_rounds < 1)
		die("--threads takes 1 to 64, --rounds at least 1");

	n_inputs = (int)N_BUILTIN + (argc - first_file);
	input_name = calloc((size_t)n_inputs, sizeof *input_name);
	input_sql = calloc((size_t)n_inputs, sizeof *input_sql);
	if (!input_name || !input_sql)
		die("out of memory");
	for (int i = 0; i < n_inputs; i++) {
		if (i < (int)N_BUILTIN) {
			input_name[i] = builtin[i];
			input_sql[i] = strdup(builtin[i]);
		} else {
			input_name[i] = argv[first_file + i - (int)N_BUILTIN];
			if (!(input_sql[i] = majors_read_file(input_name[i])))
				die("cannot read %s", input_name[i]);
		}
	}

	for (const MajorEntry *e = majors_table; e->api; e++) {
		if (n_copies == 63)
			die("too many majors");
		copies[n_copies++] = (Copy){e->api->label, e->major, e->api, e->reference, NULL};
	}
	for (int k = 0; k < n_copies; k++)
		if (copies[k].major == majors_user.major)
			copies[n_copies] =
				(Copy){majors_user.api->label, majors_user.major, majors_user.api, copies[k].reference, NULL};
	if (!copies[n_copies].api)
		die("the user's libpg_query is %d, a major the build has not renamed a copy of", majors_user.major);
	n_copies++;

	printf("# %d copies (", n_copies);
	for (int k = 0; k < n_copies; k++)
		printf("%s%s", k ? ", " : "", copies[k].label);
	printf("), %d inputs (%zu statements, %d files)\n", n_inputs, N_BUILTIN, n_inputs - (int)N_BUILTIN);

	/* 1. each copy against its major's own library in another process */
	for (int k = 0; k < n_copies; k++) {
		Copy *c = &copies[k];
		for (int j = 0; j < k; j++)
			if (strcmp(copies[j].reference, c->reference) == 0)
				c->expected = copies[j].expected;
		if (!c->expected)
			c->expected = run_reference(c->reference);
		int differ = 0;
		for (int i = 0; i < n_inputs; i++) {
			char *a = c->api->answers(input_sql[i]);
			if (strcmp(a, c->expected[i]) != 0) {
				if (differ++ < 3) {
					printf("# %s differs from %s on %s:\n", c->label, c->reference, input_name[i]);
					show_difference(a, c->expected[i]);
				}
			}
			free(a);
		}
		check(differ == 0, "%s: parse (JSON), protobuf, fingerprint and normalize of %d inputs equal %s's (%d differ)",
			  c->label, n_inputs, c->reference, differ);
	}

	/* 2. what is known without running anything */
	for (int k = 0; k < n_copies; k++)
		check_facts(&copies[k]);
	int distinct = 1;
	for (int k = 0; k < n_copies; k++)
		for (int j = 0; j < k; j++)
			if ((copies[j].major == copies[k].major) != (strcmp(copies[j].expected[0], copies[k].expected[0]) == 0 &&
														 strcmp(copies[j].expected[1], copies[k].expected[1]) == 0))
				distinct = 0;
	check(distinct, "copies of one major answer %s and SELECT 1 alike, of two majors differently", JSON_OBJECT_SQL);

	/* 3. every copy from several threads at once */
	pthread_t threads[64];
	for (int t = 0; t < n_threads; t++)
		if (pthread_create(&threads[t], NULL, thread_main, (void *)(long)t) != 0)
			die("pthread_create failed");
	for (int t = 0; t < n_threads; t++)
		pthread_join(threads[t], NULL);
	check(mismatches == 0 && calls == (long)n_threads * threads_rounds * n_copies * n_inputs,
		  "%d threads, every copy at once: %ld answers, %d differ from the reference", n_threads, calls, mismatches);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
