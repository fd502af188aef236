/*
 * check.h -- the counting CHECK of the C test programs under tests/. A failed check prints
 * "not ok - FILE:LINE: MESSAGE   [CONDITION]"; each program ends with "N passed, M failed" from
 * n_passed and n_failed, the line tests/run.sh reads.
 */
#ifndef PGBIND_TESTS_CHECK_H
#define PGBIND_TESTS_CHECK_H

#include <stdio.h>

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

#endif
