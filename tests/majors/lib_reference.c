/*
 * lib_reference.c -- what libpgbind with pgbind_Options.pg_major = N must answer for a file, from
 * major N's libpg_query alone in its process: mk/lib-majors.mk links it, as tests/majors/cli_reference.c,
 * against that major's own libpg_query.a, its symbols not renamed. tests/majors/lib_majors.c runs it
 * once per major over every file and compares.
 *
 *   lib_reference FILE...
 *
 * For each file's whole text, five answers in this order, each as "OK CURSORPOS LENGTH\n" and LENGTH
 * bytes (OK 1: the answer; OK 0: the library's error message, CURSORPOS its cursor position):
 * pg_query_parse_protobuf's bytes; pg_query_fingerprint's fingerprint_str; pg_query_normalize's
 * text; pg_query_deparse_protobuf of that parse (in a child process: a deparser that crashes is an
 * answer, "signal N", not the reference's end; OK 0 and no text where the parse failed); and
 * pg_query_scan's tokens, a line "START END TOKEN KEYWORD_KIND" each (numbers of this major's
 * pg_query.proto, read from its ScanResult encoding). Exit 0, or 2 with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pg_query.h"
#include "read_file.h"

static void answer(int ok, int cursorpos, const char *data, size_t len)
{
	printf("%d %d %zu\n", ok, cursorpos, len);
	fwrite(data, 1, len, stdout);
}

static void error(const PgQueryError *e)
{
	answer(0, e->cursorpos, e->message, strlen(e->message));
}

/* A protobuf varint at *p (below end); 0 and *p = end on a truncated one. */
static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	*p = end;
	return 0;
}

/* ScanResult { int32 version = 1; repeated ScanToken tokens = 2; } and ScanToken { int32 start = 1;
 * int32 end = 2; Token token = 4; KeywordKind keyword_kind = 5; } (every major's pg_query.proto):
 * one line a token. Other fields are skipped by wire type. */
static void scan_lines(const uint8_t *p, const uint8_t *end, char **text, size_t *len)
{
	FILE *out = open_memstream(text, len);
	while (p < end) {
		uint64_t key = varint(&p, end);
		if ((key & 7) == 0) {
			varint(&p, end);
			continue;
		}
		if ((key & 7) != 2)
			break; /* no other wire type in a ScanResult */
		uint64_t n = varint(&p, end);
		const uint8_t *t = p, *t_end = p + n <= end ? p + n : end;
		p = t_end;
		if (key >> 3 != 2)
			continue;
		int64_t f[6] = {0};
		while (t < t_end) {
			uint64_t k = varint(&t, t_end);
			uint64_t v = varint(&t, t_end);
			if ((k & 7) == 0 && (k >> 3) < 6)
				f[k >> 3] = (int64_t)v;
		}
		fprintf(out, "%lld %lld %lld %lld\n", (long long)f[1], (long long)f[2], (long long)f[4], (long long)f[5]);
	}
	fclose(out);
}

/* pg_query_deparse_protobuf of (data, len) in a child: its SQL, its error, or the signal it died of. */
static void deparse(const char *data, size_t len)
{
	int fds[2];
	if (pipe(fds) != 0) {
		perror("lib_reference: pipe");
		exit(2);
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		PgQueryDeparseResult r = pg_query_deparse_protobuf((PgQueryProtobuf){len, (char *)data});
		FILE *out = fdopen(fds[1], "w");
		if (r.error)
			fprintf(out, "0 %d %zu\n%s", r.error->cursorpos, strlen(r.error->message), r.error->message);
		else
			fprintf(out, "1 0 %zu\n%s", strlen(r.query), r.query);
		fclose(out);
		_exit(0);
	}
	close(fds[1]);
	size_t text_len = 0;
	FILE *in = fdopen(fds[0], "r");
	char *text = in ? majors_read_stream(in, &text_len) : NULL;
	if (in)
		fclose(in);
	int st = 0;
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st)) {
		char why[64];
		snprintf(why, sizeof why, "signal %d", WTERMSIG(st));
		answer(0, 0, why, strlen(why));
	} else {
		fwrite(text, 1, text_len, stdout);
	}
	free(text);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *sql = majors_read_file(argv[i]);
		if (!sql) {
			fprintf(stderr, "lib_reference: cannot read %s\n", argv[i]);
			return 2;
		}
		PgQueryProtobufParseResult p = pg_query_parse_protobuf(sql);
		if (p.error)
			error(p.error);
		else
			answer(1, 0, p.parse_tree.data, p.parse_tree.len);
		PgQueryFingerprintResult f = pg_query_fingerprint(sql);
		if (f.error)
			error(f.error);
		else
			answer(1, 0, f.fingerprint_str, strlen(f.fingerprint_str));
		pg_query_free_fingerprint_result(f);
		PgQueryNormalizeResult n = pg_query_normalize(sql);
		if (n.error)
			error(n.error);
		else
			answer(1, 0, n.normalized_query, strlen(n.normalized_query));
		pg_query_free_normalize_result(n);
		if (p.error)
			answer(0, 0, "", 0);
		else
			deparse(p.parse_tree.data, p.parse_tree.len);
		pg_query_free_protobuf_parse_result(p);
		PgQueryScanResult s = pg_query_scan(sql);
		if (s.error) {
			error(s.error);
		} else {
			char *lines = NULL;
			size_t len = 0;
			scan_lines((const uint8_t *)s.pbuf.data, (const uint8_t *)s.pbuf.data + s.pbuf.len, &lines, &len);
			answer(1, 0, lines, len);
			free(lines);
		}
		pg_query_free_scan_result(s);
		free(sql);
	}
	return fflush(stdout) == 0 ? 0 : 2;
}
