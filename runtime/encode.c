/*
 * encode.c -- pgbind AST -> protobuf bytes, identical to libpg_query's (protobuf-c) output.
 *
 * The buffer is filled from its end towards its start: each message writes its fields from the
 * highest number down, and a nested message is written before its length and tag, which are
 * then known without a sizing pass and without moving bytes (protobuf-c instead sizes every
 * message and shifts each nested one after packing it). When the buffer is full, a block twice
 * the size is taken from the arena and the bytes written so far move to its end: O(n) in all.
 *
 * Presence follows proto3 as protobuf-c implements it, and lives only here: a scalar or enum is
 * written when non-zero, a string when non-empty, a message or node when its pointer is set, a
 * oneof when set (even if its message is empty), a NULL element of a repeated Node field as an
 * empty Node message, repeated uint64 packed.
 *
 * The per-message functions are generated (generated/encode.inc.c) as flat lists of
 * ENC_<WIRE>(number, field, type) lines; each wire kind is one macro below.
 */
#include "internal.h"

#include <string.h>

typedef struct pgbind_Encoder {
	uint8_t *start; /* first byte of the current block */
	uint8_t *ptr;	/* first written byte; writing moves it towards start */
	uint8_t *end;	/* one past the last byte of output */
	pgbind_Arena *arena;
	pgbind_Status *status;
	int depth;
	int max_depth;
} pgbind_Encoder;

enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2 };

/* The most a field header plus a varint value can take: a 5-byte tag and a 10-byte varint. */
#define MAX_FIELD_HEAD 15

static bool enc_fail(pgbind_Encoder *e, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool enc_fail(pgbind_Encoder *e, pgbind_StatusCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(e->status, code, fmt, ap);
	va_end(ap);
	return false;
}

static inline size_t enc_written(const pgbind_Encoder *e)
{
	return (size_t)(e->end - e->ptr);
}

static bool enc_grow(pgbind_Encoder *e, size_t need)
{
	size_t used = enc_written(e);
	size_t cap = (size_t)(e->end - e->start);
	size_t new_cap = cap ? cap * 2 : 256;
	while (new_cap - used < need) {
		if (new_cap > SIZE_MAX / 2)
			return enc_fail(e, PGBIND_ERROR_NOMEM, "out of memory");
		new_cap *= 2;
	}
	uint8_t *block = pgbind_Arena_Malloc(e->arena, new_cap);
	if (!block)
		return enc_fail(e, PGBIND_ERROR_NOMEM, "out of memory");
	if (used)
		memcpy(block + new_cap - used, e->ptr, used);
	e->start = block;
	e->end = block + new_cap;
	e->ptr = e->end - used;
	return true;
}

static inline bool enc_reserve(pgbind_Encoder *e, size_t n)
{
	return (size_t)(e->ptr - e->start) >= n || enc_grow(e, n);
}

static inline size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Writes v in front of what is written; room must be reserved. */
static inline void put_varint(pgbind_Encoder *e, uint64_t v)
{
	size_t n = varint_size(v);
	e->ptr -= n;
	uint8_t *p = e->ptr;
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p = (uint8_t)v;
}

static inline void put_tag(pgbind_Encoder *e, uint32_t number, unsigned wire_type)
{
	put_varint(e, ((uint64_t)number << 3) | wire_type);
}

static inline bool enc_varint_field(pgbind_Encoder *e, uint32_t number, uint64_t v)
{
	if (!enc_reserve(e, MAX_FIELD_HEAD))
		return false;
	put_varint(e, v);
	put_tag(e, number, WT_VARINT);
	return true;
}

static inline bool enc_double_field(pgbind_Encoder *e, uint32_t number, double v)
{
	if (!enc_reserve(e, MAX_FIELD_HEAD))
		return false;
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	e->ptr -= 8;
	for (int i = 0; i < 8; i++)
		e->ptr[i] = (uint8_t)(bits >> (8 * i));
	put_tag(e, number, WT_FIXED64);
	return true;
}

static inline bool enc_string_field(pgbind_Encoder *e, uint32_t number, const char *s)
{
	size_t len = strlen(s);
	if (!enc_reserve(e, len + MAX_FIELD_HEAD))
		return false;
	e->ptr -= len;
	memcpy(e->ptr, s, len);
	put_varint(e, len);
	put_tag(e, number, WT_LEN);
	return true;
}

/* The header of a length-delimited field whose body is the last `len` bytes written. */
static inline bool enc_len_head(pgbind_Encoder *e, uint32_t number, size_t len)
{
	if (!enc_reserve(e, MAX_FIELD_HEAD))
		return false;
	put_varint(e, len);
	put_tag(e, number, WT_LEN);
	return true;
}

static inline bool enc_enter(pgbind_Encoder *e)
{
	if (++e->depth > e->max_depth)
		return enc_fail(e, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
						e->max_depth);
	return true;
}

static bool enc_bad_tag(pgbind_Encoder *e, const pgbind_Node *n)
{
	return enc_fail(e, PGBIND_ERROR_INVALID, "node tag %u is not a node kind", (unsigned)n->tag);
}

static bool enc_node_body(pgbind_Encoder *e, const pgbind_Node *n);

/* A Node wrapper message (field `number`) holding n as its oneof member n->tag; NULL is an empty
 * Node message, the NULL cell of a list. */
static bool enc_node_field(pgbind_Encoder *e, uint32_t number, const pgbind_Node *n)
{
	size_t mark = enc_written(e);
	if (n) {
		if (!enc_enter(e) || !enc_node_body(e, n) || !enc_len_head(e, (uint32_t)n->tag, enc_written(e) - mark))
			return false;
		e->depth--;
	}
	return enc_len_head(e, number, enc_written(e) - mark);
}

/* ---- the wire kinds -------------------------------------------------------------------------- */

#define ENC_BEGIN(M)                                             \
	static __attribute__((unused)) bool enc_##M(pgbind_Encoder *e, const pgbind_##M *m) \
	{                                                                                     \
		(void)e;                                                                          \
		(void)m;
#define ENC_END \
		return true; \
	}

#define ENC_INT32(num, f, T) \
	if (m->f != 0 && !enc_varint_field(e, num, (uint64_t)(int64_t)m->f)) return false;
#define ENC_INT64(num, f, T) \
	if (m->f != 0 && !enc_varint_field(e, num, (uint64_t)m->f)) return false;
#define ENC_UINT32(num, f, T) ENC_INT64(num, f, T)
#define ENC_UINT64(num, f, T) ENC_INT64(num, f, T)
#define ENC_ENUM(num, f, T) ENC_INT32(num, f, T)
#define ENC_BOOL(num, f, T) \
	if (m->f && !enc_varint_field(e, num, 1)) return false;
#define ENC_DOUBLE(num, f, T) \
	if (m->f != 0 && !enc_double_field(e, num, m->f)) return false;
#define ENC_STRING(num, f, T) \
	if (m->f && m->f[0] && !enc_string_field(e, num, m->f)) return false;
#define ENC_NODE(num, f, T) \
	if (m->f && !enc_node_field(e, num, m->f)) return false;
#define ENC_MESSAGE(num, f, T)                                                                          \
	if (m->f) {                                                                                         \
		size_t mark_ = enc_written(e);                                                                  \
		if (!enc_enter(e) || !enc_##T(e, m->f) || !enc_len_head(e, num, enc_written(e) - mark_))        \
			return false;                                                                               \
		e->depth--;                                                                                     \
	}
#define ENC_REPEATED_NODE(num, f, T)                      \
	for (size_t i_ = m->n_##f; i_-- > 0;)                 \
		if (!enc_node_field(e, num, m->f[i_]))            \
			return false;
#define ENC_REPEATED_MESSAGE(num, f, T)                                                                 \
	for (size_t i_ = m->n_##f; i_-- > 0;) {                                                             \
		size_t mark_ = enc_written(e);                                                                  \
		if (m->f[i_] && (!enc_enter(e) || !enc_##T(e, m->f[i_])))                                       \
			return false;                                                                               \
		if (m->f[i_])                                                                                   \
			e->depth--;                                                                                 \
		if (!enc_len_head(e, num, enc_written(e) - mark_))                                              \
			return false;                                                                               \
	}
#define ENC_PACKED_UINT64(num, f, T)                                                                    \
	if (m->n_##f) {                                                                                     \
		size_t mark_ = enc_written(e);                                                                  \
		for (size_t i_ = m->n_##f; i_-- > 0;) {                                                         \
			if (!enc_reserve(e, 10))                                                                    \
				return false;                                                                           \
			put_varint(e, m->f[i_]);                                                                    \
		}                                                                                               \
		if (!enc_len_head(e, num, enc_written(e) - mark_))                                              \
			return false;                                                                               \
	}
#define ENC_ONEOF(num, f, T)                                                                            \
	if (m->f) {                                                                                         \
		uint32_t member_ = oneof_number_##T(m->f->tag);                                                 \
		size_t mark_ = enc_written(e);                                                                  \
		if (!member_)                                                                                   \
			return enc_fail(e, PGBIND_ERROR_INVALID, "oneof " #T ": node tag %u is not a member",      \
							(unsigned)m->f->tag);                                                       \
		if (!enc_enter(e) || !enc_node_body(e, m->f) || !enc_len_head(e, member_, enc_written(e) - mark_)) \
			return false;                                                                               \
		e->depth--;                                                                                     \
	}

#include "encode.inc.c"

bool pgbind_encode(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
				   const uint8_t **data, size_t *len, pgbind_Status *status)
{
	if (!tree || !arena || !data || !len) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return false;
	}
	pgbind_Encoder e = {.arena = arena, .status = status, .max_depth = pgbind_max_depth(options)};
	if (!enc_grow(&e, 256) || !enc_ParseResult(&e, tree))
		return false;
	*data = e.ptr;
	*len = enc_written(&e);
	return true;
}
