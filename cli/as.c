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

/* The top-level object's "version" member, a number; 0 when absent or not found. */
static int32_t json_version(const char *j, size_t len)
{
	size_t at = json_blanks(j, len, 0);
	if (at >= len || j[at] != '{')
		return 0;
	for (at = json_blanks(j, len, at + 1); at < len && j[at] == '"';) {
		size_t key = at + 1, key_end = json_string_end(j, len, at);
		at = json_blanks(j, len, key_end);
		if (at >= len || j[at] != ':')
			return 0;
		at = json_blanks(j, len, at + 1);
		if (key_end - key == 8 && memcmp(j + key, "version\"", 8) == 0) {
			char number[16];
			size_t n = json_value_end(j, len, at) - at;
			if (n == 0 || n >= sizeof number)
				return 0;
			memcpy(number, j + at, n);
			number[n] = '\0';
			char *end;
			long v = strtol(number, &end, 10);
			return json_blanks(end, strlen(end), 0) == strlen(end) && v > 0 && v <= INT32_MAX ? (int32_t)v : 0;
		}
		at = json_blanks(j, len, json_value_end(j, len, at));
		if (at < len && j[at] == ',')
			at = json_blanks(j, len, at + 1);
	}
	return 0;
}

int cli_as_own(const cli_Host *host, int own, const char *input, size_t len, bool json, uint8_t **out, size_t *out_len,
			   char *why, size_t why_size, long *statement)
{
	*statement = -1;
	int32_t version = json ? json_version(input, len) : protobuf_version((const uint8_t *)input, len);
	int major = version / 10000;
	if (version <= 0 || major == own)
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
	pgbind_ConvertError err;
	pgbind_ConvertCode code = cli_as_convert(host, major, own, pb, pb_len, out, out_len, &err);
	if (json)
		free(pb);
	if (code == PGBIND_CONVERT_OK)
		return 1;
	*statement = cli_path_statement(err.message);
	if (*statement >= 0)
		snprintf(why, why_size, "%s (the tree is PostgreSQL %d's, as its version %d says)", err.message, major,
				 (int)version);
	else if (json) /* the offset is of the protobuf read from it */
		snprintf(why, why_size, "PostgreSQL %d's tree (its version %d) converted to %d's: %s", major, (int)version, own,
				 err.message);
	else
		snprintf(why, why_size, "PostgreSQL %d's tree (its version %d) converted to %d's: %s (at byte %zu)", major,
				 (int)version, own, err.message, err.offset);
	return -1;
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
