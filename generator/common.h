/*
 * common.h -- small shared pieces of the pgbind generator: a growable byte buffer, the
 * error record every stage fills in, and file helpers.
 *
 * Every stage of the generator (extract, proto, classify, render) reports a failure by filling a
 * gen_Error with a location (file:line:col) and a message and returning false; main() prints it
 * as "file:line:col: error: message" and exits non-zero. Nothing is printed from inside a stage,
 * and nothing carries on after an error.
 */
#ifndef PGBIND_GENERATOR_COMMON_H
#define PGBIND_GENERATOR_COMMON_H

#include <stdbool.h>
#include <stddef.h>

/* A growable, always NUL-terminated byte buffer. Allocation failure aborts: the generator is a
 * build tool, not a library, and has no partial output to protect. */
typedef struct {
	char *data;
	size_t len;
	size_t cap;
} gen_Buf;

void gen_Buf_append(gen_Buf *buf, const char *data, size_t len);
void gen_Buf_puts(gen_Buf *buf, const char *str);
void gen_Buf_printf(gen_Buf *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gen_Buf_free(gen_Buf *buf);

/* Where a problem is and what it is. line/col are 1-based; 0 means "not known". */
typedef struct {
	char file[512];
	int line;
	int col;
	char message[1024];
} gen_Error;

/* Fills err (if not NULL) and returns false, so callers can write `return gen_fail(...)`. */
bool gen_fail(gen_Error *err, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Prints err as "file:line:col: error: message" on stderr (line and col left out when 0). */
void gen_Error_print(const gen_Error *err);

/* Reads a whole file into a NUL-terminated malloc'd buffer. */
bool gen_read_file(const char *path, char **out, size_t *len, gen_Error *err);

/* Writes data to path atomically: a temp file in the same directory, then rename(2). When the
 * file already holds exactly these bytes it is left alone (its mtime too). */
bool gen_write_file_atomic(const char *path, const char *data, size_t len, gen_Error *err);

void *gen_xmalloc(size_t size);
void *gen_xcalloc(size_t n, size_t size);
char *gen_xstrdup(const char *str);

/* Whether s is one of list (NULL-terminated). */
bool gen_one_of(const char *s, const char *const *list);

#endif
