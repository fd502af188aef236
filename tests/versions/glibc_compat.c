/*
 * glibc_compat.c -- for tests/versions/debian_tree.sh only: a libpg_query.a from a later Debian
 * release was compiled against glibc 2.38 or later, and calls two functions Debian 12's glibc
 * (2.36) does not have. Never part of pgbind.
 *
 *   strlcpy            added to glibc in 2.38
 *   __isoc23_strtoul   what strtoul compiles to with glibc 2.38+ headers in C23 mode
 */
#include <stdlib.h>
#include <string.h>

size_t strlcpy(char *dst, const char *src, size_t size);
unsigned long __isoc23_strtoul(const char *s, char **end, int base);

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

unsigned long __isoc23_strtoul(const char *s, char **end, int base)
{
	return strtoul(s, end, base);
}
