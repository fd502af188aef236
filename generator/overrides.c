/*
 * overrides.c -- reads schema/overrides.txt and the other declared files; see overrides.h for
 * the format.
 */
#include "overrides.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *file; /* the file that set it */
	char *target;
	char *key;
	char *value;
	char location[600];
	int line, col;
	bool used;
} Entry;

struct Overrides {
	char *name;
	int major; /* the PostgreSQL major generated for: entries whose since:/until: exclude it are left out */
	Entry *entries;
	size_t n, cap;
};

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '*'; /* "*.field": every message's */
}

/* '=', '|' and ',' for the values of the deparse contract's rules (kinds=A_Const|String,...) */
static bool is_value_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' || c == '=' || c == '|' || c == ',';
}

static char *dup_range(const char *s, size_t n)
{
	char *out = gen_xmalloc(n + 1);
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

static bool is_key(const char *k0, const char *k1, const char *key)
{
	return (size_t)(k1 - k0) == strlen(key) && strncmp(k0, key, strlen(key)) == 0;
}

/* since:N / until:N, a PostgreSQL major (a line's entries hold from major N on / up to major N). */
static bool read_major(const char *k0, const char *v0, const char *v1, int *out, const char *name, int line,
					   const char *p, gen_Error *err)
{
	int n = 0;
	for (const char *c = v0; c < v1; c++) {
		if (!isdigit((unsigned char)*c) || n > 1000)
			return gen_fail(err, name, line, (int)(v0 - p) + 1, "%.*s: expected a PostgreSQL major (a number)",
							(int)(v0 - 1 - k0), k0);
		n = n * 10 + (*c - '0');
	}
	if (*out)
		return gen_fail(err, name, line, (int)(k0 - p) + 1, "%.*s: given twice on the line", (int)(v0 - 1 - k0), k0);
	*out = n;
	return true;
}

static void free_entry(Entry *e)
{
	free(e->file);
	free(e->target);
	free(e->key);
	free(e->value);
}

static void drop_entries(Overrides *ov, size_t first)
{
	while (ov->n > first)
		free_entry(&ov->entries[--ov->n]);
}

/* A key set twice for one target (in one file or across files) is an error: nothing is overridden
 * silently. Checks the entries from first on against all before them and each other. */
static bool check_twice(Overrides *ov, size_t first, gen_Error *err)
{
	for (size_t j = first; j < ov->n; j++) {
		Entry *e = &ov->entries[j];
		for (size_t i = 0; i < j; i++)
			if (strcmp(ov->entries[i].target, e->target) == 0 && strcmp(ov->entries[i].key, e->key) == 0) {
				gen_fail(err, e->file, e->line, e->col, "%s %s: set twice (first at %s)", e->target, e->key,
						 ov->entries[i].location);
				drop_entries(ov, first);
				return false;
			}
	}
	return true;
}

bool overrides_parse_more(Overrides *ov, const char *name, const char *text, gen_Error *err)
{
	int line = 1;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q != '#' && *q != '\r') {
			/* target */
			const char *t0 = q;
			while (q < eol && is_word_char(*q))
				q++;
			if (q == t0 || !(q == eol || *q == ' ' || *q == '\t' || *q == '#')) {
				gen_fail(err, name, line, (int)(q - p) + 1, "expected a message or Message.field name");
				return false;
			}
			char *target = dup_range(t0, (size_t)(q - t0));
			int n_keys = 0, since = 0, until = 0;
			size_t first = ov->n; /* the line's entries, kept only if its since:/until: take the major */
			for (;;) {
				while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
					q++;
				if (q == eol || *q == '#')
					break;
				const char *k0 = q;
				while (q < eol && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
				if (q == k0 || q == eol || *q != ':') {
					gen_fail(err, name, line, (int)(k0 - p) + 1, "expected key:value after '%s'", target);
					free(target);
					return false;
				}
				const char *k1 = q++;
				const char *v0 = q;
				while (q < eol && is_value_char(*q))
					q++;
				if (q == v0) {
					gen_fail(err, name, line, (int)(v0 - p) + 1, "missing value for key '%.*s'", (int)(k1 - k0), k0);
					free(target);
					return false;
				}
				if (is_key(k0, k1, "since") || is_key(k0, k1, "until")) {
					if (!read_major(k0, v0, q, is_key(k0, k1, "since") ? &since : &until, name, line, p, err)) {
						free(target);
						return false;
					}
					continue;
				}
				if (ov->n == ov->cap) {
					ov->cap = ov->cap ? ov->cap * 2 : 16;
					ov->entries = realloc(ov->entries, ov->cap * sizeof *ov->entries);
					if (!ov->entries) {
						fprintf(stderr, "pgbind-gen: out of memory\n");
						exit(2);
					}
				}
				Entry *e = &ov->entries[ov->n];
				memset(e, 0, sizeof *e);
				e->file = gen_xstrdup(name);
				e->target = gen_xstrdup(target);
				e->key = dup_range(k0, (size_t)(k1 - k0));
				e->value = dup_range(v0, (size_t)(q - v0));
				e->line = line;
				e->col = (int)(k0 - p) + 1;
				snprintf(e->location, sizeof e->location, "%s:%d:%d", name, line, e->col);
				ov->n++;
				n_keys++;
			}
			if (n_keys == 0) {
				gen_fail(err, name, line, (int)(t0 - p) + 1, "'%s' sets no key", target);
				free(target);
				return false;
			}
			free(target);
			if (since && until && since > until) {
				gen_fail(err, name, line, (int)(t0 - p) + 1, "since:%d is after until:%d", since, until);
				return false;
			}
			if ((since || until) && !ov->major) {
				gen_fail(err, name, line, (int)(t0 - p) + 1, "since:/until: need the major generated for");
				return false;
			}
			if ((since && ov->major < since) || (until && ov->major > until))
				drop_entries(ov, first);
			else if (!check_twice(ov, first, err))
				return false;
		}
		p = *eol ? eol + 1 : eol;
		line++;
	}
	return true;
}

Overrides *overrides_new(const char *name, int major)
{
	Overrides *ov = gen_xcalloc(1, sizeof *ov);
	ov->name = gen_xstrdup(name);
	ov->major = major;
	return ov;
}

Overrides *overrides_parse(const char *name, const char *text, gen_Error *err)
{
	Overrides *ov = overrides_new(name, 0);
	if (!overrides_parse_more(ov, name, text, err)) {
		overrides_free(ov);
		return NULL;
	}
	return ov;
}

Overrides *overrides_read(const char *path, gen_Error *err)
{
	char *text;
	if (!gen_read_file(path, &text, NULL, err))
		return NULL;
	Overrides *ov = overrides_parse(path, text, err);
	free(text);
	return ov;
}

bool overrides_read_more(Overrides *ov, const char *path, gen_Error *err)
{
	char *text;
	if (!gen_read_file(path, &text, NULL, err))
		return false;
	bool ok = overrides_parse_more(ov, path, text, err);
	free(text);
	return ok;
}

void overrides_free(Overrides *ov)
{
	if (!ov)
		return;
	for (size_t i = 0; i < ov->n; i++)
		free_entry(&ov->entries[i]);
	free(ov->entries);
	free(ov->name);
	free(ov);
}

static Entry *find(Overrides *ov, const char *target, const char *key)
{
	for (size_t i = 0; i < ov->n; i++)
		if (strcmp(ov->entries[i].target, target) == 0 && strcmp(ov->entries[i].key, key) == 0)
			return &ov->entries[i];
	return NULL;
}

const char *overrides_get(Overrides *ov, const char *target, const char *key)
{
	Entry *e = find(ov, target, key);
	if (!e)
		return NULL;
	e->used = true;
	return e->value;
}

const char *overrides_get_prefixed(Overrides *ov, const char *target, const char *key_prefix, size_t *from,
								   const char **key)
{
	size_t len = strlen(key_prefix);
	for (size_t i = *from; i < ov->n; i++) {
		Entry *e = &ov->entries[i];
		if (strcmp(e->target, target) == 0 && strncmp(e->key, key_prefix, len) == 0 &&
			(e->key[len] == '\0' || e->key[len] == '_')) {
			e->used = true;
			*from = i + 1;
			*key = e->key;
			return e->value;
		}
	}
	*from = ov->n;
	return NULL;
}

const char *overrides_location(Overrides *ov, const char *target, const char *key)
{
	Entry *e = find(ov, target, key);
	return e ? e->location : ov->name;
}

bool overrides_fail(Overrides *ov, gen_Error *err, const char *target, const char *key, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Entry *e = find(ov, target, key);
	return gen_fail(err, e ? e->file : ov->name, e ? e->line : 0, e ? e->col : 0, "%s", msg);
}

bool overrides_check_all_used(Overrides *ov, gen_Error *err)
{
	for (size_t i = 0; i < ov->n; i++) {
		Entry *e = &ov->entries[i];
		if (!e->used)
			return gen_fail(err, e->file, e->line, e->col,
							"override '%s %s:%s' matches nothing in the inputs (a stale exception: remove it)",
							e->target, e->key, e->value);
	}
	return true;
}

json_t *overrides_to_json(const Overrides *ov)
{
	json_t *out = json_array();
	for (size_t i = 0; i < ov->n; i++) {
		const Entry *e = &ov->entries[i];
		json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s}", "target", e->target, "key", e->key, "value",
											 e->value, "location", e->location));
	}
	return out;
}
