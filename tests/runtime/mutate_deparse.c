/*
 * mutate_deparse.c -- the mutation experiment of issue 17, repeatable: the protobuf of a whole real
 * script (every statement that parses, as one ParseResult), with 1 to 4 random bytes changed,
 * through pgbind_decode and pgbind_deparse; and the same on its JSON through pgbind_json_read. Each
 * case twice:
 *   - through the isolated deparse (pgbind_Options.isolate_deparse), in this process: it must
 *     never die, whatever the tree; a crash of libpg_query's deparser in its child is a reported
 *     error (PGBIND_ERROR_DEPARSER_CRASHED), counted;
 *   - through the plain deparse, in a child process per case: how often a tree that
 *     pgbind_decode reads and that meets the deparse contract (targets/c/runtime/contract.c; a
 *     tree breaking it is deparsed in a child of its own) kills the caller is measured and
 *     printed, not asserted (the contract knows only the shapes that crashed the deparser in its
 *     probe; isolation is what makes trees from outside harmless).
 * The contract's generated walk must agree with its reference walk on every tree read.
 *
 *     build/tests/mutate_deparse [--cases N] [--json-cases N] [--seed S] FILE.sql...
 *
 * Prints per file how many cases decoded (read), deparsed, were refused, and crashed, each way; a
 * case that kills the plain deparse goes to build/mutate-crash-FILE-N.pb (.json) to replay. Ends
 * with "N passed, M failed" (checks per case: the walks agree, every failure has a status, the
 * isolated deparse returns).
 */
#include "reader.h"
#include "pgbind.h"

#include "../check.h"
#include "../contract_same.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
	pgbind_Arena *arena;
	pgbind_RawStmt **stmts;
	size_t n, cap;
} Script;

static bool add(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	(void)text, (void)at, (void)line, (void)len;
	Script *s = ctx;
	pgbind_Status st;
	pgbind_ParseResult *t = pgbind_parse(stmt, NULL, s->arena, &st);
	free(stmt);
	for (size_t i = 0; t && i < t->n_stmts; i++) {
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 256;
			s->stmts = realloc(s->stmts, s->cap * sizeof *s->stmts);
			if (!s->stmts)
				exit(2);
		}
		s->stmts[s->n++] = t->stmts[i];
	}
	return true;
}

static uint64_t state;
static uint64_t rnd(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* What a case gave: 0 deparsed, 1 refused by the deparse, 2 not read, 3 failed without a status,
 * 4 the contract's two walks disagree (contract_same.h), 5 the deparser crashed in its child
 * (isolated only); 100 + a signal: the plain deparse killed its process. */
static int run_case(const uint8_t *data, size_t len, bool json, bool isolate)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status st;
	pgbind_ParseResult *t =
		json ? pgbind_json_read((const char *)data, len, NULL, arena, &st) : pgbind_decode(data, len, NULL, arena, &st);
	int r = 2;
	char why[1200];
	if (t && !contract_walks_agree(t, why, sizeof why)) {
		printf("#   %s\n", why);
		fflush(stdout);
		r = 4;
	} else if (t) {
		pgbind_Options options = {.isolate_deparse = isolate};
		r = pgbind_deparse(t, &options, arena, &st)               ? 0
			: st.code == PGBIND_ERROR_DEPARSER_CRASHED && isolate ? 5
			: st.code != PGBIND_OK                                ? 1
																  : 3;
	}
	pgbind_Arena_Free(arena);
	return r;
}

/* The plain deparse of a case, in a child process. */
static int run_child(const uint8_t *data, size_t len, bool json)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		static const int deadly[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE};
		for (size_t i = 0; i < sizeof deadly / sizeof *deadly; i++)
			signal(deadly[i], SIG_DFL);
		_exit(run_case(data, len, json, false));
	}
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		;
	if (WIFSIGNALED(ws))
		return 100 + WTERMSIG(ws);
	return WEXITSTATUS(ws);
}

static void save(const char *file, long c, bool json, const uint8_t *buf, size_t len)
{
	char out[300];
	const char *base = strrchr(file, '/');
	snprintf(out, sizeof out, "build/mutate-crash-%s-%ld.%s", base ? base + 1 : file, c, json ? "json" : "pb");
	FILE *f = fopen(out, "wb");
	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
		printf("#   saved as %s\n", out);
	}
}

static void experiment(const char *file, const uint8_t *bytes, size_t len, bool json, long n_cases)
{
	long plain[4] = {0}, isolated[6] = {0};
	uint8_t *buf = malloc(len + 1);
	for (long c = 0; c < n_cases; c++) {
		memcpy(buf, bytes, len);
		int n = 1 + (int)(rnd() % 4);
		for (int k = 0; k < n; k++)
			buf[rnd() % len] = (uint8_t)rnd();
		/* isolated, here: returning at all is the check that matters */
		int r = run_case(buf, len, json, true);
		isolated[r]++;
		CHECK(r != 3 && r != 4, "%s %s case %ld, isolated: %s (%d)", file, json ? "JSON" : "protobuf", c,
			  r == 4 ? "the contract's generated walk and its reference walk at odds" : "a failure without a status",
			  r);
		/* plain, in a child: a crash is counted, not failed */
		r = run_child(buf, len, json);
		plain[r >= 0 && r <= 2 ? r : 3]++;
		CHECK(r != 3 && r != 4 && r >= 0, "%s %s case %ld, plain: %s (%d)", file, json ? "JSON" : "protobuf", c,
			  r == 4 ? "the contract's generated walk and its reference walk at odds" : "a failure without a status",
			  r);
		if (r >= 100)
			save(file, c, json, buf, len);
	}
	printf("# %s, %s (%zu bytes): %ld cases\n", file, json ? "JSON" : "protobuf", len, n_cases);
	printf("#   isolated: %ld deparsed, %ld refused, %ld crashed the deparser in its child (reported as "
		   "PGBIND_ERROR_DEPARSER_CRASHED), %ld not read, 0 crashed the caller\n",
		   isolated[0], isolated[1], isolated[5], isolated[2]);
	printf("#   plain:    %ld deparsed, %ld refused, %ld not read, %ld crashed the caller (%.2f%% of the cases read)\n",
		   plain[0], plain[1], plain[2], plain[3],
		   n_cases - plain[2] ? 100.0 * (double)plain[3] / (double)(n_cases - plain[2]) : 0.0);
	free(buf);
}

int main(int argc, char **argv)
{
	long n_cases = 2000, n_json = 1000;
	state = 17;
	int i = 1;
	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (strcmp(argv[i], "--cases") == 0)
			n_cases = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--json-cases") == 0)
			n_json = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--seed") == 0)
			state = strtoull(argv[i + 1], NULL, 10);
	}
	for (; i < argc; i++) {
		Script s = {.arena = pgbind_Arena_New()};
		if (!cli_each_statement(argv[i], "mutate_deparse", add, &s) || !s.n) {
			CHECK(false, "%s: no statement parses", argv[i]);
			continue;
		}
		pgbind_ParseResult tree = {.version = 0, .n_stmts = s.n, .stmts = s.stmts};
		pgbind_ParseResult *one = pgbind_parse("SELECT 1", NULL, s.arena, NULL);
		tree.version = one ? one->version : 0;
		pgbind_Status st;
		const uint8_t *bytes;
		size_t len;
		const char *json = pgbind_json(&tree, NULL, s.arena, &st);
		if (!pgbind_encode(&tree, NULL, s.arena, &bytes, &len, &st) || !json) {
			CHECK(false, "%s: encode or JSON failed: %s", argv[i], st.message);
			continue;
		}
		printf("# %s: %zu statements\n", argv[i], s.n);
		experiment(argv[i], bytes, len, false, n_cases);
		experiment(argv[i], (const uint8_t *)json, strlen(json), true, n_json);
		free(s.stmts);
		pgbind_Arena_Free(s.arena);
	}
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
