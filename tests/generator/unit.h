/*
 * unit.h -- what the generator's unit tests add to tests/check.h: accessors of jansson values
 * that read a missing key as 0 or NULL, so that it fails a check rather than the program.
 */
#ifndef PGBIND_TESTS_UNIT_H
#define PGBIND_TESTS_UNIT_H

#include <jansson.h>

/* check_report() with this file's name and a line the caller gives (a helper's caller's). */
#define REPORT(ok, what, expected, got, line) check_report((ok), (what), (expected), (got), __FILE__, (line))

static inline const char *jstr(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static inline long long jint(json_t *obj, const char *key)
{
	return json_integer_value(json_object_get(obj, key));
}

#endif
