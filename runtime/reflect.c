/*
 * reflect.c -- the generated descriptor tables (generated/c/reflect.inc.c) and lookups over them.
 */
#include "internal.h"

#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reflect.inc.c"

const pgbind_MessageDesc *pgbind_node_desc(uint32_t tag)
{
	if (tag == 0 || tag >= PGBIND_NODE_TAG_LIMIT)
		return NULL;
	const pgbind_MessageDesc *d = &pgbind_message_descs[pgbind_node_message_index[tag]];
	return d->tag == tag ? d : NULL;
}

const pgbind_MessageDesc *pgbind_message_desc_by_name(const char *name)
{
	for (int i = 0; i < PGBIND_MESSAGE_COUNT; i++)
		if (strcmp(pgbind_message_descs[i].name, name) == 0)
			return &pgbind_message_descs[i];
	return NULL;
}

const char *pgbind_enum_value_name(int32_t enum_index, int32_t number)
{
	if (enum_index < 0 || enum_index >= PGBIND_ENUM_COUNT)
		return NULL;
	const pgbind_EnumDesc *e = &pgbind_enum_descs[enum_index];
	for (uint32_t i = 0; i < e->n_values; i++)
		if (e->values[i].number == number)
			return e->values[i].name;
	return NULL;
}

/* ---- locating a byte offset ------------------------------------------------------------------ */

typedef struct {
	char *out;
	size_t size, len;
} Path;

static void path_add(Path *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void path_add(Path *p, const char *fmt, ...)
{
	if (p->len + 1 >= p->size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(p->out + p->len, p->size - p->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len = p->len + (size_t)n < p->size ? p->len + (size_t)n : p->size - 1;
}

static bool read_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	for (int shift = 0; shift < 64 && *pp < end; shift += 7) {
		uint8_t b = *(*pp)++;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

static void path_in_message(const pgbind_MessageDesc *d, const uint8_t *p, const uint8_t *end, const uint8_t *at,
							Path *path, int depth);

/* Inside a Node wrapper: its single field's number is the node tag. */
static void path_in_node(const uint8_t *p, const uint8_t *end, const uint8_t *at, Path *path, int depth)
{
	uint64_t key, len;
	if (at < p || !read_varint(&p, end, &key) || (key & 7) != 2 || !read_varint(&p, end, &len) ||
		len > (uint64_t)(end - p)) {
		path_add(path, "?");
		return;
	}
	const pgbind_MessageDesc *d = pgbind_node_desc((uint32_t)(key >> 3));
	if (!d) {
		path_add(path, ".<tag %llu>", (unsigned long long)(key >> 3));
		return;
	}
	path_add(path, ".%s", d->name);
	path_in_message(d, p, p + len, at, path, depth + 1);
}

static void path_in_message(const pgbind_MessageDesc *d, const uint8_t *p, const uint8_t *end, const uint8_t *at,
							Path *path, int depth)
{
	uint32_t seen[256] = {0}; /* occurrences per field index, for [k] */
	if (depth > 100000)
		return;
	while (p < end) {
		uint64_t key, v;
		const uint8_t *body = NULL;
		if (!read_varint(&p, end, &key)) {
			path_add(path, "?");
			return;
		}
		switch (key & 7) {
		case 0:
			if (!read_varint(&p, end, &v)) {
				path_add(path, "?");
				return;
			}
			break;
		case 1:
			p += 8;
			break;
		case 2:
			if (!read_varint(&p, end, &v) || v > (uint64_t)(end - p)) {
				path_add(path, "?");
				return;
			}
			body = p;
			p += v;
			break;
		case 5:
			p += 4;
			break;
		default:
			path_add(path, "?");
			return;
		}
		uint32_t number = (uint32_t)(key >> 3);
		const pgbind_FieldDesc *f = NULL;
		uint32_t fi = 0;
		const pgbind_OneofMemberDesc *member = NULL;
		for (uint32_t i = 0; i < d->n_fields && !f; i++) {
			if (d->fields[i].wire == PGBIND_WIRE_ONEOF) {
				const pgbind_OneofDesc *o = &pgbind_oneof_descs[d->fields[i].type_index];
				for (uint32_t k = 0; k < o->n_members; k++)
					if (o->members[k].number == number)
						f = &d->fields[i], fi = i, member = &o->members[k];
			} else if (d->fields[i].number == number) {
				f = &d->fields[i], fi = i;
			}
		}
		if (at >= p) {
			if (f && fi < 256)
				seen[fi]++;
			continue;
		}
		if (!f) {
			path_add(path, ".<field %u>", number);
			return;
		}
		bool repeated = f->count_offset != 0;
		path_add(path, repeated ? ".%s[%u]" : ".%s", f->name, fi < 256 ? seen[fi] : 0);
		if (!body || at < body)
			return;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_REPEATED_NODE:
			path_in_node(body, p, at, path, depth);
			return;
		case PGBIND_WIRE_MESSAGE:
		case PGBIND_WIRE_REPEATED_MESSAGE:
			path_in_message(&pgbind_message_descs[f->type_index], body, p, at, path, depth + 1);
			return;
		case PGBIND_WIRE_ONEOF:
			path_add(path, ".%s", pgbind_message_descs[member->message_index].name);
			path_in_message(&pgbind_message_descs[member->message_index], body, p, at, path, depth + 1);
			return;
		default:
			return;
		}
	}
	path_add(path, " (end of message)");
}

void pgbind_wire_path(const uint8_t *data, size_t len, size_t offset, char *out, size_t size)
{
	if (!out || size == 0)
		return;
	Path path = {out, size, 0};
	out[0] = '\0';
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name("ParseResult");
	path_add(&path, "ParseResult");
	if (offset >= len) {
		path_add(&path, " (past the end: %zu bytes)", len);
		return;
	}
	path_in_message(d, data, data + len, data + offset, &path, 0);
}

/* ---- empty strings libpg_query's protocol would lose --------------------------------------- */

static bool empty_in(const pgbind_MessageDesc *d, const void *msg, int depth, char *where, size_t size);

static bool empty_in_node(const pgbind_Node *n, int depth, char *where, size_t size)
{
	const pgbind_MessageDesc *d = n ? pgbind_node_desc(n->tag) : NULL;
	return d && empty_in(d, n, depth + 1, where, size);
}

static bool empty_in(const pgbind_MessageDesc *d, const void *msg, int depth, char *where, size_t size)
{
	if (depth > 4 * PGBIND_DEFAULT_MAX_DEPTH)
		return false;
	const char *base = msg;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		switch (f->wire) {
		case PGBIND_WIRE_STRING:
			if ((f->flags & PGBIND_FIELD_EMPTY_IS_NULL) && *(const char *const *)p && !**(const char *const *)p) {
				snprintf(where, size, "%s.%s", d->name, f->name);
				return true;
			}
			break;
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			if (empty_in_node(*(const pgbind_Node *const *)p, depth, where, size))
				return true;
			break;
		case PGBIND_WIRE_MESSAGE:
			if (*(const void *const *)p &&
				empty_in(&pgbind_message_descs[f->type_index], *(const void *const *)p, depth + 1, where, size))
				return true;
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			for (size_t k = 0; k < n; k++)
				if (empty_in_node((*(pgbind_Node *const *const *)p)[k], depth, where, size))
					return true;
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			for (size_t k = 0; k < n; k++) {
				const void *sub = (*(const void *const *const *)p)[k];
				if (sub && empty_in(&pgbind_message_descs[f->type_index], sub, depth + 1, where, size))
					return true;
			}
			break;
		default:
			break;
		}
	}
	return false;
}

bool pgbind_find_lossy_empty_string(const pgbind_ParseResult *tree, char *where, size_t size)
{
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name("ParseResult");
	return d && tree && empty_in(d, tree, 0, where, size);
}
