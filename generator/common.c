/*
 * common.c -- see common.h.
 */
#include "common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *gen_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p) {
		fprintf(stderr, "pgbind-gen: out of memory\n");
		exit(2);
	}
	return p;
}

void *gen_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "pgbind-gen: out of memory\n");
		exit(2);
	}
	return p;
}

char *gen_xstrdup(const char *str)
{
	size_t n = strlen(str) + 1;
	return memcpy(gen_xmalloc(n), str, n);
}

bool gen_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

void gen_Buf_append(gen_Buf *buf, const char *data, size_t len)
{
	if (buf->len + len + 1 > buf->cap) {
		size_t cap = buf->cap ? buf->cap : 256;
		while (cap < buf->len + len + 1)
			cap *= 2;
		char *p = realloc(buf->data, cap);
		if (!p) {
			fprintf(stderr, "pgbind-gen: out of memory\n");
			exit(2);
		}
		buf->data = p;
		buf->cap = cap;
	}
	memcpy(buf->data + buf->len, data, len);
	buf->len += len;
	buf->data[buf->len] = '\0';
}

void gen_Buf_puts(gen_Buf *buf, const char *str)
{
	gen_Buf_append(buf, str, strlen(str));
}

void gen_Buf_printf(gen_Buf *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	gen_Buf_append(buf, "", 0); /* make room for at least the NUL */
	if (buf->len + (size_t)n + 1 > buf->cap) {
		size_t cap = buf->cap;
		while (cap < buf->len + (size_t)n + 1)
			cap *= 2;
		char *p = realloc(buf->data, cap);
		if (!p) {
			fprintf(stderr, "pgbind-gen: out of memory\n");
			exit(2);
		}
		buf->data = p;
		buf->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf->len += (size_t)n;
}

void gen_Buf_free(gen_Buf *buf)
{
	free(buf->data);
	buf->data = NULL;
	buf->len = buf->cap = 0;
}

bool gen_fail(gen_Error *err, const char *file, int line, int col, const char *fmt, ...)
{
	if (!err)
		return false;
	snprintf(err->file, sizeof err->file, "%s", file ? file : "pgbind-gen");
	err->line = line;
	err->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return false;
}

void gen_Error_print(const gen_Error *err)
{
	if (err->line > 0 && err->col > 0)
		fprintf(stderr, "%s:%d:%d: error: %s\n", err->file, err->line, err->col, err->message);
	else if (err->line > 0)
		fprintf(stderr, "%s:%d: error: %s\n", err->file, err->line, err->message);
	else
		fprintf(stderr, "%s: error: %s\n", err->file, err->message);
}

bool gen_read_file(const char *path, char **out, size_t *len, gen_Error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return gen_fail(err, path, 0, 0, "cannot open: %s", strerror(errno));
	gen_Buf buf = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		gen_Buf_append(&buf, chunk, n);
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		gen_Buf_free(&buf);
		return gen_fail(err, path, 0, 0, "read error");
	}
	gen_Buf_append(&buf, "", 0);
	*out = buf.data;
	if (len)
		*len = buf.len;
	return true;
}

bool gen_write_file_atomic(const char *path, const char *data, size_t len, gen_Error *err)
{
	char *old = NULL;
	size_t old_len = 0;
	FILE *probe = fopen(path, "rb");
	if (probe) {
		fclose(probe);
		if (gen_read_file(path, &old, &old_len, NULL) && old_len == len && memcmp(old, data, len) == 0) {
			free(old);
			return true;
		}
		free(old);
	}

	gen_Buf tmp = {0};
	gen_Buf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp.data, "wb");
	if (!f) {
		gen_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
		gen_Buf_free(&tmp);
		return false;
	}
	bool ok = fwrite(data, 1, len, f) == len;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp.data, path) != 0) {
		gen_fail(err, path, 0, 0, "cannot write: %s", strerror(errno));
		unlink(tmp.data);
		gen_Buf_free(&tmp);
		return false;
	}
	gen_Buf_free(&tmp);
	return true;
}
