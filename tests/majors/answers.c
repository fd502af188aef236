/*
 * answers.c -- what one libpg_query major says of a text, as one string (tests/majors/answers.h):
 * pg_query_parse's JSON, pg_query_parse_protobuf's bytes (their size and an FNV-1a hash),
 * pg_query_fingerprint and pg_query_normalize, each or its error (message, cursor position,
 * function, file and line). Compiled once per major by mk/majors.mk with -DANSWERS_NAME=<the
 * MajorApi's name> and -DANSWERS_LABEL="...", against that major's pg_query.h; the renamed copies
 * with -include <that major's pg_query_names.h> (scripts/majors/link-major.sh), which turns every
 * pg_query_ call below into a call of that major's pgbind_pgNN_pg_query_ symbol. Needs nothing but
 * libc and the library it is linked with.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "pg_query.h"

#if !defined(ANSWERS_NAME) || !defined(ANSWERS_LABEL)
#error "compile with -DANSWERS_NAME=answers_pgNN -DANSWERS_LABEL='\"pgNN\"' (mk/majors.mk)"
#endif

typedef struct Text {
	char *data;
	size_t len, cap;
} Text;

static void text_put(Text *t, const char *data, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *grown = realloc(t->data, cap);
		if (!grown) {
			fputs("answers.c: out of memory\n", stderr);
			abort();
		}
		t->data = grown;
		t->cap = cap;
	}
	memcpy(t->data + t->len, data, n);
	t->len += n;
	t->data[t->len] = '\0';
}

static void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_printf(Text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("answers.c: out of memory\n", stderr);
		abort();
	}
	text_put(t, s, (size_t)n);
	free(s);
}

/* An error as the library reports it: everything it says, so that two copies that differ in any
 * of it are told apart. */
static void put_error(Text *t, const char *what, const PgQueryError *e)
{
	text_printf(t, "%s error: %s (cursorpos %d, %s, %s:%d)\n", what, e->message ? e->message : "(null)", e->cursorpos,
				e->funcname ? e->funcname : "-", e->filename ? e->filename : "-", e->lineno);
}

static char *answers(const char *sql)
{
	Text t = {0};

	PgQueryParseResult parse = pg_query_parse(sql);
	if (parse.error)
		put_error(&t, "parse", parse.error);
	else
		text_printf(&t, "parse: %s\n", parse.parse_tree);
	pg_query_free_parse_result(parse);

	PgQueryProtobufParseResult pb = pg_query_parse_protobuf(sql);
	if (pb.error) {
		put_error(&t, "protobuf", pb.error);
	} else {
		uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, 64 bits */
		for (size_t i = 0; i < pb.parse_tree.len; i++)
			h = (h ^ (unsigned char)pb.parse_tree.data[i]) * 0x100000001b3u;
		text_printf(&t, "protobuf: %zu bytes, fnv1a64 %016" PRIx64 "\n", pb.parse_tree.len, h);
	}
	pg_query_free_protobuf_parse_result(pb);

	PgQueryFingerprintResult fp = pg_query_fingerprint(sql);
	if (fp.error)
		put_error(&t, "fingerprint", fp.error);
	else
		text_printf(&t, "fingerprint: %s\n", fp.fingerprint_str);
	pg_query_free_fingerprint_result(fp);

	PgQueryNormalizeResult norm = pg_query_normalize(sql);
	if (norm.error)
		put_error(&t, "normalize", norm.error);
	else
		text_printf(&t, "normalize: %s\n", norm.normalized_query);
	pg_query_free_normalize_result(norm);
	return t.data;
}

const MajorApi ANSWERS_NAME = {ANSWERS_LABEL, PG_VERSION_NUM, answers};
