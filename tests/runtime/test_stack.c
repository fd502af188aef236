/*
 * test_stack.c -- every recursive path of the runtime on deeply nested input, on threads with
 * 128 KiB (musl's default), 256 KiB and 2 MiB stacks: each returns its result or a depth error
 * (PGBIND_ERROR_DEPTH, deparse included: the stack libpg_query's deparser needs), never a
 * crash. The input: SELECT NOT NOT ... true (each NOT a BoolExpr level), at depths from 100 to
 * 20,000, through parse, encode, decode, JSON both ways, equal, text, fingerprint, normalize and
 * deparse.
 */
#include "pgbind.h"
#include "pgbind_json.h"

#include "../check.h"

#include <pthread.h>
#include <string.h>

typedef struct {
	size_t stack;
	int passed, failed;
	char first_failure[512];
} Job;

static bool ok_or_depth(const void *result, const pgbind_Status *st)
{
	return result || st->code == PGBIND_ERROR_DEPTH || st->code == PGBIND_ERROR_UNREPRESENTABLE ||
		   st->code == PGBIND_ERROR_SYNTAX;
}

static void note(Job *job, bool ok, const char *what, int depth, const pgbind_Status *st)
{
	if (ok) {
		job->passed++;
		return;
	}
	if (!job->failed++)
		snprintf(job->first_failure, sizeof job->first_failure, "%s at depth %d: %s", what, depth, st->message);
}

static void *run(void *arg)
{
	Job *job = arg;
	static const int depths[] = {100, 1000, 3000, 10000, 20000};
	for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
		int depth = depths[i];
		size_t len = 7 + 4 * (size_t)depth + 5;
		char *sql = malloc(len);
		if (!sql)
			return NULL;
		strcpy(sql, "SELECT ");
		for (int k = 0; k < depth; k++)
			memcpy(sql + 7 + 4 * k, "NOT ", 4);
		strcpy(sql + 7 + 4 * (size_t)depth, "true");
		pgbind_Arena *arena = pgbind_Arena_New();
		pgbind_Status st = {0};
		pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
		note(job, ok_or_depth(tree, &st), "parse", depth, &st);
		/* deeper trees than the parse gives on this stack: decoded from the 2 MiB thread's bytes
		 * would need sharing; the parse on each stack is the input here */
		if (tree) {
			const uint8_t *bytes;
			size_t n;
			bool enc = pgbind_encode(tree, NULL, arena, &bytes, &n, &st);
			note(job, enc || st.code == PGBIND_ERROR_DEPTH, "encode", depth, &st);
			pgbind_ParseResult *back = enc ? pgbind_decode(bytes, n, NULL, arena, &st) : NULL;
			note(job, !enc || ok_or_depth(back, &st), "decode", depth, &st);
			if (back)
				(void)pgbind_ParseResult_equal(tree, back); /* true, or false past the stack: no crash */
			const char *json = pgbind_json(tree, NULL, arena, &st);
			note(job, ok_or_depth(json, &st), "json", depth, &st);
			pgbind_ParseResult *read = json ? pgbind_json_read(json, strlen(json), NULL, arena, &st) : NULL;
			note(job, !json || ok_or_depth(read, &st), "json_read", depth, &st);
			const char *text = pgbind_text(tree, arena, &st);
			note(job, ok_or_depth(text, &st), "text", depth, &st);
			uint64_t fp;
			bool fpo = pgbind_fingerprint(tree, NULL, &fp, &st);
			note(job, fpo || st.code == PGBIND_ERROR_DEPTH, "fingerprint", depth, &st);
			const char *norm = pgbind_normalize(tree, sql, NULL, arena, &st);
			note(job, ok_or_depth(norm, &st), "normalize", depth, &st);
			const char *dep = pgbind_deparse(tree, NULL, arena, &st);
			note(job, ok_or_depth(dep, &st), "deparse", depth, &st);
		}
		pgbind_Arena_Free(arena);
		free(sql);
	}
	return NULL;
}

int main(void)
{
	static const size_t stacks[] = {128 * 1024, 256 * 1024, 2 * 1024 * 1024};
	for (size_t i = 0; i < sizeof stacks / sizeof *stacks; i++) {
		Job job = {.stack = stacks[i]};
		pthread_attr_t attr;
		pthread_t t;
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, stacks[i]);
		bool started = pthread_create(&t, &attr, run, &job) == 0;
		CHECK(started, "a thread with a %zu KiB stack starts", stacks[i] / 1024);
		if (started)
			pthread_join(t, NULL);
		pthread_attr_destroy(&attr);
		printf("# %zu KiB stack: %d results or depth errors, %d other%s%s\n", stacks[i] / 1024, job.passed, job.failed,
			   job.failed ? ": first " : "", job.first_failure);
		CHECK(job.failed == 0 && job.passed > 0, "%zu KiB stack: %s", stacks[i] / 1024, job.first_failure);
	}
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
