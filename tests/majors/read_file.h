/*
 * read_file.h -- a file's or a stream's whole text, NUL-terminated (malloc'd; NULL when it cannot be
 * read), for the programs of tests/majors/ (and tests/convert/convert_test.c), which must read their
 * inputs alike: SQL files, protobuf files, a child's or a command's output.
 */
#ifndef PGBIND_TESTS_MAJORS_READ_FILE_H
#define PGBIND_TESTS_MAJORS_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The rest of stream f, NUL-terminated (malloc'd; NULL when it cannot be read), its length in
 * *len when len is not NULL (a protobuf may hold NUL bytes). f stays open. */
static inline char *majors_read_stream(FILE *f, size_t *len_out)
{
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
	if (s)
		s[len] = '\0';
	if (len_out)
		*len_out = s ? len : 0;
	return s;
}

static inline char *majors_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *s = majors_read_stream(f, NULL);
	fclose(f);
	return s;
}

#endif
