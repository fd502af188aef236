/*
 * reflect.c -- the generated descriptor tables (targets/c/generated/pgNN/reflect.inc.c) and lookups over them.
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
	if (depth > 4 * PGBIND_DEFAULT_MAX_DEPTH || pgbind_stack_low())
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

/* ---- a copy with those empty strings replaced -------------------------------------------------- */

typedef struct {
	pgbind_Arena *arena;
	const char *replaced; /* "" (or the replacement of an earlier copy, put back) */
	const char *replacement;
	bool collides; /* some string of the tree holds the replacement */
	bool failed;   /* out of memory */
} Copy;

static void *copy_message(Copy *c, const pgbind_MessageDesc *d, const void *msg, int depth);

static pgbind_Node *copy_node(Copy *c, const pgbind_Node *n, int depth)
{
	const pgbind_MessageDesc *d = n ? pgbind_node_desc(n->tag) : NULL;
	return d ? copy_message(c, d, n, depth + 1) : (pgbind_Node *)n;
}

/* A message copied field by field: scalars by value, strings shared (but the lossy empty ones),
 * every node, message and array copied, so that nothing of the caller's tree is written. */
static void *copy_message(Copy *c, const pgbind_MessageDesc *d, const void *msg, int depth)
{
	bool deep = depth > 4 * PGBIND_DEFAULT_MAX_DEPTH || pgbind_stack_low();
	char *out = c->failed || deep ? NULL : pgbind_Arena_Malloc(c->arena, d->size);
	if (!out) {
		c->failed = true;
		return NULL;
	}
	memcpy(out, msg, d->size);
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		void *p = out + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(out + f->count_offset) : 0;
		switch (f->wire) {
		case PGBIND_WIRE_STRING: {
			const char *s = *(const char **)p;
			if (s && strstr(s, c->replacement))
				c->collides = true;
			if (s && strcmp(s, c->replaced) == 0 && (f->flags & PGBIND_FIELD_EMPTY_IS_NULL))
				*(const char **)p = c->replacement;
			break;
		}
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			*(pgbind_Node **)p = copy_node(c, *(pgbind_Node **)p, depth);
			break;
		case PGBIND_WIRE_MESSAGE:
			if (*(void **)p)
				*(void **)p = copy_message(c, &pgbind_message_descs[f->type_index], *(void **)p, depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			void **from = *(void ***)p;
			void **to = n ? pgbind_Arena_Malloc(c->arena, n * sizeof *to) : NULL;
			if (n && !to) {
				c->failed = true;
				return NULL;
			}
			for (size_t k = 0; k < n; k++)
				to[k] = f->wire == PGBIND_WIRE_REPEATED_NODE ? (void *)copy_node(c, from[k], depth)
						: from[k] ? copy_message(c, &pgbind_message_descs[f->type_index], from[k], depth + 1)
								  : NULL;
			*(void ***)p = to;
			break;
		}
		default:
			break;
		}
	}
	return c->failed ? NULL : out;
}

pgbind_ParseResult *pgbind_copy_replacing_lossy_empty(const pgbind_ParseResult *tree, const char *replacement,
													  pgbind_Arena *arena, bool *collides, pgbind_Status *status)
{
	Copy c = {arena, "", replacement, false, false};
	pgbind_ParseResult *copy = copy_message(&c, pgbind_message_desc_by_name("ParseResult"), tree, 0);
	if (!copy)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	*collides = c.collides;
	return copy;
}

pgbind_ParseResult *pgbind_copy_restoring_lossy_empty(const pgbind_ParseResult *tree, const char *replacement,
													  pgbind_Arena *arena, pgbind_Status *status)
{
	Copy c = {arena, replacement, "", false, false};
	pgbind_ParseResult *copy = copy_message(&c, pgbind_message_desc_by_name("ParseResult"), tree, 0);
	if (!copy)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	return copy;
}

/* ---- the first difference between two trees ---------------------------------------------------- */

/* Positions in the text: PostgreSQL's equal() skips them, and so does this. */
static bool is_location(const pgbind_FieldDesc *f)
{
	return strcmp(f->name, "location") == 0 || strcmp(f->name, "stmt_location") == 0 ||
		   strcmp(f->name, "stmt_len") == 0;
}

typedef struct {
	Path path;
	bool lenient; /* NULL in a (where the protocol cannot tell) matches "" in b */
} Diff;

static bool diff_message(Diff *x, const pgbind_MessageDesc *d, const void *a, const void *b, int depth);

static bool diff_node(Diff *x, const pgbind_Node *a, const pgbind_Node *b, int depth)
{
	if (!a || !b) {
		if (a != b)
			path_add(&x->path, " (%s in one tree only)",
					 a ? pgbind_node_desc(a->tag)->name : pgbind_node_desc(b->tag)->name);
		return a != b;
	}
	const pgbind_MessageDesc *da = pgbind_node_desc(a->tag), *db = pgbind_node_desc(b->tag);
	if (a->tag != b->tag || !da) {
		path_add(&x->path, " (%s, then %s)", da ? da->name : "?", db ? db->name : "?");
		return true;
	}
	size_t at = x->path.len;
	path_add(&x->path, ".%s", da->name);
	if (diff_message(x, da, a, b, depth + 1))
		return true;
	x->path.len = at;
	x->path.out[at] = '\0';
	return false;
}

static bool diff_scalar(Diff *x, const pgbind_FieldDesc *f, const void *pa, const void *pb)
{
	bool differs = false;
	switch (f->wire) {
	case PGBIND_WIRE_INT32:
	case PGBIND_WIRE_ENUM:
		differs = *(const int32_t *)pa != *(const int32_t *)pb;
		break;
	case PGBIND_WIRE_UINT32:
		differs = *(const uint32_t *)pa != *(const uint32_t *)pb;
		break;
	case PGBIND_WIRE_INT64:
	case PGBIND_WIRE_UINT64:
		differs = *(const uint64_t *)pa != *(const uint64_t *)pb;
		break;
	case PGBIND_WIRE_BOOL:
		differs = *(const bool *)pa != *(const bool *)pb;
		break;
	case PGBIND_WIRE_DOUBLE:
		differs = *(const double *)pa != *(const double *)pb;
		break;
	case PGBIND_WIRE_STRING: {
		const char *sa = *(const char *const *)pa, *sb = *(const char *const *)pb;
		if (!sa || !sb)
			differs = sa != sb && !(x->lenient && !sa && !*sb && (f->flags & PGBIND_FIELD_EMPTY_IS_NULL));
		else
			differs = strcmp(sa, sb) != 0;
		if (differs)
			path_add(&x->path, " (%s%.40s%s, then %s%.40s%s)", sa ? "\"" : "", sa ? sa : "NULL", sa ? "\"" : "",
					 sb ? "\"" : "", sb ? sb : "NULL", sb ? "\"" : "");
		return differs;
	}
	default:
		break;
	}
	if (differs && f->wire == PGBIND_WIRE_ENUM) {
		const char *na = pgbind_enum_value_name(f->type_index, *(const int32_t *)pa);
		const char *nb = pgbind_enum_value_name(f->type_index, *(const int32_t *)pb);
		path_add(&x->path, " (%s, then %s)", na ? na : "?", nb ? nb : "?");
	} else if (differs && f->wire == PGBIND_WIRE_BOOL) {
		path_add(&x->path, " (%s, then %s)", *(const bool *)pa ? "true" : "false",
				 *(const bool *)pb ? "true" : "false");
	} else if (differs && (f->wire == PGBIND_WIRE_INT32 || f->wire == PGBIND_WIRE_UINT32)) {
		path_add(&x->path, " (%d, then %d)", *(const int32_t *)pa, *(const int32_t *)pb);
	}
	return differs;
}

static bool diff_message(Diff *x, const pgbind_MessageDesc *d, const void *a, const void *b, int depth)
{
	if (depth > 4 * PGBIND_DEFAULT_MAX_DEPTH || pgbind_stack_low())
		return false;
	const char *ba = a, *bb = b;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		if (is_location(f))
			continue;
		const void *pa = ba + f->offset, *pb = bb + f->offset;
		size_t na = f->count_offset ? *(const size_t *)(ba + f->count_offset) : 0;
		size_t nb = f->count_offset ? *(const size_t *)(bb + f->count_offset) : 0;
		size_t at = x->path.len;
		path_add(&x->path, ".%s", f->name);
		bool differs = false;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			differs = diff_node(x, *(const pgbind_Node *const *)pa, *(const pgbind_Node *const *)pb, depth);
			break;
		case PGBIND_WIRE_MESSAGE: {
			const void *ma = *(const void *const *)pa, *mb = *(const void *const *)pb;
			if (!ma || !mb) {
				differs = ma != mb;
				if (differs)
					path_add(&x->path, " (in one tree only)");
			} else {
				differs = diff_message(x, &pgbind_message_descs[f->type_index], ma, mb, depth + 1);
			}
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE:
		case PGBIND_WIRE_PACKED_UINT64:
			for (size_t k = 0; !differs && k < na && k < nb; k++) {
				size_t here = x->path.len;
				path_add(&x->path, "[%zu]", k);
				if (f->wire == PGBIND_WIRE_REPEATED_NODE)
					differs = diff_node(x, (*(pgbind_Node *const *const *)pa)[k], (*(pgbind_Node *const *const *)pb)[k],
										depth);
				else if (f->wire == PGBIND_WIRE_PACKED_UINT64)
					differs = (*(const uint64_t *const *)pa)[k] != (*(const uint64_t *const *)pb)[k];
				else {
					const void *ma = (*(const void *const *const *)pa)[k], *mb = (*(const void *const *const *)pb)[k];
					differs = !ma || !mb ? ma != mb
										 : diff_message(x, &pgbind_message_descs[f->type_index], ma, mb, depth + 1);
				}
				if (!differs) {
					x->path.len = here;
					x->path.out[here] = '\0';
				}
			}
			if (!differs && na != nb) {
				differs = true;
				path_add(&x->path, " (%zu elements, then %zu)", na, nb);
			}
			break;
		default:
			differs = diff_scalar(x, f, pa, pb);
			break;
		}
		if (differs)
			return true;
		x->path.len = at;
		x->path.out[at] = '\0';
	}
	return false;
}

bool pgbind_first_difference(const pgbind_ParseResult *a, const pgbind_ParseResult *b, bool lenient, char *path,
							 size_t size)
{
	Diff x = {{path, size, 0}, lenient};
	path[0] = '\0';
	path_add(&x.path, "ParseResult");
	return diff_message(&x, pgbind_message_desc_by_name("ParseResult"), a, b, 0);
}
