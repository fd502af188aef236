/*
 * as.c -- the pgbind command's conversions between PostgreSQL majors (cli/as.h): --as's major,
 * the route between two majors (a generated pair, or two through the newest), the version of a
 * tree read from outside, and this major's entries for the other majors' commands (its JSON and
 * text writers over a protobuf, its JSON reader into one). Compiled once per major with the rest
 * of the command (mk/majors.mk); depends on the runtime (pgbind.h, pgbind_json.h) and on the host
 * cli/main.c passes (cli/major.h) for the converters and the other majors.
 */
#include "as.h"

#include "pgbind.h"
#include "pgbind_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cli_Major *cli_host_major(const cli_Host *host, int n)
{
	for (int i = 0; host->majors[i]; i++)
		if (host->majors[i]->major == n)
			return host->majors[i];
	return NULL;
}

void cli_list_majors(const cli_Host *host, char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; host->majors[i] && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%d", i ? ", " : "", host->majors[i]->major);
}

int cli_as_major(const cli_Host *host, const char *command, const char *value)
{
	char built[256];
	cli_list_majors(host, built, sizeof built);
	char *end;
	long n = strtol(value, &end, 10);
	if (!*value || *end || n <= 0 || n > 1000) {
		fprintf(stderr, "pgbind %s: --as takes a PostgreSQL major (built: %s), not '%s'\n", command, built, value);
		return 0;
	}
	if (!cli_host_major(host, (int)n)) {
		fprintf(stderr,
				"pgbind %s: --as=%s: PostgreSQL %ld is not built into this pgbind (built: %s; pgbind --version lists "
				"them)\n",
				command, value, n, built);
		return 0;
	}
	return (int)n;
}

pgbind_ConvertCode cli_as_convert(const cli_Host *host, int from, int to, const uint8_t *in, size_t len, uint8_t **out,
								  size_t *out_len, pgbind_ConvertError *err)
{
	if (host->has_pair(from, to))
		return host->convert(from, to, in, len, out, out_len, err);
	/* no pair generated (each built major has one with the newest, both ways): through the newest
	 * major that has a pair with both, which holds whatever either has */
	int via = 0;
	for (int i = 0; host->majors[i]; i++) {
		int m = host->majors[i]->major;
		if (m != from && m != to && m > via && host->has_pair(from, m) && host->has_pair(m, to))
			via = m;
	}
	if (via) {
		uint8_t *mid;
		size_t mid_len;
		pgbind_ConvertCode code = host->convert(from, via, in, len, &mid, &mid_len, err);
		if (code != PGBIND_CONVERT_OK) {
			*out = NULL;
			return code;
		}
		code = host->convert(via, to, mid, mid_len, out, out_len, err);
		free(mid);
		return code;
	}
	*out = NULL;
	if (err) {
		err->code = PGBIND_CONVERT_NO_PAIR;
		err->offset = 0;
		snprintf(err->message, sizeof err->message,
				 "no converter from PostgreSQL %d's tree to %d's in this pgbind, directly or through another major",
				 from, to);
	}
	return PGBIND_CONVERT_NO_PAIR;
}

long cli_path_statement(const char *message)
{
	if (strncmp(message, "stmts[", 6) != 0)
		return -1;
	char *end;
	long k = strtol(message + 6, &end, 10);
	return end > message + 6 && *end == ']' && k >= 0 ? k : -1;
}

/* ---- the version of a tree read from outside ---------------------------------------------------- */

/* A varint at *at (below end): false when truncated or longer than 10 bytes. */
static bool read_varint(const uint8_t *p, size_t end, size_t *at, uint64_t *value)
{
	*value = 0;
	for (int shift = 0; shift < 70 && *at < end; shift += 7) {
		uint8_t b = p[(*at)++];
		*value |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* ParseResult.version (field 1, a varint) among the top-level fields; the last one given wins, as
 * a decoder takes it. 0 when absent or the encoding is not readable that far. */
static int32_t protobuf_version(const uint8_t *p, size_t len)
{
	int32_t version = 0;
	size_t at = 0;
	while (at < len) {
		uint64_t key, value;
		if (!read_varint(p, len, &at, &key))
			return 0;
		switch (key & 7) {
		case 0:
			if (!read_varint(p, len, &at, &value))
				return 0;
			if (key >> 3 == 1)
				version = (int32_t)value;
			break;
		case 1:
		case 5:
			if (len - at < ((key & 7) == 1 ? 8u : 4u))
				return 0;
			at += (key & 7) == 1 ? 8 : 4;
			break;
		case 2:
			if (!read_varint(p, len, &at, &value) || value > len - at)
				return 0;
			at += (size_t)value;
			break;
		default:
			return 0;
		}
	}
	return version;
}

static size_t json_blanks(const char *j, size_t len, size_t at)
{
	while (at < len && (j[at] == ' ' || j[at] == '\t' || j[at] == '\n' || j[at] == '\r'))
		at++;
	return at;
}

/* Past the string starting at j[at] ('"'); len when it does not end. */
static size_t json_string_end(const char *j, size_t len, size_t at)
{
	for (at++; at < len; at++) {
		if (j[at] == '\\')
			at++;
		else if (j[at] == '"')
			return at + 1;
	}
	return len;
}

/* Past the value starting at j[at]: a string, an object or array (brackets counted outside
 * strings), or a literal or number (up to the next ',', '}' or ']'). */
static size_t json_value_end(const char *j, size_t len, size_t at)
{
	int depth = 0;
	while (at < len) {
		char c = j[at];
		if (c == '"') {
			at = json_string_end(j, len, at);
		} else if (c == '{' || c == '[') {
			depth++, at++;
		} else if (c == '}' || c == ']') {
			if (depth == 0)
				return at;
			depth--, at++;
		} else if (c == ',' && depth == 0) {
			return at;
		} else {
			at++;
		}
		if (depth == 0 && (c == '"' || c == '}' || c == ']'))
			return at;
	}
	return len;
}

/* The top-level object's "version" member, a number; 0 when absent, given twice or not found (the
 * reader then says what is wrong). */
static int32_t json_version(const char *j, size_t len)
{
	size_t at = json_blanks(j, len, 0);
	if (at >= len || j[at] != '{')
		return 0;
	int32_t version = 0;
	int seen = 0;
	for (at = json_blanks(j, len, at + 1); at < len && j[at] == '"';) {
		size_t key = at + 1, key_end = json_string_end(j, len, at);
		at = json_blanks(j, len, key_end);
		if (at >= len || j[at] != ':')
			return 0;
		at = json_blanks(j, len, at + 1);
		size_t end = json_value_end(j, len, at);
		if (key_end - key == 8 && memcmp(j + key, "version\"", 8) == 0) {
			char number[16], *rest;
			size_t n = end - at;
			if (n == 0 || n >= sizeof number)
				return 0;
			memcpy(number, j + at, n);
			number[n] = '\0';
			long v = strtol(number, &rest, 10);
			if (json_blanks(rest, strlen(rest), 0) != strlen(rest) || v <= 0 || v > INT32_MAX || seen++)
				return 0;
			version = (int32_t)v;
		}
		at = json_blanks(j, len, end);
		if (at < len && j[at] == ',')
			at = json_blanks(j, len, at + 1);
	}
	return version;
}

/* Appends n bytes to the buffer (data, len, cap); false when memory ran out. */
static bool put(cli_AsTree *t, size_t *cap, const void *bytes, size_t n)
{
	if (t->len + n > *cap) {
		size_t grown = *cap ? *cap : 4096;
		while (grown < t->len + n)
			grown *= 2;
		uint8_t *data = realloc(t->data, grown);
		if (!data)
			return false;
		t->data = data;
		*cap = grown;
	}
	memcpy(t->data + t->len, bytes, n);
	t->len += n;
	return true;
}

static size_t put_varint(uint8_t *out, uint64_t v)
{
	size_t n = 0;
	do {
		out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* The top-level field number of the field at p[*at]: its bytes span [start, *at) after the call;
 * -1 when the encoding is not readable (the converter then says where). */
static int next_field(const uint8_t *p, size_t len, size_t *at, size_t *start)
{
	uint64_t key, value;
	*start = *at;
	if (!read_varint(p, len, at, &key))
		return -1;
	if ((key & 7) == 0 && read_varint(p, len, at, &value))
		return (int)(key >> 3);
	if ((key & 7) == 2 && read_varint(p, len, at, &value) && value <= len - *at) {
		*at += (size_t)value;
		return (int)(key >> 3);
	}
	return -1;
}

/* from's ParseResult pb converted to own's statement by statement (each statement as a tree of its
 * own, as deparse deparses each alone): a statement with no form has its message in tree->no_form
 * and an empty RawStmt in its place. false on any other error (why). */
static bool convert_each(const cli_Host *host, int from, int own, const uint8_t *pb, size_t len, cli_AsTree *tree,
						 char *why, size_t why_size)
{
	size_t cap = 0, at = 0, start, n_stmts = 0;
	int32_t version = protobuf_version(pb, len);
	int f;
	while (at < len && (f = next_field(pb, len, &at, &start)) >= 0)
		n_stmts += f == 2;
	tree->no_form = calloc(n_stmts ? n_stmts : 1, sizeof *tree->no_form);
	if (!tree->no_form) {
		snprintf(why, why_size, "out of memory");
		return false;
	}
	bool version_written = false;
	for (at = 0; at < len && tree->n < n_stmts;) {
		int g = next_field(pb, len, &at, &start);
		if (g < 0) {
			snprintf(why, why_size, "PostgreSQL %d's tree (its version %d): malformed at byte %zu", from, (int)version,
					 start);
			return false;
		}
		if (g != 2)
			continue;
		/* the statement alone: version, then this one statement's field as it is */
		uint8_t head[16], *one = malloc(sizeof head + (at - start));
		size_t h = 0;
		if (!one) {
			snprintf(why, why_size, "out of memory");
			return false;
		}
		if (version) {
			head[h++] = 0x08;
			h += put_varint(head + h, (uint32_t)version);
		}
		memcpy(one, head, h);
		memcpy(one + h, pb + start, at - start);
		uint8_t *out;
		size_t out_len;
		pgbind_ConvertError err;
		pgbind_ConvertCode code = cli_as_convert(host, from, own, one, h + (at - start), &out, &out_len, &err);
		free(one);
		if (code == PGBIND_CONVERT_NO_FORM) {
			char message[768];
			snprintf(message, sizeof message, "%s (the tree is PostgreSQL %d's, as its version %d says)", err.message,
					 from, (int)version);
			static const uint8_t empty[] = {0x12, 0x00};
			if (!(tree->no_form[tree->n++] = strdup(message)) || !put(tree, &cap, empty, sizeof empty)) {
				snprintf(why, why_size, "out of memory");
				return false;
			}
			continue;
		}
		if (code != PGBIND_CONVERT_OK) {
			snprintf(why, why_size, "PostgreSQL %d's tree (its version %d) converted to %d's: statement %zu: %s", from,
					 (int)version, own, tree->n + 1, err.message);
			return false;
		}
		/* its output: own's version (once, first) and the statement */
		bool ok = true;
		for (size_t o = 0, o_start; ok && o < out_len;) {
			int field = next_field(out, out_len, &o, &o_start);
			ok = field >= 0;
			if (field == 2 || (field == 1 && !version_written))
				ok = put(tree, &cap, out + o_start, o - o_start);
			version_written |= field == 1;
		}
		free(out);
		tree->n++;
		if (!ok) {
			snprintf(why, why_size, "out of memory");
			return false;
		}
	}
	return true;
}

int cli_as_own(const cli_Host *host, int own, const char *input, size_t len, bool json, cli_AsTree *tree, char *why,
			   size_t why_size)
{
	*tree = (cli_AsTree){0};
	int32_t version = json ? json_version(input, len) : protobuf_version((const uint8_t *)input, len);
	int major = version / 10000;
	if (major <= 0 || major == own) /* no version (or none of a major, as "version":1): own's, as before */
		return 0;
	const cli_Major *m = cli_host_major(host, major);
	if (!m) {
		char built[256];
		cli_list_majors(host, built, sizeof built);
		snprintf(why, why_size,
				 "the tree's version %d is PostgreSQL %d's, which is not built into this pgbind (built: %s; pgbind "
				 "--version lists them)",
				 (int)version, major, built);
		return -1;
	}
	uint8_t *pb = (uint8_t *)input;
	size_t pb_len = len;
	char read_why[400];
	if (json && !m->read_json(input, len, &pb, &pb_len, read_why, sizeof read_why)) {
		snprintf(why, why_size, "not PostgreSQL %d's JSON, as its version %d says: %s", major, (int)version, read_why);
		return -1;
	}
	/* the whole tree first: the converter checks every byte (a malformed input is refused as a
	 * whole, where it is), then each statement alone where a statement has no form */
	pgbind_ConvertError err;
	pgbind_ConvertCode code = cli_as_convert(host, major, own, pb, pb_len, &tree->data, &tree->len, &err);
	bool ok = code == PGBIND_CONVERT_OK;
	if (code == PGBIND_CONVERT_NO_FORM) {
		free(tree->data);
		*tree = (cli_AsTree){0};
		ok = convert_each(host, major, own, pb, pb_len, tree, why, why_size);
	} else if (!ok && json) /* the offset is of the protobuf read from it */
		snprintf(why, why_size, "PostgreSQL %d's tree (its version %d) converted to %d's: %s", major, (int)version, own,
				 err.message);
	else if (!ok)
		snprintf(why, why_size, "PostgreSQL %d's tree (its version %d) converted to %d's: %s (at byte %zu)", major,
				 (int)version, own, err.message, err.offset);
	if (json)
		free(pb);
	if (!ok)
		cli_as_free(tree);
	return ok ? 1 : -1;
}

void cli_as_free(cli_AsTree *tree)
{
	for (size_t i = 0; i < tree->n; i++)
		free(tree->no_form[i]);
	free(tree->no_form);
	free(tree->data);
	*tree = (cli_AsTree){0};
}

/* ---- this major's entries for the others' commands -------------------------------------------- */

char *cli_write_tree(const uint8_t *in, size_t len, const char *format, char *why, size_t why_size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {.message = "out of memory"};
	pgbind_ParseResult *tree = arena ? pgbind_decode(in, len, NULL, arena, &status) : NULL;
	const char *text = !tree                         ? NULL
					   : strcmp(format, "json") == 0 ? pgbind_json(tree, NULL, arena, &status)
													 : pgbind_text(tree, arena, &status);
	char *copy = text ? strdup(text) : NULL;
	if (!copy)
		snprintf(why, why_size, "%s", text ? "out of memory" : status.message);
	pgbind_Arena_Free(arena);
	return copy;
}

bool cli_read_json(const char *json, size_t len, uint8_t **out, size_t *out_len, char *why, size_t why_size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {.message = "out of memory"};
	pgbind_ParseResult *tree = arena ? pgbind_json_read(json, len, NULL, arena, &status) : NULL;
	const uint8_t *data;
	size_t n;
	bool ok = tree && pgbind_encode(tree, NULL, arena, &data, &n, &status);
	*out = ok ? malloc(n ? n : 1) : NULL;
	if (*out) {
		memcpy(*out, data, n);
		*out_len = n;
	} else {
		snprintf(why, why_size, "%s", ok ? "out of memory" : status.message);
	}
	pgbind_Arena_Free(arena);
	return *out != NULL;
}
