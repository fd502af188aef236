/*
 * text.c -- pgbind_text(): an indented, readable rendering of a tree, driven by the descriptor
 * tables (pgbind_reflect.h). Only fields that are set are shown, as in protobuf's text format;
 * enums are shown by name, NULL list cells as NULL.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *data;
	size_t len, cap;
	bool oom;
	int depth;
	int max_depth;
} Text;

static void put(Text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *p = realloc(t->data, cap);
		if (!p) {
			t->oom = true;
			return;
		}
		t->data = p;
		t->cap = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

static void puts_(Text *t, const char *s)
{
	put(t, s, strlen(s));
}

static void printf_(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void printf_(Text *t, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	put(t, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void indent(Text *t, int level)
{
	for (int i = 0; i < level; i++)
		put(t, "  ", 2);
}

static void quoted(Text *t, const char *s)
{
	put(t, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf_(t, "\\%c", c);
		else if (c == '\n')
			puts_(t, "\\n");
		else if (c == '\t')
			puts_(t, "\\t");
		else if (c < 0x20 || c == 0x7f)
			printf_(t, "\\x%02x", c);
		else
			put(t, (const char *)&c, 1);
	}
	put(t, "\"", 1);
}

static bool message(Text *t, const pgbind_MessageDesc *d, const void *msg, int level);

/* "name: Kind" then the node's fields one level deeper. */
static bool node(Text *t, const char *label, const pgbind_Node *n, int level)
{
	indent(t, level);
	puts_(t, label);
	if (!n) {
		puts_(t, ": NULL\n");
		return true;
	}
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	if (!d) {
		printf_(t, ": <invalid node tag %u>\n", (unsigned)n->tag);
		return true;
	}
	printf_(t, ": %s\n", d->name);
	return message(t, d, n, level + 1);
}

static bool message(Text *t, const pgbind_MessageDesc *d, const void *msg, int level)
{
	if (++t->depth > t->max_depth || pgbind_stack_low())
		return false;
	const char *base = msg;
	char label[160];
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_ENUM:
			if (*(const int32_t *)p == 0)
				break;
			indent(t, level);
			if (f->wire == PGBIND_WIRE_ENUM) {
				const char *name = pgbind_enum_value_name(f->type_index, *(const int32_t *)p);
				if (name)
					printf_(t, "%s: %s\n", f->name, name);
				else
					printf_(t, "%s: %d\n", f->name, *(const int32_t *)p);
			} else {
				printf_(t, "%s: %d\n", f->name, *(const int32_t *)p);
			}
			break;
		case PGBIND_WIRE_UINT32:
			if (*(const uint32_t *)p)
				indent(t, level), printf_(t, "%s: %u\n", f->name, *(const uint32_t *)p);
			break;
		case PGBIND_WIRE_INT64:
			if (*(const int64_t *)p)
				indent(t, level), printf_(t, "%s: %lld\n", f->name, (long long)*(const int64_t *)p);
			break;
		case PGBIND_WIRE_UINT64:
			if (*(const uint64_t *)p)
				indent(t, level), printf_(t, "%s: %llu\n", f->name, (unsigned long long)*(const uint64_t *)p);
			break;
		case PGBIND_WIRE_BOOL:
			if (*(const bool *)p)
				indent(t, level), printf_(t, "%s: true\n", f->name);
			break;
		case PGBIND_WIRE_DOUBLE:
			if (*(const double *)p != 0)
				indent(t, level), printf_(t, "%s: %.17g\n", f->name, *(const double *)p);
			break;
		case PGBIND_WIRE_STRING: {
			const char *s = *(const char *const *)p;
			if (s && *s) {
				indent(t, level);
				printf_(t, "%s: ", f->name);
				quoted(t, s);
				puts_(t, "\n");
			}
			break;
		}
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			if (*(const pgbind_Node *const *)p && !node(t, f->name, *(const pgbind_Node *const *)p, level))
				return false;
			break;
		case PGBIND_WIRE_MESSAGE: {
			const void *sub = *(const void *const *)p;
			if (sub) {
				const pgbind_MessageDesc *sd = &pgbind_message_descs[f->type_index];
				indent(t, level);
				printf_(t, "%s: %s\n", f->name, sd->name);
				if (!message(t, sd, sub, level + 1))
					return false;
			}
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE:
			for (size_t k = 0; k < n; k++) {
				snprintf(label, sizeof label, "%s[%zu]", f->name, k);
				if (!node(t, label, (*(pgbind_Node *const *const *)p)[k], level))
					return false;
			}
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			const pgbind_MessageDesc *sd = &pgbind_message_descs[f->type_index];
			for (size_t k = 0; k < n; k++) {
				const void *sub = (*(const void *const *const *)p)[k];
				indent(t, level);
				printf_(t, "%s[%zu]: %s\n", f->name, k, sub ? sd->name : "NULL");
				if (sub && !message(t, sd, sub, level + 1))
					return false;
			}
			break;
		}
		case PGBIND_WIRE_PACKED_UINT64:
			if (n) {
				indent(t, level);
				printf_(t, "%s:", f->name);
				for (size_t k = 0; k < n; k++)
					printf_(t, " %llu", (unsigned long long)(*(const uint64_t *const *)p)[k]);
				puts_(t, "\n");
			}
			break;
		}
	}
	t->depth--;
	return true;
}

const char *pgbind_text(const pgbind_ParseResult *tree, pgbind_Arena *arena, pgbind_Status *status)
{
	if (!tree || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	Text t = {.depth = -1, .max_depth = PGBIND_DEFAULT_MAX_DEPTH}; /* ParseResult is level 0, as elsewhere */
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name("ParseResult");
	puts_(&t, "ParseResult\n");
	bool ok = message(&t, d, tree, 1);
	char *out = NULL;
	if (!ok)
		pgbind_fail(status, PGBIND_ERROR_DEPTH, "nesting too deep to print");
	else if (t.oom || !(out = pgbind_Arena_Malloc(arena, t.len + 1)))
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	else
		memcpy(out, t.data, t.len + 1);
	free(t.data);
	return out;
}
