/*
 * test_convert_lib.c -- the converters between majors as a program linking libpgbind gets them
 * (pgbind_convert.h; the Makefile puts the interpreter, its index and every pair's tables in the
 * library). What they convert is measured on the corpora by tests/convert/; here: a tree pgbind
 * parsed and encoded on the build's major, converted to another major and back, is the same bytes,
 * and says the other major's version on the way; a pair not built, bad bytes and a NULL input are
 * errors with their codes.
 */
#include "pgbind.h"
#include "pgbind_convert.h"

#include "../check.h"

#include <stdint.h>
#include <string.h>

/* ParseResult.version: field 1, a varint, the first field libpg_query and pgbind write. */
static long version_of(const uint8_t *p, size_t n)
{
	if (n < 2 || p[0] != 0x08)
		return -1;
	long v = 0;
	for (size_t i = 1, shift = 0; i < n && shift < 35; i++, shift += 7) {
		v |= (long)(p[i] & 0x7f) << shift;
		if (!(p[i] & 0x80))
			return v;
	}
	return -1;
}

/* The build's encoding of sql. */
static const uint8_t *encode_sql(const char *sql, pgbind_Arena *arena, size_t *len)
{
	pgbind_Status st;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	const uint8_t *data = NULL;
	if (!tree || !pgbind_encode(tree, NULL, arena, &data, len, &st)) {
		printf("# %s: %s\n", sql, st.message);
		return NULL;
	}
	return data;
}

int main(void)
{
	const int home = PGBIND_PG_MAJOR, other = home == 18 ? 15 : 18;
	CHECK(pgbind_convert_has_pair(home, other) && pgbind_convert_has_pair(other, home),
		  "the library converts %d <-> %d", home, other);
	CHECK(!pgbind_convert_has_pair(home, 16), "no pair with 16 was generated");

	const char *sqls[] = {
		"SELECT 1",
		"INSERT INTO t (a) VALUES (1), (2) RETURNING a, b * 2",
		"CREATE TABLE p (a int, CHECK (a > 0)) PARTITION BY RANGE (a)",
		"UPDATE t SET a = a + 1 WHERE b IN (SELECT c FROM u) RETURNING *",
	};
	pgbind_Arena *arena = pgbind_Arena_New();
	for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
		size_t len = 0;
		const uint8_t *bytes = encode_sql(sqls[i], arena, &len);
		CHECK(bytes != NULL, "pgbind parses and encodes %s", sqls[i]);
		if (!bytes)
			continue;
		uint8_t *there = NULL, *back = NULL;
		size_t there_len = 0, back_len = 0;
		pgbind_ConvertError err;
		pgbind_ConvertCode c = pgbind_convert_protobuf(home, other, bytes, len, &there, &there_len, &err);
		CHECK(c == PGBIND_CONVERT_OK, "%s converts %d -> %d: %s", sqls[i], home, other, c ? err.message : "");
		if (c == PGBIND_CONVERT_OK) {
			CHECK(version_of(there, there_len) / 10000 == other, "%s in %d's form says version %ld", sqls[i], other,
				  version_of(there, there_len));
			c = pgbind_convert_protobuf(other, home, there, there_len, &back, &back_len, &err);
			CHECK(c == PGBIND_CONVERT_OK && back_len == len && memcmp(back, bytes, len) == 0,
				  "%s converted %d -> %d -> %d is its own bytes (%s)", sqls[i], home, other, home,
				  c ? err.message : "");
		}
		free(there);
		free(back);
	}

	size_t len = 0;
	const uint8_t *bytes = encode_sql("SELECT a FROM t WHERE b = 1", arena, &len);
	uint8_t *out = (uint8_t *)"untouched";
	size_t out_len = 0;
	pgbind_ConvertError err;
	CHECK_INT("a pair not built is PGBIND_CONVERT_NO_PAIR", PGBIND_CONVERT_NO_PAIR,
			  pgbind_convert_protobuf(home, 16, bytes, len, &out, &out_len, &err));
	CHECK(out == NULL, "... and leaves no output");
	CHECK_INT("the encoding cut short is PGBIND_CONVERT_MALFORMED", PGBIND_CONVERT_MALFORMED,
			  pgbind_convert_protobuf(home, other, bytes, len - 1, &out, &out_len, &err));
	CHECK(err.offset < len, "... at an offset inside the input (%zu of %zu): %s", err.offset, len, err.message);
	CHECK_INT("a NULL input with a length is PGBIND_CONVERT_MALFORMED (no error struct given)",
			  PGBIND_CONVERT_MALFORMED, pgbind_convert_protobuf(home, other, NULL, 5, &out, &out_len, NULL));
	pgbind_Arena_Free(arena);
	return check_summary();
}
