/*
 * json_internal.h -- what pgbind's JSON writer (json_write.c: pgbind_json) and reader
 * (json_read.c: pgbind_json_read) share: the format, the key tables derived once per process from
 * the descriptor tables of pgbind_reflect.h (json_keys.c), and field paths for error messages.
 * Not installed. Both walk the descriptor tables, so a new field or node kind needs no change.
 *
 * The format, as libpg_query 15-4.0.0's pg_query_parse() writes it (found by comparing its output
 * for the 5,361 statements of tests/sql and Debian's PostgreSQL scripts, and read against its
 * pg_query_outfuncs_json.c):
 *   - {"version":150001,"stmts":[...]}: both keys always, "stmts":[] for no statements; each
 *     statement is a RawStmt object {"stmt":...,"stmt_location":N,"stmt_len":N}.
 *   - A node is {"Kind":{fields}}; a message that is not a Node (RangeVar.alias) is {fields}; a
 *     NULL list cell is {}. No white space anywhere.
 *   - Keys are PostgreSQL's C field names (the AST's member names), in proto field order.
 *   - Left out when unset: integers equal to 0, false, NULL strings ("" is written: "" and NULL
 *     differ; libpg_query 18 leaves "" out as well, outside the value nodes, and pgbind follows
 *     the libpg_query it is built with), NULL nodes and messages, empty lists and bitmapsets.
 *   - Enums: always, by name, even PostgreSQL's value 0 (pgbind's 0, the proto's *_UNDEFINED,
 *     never occurs in a parsed tree and is left out).
 *   - Exceptions: List.items always ("items":[]); String.sval, Float.fval, BitString.bsval always
 *     (null when NULL); a Boolean node always has "boolval":true|false, but the Boolean inside
 *     A_Const is {} for false; A_Const.location always, even 0. A_Const's value is one key named
 *     after the oneof member: "ival":{"ival":5}, "ival":{} (0), "fval":{"fval":"1.5"},
 *     "boolval":{"boolval":true}, "boolval":{}, "sval":{"sval":"x"}, "bsval":{"bsval":"b101"};
 *     SQL NULL is "isnull":true and no value. IntList/OidList cells are bare numbers.
 *   - Strings: \" \\ \b \f \n \r \t; other bytes below 0x20, and '<' and '>', as \u00XX
 *     (lower-case hex: \u0001, \u003c, \u003e); every other byte as it is: 0x7f, '&', '/',
 *     UTF-8, and bytes that are not UTF-8 (PostgreSQL's scanner passes them into identifiers and
 *     strings, and JSON has no escape for a byte: such text is not strict JSON, from libpg_query
 *     or from pgbind, and pgbind_json_read accepts it as pgbind_decode accepts such protobuf).
 *
 * Where libpg_query's output is wrong, pgbind writes what the tree holds (tests/runtime/test_json.c shows
 * each case with libpg_query's actual output):
 *   1. An Integer below zero loses its value: libpg_query writes ival only when > 0, so
 *      `SELECT -5` gives "ival":{} (read back: 0) and `CREATE SEQUENCE s INCREMENT BY -1` gives
 *      "arg":{"Integer":{}}. pgbind writes "ival":{"ival":-5}. 148 of the 5,361 statements hit it.
 *   In trees no parse produces (hand-built, or analyzed):
 *   2. Doubles (SubPlan costs, RangeTblEntry.enrtuples) are printed with "%f": 1e-07 becomes
 *      0.000000, infinity a bare Infinity (not JSON). pgbind writes the shortest exact decimal,
 *      "Infinity"/"-Infinity"/"NaN" as strings (proto3 JSON), and leaves out 0.
 *   3. An A_Const with neither a value nor isnull is written {"A_Const":{,"location":N}} (not
 *      JSON). pgbind writes {"A_Const":{"location":N}}.
 *   4. A char field holding '"' or '\\' is not escaped ("relpersistence":"""). pgbind escapes it.
 *
 * A tree from pgbind_decode() writes the same JSON as the parsed tree except where a string was ""
 * outside the value nodes (COMMENT ... IS ''): protobuf cannot tell "" from NULL, JSON can.
 *
 * Watch the C stack: both sides recurse once per message level (128 + 64 bytes a level writing,
 * 96 + 32 reading, 96 more in a list; about three times that under AddressSanitizer), so the
 * recursive functions take no local's address and keep everything else out of line
 * (noinline helpers). The default max_depth, 10,000, needs about 2 MiB; a much larger max_depth
 * needs a larger stack.
 */
#ifndef PGBIND_JSON_INTERNAL_H
#define PGBIND_JSON_INTERNAL_H

#include "internal.h"
#include "pgbind_json.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A path such as "ParseResult.stmts[0].stmt.SelectStmt.whereClause", built while an error
 * unwinds the recursion: each level prepends its part, so success costs nothing. When the buffer
 * fills, the outer parts are dropped and the path is shown as "...".
 */
typedef struct {
	char buf[224];
	size_t start;
	bool truncated;
} Path;

void pgbind_json_path_init(Path *p);
void pgbind_json_path_prepend(Path *p, const char *s, size_t n);
/* ".name" or ".name[index]" (index < 0: none), and "[k]". Errors only: out of line. */
void pgbind_json_path_field(Path *p, const char *name, long index);
void pgbind_json_path_index(Path *path, size_t k);
/* The whole path, "ParseResult..." (or "...." when it did not fit). */
const char *pgbind_json_path_text(Path *p);

static inline bool is_value_string_kind(uint32_t tag)
{
	return tag == PGBIND_T_String || tag == PGBIND_T_Float || tag == PGBIND_T_BitString;
}

/*
 * Derived from the descriptor tables once per process (under a lock) and only read afterwards:
 * each field's key as the writer writes it (,"name": -- the comma is skipped for a first key)
 * and the lengths of its names for the reader; each node kind's opening {"Kind": and a hash of
 * the kind names. They stay allocated until the process ends.
 */
typedef struct {
	uint32_t key;       /* offset in pgbind_json_key_text of ,"name": */
	uint16_t key_len;   /* its length */
	uint16_t name_len;  /* strlen(name) */
	uint16_t proto_len; /* strlen(proto_name), UINT16_MAX when it is the same name */
} FieldInfo;

#define JSON_KIND_HASH_SIZE 1024 /* a power of two, over four times the number of node kinds */

extern char *pgbind_json_key_text;
extern FieldInfo *pgbind_json_field_info;
extern uint32_t pgbind_json_field_base[PGBIND_MESSAGE_COUNT]; /* a message's first FieldInfo */
extern uint32_t pgbind_json_kind_key[PGBIND_MESSAGE_COUNT];   /* offset in pgbind_json_key_text of {"Kind": */
extern uint16_t pgbind_json_kind_name_len[PGBIND_MESSAGE_COUNT];
extern int16_t pgbind_json_kind_hash[JSON_KIND_HASH_SIZE]; /* message index + 1; 0: empty */
extern const pgbind_MessageDesc *pgbind_json_parse_result_desc;

uint32_t pgbind_json_name_hash(const char *s, size_t n);
/* The tables, built by the first call that needs them (under a lock); a failed build is retried,
 * so one failed allocation does not disable JSON for the life of the process. false with
 * PGBIND_ERROR_NOMEM in status. */
bool pgbind_json_tables(pgbind_Status *status);

#endif
