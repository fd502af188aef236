/*
 * check.h -- the one harness of the C test programs under tests/: the counting CHECK (a failed
 * check prints "not ok - FILE:LINE: MESSAGE   [CONDITION]"), CHECK_INT, CHECK_STR and CHECK_HAS
 * (each prints "ok - WHAT", or "not ok - WHAT: expected ..., got ..."), and xmalloc. Each
 * program ends with check_summary(): "N passed, M failed" from n_passed and n_failed, the line
 * tests/run.sh reads, and the exit code.
 */
#ifndef PGBIND_TESTS_CHECK_H
#define PGBIND_TESTS_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_passed, n_failed;

#define CHECK(cond, ...)                                    \
	do {                                                    \
		if (cond) {                                         \
			n_passed++;                                     \
		} else {                                            \
			n_failed++;                                     \
			printf("not ok - %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                            \
			printf("   [%s]\n", #cond);                     \
		}                                                   \
	} while (0)

/* One named check: "ok - what", or "not ok - what: expected E, got G (FILE:LINE)". */
static inline void check_report(bool ok, const char *what, const char *expected, const char *got, const char *file,
								int line)
{
	if (ok) {
		printf("ok - %s\n", what);
		n_passed++;
	} else {
		printf("not ok - %s: expected %s, got %s (%s:%d)\n", what, expected, got, file, line);
		n_failed++;
	}
}

#define CHECK_INT(what, expected, got)                                \
	do {                                                              \
		long long e_ = (expected), g_ = (got);                        \
		char es_[32], gs_[32];                                        \
		snprintf(es_, sizeof es_, "%lld", e_);                        \
		snprintf(gs_, sizeof gs_, "%lld", g_);                        \
		check_report(e_ == g_, (what), es_, gs_, __FILE__, __LINE__); \
	} while (0)

/* A NULL `got` (a missing key, say) always fails and shows as (null). */
#define CHECK_STR(what, expected, got)                                                              \
	do {                                                                                            \
		const char *e_ = (expected), *g_ = (got);                                                   \
		check_report(g_ &&strcmp(e_, g_) == 0, (what), e_, g_ ? g_ : "(null)", __FILE__, __LINE__); \
	} while (0)

#define CHECK_HAS(what, haystack, needle)                                                              \
	do {                                                                                               \
		const char *h_ = (haystack), *n_ = (needle);                                                   \
		check_report(h_ &&strstr(h_, n_) != NULL, (what), n_, h_ ? h_ : "(null)", __FILE__, __LINE__); \
	} while (0)

/* The closing line; the program's exit code. */
static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}

/* malloc that ends the test program when memory runs out */
static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		printf("# out of memory\n");
		exit(2);
	}
	return p;
}

#endif
