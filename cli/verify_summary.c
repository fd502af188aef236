/*
 * verify_summary.c -- `pgbind verify`'s summary check: pgbind_summary's protobuf against the
 * linked libpg_query's pg_query_summary (libpg_query 18 on; earlier ones have none, and the check
 * is not made), twice: with a fixed truncation limit (VERIFY_TRUNCATE) and with half the
 * statement's length, so that long statements are shortened part by part.
 *
 * Byte for byte, but for the order of the alias map's entries: libpg_query writes them in its hash
 * table's order, which changes from one process to the next; they are compared as a set.
 */
#include "cli.h"
#include "pgbind_oracle.h"
#include "pg_query.h"
#include "pgbind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The limit both summaries are asked to shorten the query to. */
#define VERIFY_TRUNCATE 40

typedef struct {
	const uint8_t *at;
	size_t len;
} Span;

static uint64_t read_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static int span_order(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	int c = memcmp(x->at, y->at, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Splits a SummaryResult into its alias entries (sorted, each with its key and length) and the
 * bytes of every other field, in order (rest, which has room for len bytes). false: not protobuf
 * this walk understands. */
static bool split(const uint8_t *data, size_t len, Span *aliases, size_t *n_aliases, uint8_t *rest, size_t *n_rest)
{
	const uint8_t *p = data, *end = data + len;
	*n_aliases = *n_rest = 0;
	while (p < end) {
		const uint8_t *field = p;
		uint64_t key = read_varint(&p, end);
		if ((key & 7) == 0)
			read_varint(&p, end);
		else if ((key & 7) == 2) {
			uint64_t n = read_varint(&p, end);
			if (n > (uint64_t)(end - p))
				return false;
			p += n;
		} else
			return false;
		if (key >> 3 == 2)
			aliases[(*n_aliases)++] = (Span){field, (size_t)(p - field)};
		else {
			memcpy(rest + *n_rest, field, (size_t)(p - field));
			*n_rest += (size_t)(p - field);
		}
	}
	qsort(aliases, *n_aliases, sizeof *aliases, span_order);
	return true;
}

bool cli_summary_bytes_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	if (a_len != b_len)
		return false;
	Span *sa = malloc((a_len + 1) * sizeof *sa), *sb = malloc((b_len + 1) * sizeof *sb);
	uint8_t *ra = malloc(a_len + 1), *rb = malloc(b_len + 1);
	size_t na, nb, rna, rnb;
	bool same = sa && sb && ra && rb && split(a, a_len, sa, &na, ra, &rna) && split(b, b_len, sb, &nb, rb, &rnb) &&
				na == nb && rna == rnb && memcmp(ra, rb, rna) == 0;
	for (size_t i = 0; same && i < na; i++)
		same = sa[i].len == sb[i].len && memcmp(sa[i].at, sb[i].at, sa[i].len) == 0;
	free(sa), free(sb), free(ra), free(rb);
	return same;
}

void cli_summary_show(char *out, size_t size, const uint8_t *data, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 5 < size; i++)
		o += (size_t)snprintf(out + o, size - o,
							  data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\' ? "%c" : "\\x%02x", data[i]);
	out[o < size ? o : size - 1] = '\0';
}

#if PG_VERSION_NUM >= 180000

/* pgbind's summary of stmt (from tree, or from the SQL: pgbind_summary_sql) against
 * pg_query_summary's. */
static int compare(const char *stmt, const struct pgbind_ParseResult *tree, bool from_sql, int limit, char *why,
				   size_t size)
{
	PgQuerySummaryParseResult theirs = pg_query_summary(stmt, 0, limit);
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {.message = "out of memory"};
	pgbind_Summary *s = !arena     ? NULL
						: from_sql ? pgbind_summary_sql(stmt, limit, NULL, arena, &status)
								   : pgbind_summary(tree, limit, NULL, arena, &status);
	const uint8_t *data = NULL;
	size_t len = 0;
	bool ours = s && pgbind_summary_encode(s, arena, &data, &len, &status);
	int same;
	if (theirs.error || !ours) {
		/* both fail: with the same message (pgbind's holds its first 255 bytes) */
		same = !ours && theirs.error && strncmp(status.message, theirs.error->message, sizeof status.message - 1) == 0;
		/* or a tree that breaks the deparse contract, whose deparse in a child (the cut text's) crashed
		 * or misread where libpg_query shortens its deparser's SQL all the same: the deparse check
		 * compares the two deparses (verify_isolated) */
		pgbind_Status contract = {0};
		same = same || (!ours && !theirs.error &&
						(status.code == PGBIND_ERROR_ROUND_TRIP || status.code == PGBIND_ERROR_DEPARSER_CRASHED) &&
						pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &contract) >= PGBIND_CONTRACT_BROKEN &&
						pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &contract) != PGBIND_CONTRACT_REFUSED);
		if (!same)
			snprintf(why, size, "summary%s: libpg_query %s%s; pgbind %s%s", from_sql ? " from SQL" : "",
					 theirs.error ? "failed: " : "answered", theirs.error ? theirs.error->message : "",
					 ours ? "answered" : "failed: ", ours ? "" : status.message);
	} else {
		same = cli_summary_bytes_equal(data, len, (const uint8_t *)theirs.summary.data, theirs.summary.len);
		if (!same) {
			char a[300], b[300];
			cli_summary_show(a, sizeof a, data, len);
			cli_summary_show(b, sizeof b, (const uint8_t *)theirs.summary.data, theirs.summary.len);
			snprintf(why, size, "summary%s differs (truncate %d):\n      pgbind      %s\n      libpg_query %s",
					 from_sql ? " from SQL" : "", limit, a, b);
		}
	}
	pg_query_free_summary_parse_result(theirs);
	pgbind_Arena_Free(arena);
	return same;
}

int verify_summary(const char *stmt, const struct pgbind_ParseResult *tree, char *why, size_t size)
{
	/* the tree's summary, and the SQL's (on PostgreSQL's tree), one limit each */
	return compare(stmt, tree, false, VERIFY_TRUNCATE, why, size) &&
		   compare(stmt, tree, true, (int)(strlen(stmt) / 2), why, size);
}

#else

int verify_summary(const char *stmt, const struct pgbind_ParseResult *tree, char *why, size_t size)
{
	(void)stmt, (void)tree, (void)why, (void)size;
	return -1; /* this libpg_query has no pg_query_summary */
}

#endif
