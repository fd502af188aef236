/*
 * read_file.h -- a file's whole text, NUL-terminated (malloc'd; NULL when it cannot be read), for
 * tests/majors/reference.c and tests/majors/one_process.c, which must read their inputs alike.
 */
#ifndef PGBIND_TESTS_MAJORS_READ_FILE_H
#define PGBIND_TESTS_MAJORS_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static inline char *majors_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	size_t n;
	while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			char *grown = realloc(s, cap * 2);
			if (!grown) {
				free(s);
				s = NULL;
				break;
			}
			s = grown;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s)
		s[len] = '\0';
	return s;
}

#endif
