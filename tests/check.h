/*
 * check.h -- what the C test programs under tests/ share: the counting CHECK (a failed check
 * prints "not ok - FILE:LINE: MESSAGE   [CONDITION]"; each program ends with "N passed, M
 * failed" from n_passed and n_failed, the line tests/run.sh reads) and xmalloc.
 */
#ifndef PGBIND_TESTS_CHECK_H
#define PGBIND_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

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
