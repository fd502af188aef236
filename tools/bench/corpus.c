/*
 * corpus.c -- the statements pgbind-bench measures in corpus mode: files split into statements as
 * `pgbind verify` splits them (the statement reader, reader/reader.h), every k-th kept under
 * --quick, each prepared (routes.c's item_prepare) and dropped when libpg_query reports a syntax
 * error, gives no statement or a path fails on it (counted per path for the report).
 */
#include "bench.h"
#include "reader.h"

#include <glob.h>
#include <stdlib.h>

static bool corpus_add(Corpus *c, char *sql, size_t len)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		Item *grown = realloc(c->items, cap * sizeof *grown);
		if (!grown)
			return false;
		c->items = grown;
		c->cap = cap;
	}
	c->items[c->n++] = (Item){.sql = sql, .sql_len = len};
	return true;
}

static bool corpus_add_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	(void)text;
	(void)at;
	(void)line;
	if (corpus_add(ctx, stmt, len))
		return true;
	free(stmt);
	return false;
}

bool corpus_read_file(Corpus *c, const char *path)
{
	bool ok = cli_each_statement(path, "bench", corpus_add_statement, c);
	c->files += ok;
	return ok;
}

bool corpus_glob(Corpus *c, const char *pattern)
{
	glob_t g;
	int rc = glob(pattern, 0, NULL, &g);
	if (rc == GLOB_NOMATCH)
		return true;
	if (rc != 0)
		return false;
	bool ok = true;
	for (size_t i = 0; ok && i < g.gl_pathc; i++)
		ok = corpus_read_file(c, g.gl_pathv[i]);
	globfree(&g);
	return ok;
}

/* Keeps every k-th statement (--quick), then prepares each, dropping the ones a path fails on. */
void corpus_prepare(Bench *b, Corpus *c)
{
	size_t keep_every = 1;
	if (b->quick && c->n > 200)
		keep_every = (c->n + 199) / 200;
	c->keep_every = keep_every;
	size_t out = 0;
	c->candidates = (long)c->n;
	for (size_t i = 0; i < c->n; i++) {
		Item *it = &c->items[i];
		if (i % keep_every != 0) {
			item_free(it);
			continue;
		}
		uint32_t failed;
		int prep = item_prepare(b, it, &failed);
		if (prep == PREP_OK && failed) {
			for (int op = 0; op < N_OPS; op++)
				if (failed & (1u << op))
					c->failed_on[op]++;
			prep = PREP_BROKEN;
		} else if (prep == PREP_BROKEN) {
			c->broken++;
		}
		if (prep == PREP_SYNTAX)
			c->syntax_errors++;
		else if (prep == PREP_EMPTY)
			c->empty++;
		if (prep != PREP_OK) {
			item_free(it);
			continue;
		}
		c->sql_bytes += it->sql_len;
		c->items[out++] = *it;
	}
	c->n = out;
}
