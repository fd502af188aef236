/*
 * test_proto_read.c -- unit tests for the proto3 subset reader (generator/proto_read.c); a
 * standalone program whose entry point is main(). It feeds proto_read_text() small inline texts
 * (one valid file exercising every field shape, then one case per error with its exact
 * line:col and part of its message) and finally reads the real pg_query.proto installed by
 * libpg_query. Prints one "ok - " or "not ok - " line per check and a final "N passed, M failed";
 * exits 1 when anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "../check.h"
#include "common.h"
#include "unit.h"
#include "proto_read.h"

#define PG_QUERY_PROTO "/usr/include/pg_query/pg_query.proto"

static json_t *find(json_t *array, const char *name)
{
	size_t i;
	json_t *item;

	json_array_foreach(array, i, item) if (strcmp(jstr(item, "name"), name) == 0) return item;
	return NULL;
}

static json_t *message(json_t *model, const char *name)
{
	return find(json_object_get(model, "messages"), name);
}

static json_t *field(json_t *model, const char *msg, const char *name)
{
	return find(json_object_get(message(model, msg), "fields"), name);
}

static size_t oneof_members(json_t *msg, const char *oneof)
{
	size_t i, n = 0;
	json_t *f;

	json_array_foreach(json_object_get(msg, "fields"), i,
					   f) if (jstr(f, "oneof") && strcmp(jstr(f, "oneof"), oneof) == 0) n++;
	return n;
}

static const char valid_text[] = "// leading line comment\n"
								 "syntax = \"proto3\";\n"
								 "package demo.v1;\n"
								 "/* a block comment\n"
								 "   over two lines */\n"
								 "message Thing {\n"
								 "  int32 id = 1;\n"
								 "  repeated string tags = 2; // trailing comment\n"
								 "  Other other = 3;\n"
								 "  repeated Kind kinds = 4 [json_name=\"KINDS\"];\n"
								 "  Kind keyword_kind = 0x5;\n"
								 "  oneof val {\n"
								 "    Other as_other = 6;\n"
								 "    int64 as_int = 7 [ json_name = 'asInt' ];\n"
								 "  }\n"
								 "\tbool /* inline */ flag = 8;\n"
								 "}\n"
								 "message Other {}\n"
								 "enum Kind\n"
								 "{\n"
								 "  KIND_ZERO = 0;\n"
								 "  KIND_NEG = -1;\n"
								 "}\n";

static void test_valid(void)
{
	gen_Error err = {0};
	json_t *m = proto_read_text("valid.proto", valid_text, &err);
	json_t *f;
	json_t *v;

	REPORT(m != NULL, "valid text reads", "a model", err.message, __LINE__);
	if (!m)
		return;
	CHECK_STR("file is the given name", "valid.proto", jstr(m, "file"));
	CHECK_STR("syntax", "proto3", jstr(m, "syntax"));
	CHECK_STR("dotted package", "demo.v1", jstr(m, "package"));
	CHECK_INT("message count", 2, json_array_size(json_object_get(m, "messages")));
	CHECK_INT("enum count", 1, json_array_size(json_object_get(m, "enums")));
	CHECK_STR("messages keep file order", "Thing", jstr(json_array_get(json_object_get(m, "messages"), 0), "name"));
	CHECK_INT("message line is its keyword", 6, jint(message(m, "Thing"), "line"));
	CHECK_INT("message col is its keyword", 1, jint(message(m, "Thing"), "col"));
	CHECK_INT("Thing has 8 fields", 8, json_array_size(json_object_get(message(m, "Thing"), "fields")));
	CHECK_INT("empty message has no fields", 0, json_array_size(json_object_get(message(m, "Other"), "fields")));

	f = field(m, "Thing", "id");
	CHECK_STR("scalar type", "int32", jstr(f, "type"));
	CHECK_STR("scalar type_kind", "scalar", jstr(f, "type_kind"));
	CHECK_INT("scalar number", 1, jint(f, "number"));
	CHECK_INT("scalar not repeated", 0, json_is_true(json_object_get(f, "repeated")));
	CHECK_INT("field outside oneof has null oneof", 1, json_is_null(json_object_get(f, "oneof")));
	CHECK_INT("field line", 7, jint(f, "line"));
	CHECK_INT("field col is its type", 3, jint(f, "col"));

	f = field(m, "Thing", "tags");
	CHECK_INT("repeated scalar", 1, json_is_true(json_object_get(f, "repeated")));
	CHECK_INT("repeated field col is the 'repeated' keyword", 3, jint(f, "col"));

	f = field(m, "Thing", "other");
	CHECK_STR("forward message reference type", "Other", jstr(f, "type"));
	CHECK_STR("message type_kind", "message", jstr(f, "type_kind"));

	f = field(m, "Thing", "kinds");
	CHECK_STR("enum type_kind", "enum", jstr(f, "type_kind"));
	CHECK_INT("repeated enum", 1, json_is_true(json_object_get(f, "repeated")));
	CHECK_STR("explicit json_name", "KINDS", jstr(f, "json_name"));
	CHECK_INT("explicit json_name flagged", 1, json_is_true(json_object_get(f, "json_name_explicit")));

	f = field(m, "Thing", "keyword_kind");
	CHECK_STR("default json_name is lowerCamelCase", "keywordKind", jstr(f, "json_name"));
	CHECK_INT("default json_name not flagged", 1, json_is_false(json_object_get(f, "json_name_explicit")));
	CHECK_INT("hex field number", 5, jint(f, "number"));

	f = field(m, "Thing", "as_other");
	CHECK_STR("oneof member names its oneof", "val", jstr(f, "oneof"));
	CHECK_STR("oneof message member", "message", jstr(f, "type_kind"));
	CHECK_STR("single-quoted json_name with spaces", "asInt", jstr(field(m, "Thing", "as_int"), "json_name"));
	CHECK_INT("oneof has 2 members", 2, oneof_members(message(m, "Thing"), "val"));
	CHECK_INT("oneof listed once", 1, json_array_size(json_object_get(message(m, "Thing"), "oneofs")));
	CHECK_STR("oneofs entry", "val",
			  json_string_value(json_array_get(json_object_get(message(m, "Thing"), "oneofs"), 0)));

	f = field(m, "Thing", "flag");
	CHECK_INT("field after the oneof is outside it", 1, json_is_null(json_object_get(f, "oneof")));
	CHECK_INT("field after a block comment: line", 16, jint(f, "line"));
	CHECK_INT("tab counts as one column", 2, jint(f, "col"));

	v = json_object_get(json_array_get(json_object_get(m, "enums"), 0), "values");
	CHECK_INT("enum line is its keyword", 19, jint(json_array_get(json_object_get(m, "enums"), 0), "line"));
	CHECK_INT("enum has 2 values", 2, json_array_size(v));
	CHECK_STR("negative enum value name", "KIND_NEG", jstr(json_array_get(v, 1), "name"));
	CHECK_INT("negative enum value", -1, jint(json_array_get(v, 1), "number"));
	CHECK_INT("enum value line", 22, jint(json_array_get(v, 1), "line"));
	CHECK_INT("enum value col", 3, jint(json_array_get(v, 1), "col"));
	json_decref(m);
}

/* Reads `text`, which must fail at line:col with a message containing `part`. */
#define HEAD "syntax = \"proto3\";\n"

/* 18's SummaryResult: nested messages and enums, a map; names resolve innermost scope first. */
static void test_nested(void)
{
	gen_Error err = {0};
	json_t *m = proto_read_text("nested.proto",
								HEAD "enum X { X_NONE = 0; }\n"
									 "message C {}\n"
									 "message Outer {\n"
									 "  enum Context { None = 0; Select = 1; }\n"
									 "  message C { Context context = 1; X x = 2; }\n"
									 "  repeated C tables = 1;\n"
									 "  map<string, string> aliases = 2;\n"
									 "  repeated string names = 3;\n"
									 "}\n"
									 "enum Other { None_ = 0; Select_ = 1; }\n"
									 "message Top { C c = 1; Outer.C oc = 2; }\n",
								&err);
	CHECK_INT("nested declarations read", 1, m != NULL);
	if (!m) {
		printf("  %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
		return;
	}
	json_t *msgs = json_object_get(m, "messages"), *enums = json_object_get(m, "enums");
	CHECK_INT("messages, nested ones included", 4, json_array_size(msgs));
	CHECK_STR("a nested message has its full name", "Outer.C",
			  json_string_value(json_object_get(json_array_get(msgs, 2), "name")));
	CHECK_STR("... and its parent", "Outer", json_string_value(json_object_get(json_array_get(msgs, 2), "parent")));
	CHECK_INT("a top-level message has no parent", 1,
			  json_is_null(json_object_get(json_array_get(msgs, 0), "parent")) ||
				  !json_object_get(json_array_get(msgs, 0), "parent"));
	CHECK_STR("a nested enum has its full name", "Outer.Context",
			  json_string_value(json_object_get(json_array_get(enums, 1), "name")));
	json_t *inner = json_object_get(json_array_get(msgs, 2), "fields");
	CHECK_STR("a type is looked up in the field's own message first", "Outer.Context",
			  json_string_value(json_object_get(json_array_get(inner, 0), "type")));
	CHECK_STR("... then outwards to the top level", "X",
			  json_string_value(json_object_get(json_array_get(inner, 1), "type")));
	json_t *outer = json_object_get(json_array_get(msgs, 1), "fields");
	CHECK_STR("an enclosing message's nested type hides a top-level one", "Outer.C",
			  json_string_value(json_object_get(json_array_get(outer, 0), "type")));
	json_t *map = json_array_get(outer, 1);
	CHECK_STR("a map field: its key type", "string", json_string_value(json_object_get(map, "map_key")));
	CHECK_STR("... its value type", "string", json_string_value(json_object_get(map, "type")));
	CHECK_INT("... repeated, as on the wire", 1, json_is_true(json_object_get(map, "repeated")));
	CHECK_INT("other fields have no map key", 1, json_is_null(json_object_get(json_array_get(outer, 2), "map_key")));
	json_t *top = json_object_get(json_array_get(msgs, 3), "fields");
	CHECK_STR("outside Outer, C is the top-level message", "C",
			  json_string_value(json_object_get(json_array_get(top, 0), "type")));
	CHECK_STR("a qualified name reaches the nested one", "Outer.C",
			  json_string_value(json_object_get(json_array_get(top, 1), "type")));
	json_decref(m);
}

static void check_error(const char *text, int line, int col, const char *part, int src_line)
{
	gen_Error err = {0};
	json_t *m = proto_read_text("bad.proto", text, &err);
	char got[2200];
	char expected[1200];
	char what[1300];

	snprintf(expected, sizeof expected, "bad.proto:%d:%d: ...%s...", line, col, part);
	snprintf(got, sizeof got, m ? "a model" : "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
	snprintf(what, sizeof what, "error: %s", part);
	REPORT(!m && err.line == line && err.col == col && strcmp(err.file, "bad.proto") == 0 &&
			   strstr(err.message, part) != NULL,
		   what, expected, got, src_line);
	json_decref(m);
}

#define CHECK_ERROR(text, line, col, part) check_error((text), (line), (col), (part), __LINE__)

static void test_errors(void)
{
	CHECK_ERROR("syntax = \"proto2\";\n", 1, 10, "unsupported syntax \"proto2\"");
	CHECK_ERROR("// no syntax\nmessage A {}\n", 2, 1, "expected 'syntax = \"proto3\";'");
	CHECK_ERROR(HEAD "import \"other.proto\";\n", 2, 1,
				"unsupported construct 'import' (pgbind reads a subset of proto3)");
	CHECK_ERROR(HEAD "option java_package = \"x\";\n", 2, 1, "unsupported construct 'option'");
	CHECK_ERROR(HEAD "service S {}\n", 2, 1, "unsupported construct 'service'");
	CHECK_ERROR(HEAD "message A {\n  map<double, int32> m = 1;\n}\n", 3, 7,
				"map key type 'double' is not an integer, bool or string type");
	CHECK_ERROR(HEAD "message A {\n  oneof o {\n    map<string, int32> m = 1;\n  }\n}\n", 4, 5,
				"a map field cannot be a oneof member");
	CHECK_ERROR(HEAD "message A {\n  map<string int32> m = 1;\n}\n", 3, 14, "expected ',' after the map key type");
	CHECK_ERROR(HEAD "message A {\n  enum E { X = 0; }\n  enum F { X = 0; }\n}\n", 4, 12,
				"duplicate enum value name 'X' (already in enum A.E");
	CHECK_ERROR(HEAD "message A {\n  message B {}\n  message B {}\n}\n", 4, 11, "duplicate type name 'A.B'");
	CHECK_ERROR(HEAD "message A {\n  message B {}\n}\nmessage C {\n  B b = 1;\n}\n", 6, 3,
				"unknown type 'B' in field C.b");
	CHECK_ERROR(HEAD "message A {\n  reserved 2;\n}\n", 3, 3, "unsupported construct 'reserved'");
	CHECK_ERROR(HEAD "message A {\n  optional int32 x = 1;\n}\n", 3, 3, "unsupported construct 'optional'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1 [deprecated = true];\n}\n", 3, 16,
				"unsupported field option 'deprecated'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1 [json_name=\"a\", json_name=\"b\"];\n}\n", 3, 31,
				"json_name given twice");
	CHECK_ERROR(HEAD "enum E {\n  X = 0 [deprecated = true];\n}\n", 3, 9, "unsupported construct 'enum value option'");
	CHECK_ERROR(HEAD "enum E {\n  option allow_alias = true;\n  X = 0;\n}\n", 3, 3, "unsupported construct 'option'");
	CHECK_ERROR(HEAD "message RangeVar {\n  repeated Foo bar = 1;\n}\n", 3, 12,
				"unknown type 'Foo' in field RangeVar.bar");
	CHECK_ERROR(HEAD "message A {\n  pkg.B b = 1;\n}\nmessage B {}\n", 3, 3, "unknown type 'pkg.B' in field A.b");
	CHECK_ERROR(HEAD "message A {}\nenum A { Z = 0; }\n", 3, 6,
				"duplicate type name 'A' (already declared as message at line 2)");
	CHECK_ERROR(HEAD "message A {}\nmessage A {}\n", 3, 9, "duplicate type name 'A'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1;\n  string x = 2;\n}\n", 4, 10,
				"duplicate field name 'x' in message A");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1;\n  oneof o { string y = 1; }\n}\n", 4, 24,
				"field number 1 of A.y is already used by field 'x'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1;\n  oneof x { string y = 2; }\n}\n", 4, 9,
				"oneof name 'x' is already used");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 0;\n}\n", 3, 13, "field number 0 of A.x is out of range");
	CHECK_ERROR(HEAD "message A {\n  int32 x = -3;\n}\n", 3, 13, "field number -3 of A.x");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 536870912;\n}\n", 3, 13, "out of range (1 to 536870911)");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 19500;\n}\n", 3, 13, "reserves for itself");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1.5;\n}\n", 3, 13, "expected an integer for field number, found '1.5'");
	CHECK_ERROR(HEAD "message A {\n  int32 foo_bar = 1;\n  int32 fooBar = 2;\n}\n", 4, 9,
				"json_name 'fooBar' of A.fooBar is already used by field 'foo_bar'");
	CHECK_ERROR(HEAD "message A {\n  oneof o {\n    repeated int32 x = 1;\n  }\n}\n", 4, 5,
				"oneof members cannot be repeated");
	CHECK_ERROR(HEAD "message A {\n  oneof o {\n  }\n}\n", 4, 3, "oneof 'o' in message A has no fields");
	CHECK_ERROR(HEAD "enum E { A = 0; }\nenum F { Z = 0; A = 1; }\n", 3, 17,
				"duplicate enum value name 'A' (already in enum E");
	CHECK_ERROR(HEAD "enum E {\n  A = 1;\n}\n", 3, 7, "the first value of enum E must be 0");
	CHECK_ERROR(HEAD "enum E {\n  A = 0;\n  B = 0;\n}\n", 4, 7, "enum value number 0 of B is already used by A");
	CHECK_ERROR(HEAD "enum E {\n}\n", 3, 1, "enum E has no values");
	CHECK_ERROR(HEAD "enum E {\n  A = 0;\n  B = 2147483648;\n}\n", 4, 7, "outside the int32 range");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1; /* never\n  closed\n}\n", 3, 16, "unterminated comment");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1 [json_name=\"oops];\n}\n", 3, 26, "unterminated string");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1 [json_name=\"a\\qb\"];\n}\n", 3, 28, "invalid escape '\\q'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1\n}\n", 4, 1, "expected ';' after field, found '}'");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1;\n", 4, 1,
				"unexpected end of file, expected '}' to close the message");
	CHECK_ERROR(HEAD "message A {\n  int32 x", 3, 10, "unexpected end of file, expected '='");
	CHECK_ERROR(HEAD "message A {\n  int32 x = 1 @\n}\n", 3, 15, "expected ';' after field, found '@'");
	CHECK_ERROR(HEAD "message A {\n  int32 \xc3\xa9 = 1;\n}\n", 3, 9, "unexpected byte 0xC3");
	CHECK_ERROR(HEAD "package a;\npackage b;\n", 3, 1, "duplicate 'package' statement");
	CHECK_ERROR(HEAD "syntax = \"proto3\";\n", 2, 1, "'syntax' may appear only once");
	CHECK_ERROR(HEAD "int32 x = 1;\n", 2, 1, "expected 'message' or 'enum', found 'int32'");
	CHECK_ERROR("", 1, 1, "unexpected end of file, expected 'syntax");
}

static void test_real_proto(void)
{
	gen_Error err = {0};
	json_t *m = proto_read_file(PG_QUERY_PROTO, &err);
	json_t *again;
	json_t *node;
	json_t *f;
	char *a, *b;

	REPORT(m != NULL, "pg_query.proto reads", "a model", err.message, __LINE__);
	if (!m)
		return;
	CHECK_STR("pg_query.proto file", PG_QUERY_PROTO, jstr(m, "file"));
	CHECK_STR("pg_query.proto package", "pg_query", jstr(m, "package"));
	CHECK_INT("pg_query.proto has 242 messages", 242, json_array_size(json_object_get(m, "messages")));
	CHECK_INT("pg_query.proto has 59 enums", 59, json_array_size(json_object_get(m, "enums")));

	node = message(m, "Node");
	CHECK_INT("Node has one oneof", 1, json_array_size(json_object_get(node, "oneofs")));
	CHECK_STR("Node's oneof is 'node'", "node", json_string_value(json_array_get(json_object_get(node, "oneofs"), 0)));
	CHECK_INT("Node's oneof has 238 members", 238, oneof_members(node, "node"));
	f = field(m, "Node", "alias");
	CHECK_STR("Node.alias json_name", "Alias", jstr(f, "json_name"));
	CHECK_INT("Node.alias line", 19, jint(f, "line"));
	CHECK_INT("Node.alias col (indented by two tabs)", 3, jint(f, "col"));

	CHECK_INT("A_Const oneof val has 5 members", 5, oneof_members(message(m, "A_Const"), "val"));
	CHECK_STR("A_Const oneof is 'val'", "val",
			  json_string_value(json_array_get(json_object_get(message(m, "A_Const"), "oneofs"), 0)));
	CHECK_STR("A_Const.isnull outside the oneof", "(null)",
			  jstr(field(m, "A_Const", "isnull"), "oneof") ? "in a oneof" : "(null)");

	f = field(m, "CreateForeignTableStmt", "base_stmt");
	CHECK_STR("CreateForeignTableStmt.base_stmt json_name", "base", jstr(f, "json_name"));
	CHECK_INT("CreateForeignTableStmt.base_stmt json_name is explicit", 1,
			  json_is_true(json_object_get(f, "json_name_explicit")));
	CHECK_STR("CreateForeignTableStmt.base_stmt type_kind", "message", jstr(f, "type_kind"));

	CHECK_INT("RangeVar line", 319, jint(message(m, "RangeVar"), "line"));
	CHECK_INT("RangeVar.catalogname line", 321, jint(field(m, "RangeVar", "catalogname"), "line"));
	CHECK_INT("RangeVar.catalogname col", 3, jint(field(m, "RangeVar", "catalogname"), "col"));
	CHECK_INT("OverridingKind line", 2457, jint(find(json_object_get(m, "enums"), "OverridingKind"), "line"));

	/* Same input, same bytes: later stages and generated files rely on it. */
	again = proto_read_file(PG_QUERY_PROTO, &err);
	a = json_dumps(m, JSON_COMPACT);
	b = again ? json_dumps(again, JSON_COMPACT) : NULL;
	REPORT(a && b && strcmp(a, b) == 0, "reading twice gives the same model", "equal dumps", "different dumps",
		   __LINE__);
	free(a);
	free(b);
	json_decref(again);
	json_decref(m);

	m = proto_read_file("/nonexistent/x.proto", &err);
	CHECK_STR("missing file names the path", "/nonexistent/x.proto", err.file);
	CHECK_INT("missing file gives NULL", 1, m == NULL);
}

/* A NUL byte would end the text early in proto_read_text(), so the file reader must catch it. */
static void test_nul_in_file(void)
{
	static const char text[] = HEAD "message A {}\n  \0message B {}\n";
	char path[] = "/tmp/test_proto_read_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	gen_Error err = {0};
	json_t *m;

	if (!f) {
		REPORT(false, "temp file for the NUL test", "a file", "none", __LINE__);
		return;
	}
	fwrite(text, 1, sizeof text - 1, f);
	fclose(f);
	m = proto_read_file(path, &err);
	unlink(path);
	CHECK_INT("NUL byte in file gives NULL", 1, m == NULL);
	CHECK_STR("NUL byte error names the path", path, err.file);
	CHECK_INT("NUL byte error line", 3, err.line);
	CHECK_INT("NUL byte error col", 3, err.col);
	json_decref(m);
}

int main(void)
{
	test_valid();
	test_nested();
	test_errors();
	test_real_proto();
	test_nul_in_file();
	return check_summary();
}
