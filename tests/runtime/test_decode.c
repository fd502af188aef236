/*
 * test_decode.c -- the protobuf decoder on bytes libpg_query never writes: malformed input gets
 * an error with its byte offset (never a crash or a read out of bounds: run it under valgrind or
 * SAN=address), and everything the wire format allows is accepted (unknown fields, any field
 * order, packed and unpacked repeated scalars, last value wins, groups). Messages are written
 * by hand here with the tiny writer below, so each test states its bytes.
 */
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "rev_writer.h"

/* ---- a tiny protobuf writer ------------------------------------------------------------------ */

typedef struct {
	uint8_t data[4096];
	size_t len;
} Buf;

static void put_byte(Buf *b, uint8_t c)
{
	if (b->len < sizeof b->data)
		b->data[b->len++] = c;
}

static void put_varint(Buf *b, uint64_t v)
{
	while (v >= 0x80) {
		put_byte(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	put_byte(b, (uint8_t)v);
}

static void put_key(Buf *b, uint32_t field, unsigned wire_type)
{
	put_varint(b, ((uint64_t)field << 3) | wire_type);
}

static void put_bytes(Buf *b, uint32_t field, const void *data, size_t len)
{
	put_key(b, field, 2);
	put_varint(b, len);
	for (size_t i = 0; i < len; i++)
		put_byte(b, ((const uint8_t *)data)[i]);
}

static void put_message(Buf *b, uint32_t field, const Buf *m)
{
	put_bytes(b, field, m->data, m->len);
}

/* ParseResult{stmts: [RawStmt{stmt: Node{<tag>: body}}]} */
/* A field's number in this version's protocol (they move between versions). */
static uint32_t field_number(const char *message, const char *field)
{
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name(message);
	for (uint32_t i = 0; d && i < d->n_fields; i++)
		if (strcmp(d->fields[i].name, field) == 0)
			return d->fields[i].number;
	fprintf(stderr, "test_decode: no field %s.%s\n", message, field);
	exit(1);
}

static Buf wrap_stmt(uint32_t tag, const Buf *body)
{
	Buf node = {0}, raw = {0}, result = {0};
	put_message(&node, tag, body);
	put_message(&raw, 1, &node);
	put_message(&result, 2, &raw);
	return result;
}

/* ---- helpers --------------------------------------------------------------------------------- */

static pgbind_Arena *arena;

static pgbind_ParseResult *decode(const Buf *b, pgbind_Status *st)
{
	memset(st, 0, sizeof *st);
	return pgbind_decode(b->data, b->len, NULL, arena, st);
}

static void expect_malformed(const char *what, const Buf *b, size_t offset, const char *message)
{
	pgbind_Status st;
	pgbind_ParseResult *r = decode(b, &st);
	CHECK(!r && st.code == PGBIND_ERROR_MALFORMED && st.offset == offset && strstr(st.message, message),
		  "%s: expected \"%s\" at %zu, got %s \"%s\" at %zu", what, message, offset, r ? "success" : "error",
		  st.message, st.offset);
}

static pgbind_Node *first_stmt(pgbind_ParseResult *r)
{
	return r && r->n_stmts == 1 && r->stmts[0] ? r->stmts[0]->stmt : NULL;
}

/* ---- malformed input ------------------------------------------------------------------------- */

static void test_malformed(void)
{
	Buf b = {.data = {0x0a}, .len = 1};
	expect_malformed("a key with no length", &b, 1, "truncated varint");

	b = (Buf){.data = {0x12, 0x05, 'a', 'b'}, .len = 4};
	expect_malformed("a length past the end", &b, 1, "runs past the end");

	b = (Buf){.len = 0};
	put_key(&b, 2, 2);
	put_varint(&b, UINT64_MAX);
	expect_malformed("a huge length", &b, 1, "runs past the end");

	b = (Buf){.data = {0x0e, 0x00}, .len = 2};
	expect_malformed("wire type 6", &b, 0, "invalid wire type 6");
	b = (Buf){.data = {0x0f, 0x00}, .len = 2};
	expect_malformed("wire type 7", &b, 0, "invalid wire type 7");

	b = (Buf){.data = {0x00, 0x00}, .len = 2};
	expect_malformed("field number 0", &b, 0, "field number 0");

	b = (Buf){.data = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, .len = 12};
	expect_malformed("a varint longer than 10 bytes", &b, 1, "varint");

	b = (Buf){.data = {0x08, 0x80}, .len = 2};
	expect_malformed("a truncated varint value", &b, 1, "truncated varint");

	b = (Buf){.data = {0x09, 1, 2, 3}, .len = 4};
	expect_malformed("a truncated fixed64", &b, 1, "truncated fixed64");

	b = (Buf){.data = {0x0c}, .len = 1};
	expect_malformed("an end group never started", &b, 0, "end of a group");

	b = (Buf){.data = {0x0b, 0x08, 0x01}, .len = 3};
	expect_malformed("a group never ended", &b, 3, "truncated varint");

	/* strings hold no NUL byte; UTF-8 is not checked: libpg_query writes what the SQL held */
	Buf s = {0};
	put_bytes(&s, 1, "a\0b", 3);
	Buf whole = wrap_stmt(PGBIND_T_String, &s);
	expect_malformed("a string with a NUL byte", &whole, whole.len - 2, "NUL byte");
	s = (Buf){0};
	put_bytes(&s, 1, "x\xff", 2);
	whole = wrap_stmt(PGBIND_T_String, &s);
	pgbind_Status ust;
	pgbind_ParseResult *ur = decode(&whole, &ust);
	pgbind_String *str = ur && ur->n_stmts ? (pgbind_String *)ur->stmts[0]->stmt : NULL;
	CHECK(str && strcmp(str->sval, "x\xff") == 0, "a string that is not UTF-8 is kept byte for byte");
	PgQueryProtobufParseResult raw = pg_query_parse_protobuf("SELECT x\xff FROM t");
	ur = raw.error ? NULL : pgbind_decode((const uint8_t *)raw.parse_tree.data, raw.parse_tree.len, NULL, arena, &ust);
	CHECK(ur != NULL, "libpg_query's bytes for SELECT x\\xff decode (%s)",
		  raw.error ? raw.error->message : ust.message);
	pg_query_free_protobuf_parse_result(raw);

	/* every prefix of real bytes: no crash, no read past the end; an error points inside */
	PgQueryProtobufParseResult real = pg_query_parse_protobuf(
		"SELECT DISTINCT a, 'x', 1.5 FROM t JOIN u USING (id) WHERE b IN (1, 2) ORDER BY 1 LIMIT 3");
	size_t bad_offsets = 0, errors = 0;
	for (size_t n = 0; n < real.parse_tree.len; n++) {
		uint8_t *copy = malloc(n ? n : 1); /* exact size: valgrind sees any overread */
		memcpy(copy, real.parse_tree.data, n);
		pgbind_Status st = {0};
		pgbind_ParseResult *r = pgbind_decode(copy, n, NULL, arena, &st);
		if (!r) {
			errors++;
			bad_offsets += st.offset > n || st.code != PGBIND_ERROR_MALFORMED;
		}
		free(copy);
	}
	CHECK(errors > 0 && bad_offsets == 0, "prefixes: %zu errors, %zu with an offset outside the input", errors,
		  bad_offsets);
	/* every single-byte corruption: no crash */
	size_t decoded = 0;
	for (size_t i = 0; i < real.parse_tree.len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			uint8_t *copy = malloc(real.parse_tree.len);
			memcpy(copy, real.parse_tree.data, real.parse_tree.len);
			copy[i] ^= (uint8_t)(1u << bit);
			pgbind_Status st = {0};
			decoded += pgbind_decode(copy, real.parse_tree.len, NULL, arena, &st) != NULL;
			free(copy);
		}
	}
	CHECK(true, "bit flips decoded or refused without a crash (%zu decoded)", decoded);
	pg_query_free_protobuf_parse_result(real);
}

/* ---- what the wire format allows ------------------------------------------------------------- */

static void test_accepted(void)
{
	pgbind_Status st;
	/* unknown fields of every wire type, a group included, are skipped */
	Buf b = {0};
	put_key(&b, 1, 0);
	put_varint(&b, 150001);
	put_key(&b, 99, 0);
	put_varint(&b, 7);
	put_key(&b, 98, 1);
	for (int i = 0; i < 8; i++)
		put_byte(&b, (uint8_t)i);
	put_bytes(&b, 97, "xyz", 3);
	put_key(&b, 96, 5);
	for (int i = 0; i < 4; i++)
		put_byte(&b, 0);
	put_key(&b, 95, 3); /* group 95 { field 1: 5; group 94 {} } */
	put_key(&b, 1, 0);
	put_varint(&b, 5);
	put_key(&b, 94, 3);
	put_key(&b, 94, 4);
	put_key(&b, 95, 4);
	pgbind_ParseResult *r = decode(&b, &st);
	CHECK(r && r->version == 150001 && r->n_stmts == 0, "unknown fields skipped (%s)", st.message);

	/* a known field with an unexpected wire type is an unknown field */
	b = (Buf){0};
	put_bytes(&b, 1, "x", 1);
	r = decode(&b, &st);
	CHECK(r && r->version == 0, "version written as bytes is skipped");

	/* last value wins for a scalar */
	b = (Buf){0};
	put_key(&b, 1, 0);
	put_varint(&b, 1);
	put_key(&b, 1, 0);
	put_varint(&b, 2);
	r = decode(&b, &st);
	CHECK(r && r->version == 2, "the last value of a scalar wins");

	/* int32 -1 is a 10-byte varint */
	Buf integer = {0};
	put_key(&integer, 1, 0);
	put_varint(&integer, (uint64_t)(int64_t)-1);
	Buf whole = wrap_stmt(PGBIND_T_Integer, &integer);
	r = decode(&whole, &st);
	pgbind_Node *n = first_stmt(r);
	CHECK(n && n->tag == PGBIND_T_Integer && ((pgbind_Integer *)n)->ival == -1, "int32 -1");

	/* fields in any order: RangeVar{location=7, relname="t"} written backwards */
	Buf rv = {0};
	put_key(&rv, 7, 0);
	put_varint(&rv, 7);
	put_bytes(&rv, 3, "t", 1);
	whole = wrap_stmt(PGBIND_T_RangeVar, &rv);
	r = decode(&whole, &st);
	pgbind_RangeVar *v = (pgbind_RangeVar *)first_stmt(r);
	CHECK(v && v->tag == PGBIND_T_RangeVar && v->location == 7 && v->relname && strcmp(v->relname, "t") == 0 &&
			  v->schemaname == NULL,
		  "fields in reverse order");

	/* repeated uint64: packed and unpacked, mixed (TableFunc.notnulls: 11 in 15, 14 in 17) */
	const uint32_t notnulls = field_number("TableFunc", "notnulls");
	Buf tf = {0};
	Buf packed = {0};
	put_varint(&packed, 1);
	put_varint(&packed, 300);
	put_bytes(&tf, notnulls, packed.data, packed.len);
	put_key(&tf, notnulls, 0);
	put_varint(&tf, 5);
	whole = wrap_stmt(PGBIND_T_TableFunc, &tf);
	r = decode(&whole, &st);
	pgbind_TableFunc *t = (pgbind_TableFunc *)first_stmt(r);
	CHECK(t && t->n_notnulls == 3 && t->notnulls[0] == 1 && t->notnulls[1] == 300 && t->notnulls[2] == 5,
		  "packed and unpacked repeated uint64");
	const uint8_t *out;
	size_t len;
	Buf canonical = {0};
	Buf packed_all = {0};
	put_varint(&packed_all, 1);
	put_varint(&packed_all, 300);
	put_varint(&packed_all, 5);
	put_bytes(&canonical, notnulls, packed_all.data, packed_all.len);
	Buf canonical_whole = wrap_stmt(PGBIND_T_TableFunc, &canonical);
	CHECK(r && pgbind_encode(r, NULL, arena, &out, &len, &st) && len == canonical_whole.len &&
			  memcmp(out, canonical_whole.data, len) == 0,
		  "re-encoded packed, as protobuf-c writes repeated uint64");

	/* a message field written twice is merged: RangeVar.alias (6) with aliasname, then colnames */
	Buf alias1 = {0}, alias2 = {0}, colname = {0}, str = {0};
	put_bytes(&alias1, 1, "a", 1);
	put_bytes(&str, 1, "c", 1);
	put_message(&colname, PGBIND_T_String, &str);
	put_message(&alias2, 2, &colname);
	rv = (Buf){0};
	put_message(&rv, 6, &alias1);
	put_message(&rv, 6, &alias2);
	whole = wrap_stmt(PGBIND_T_RangeVar, &rv);
	r = decode(&whole, &st);
	v = (pgbind_RangeVar *)first_stmt(r);
	CHECK(v && v->alias && v->alias->aliasname && strcmp(v->alias->aliasname, "a") == 0 && v->alias->n_colnames == 1,
		  "a message field written twice is merged");

	/* a oneof switches to its last member: A_Const{ival=1, sval="x"} is the string */
	Buf ac = {0}, iv = {0}, sv = {0};
	put_key(&iv, 1, 0);
	put_varint(&iv, 1);
	put_bytes(&sv, 1, "x", 1);
	put_message(&ac, 1, &iv);
	put_message(&ac, 4, &sv);
	whole = wrap_stmt(PGBIND_T_A_Const, &ac);
	r = decode(&whole, &st);
	pgbind_A_Const *a = (pgbind_A_Const *)first_stmt(r);
	CHECK(a && a->val && a->val->tag == PGBIND_T_String, "the last oneof member wins");

	/* an empty Node in a list is a NULL cell; an unknown Node member is skipped */
	Buf sel = {0}, empty = {0}, unknown = {0};
	put_message(&sel, 1, &empty); /* SelectStmt.distinctClause = [NULL] */
	put_key(&unknown, 9999, 0);
	put_varint(&unknown, 1);
	put_message(&sel, 1, &unknown);
	whole = wrap_stmt(PGBIND_T_SelectStmt, &sel);
	r = decode(&whole, &st);
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)first_stmt(r);
	CHECK(s && s->n_distinctClause == 2 && !s->distinctClause[0] && !s->distinctClause[1],
		  "empty and unknown Node members are NULL cells");

	/* value nodes' strings are "" when absent, other strings NULL */
	Buf empty_string = {0};
	whole = wrap_stmt(PGBIND_T_String, &empty_string);
	r = decode(&whole, &st);
	pgbind_String *str_node = (pgbind_String *)first_stmt(r);
	CHECK(str_node && str_node->sval && str_node->sval[0] == '\0', "String{} has sval \"\"");
	CHECK(pgbind_decode(NULL, 0, NULL, arena, &st) != NULL, "no bytes: an empty ParseResult");
	CHECK(pgbind_decode(NULL, 1, NULL, arena, &st) == NULL && st.code == PGBIND_ERROR_ARGUMENT, "NULL with a length");
}

/* ---- nesting --------------------------------------------------------------------------------- */

static void test_depth(void)
{
	enum { DEEP = 100000 };
	Rev r = {.cap = (size_t)DEEP * 16 + 64};
	r.data = malloc(r.cap);
	r.start = r.cap;
	/* A_Expr{lexpr (3): Node{A_Expr: ...}} DEEP times, around an empty A_Expr */
	for (int i = 0; i < DEEP; i++) {
		rev_wrap(&r, PGBIND_T_A_Expr); /* Node{A_Expr: body} */
		rev_wrap(&r, 3);               /* A_Expr.lexpr */
	}
	rev_wrap(&r, PGBIND_T_A_Expr); /* RawStmt.stmt's Node */
	rev_wrap(&r, 1);               /* RawStmt.stmt */
	rev_wrap(&r, 2);               /* ParseResult.stmts */
	pgbind_Status st = {0};
	pgbind_ParseResult *res = pgbind_decode(r.data + r.start, r.cap - r.start, NULL, arena, &st);
	CHECK(!res && st.code == PGBIND_ERROR_DEPTH && strstr(st.message, "nesting too deep"),
		  "%d nested A_Expr: nesting too deep (got \"%s\")", DEEP, st.message);
	/* within the limit it decodes, and encodes back to the same bytes */
	Rev shallow = {.cap = 4096};
	shallow.data = malloc(shallow.cap);
	shallow.start = shallow.cap;
	for (int i = 0; i < 100; i++) {
		rev_wrap(&shallow, PGBIND_T_A_Expr);
		rev_wrap(&shallow, 3);
	}
	rev_wrap(&shallow, PGBIND_T_A_Expr);
	rev_wrap(&shallow, 1);
	rev_wrap(&shallow, 2);
	res = pgbind_decode(shallow.data + shallow.start, shallow.cap - shallow.start, NULL, arena, &st);
	const uint8_t *out;
	size_t len;
	CHECK(res && pgbind_encode(res, NULL, arena, &out, &len, &st) && len == shallow.cap - shallow.start &&
			  memcmp(out, shallow.data + shallow.start, len) == 0,
		  "100 nested A_Expr decode and encode back (%s)", st.message);
	pgbind_Options tight = {.max_depth = 50};
	CHECK(!pgbind_decode(shallow.data + shallow.start, shallow.cap - shallow.start, &tight, arena, &st) &&
			  st.code == PGBIND_ERROR_DEPTH,
		  "max_depth = 50 refuses 100 levels");
	free(shallow.data);
	free(r.data);
}

int main(void)
{
	arena = pgbind_Arena_New();
	test_malformed();
	test_accepted();
	test_depth();
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
