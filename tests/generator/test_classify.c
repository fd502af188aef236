/*
 * test_classify.c -- unit tests for the classifier (generator/classify.c); a standalone program
 * whose entry point is main(). Every case builds its three inputs inline: a tiny node model as
 * JSON (written with single quotes, turned into double quotes before json_loads), a tiny proto
 * read by proto_read_text("test.proto") and overrides read by overrides_parse("ov.txt"). The
 * first case covers every conversion kind and checks the view model (conv and wire of each
 * field, the enum maps, skipped fields, orphan structs); then one case per error, each with its
 * file, line, col and part of its message. Prints one "ok - " or "not ok - " line per check and a final "N passed, M failed"; exits 1 when anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "classify.h"
#include "targets/c/decorator/names_c.h"
#include "../check.h"
#include "common.h"
#include "unit.h"
#include "overrides.h"
#include "proto_read.h"

static json_t *find_by(json_t *array, const char *key, const char *value)
{
	size_t i;
	json_t *item;

	json_array_foreach(array, i, item) if (jstr(item, key) && strcmp(jstr(item, key), value) == 0) return item;
	return NULL;
}

static long long index_of(json_t *array, const char *name)
{
	size_t i;
	json_t *item;

	json_array_foreach(array, i,
					   item) if (jstr(item, "name") && strcmp(jstr(item, "name"), name) == 0) return (long long)i;
	return -1;
}

static json_t *message(json_t *view, const char *name)
{
	return find_by(json_object_get(view, "messages"), "name", name);
}

/* The from_pg entry converting C field `c_field` of message `msg`. */
static json_t *conv(json_t *view, const char *msg, const char *c_field)
{
	return find_by(json_object_get(message(view, msg), "from_pg"), "c_field", c_field);
}

/* The AST field (member) `name` of message `msg`. */
static json_t *field(json_t *view, const char *msg, const char *name)
{
	return find_by(json_object_get(message(view, msg), "fields"), "name", name);
}

static json_t *c_value(json_t *view, const char *enum_name, const char *c_name)
{
	json_t *e = find_by(json_object_get(view, "enums"), "name", enum_name);

	return find_by(json_object_get(e, "c_values"), "c_name", c_name);
}

/*
 * Classifies the three inline inputs; NULL with err set when any stage fails. The model is JSON
 * with single quotes (none of its strings holds a quote of either kind).
 */
static json_t *run(const char *model_sq, const char *proto_text, const char *ov_text, gen_Error *err)
{
	char *text = gen_xstrdup(model_sq);
	json_error_t jerr;
	json_t *model;
	json_t *proto;
	Overrides *ov = NULL;
	json_t *view = NULL;

	for (char *p = text; *p; p++)
		if (*p == '\'')
			*p = '"';
	model = json_loads(text, 0, &jerr);
	free(text);
	if (!model) {
		gen_fail(err, "(test model JSON)", jerr.line, jerr.column, "%s", jerr.text);
		return NULL;
	}
	proto = proto_read_text("test.proto", proto_text, err);
	if (proto)
		ov = overrides_parse("ov.txt", ov_text, err);
	if (ov)
		view = classify(model, "model.json", proto, ov, err);
	overrides_free(ov);
	json_decref(proto);
	json_decref(model);
	return view;
}

/* Classification must fail at file:line:col with a message containing `part`; err keeps the
 * error for further checks. */
static void check_error(const char *what, const char *model, const char *proto, const char *ov, const char *file,
						int line, int col, const char *part, gen_Error *err, int src_line)
{
	json_t *view;
	char expected[1200];
	char got[1700];

	memset(err, 0, sizeof *err);
	view = run(model, proto, ov, err);
	snprintf(expected, sizeof expected, "%s:%d:%d: ...%s...", file, line, col, part);
	snprintf(got, sizeof got, view ? "a view model" : "%s:%d:%d: %s", err->file, err->line, err->col, err->message);
	REPORT(!view && strcmp(err->file, file) == 0 && err->line == line && err->col == col &&
			   strstr(err->message, part) != NULL,
		   what, expected, got, src_line);
	json_decref(view);
}

#define CHECK_ERROR(what, model, proto, ov, file, line, col, part, err) \
	check_error((what), (model), (proto), (ov), (file), (line), (col), (part), (err), __LINE__)

/* Classification must succeed; returns the view (NULL after a failed check). */
static json_t *check_ok(const char *what, const char *model, const char *proto, const char *ov, int src_line)
{
	gen_Error err = {0};
	json_t *view = run(model, proto, ov, &err);
	char got[1700];

	snprintf(got, sizeof got, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
	REPORT(view != NULL, what, "a view model", got, src_line);
	return view;
}

#define CHECK_OK(what, model, proto, ov) check_ok((what), (model), (proto), (ov), __LINE__)

/* ---- node model pieces (single-quoted JSON; locations are nodes.h:LINE:COL) ---------------- */

#define FIELD_C(name, type, canonical, base, kind, depth, ln)                            \
	"{'name':'" name "','type':'" type "','canonical':'" canonical "','array':null,"     \
	"'pointer_depth':" #depth ",'const':false,'base':'" base "','base_kind':'" kind "'," \
	"'location':'nodes.h:" #ln ":6'}"
#define FIELD(name, type, base, kind, depth, ln) FIELD_C(name, type, type, base, kind, depth, ln)
#define UNION(name, type, ln, members)                                                      \
	"{'name':'" name "','type':'union " type "','canonical':'union " type "','array':null," \
	"'pointer_depth':0,'const':false,'base':'" type "','base_kind':'union',"                \
	"'location':'nodes.h:" #ln ":6','members':[" members "]}"
#define F_TYPE(ln) FIELD_C("type", "NodeTag", "enum NodeTag", "NodeTag", "enum", 0, ln)
#define STRUCT(name, ln, fields) \
	"{'name':'" name "','tag':'T_" name "','location':'nodes.h:" #ln ":16','fields':[" fields "]}"
/* A supertype: no NodeTag value of its own, only the NodeTag field (Node, Expr, JsonTablePlan). */
#define SUPERTYPE(name, ln) "{'name':'" name "','tag':null,'location':'nodes.h:" #ln ":16','fields':[" F_TYPE(ln) "]}"
#define ALIAS(name, target, ln) \
	"{'name':'" name "','tag':'T_" name "','alias_of':'" target "','location':'nodes.h:" #ln ":16'}"
#define TAG(name, value)            "{'name':'T_" name "','value':" #value "}"
#define ENUMV(name, value)          "{'name':'" name "','value':" #value "}"
#define ENUM(name, ln, values)      "{'name':'" name "','location':'nodes.h:" #ln ":14','values':[" values "]}"
#define MODEL(tags, structs, enums) "{'pg_major':15,'nodetags':[" tags "],'structs':[" structs "],'enums':[" enums "]}"

/* ---- 1. every conversion kind ---------------------------------------------------------------- */

static const char happy_model[] = MODEL(
	TAG("Invalid", 0) "," TAG("Thing", 10) "," TAG("Other", 11) "," TAG("OtherAlias", 12) "," TAG("Var", 13) "," TAG(
		"Integer", 14) "," TAG("Str", 15) "," TAG("AConst", 16) "," TAG("Val", 17) "," TAG("Lonely", 18),

	STRUCT(
		"Thing", 1,
		F_TYPE(2) "," FIELD("i", "int", "int", "builtin", 0, 3) "," FIELD_C(
			"u", "Oid", "unsigned int", "unsigned int", "builtin", 0,
			4) "," FIELD("l", "long", "long", "builtin", 0, 5) "," FIELD("b", "_Bool", "_Bool", "builtin", 0, 6) "," FIELD_C("d", "Cost", "double", "double", "builtin", 0, 7) "," FIELD("c", "char", "char", "builtin", 0, 8) "," FIELD("s", "char *", "char", "builtin", 1, 9) ","
																																																																				 "{'name':'cs','type':'const char *','canonical':'const char *','array':null,"
																																																																				 "'pointer_depth':1,'const':true,'base':'char','base_kind':'builtin',"
																																																																				 "'location':'nodes.h:10:6'}," FIELD_C("kind",
																																																																													   "Kind", "enum Kind", "Kind", "enum", 0, 11) "," FIELD_C("sign",
																																																																																											   "Sign",
																																																																																											   "enum Sign", "Sign", "enum", 0, 12) "," FIELD_C("mode",
																																																																																																							   "Mode",
																																																																																																							   "enum Mode",
																																																																																																							   "Mode", "enum", 0, 13) "," FIELD_C("n",
																																																																																																																  "Node *",
																																																																																																																  "struct Node *",
																																																																																																																  "Node",
																																																																																																																  "struct", 1, 14) "," FIELD_C("e",
																																																																																																																							   "Expr *", "struct Expr *", "Expr", "struct", 1, 15) "," FIELD_C("o",
																																																																																																																																							   "Other *",
																																																																																																																																							   "struct Other *", "Other", "struct", 1, 16) "," FIELD_C("other",
																																																																																																																																																					   "Other *",
																																																																																																																																																					   "struct Other *", "Other", "struct", 1, 17) "," FIELD_C("base",
																																																																																																																																																																			   "Other",
																																																																																																																																																																			   "struct Other",
																																																																																																																																																																			   "Other",
																																																																																																																																																																			   "struct", 0, 18) "," FIELD_C("items",
																																																																																																																																																																											"List *", "struct List *",
																																																																																																																																																																											"List",
																																																																																																																																																																											"struct",
																																																																																																																																																																											1, 19) "," FIELD_C("bits",
																																																																																																																																																																															   "Bitmapset *",
																																																																																																																																																																															   "struct Bitmapset *",
																																																																																																																																																																															   "Bitmapset", "struct", 1, 20) "," FIELD("hidden",
																																																																																																																																																																																									   "int",
																																																																																																																																																																																									   "int",
																																																																																																																																																																																									   "builtin", 0, 21)) "," STRUCT("Other",
																																																																																																																																																																																																	 30,
																																																																																																																																																																																																	 F_TYPE(
																																																																																																																																																																																																		 31) "," FIELD("location",
																																																																																																																																																																																																					   "int", "int", "builtin", 0, 32)) "," ALIAS("OtherAlias",
																																																																																																																																																																																																																  "Other",
																																																																																																																																																																																																																  35) "," STRUCT("Var",
																																																																																																																																																																																																																				 40,
																																																																																																																																																																																																																				 FIELD_C(
																																																																																																																																																																																																																					 "xpr", "Expr", "struct Expr", "Expr", "struct", 0, 41) "," FIELD("varno", "int", "int", "builtin", 0, 42)) "," STRUCT("Integer", 50,
																																																																																																																																																																																																																																																		   F_TYPE(51) "," FIELD(
																																																																																																																																																																																																																																																			   "ival",
																																																																																																																																																																																																																																																			   "int",
																																																																																																																																																																																																																																																			   "int",
																																																																																																																																																																																																																																																			   "builtin", 0, 52)) "," STRUCT("Str",
																																																																																																																																																																																																																																																											 55,
																																																																																																																																																																																																																																																											 F_TYPE(56) "," FIELD("sval",
																																																																																																																																																																																																																																																																  "char *",
																																																																																																																																																																																																																																																																  "char",
																																																																																																																																																																																																																																																																  "builtin", 1, 57)) "," STRUCT("AConst",
																																																																																																																																																																																																																																																																								60,
																																																																																																																																																																																																																																																																								F_TYPE(
																																																																																																																																																																																																																																																																									61) "," UNION("val",
																																																																																																																																																																																																																																																																												  "ValUnion",
																																																																																																																																																																																																																																																																												  66,
																																																																																																																																																																																																																																																																												  FIELD_C("node", "Node", "struct Node", "Node", "struct", 0, 62) "," FIELD_C("ival", "Integer", "struct Integer", "Integer", "struct", 0, 63) "," FIELD_C("sval",
																																																																																																																																																																																																																																																																																																																		   "Str",
																																																																																																																																																																																																																																																																																																																		   "struct Str", "Str", "struct", 0, 64)) "," FIELD("isnull",
																																																																																																																																																																																																																																																																																																																															"_Bool", "_Bool", "builtin", 0,
																																																																																																																																																																																																																																																																																																																															67) "," FIELD("location",
																																																																																																																																																																																																																																																																																																																																		  "int",
																																																																																																																																																																																																																																																																																																																																		  "int", "builtin", 0, 68)) "," STRUCT("Val",
																																																																																																																																																																																																																																																																																																																																											   70,
																																																																																																																																																																																																																																																																																																																																											   F_TYPE(71) "," UNION("v",
																																																																																																																																																																																																																																																																																																																																																	"VUnion",
																																																																																																																																																																																																																																																																																																																																																	74,
																																																																																																																																																																																																																																																																																																																																																	FIELD_C(
																																																																																																																																																																																																																																																																																																																																																		"ival", "Integer", "struct Integer", "Integer", "struct", 0, 72) "," FIELD_C("sval", "Str", "struct Str", "Str",
																																																																																																																																																																																																																																																																																																																																																																					 "struct",
																																																																																																																																																																																																																																																																																																																																																																					 0,
																																																																																																																																																																																																																																																																																																																																																																					 73))) "," STRUCT("Lonely",
																																																																																																																																																																																																																																																																																																																																																																									  80,
																																																																																																																																																																																																																																																																																																																																																																									  F_TYPE(
																																																																																																																																																																																																																																																																																																																																																																										  81)) "," SUPERTYPE("Expr",
																																																																																																																																																																																																																																																																																																																																																																															 85),

	ENUM("Kind", 90, ENUMV("KIND_A", 0) "," ENUMV("KIND_B", 1)) "," ENUM(
		"Sign", 93,
		ENUMV("SIGN_MINUS", -1) "," ENUMV("SIGN_ZERO", 0) "," ENUMV(
			"SIGN_PLUS", 1)) "," ENUM("Mode", 97, ENUMV("MODE_IN", 105) "," ENUMV("MODE_OUT", 111)));

static const char happy_proto[] = "syntax = \"proto3\";\n"
								  "package t;\n"
								  "message Node {\n"
								  "  oneof node {\n"
								  "    Thing thing = 1 [json_name=\"Thing\"];\n"
								  "    Other other = 2 [json_name=\"Other\"];\n"
								  "    OtherAlias other_alias = 3 [json_name=\"OtherAlias\"];\n"
								  "    Var var = 4 [json_name=\"Var\"];\n"
								  "    Integer integer = 5 [json_name=\"Integer\"];\n"
								  "    Str str = 6 [json_name=\"Str\"];\n"
								  "    AConst a_const = 7 [json_name=\"AConst\"];\n"
								  "    Val val = 8 [json_name=\"Val\"];\n"
								  "  }\n"
								  "}\n"
								  "message Thing {\n"
								  "  int32 i = 1;\n"
								  "  uint32 u = 2;\n"
								  "  int64 l = 3;\n"
								  "  bool b = 4;\n"
								  "  double d = 5;\n"
								  "  string c = 6;\n"
								  "  string s = 7;\n"
								  "  string cs = 8;\n"
								  "  Kind kind = 9;\n"
								  "  Sign sign = 10;\n"
								  "  Mode mode = 11;\n"
								  "  Node n = 12;\n"
								  "  Node e = 13;\n"
								  "  Node o = 14;\n"
								  "  Other other = 15;\n"
								  "  Other base_other = 16 [json_name=\"base\"];\n"
								  "  repeated Node items = 17;\n"
								  "  repeated uint64 bits = 18;\n"
								  "}\n"
								  "message Other { int32 location = 1; }\n"
								  "message OtherAlias { int32 location = 1; }\n"
								  "message Var { Node xpr = 1; int32 varno = 2; }\n"
								  "message Integer { int32 ival = 1; }\n"
								  "message Str { string sval = 1; }\n"
								  "message AConst {\n"
								  "  oneof val {\n"
								  "    Integer ival = 1;\n"
								  "    Str sval = 2;\n"
								  "  }\n"
								  "  bool isnull = 3;\n"
								  "  int32 location = 4;\n"
								  "}\n"
								  "message Val {\n"
								  "  oneof v {\n"
								  "    Integer ival = 1;\n"
								  "    Str sval = 2;\n"
								  "  }\n"
								  "}\n"
								  "message Result {\n"
								  "  int32 version = 1;\n"
								  "  repeated Node stmts = 2;\n"
								  "}\n"
								  "enum Kind { KIND_UNDEFINED = 0; KIND_A = 1; KIND_B = 2; }\n"
								  "enum Sign { SIGN_UNDEFINED = 0; SIGN_MINUS = 1; SIGN_ZERO = 2; SIGN_PLUS = 3; }\n"
								  "enum Mode { MODE_UNDEFINED = 0; MODE_IN = 1; MODE_OUT = 2; }\n"
								  "enum Token { TOKEN_UNDEFINED = 0; TOKEN_X = 1; }\n";

static const char happy_ov[] = "# the Node wrapper\n"
							   "Node role:node_oneof\n"
							   "Result proto_only:true   # no C struct\n"
							   "AConst.val absent_when:isnull\n";

/* The conversion of C field `c_field` of `msg`: its conv and, when given, its type. */
static void check_conv(json_t *view, const char *msg, const char *c_field, const char *kind, const char *type)
{
	char what[200];
	json_t *c = conv(view, msg, c_field);

	snprintf(what, sizeof what, "%s.%s converts as %s", msg, c_field, kind);
	CHECK_STR(what, kind, jstr(c, "conv"));
	if (type) {
		snprintf(what, sizeof what, "%s.%s conversion type", msg, c_field);
		CHECK_STR(what, type, jstr(c, "type"));
	}
}

static void check_wire(json_t *view, const char *msg, const char *member, const char *wire)
{
	char what[200];

	snprintf(what, sizeof what, "%s.%s is written as %s", msg, member, wire);
	CHECK_STR(what, wire, jstr(field(view, msg, member), "wire"));
}

static void check_c_value(json_t *view, const char *enum_name, const char *c_name, long long value, long long number)
{
	char what[200];
	json_t *cv = c_value(view, enum_name, c_name);

	snprintf(what, sizeof what, "%s: C value of %s", enum_name, c_name);
	CHECK_INT(what, value, cv ? jint(cv, "c_value") : -999);
	snprintf(what, sizeof what, "%s: %s maps to proto number %lld", enum_name, c_name, number);
	CHECK_INT(what, number, cv ? jint(cv, "number") : -999);
}

static void test_happy(void)
{
	json_t *view = CHECK_OK("every conversion kind classifies", happy_model, happy_proto, happy_ov);
	json_t *m;
	json_t *e;
	json_t *s;

	if (!view)
		return;

	check_conv(view, "Thing", "i", "SCALAR", "_");
	check_conv(view, "Thing", "u", "SCALAR", NULL);
	check_conv(view, "Thing", "l", "SCALAR", NULL);
	check_conv(view, "Thing", "b", "SCALAR", NULL);
	check_conv(view, "Thing", "d", "SCALAR", NULL);
	check_conv(view, "Thing", "c", "CHAR", NULL);
	check_conv(view, "Thing", "s", "CSTRING", NULL);
	check_conv(view, "Thing", "cs", "CSTRING", NULL);
	check_conv(view, "Thing", "kind", "ENUM", "Kind");
	check_conv(view, "Thing", "sign", "ENUM", "Sign");
	check_conv(view, "Thing", "mode", "ENUM", "Mode");
	check_conv(view, "Thing", "n", "NODE", "_");
	check_conv(view, "Thing", "e", "NODE", NULL);
	check_conv(view, "Thing", "o", "NODE", NULL);
	check_conv(view, "Thing", "other", "MESSAGE", "Other");
	check_conv(view, "Thing", "base", "EMBEDDED", "Other");
	check_conv(view, "Thing", "items", "LIST", NULL);
	check_conv(view, "Thing", "bits", "BITMAPSET", NULL);
	CHECK_STR("explicit json_name is the AST member", "base", jstr(conv(view, "Thing", "base"), "ast_field"));
	CHECK_INT("Thing converts 18 fields", 18, json_array_size(json_object_get(message(view, "Thing"), "from_pg")));
	CHECK_INT("the NodeTag is not converted", 1, conv(view, "Thing", "type") == NULL);
	CHECK_INT("a skipped C field is not converted", 1, conv(view, "Thing", "hidden") == NULL);

	check_wire(view, "Thing", "i", "INT32");
	check_wire(view, "Thing", "u", "UINT32");
	check_wire(view, "Thing", "l", "INT64");
	check_wire(view, "Thing", "b", "BOOL");
	check_wire(view, "Thing", "d", "DOUBLE");
	check_wire(view, "Thing", "c", "STRING");
	check_wire(view, "Thing", "cs", "STRING");
	check_wire(view, "Thing", "kind", "ENUM");
	check_wire(view, "Thing", "n", "NODE");
	check_wire(view, "Thing", "o", "NODE");
	check_wire(view, "Thing", "other", "MESSAGE");
	check_wire(view, "Thing", "base", "MESSAGE");
	check_wire(view, "Thing", "items", "REPEATED_NODE");
	check_wire(view, "Thing", "bits", "PACKED_UINT64");
	CHECK_STR("member 'base' keeps its proto name", "base_other", jstr(field(view, "Thing", "base"), "proto_name"));
	CHECK_INT("the classifier writes no C spelling (the C target's decorator does)", 0,
			  json_object_get(field(view, "Thing", "s"), "ast_type") != NULL);
	gen_Error cerr = {0};
	json_t *c_view = json_deep_copy(view);
	CHECK_INT("the C target's decorator takes the view", 1, names_add_c(c_view, &cerr));
	CHECK_STR("C: a string member is a const char pointer", "const char",
			  jstr(field(c_view, "Thing", "s"), "ast_type"));
	CHECK_INT("C: ... a pointer", 1, json_is_true(json_object_get(field(c_view, "Thing", "s"), "pointer")));
	CHECK_STR("C: an enum member has the AST enum type", "pgbind_Kind",
			  jstr(field(c_view, "Thing", "kind"), "ast_type"));
	CHECK_INT("C: ... not a pointer", 1, json_is_false(json_object_get(field(c_view, "Thing", "kind"), "pointer")));
	CHECK_STR("C: a message member points at its AST struct", "pgbind_Other",
			  jstr(field(c_view, "Thing", "other"), "ast_type"));
	CHECK_STR("C: repeated uint64 is a uint64_t array", "uint64_t", jstr(field(c_view, "Thing", "bits"), "ast_type"));
	CHECK_STR("C: a char * field that reads \"\" as NULL is flagged", "PGBIND_FIELD_EMPTY_IS_NULL",
			  jstr(field(c_view, "Thing", "s"), "flags"));
	json_decref(c_view);
	json_object_set_new(field(view, "Thing", "s"), "wire", json_string("FIXED96"));
	cerr = (gen_Error){0};
	CHECK_INT("C: a wire kind the C target has no type for stops it", 0, names_add_c(view, &cerr));
	CHECK_HAS("... naming the field", cerr.message,
			  "field Thing.s: the C target has no member type for wire kind FIXED96");
	json_object_set_new(field(view, "Thing", "s"), "wire", json_string("STRING"));
	CHECK_INT("a message field's type_index is its message's index",
			  index_of(json_object_get(view, "messages"), "Other"), jint(field(view, "Thing", "other"), "type_index"));
	CHECK_INT("an enum field's type_index is its enum's index", index_of(json_object_get(view, "enums"), "Kind"),
			  jint(field(view, "Thing", "kind"), "type_index"));
	CHECK_STR("fields are encoded from the highest number down", "bits",
			  jstr(json_array_get(json_object_get(message(view, "Thing"), "encode"), 0), "name"));

	check_conv(view, "Var", "xpr", "XPR", NULL);
	check_wire(view, "Var", "xpr", "NODE");
	check_conv(view, "OtherAlias", "location", "SCALAR", NULL);
	CHECK_STR("an alias converts from its own struct name", "OtherAlias",
			  jstr(message(view, "OtherAlias"), "c_struct"));

	check_conv(view, "AConst", "val", "VALUE_UNION_UNLESS", "AConst_val");
	CHECK_STR("absent_when becomes the condition", "isnull", jstr(conv(view, "AConst", "val"), "cond"));
	check_conv(view, "AConst", "isnull", "SCALAR", NULL);
	check_wire(view, "AConst", "val", "ONEOF");
	CHECK_STR("a oneof member's type is its oneof id", "AConst_val", jstr(field(view, "AConst", "val"), "type"));
	check_conv(view, "Val", "v", "VALUE_UNION", "Val_v");
	CHECK_STR("a oneof without absent_when has no condition", "", jstr(conv(view, "Val", "v"), "cond"));
	CHECK_INT("two oneofs", 2, json_array_size(json_object_get(view, "oneofs")));
	CHECK_INT(
		"AConst.val has 2 members", 2,
		json_array_size(json_object_get(find_by(json_object_get(view, "oneofs"), "id", "AConst_val"), "members")));
	CHECK_INT("a oneof field's type_index is its oneof's index", 0, jint(field(view, "AConst", "val"), "type_index"));

	m = message(view, "Result");
	CHECK_INT("proto_only message has no C struct", 0, json_is_true(json_object_get(m, "has_c")));
	CHECK_INT("proto_only message is not a node", 0, json_is_true(json_object_get(m, "is_node")));
	CHECK_INT("proto_only message converts nothing", 0, json_array_size(json_object_get(m, "from_pg")));
	check_wire(view, "Result", "stmts", "REPEATED_NODE");

	CHECK_INT("Thing is node number 1", 1, jint(message(view, "Thing"), "number"));
	CHECK_INT("messages exclude Node", 9, json_array_size(json_object_get(view, "messages")));
	CHECK_INT("n_messages is the message count (the descriptor tables' size: no zeroed entry)", 9,
			  jint(view, "n_messages"));
	CHECK_INT("8 node kinds", 8, jint(view, "n_nodes"));
	CHECK_INT("tag_limit is one past the highest node number", 9, jint(view, "tag_limit"));
	CHECK_STR("node_message", "Node", jstr(view, "node_message"));
	CHECK_INT("c_tags: the 8 node kinds' tags", 8, json_array_size(json_object_get(view, "c_tags")));
	CHECK_INT("c_tags carries the C tag value", 16,
			  jint(find_by(json_object_get(view, "c_tags"), "name", "T_AConst"), "value"));
	CHECK_INT("no unmapped enum values", 0, json_array_size(json_object_get(view, "unmapped_enum_values")));
	CHECK_INT("overrides are listed for the summary", 3, json_array_size(json_object_get(view, "overrides")));

	check_c_value(view, "Kind", "KIND_A", 0, 1);
	check_c_value(view, "Kind", "KIND_B", 1, 2);
	check_c_value(view, "Sign", "SIGN_MINUS", -1, 1);
	check_c_value(view, "Sign", "SIGN_ZERO", 0, 2);
	check_c_value(view, "Sign", "SIGN_PLUS", 1, 3);
	check_c_value(view, "Mode", "MODE_IN", 105, 1);
	check_c_value(view, "Mode", "MODE_OUT", 111, 2);
	e = find_by(json_object_get(view, "enums"), "name", "Kind");
	CHECK_INT("the UNDEFINED placeholder has no C value", 2, json_array_size(json_object_get(e, "c_values")));
	CHECK_INT("Kind's values come from the headers", 1, json_is_true(json_object_get(e, "c_from_headers")));
	CHECK_INT("Kind is converted", 1, json_is_true(json_object_get(e, "c_used")));
	CHECK_STR("Kind's C location", "nodes.h:90:14", jstr(e, "c_location"));
	e = find_by(json_object_get(view, "enums"), "name", "Token");
	CHECK_INT("a proto-only enum has no C enum", 0, json_is_true(json_object_get(e, "has_c")));
	CHECK_INT("a proto-only enum is not converted", 0, json_is_true(json_object_get(e, "c_used")));
	CHECK_INT("a proto-only enum keeps its proto values", 2, json_array_size(json_object_get(e, "values")));

	CHECK_INT("one skipped C field", 1, json_array_size(json_object_get(view, "skipped")));
	s = json_array_get(json_object_get(view, "skipped"), 0);
	CHECK_STR("skipped: struct", "Thing", jstr(s, "struct"));
	CHECK_STR("skipped: field", "hidden", jstr(s, "field"));
	CHECK_STR("skipped: location", "nodes.h:21:6", jstr(s, "location"));
	CHECK_INT("one orphan struct", 1, json_array_size(json_object_get(view, "orphan_structs")));
	s = json_array_get(json_object_get(view, "orphan_structs"), 0);
	CHECK_STR("orphan struct name", "Lonely", jstr(s, "name"));
	CHECK_STR("orphan struct location", "nodes.h:80:16", jstr(s, "location"));
	json_decref(view);
}

/* ---- 2. errors ------------------------------------------------------------------------------- */

/* Lines 1-6 of every proto below; its messages start at line 7. */
#define P_HEAD                                     \
	"syntax = \"proto3\";\n"                       \
	"message Node {\n"                             \
	"  oneof node {\n"                             \
	"    Thing thing = 1 [json_name=\"Thing\"];\n" \
	"  }\n"                                        \
	"}\n"
#define P_THING "message Thing {\n  int32 i = 1;\n}\n" /* lines 7-9 */
#define OV      "Node role:node_oneof\n"

#define F_I             FIELD("i", "int", "int", "builtin", 0, 3)
#define M_THING(fields) MODEL(TAG("Thing", 1), STRUCT("Thing", 1, F_TYPE(2) "," fields), "")
#define M_BASIC         M_THING(F_I)

/* Enum cases: Thing.kind (line 9) converts enum Kind (proto line 11, C nodes.h:20:14). */
#define P_KIND_HEAD P_HEAD "message Thing {\n  int32 i = 1;\n  Kind kind = 2;\n}\n"
#define M_KIND(values)                                                                                          \
	MODEL(TAG("Thing", 1),                                                                                      \
		  STRUCT("Thing", 1, F_TYPE(2) "," F_I "," FIELD_C("kind", "Kind", "enum Kind", "Kind", "enum", 0, 4)), \
		  ENUM("Kind", 20, values))
#define P_KIND_AB P_KIND_HEAD "enum Kind {\n  KIND_UNDEFINED = 0;\n  KIND_A = 1;\n  KIND_B = 2;\n}\n"
#define M_KIND_AB M_KIND(ENUMV("KIND_A", 0) "," ENUMV("KIND_B", 1))
#define P_KIND_DAB \
	P_KIND_HEAD    \
	"enum Kind {\n  KIND_UNDEFINED = 0;\n  KIND_D = 1;\n  KIND_A = 2;\n  KIND_B = 3;\n}\n"
#define M_KIND_ABD M_KIND(ENUMV("KIND_A", 0) "," ENUMV("KIND_B", 1) "," ENUMV("KIND_D", 2))

static void test_pairing_errors(void)
{
	gen_Error err;

	CHECK_ERROR("proto field without a C field", M_BASIC, P_HEAD "message Thing {\n  int32 i = 1;\n  int32 j = 2;\n}\n",
				OV, "test.proto", 9, 3, "proto field Thing.j (json_name \"j\") has no C field j", &err);
	CHECK_HAS("... names the C struct and its location", err.message, "in struct Thing (nodes.h:1:16)");

	CHECK_ERROR("node message without a C struct", MODEL(TAG("Thing", 1), "", ""), P_HEAD P_THING, OV, "test.proto", 7,
				1, "node message Thing has no C struct Thing in the node model (model.json)", &err);
	CHECK_ERROR("node message without a NodeTag", MODEL("", STRUCT("Thing", 1, F_TYPE(2) "," F_I), ""), P_HEAD P_THING,
				OV, "test.proto", 7, 1, "has no NodeTag T_Thing", &err);
	CHECK_ERROR("typedef alias of a struct the model lacks",
				MODEL(TAG("Thing", 1), STRUCT("Thing", 1, F_TYPE(2) "," F_I) "," ALIAS("Other", "Missing", 5), ""),
				P_HEAD P_THING, OV, "model.json", 0, 0, "struct Other is a typedef of Missing, which the model lacks",
				&err);
	CHECK_ERROR("message neither a node nor proto_only", M_BASIC, P_HEAD P_THING "message Extra {\n  int32 x = 1;\n}\n",
				OV, "test.proto", 10, 1, "message Extra is not a member of Node and has no C struct", &err);
	CHECK_HAS("... suggests proto_only", err.message, "'Extra proto_only:true'");

	CHECK_ERROR("proto int32 vs C char *", M_THING(FIELD("i", "char *", "char", "builtin", 1, 3)), P_HEAD P_THING, OV,
				"test.proto", 8, 3, "cannot classify Thing.i: proto int32, C field i of type 'char *'", &err);
	CHECK_HAS("... names the C field's location", err.message, "nodes.h:3:6");
	CHECK_ERROR("proto string vs C int", M_BASIC, P_HEAD "message Thing {\n  string i = 1;\n}\n", OV, "test.proto", 8,
				3, "cannot classify Thing.i: proto string, C field i of type 'int'", &err);
	CHECK_ERROR("proto Node vs C int", M_BASIC, P_HEAD "message Thing {\n  Node i = 1;\n}\n", OV, "test.proto", 8, 3,
				"cannot classify Thing.i: proto Node", &err);
	CHECK_ERROR("proto int32 vs C unsigned int", M_THING(FIELD("i", "unsigned int", "unsigned int", "builtin", 0, 3)),
				P_HEAD P_THING, OV, "test.proto", 8, 3, "cannot classify Thing.i", &err);
	CHECK_ERROR("proto repeated Node vs C Node *",
				M_THING(FIELD_C("i", "Node *", "struct Node *", "Node", "struct", 1, 3)),
				P_HEAD "message Thing {\n  repeated Node i = 1;\n}\n", OV, "test.proto", 8, 3,
				"cannot classify Thing.i: proto repeated Node", &err);
	CHECK_ERROR("proto Thing vs C Node * (a message field needs that very struct)",
				M_THING(FIELD_C("i", "Node *", "struct Node *", "Node", "struct", 1, 3)),
				P_HEAD "message Thing {\n  Thing i = 1;\n}\n", OV, "test.proto", 8, 3, "cannot classify Thing.i", &err);
	CHECK_ERROR("proto string vs C char array",
				M_THING("{'name':'i','type':'char[64]','canonical':'char[64]','array':64,"
						"'pointer_depth':0,'const':false,'base':'char','base_kind':'builtin',"
						"'location':'nodes.h:3:6'}"),
				P_HEAD "message Thing {\n  string i = 1;\n}\n", OV, "test.proto", 8, 3, "cannot classify Thing.i",
				&err);

	CHECK_ERROR("a model without pg_major (extracted by an older pgbind-extract)",
				"{'nodetags':[],'structs':[],'enums':[]}", P_HEAD P_THING, OV, "model.json", 0, 0,
				"the node model has no pg_major", &err);
	CHECK_ERROR(
		"ENUM pair whose C enum is missing from the model",
		MODEL(TAG("Thing", 1),
			  STRUCT("Thing", 1, F_TYPE(2) "," F_I "," FIELD_C("kind", "Kind", "enum Kind", "Kind", "enum", 0, 4)), ""),
		P_KIND_AB, OV, "test.proto", 9, 3, "Kind", &err);
}

static void test_enum_errors(void)
{
	gen_Error err;
	json_t *view;
	json_t *u;
	json_t *e;

	CHECK_ERROR("C enum constant missing from the proto enum",
				M_KIND(ENUMV("KIND_A", 0) "," ENUMV("KIND_B", 1) "," ENUMV("KIND_C", 2)), P_KIND_AB, OV, "test.proto",
				11, 1, "C constant KIND_C of enum Kind (nodes.h:20:14) has no value in proto enum Kind", &err);
	CHECK_HAS("... suggests no_proto_value", err.message, "'Kind.KIND_C no_proto_value:true'");

	view = CHECK_OK("no_proto_value:true accepts it",
					M_KIND(ENUMV("KIND_A", 0) "," ENUMV("KIND_B", 1) "," ENUMV("KIND_C", 2)), P_KIND_AB,
					OV "Kind.KIND_C no_proto_value:true\n");
	u = json_array_get(json_object_get(view, "unmapped_enum_values"), 0);
	CHECK_INT("one unmapped enum value", 1, json_array_size(json_object_get(view, "unmapped_enum_values")));
	CHECK_STR("unmapped: enum", "Kind", jstr(u, "enum"));
	CHECK_STR("unmapped: C name", "KIND_C", jstr(u, "c_name"));
	CHECK_INT("unmapped: C value", 2, jint(u, "c_value"));
	CHECK_STR("unmapped: location", "nodes.h:20:14", jstr(u, "location"));
	CHECK_INT("the unmapped constant is left out of c_values", 1, c_value(view, "Kind", "KIND_C") == NULL);
	json_decref(view);

	CHECK_ERROR("proto enum value without a C constant", M_KIND(ENUMV("KIND_A", 0)), P_KIND_AB, OV, "test.proto", 14, 3,
				"proto value Kind.KIND_B has no C constant in enum Kind (nodes.h:20:14)", &err);

	/* The LimitOption case: C declares A, B, D; libpg_query's proto numbers D, A, B. */
	CHECK_ERROR("C declaration order differs from the proto's", M_KIND_ABD, P_KIND_DAB, OV, "test.proto", 11, 1,
				"enum Kind: the headers declare its constants in another order", &err);
	CHECK_HAS("... suggests c_values:proto_order", err.message, "'Kind c_values:proto_order'");

	view = CHECK_OK("c_values:proto_order accepts it", M_KIND_ABD, P_KIND_DAB, OV "Kind c_values:proto_order\n");
	check_c_value(view, "Kind", "KIND_A", 1, 2);
	check_c_value(view, "Kind", "KIND_B", 2, 3);
	check_c_value(view, "Kind", "KIND_D", 0, 1);
	e = find_by(json_object_get(view, "enums"), "name", "Kind");
	CHECK_INT("proto_order values do not come from the headers", 0, json_is_true(json_object_get(e, "c_from_headers")));
	json_decref(view);

	/* 16 on: PostgreSQL has no LIMIT_OPTION_DEFAULT, libpg_query patches it back in first. */
	CHECK_ERROR("a proto value the headers lack", M_KIND_AB, P_KIND_DAB, OV, "test.proto", 13, 3,
				"proto value Kind.KIND_D has no C constant in enum Kind (nodes.h:20:14)", &err);
	CHECK_HAS("... suggests c_values:proto_order", err.message, "'Kind c_values:proto_order'");
	view = CHECK_OK("c_values:proto_order takes the values the headers lack from the proto", M_KIND_AB, P_KIND_DAB,
					OV "Kind c_values:proto_order\n");
	check_c_value(view, "Kind", "KIND_D", 0, 1);
	check_c_value(view, "Kind", "KIND_A", 1, 2);
	check_c_value(view, "Kind", "KIND_B", 2, 3);
	e = find_by(json_object_get(view, "enums"), "name", "Kind");
	CHECK_INT("... the library's default is the proto's first value", 0, jint(e, "c_default"));
	json_decref(view);

	CHECK_ERROR("c_values:proto_order on an enum already in order is stale", M_KIND_AB, P_KIND_AB,
				OV "Kind c_values:proto_order\n", "ov.txt", 2, 6,
				"Kind c_values:proto_order: the headers already agree with the proto", &err);
	CHECK_HAS("... stale c_values:proto_order is refused", err.message, "a stale exception");
}

/* 17's JsonTablePathScan { JsonTablePlan plan; JsonTablePlan *lplan; } with JsonTablePlan an
 * abstract supertype; proto: Node plan = 1, Node lplan = 2. */
#define P_PLAN P_HEAD "message Thing {\n  Node plan = 1;\n  Node lplan = 2;\n  bool flag = 3;\n  int32 n = 4;\n}\n"
#define M_PLAN(plan_struct)                                                                                           \
	MODEL(TAG("Thing", 1),                                                                                            \
		  STRUCT("Thing", 1,                                                                                          \
				 FIELD_C("plan", "Plan", "struct Plan", "Plan", "struct", 0, 2) "," FIELD_C(                          \
					 "lplan", "Plan *", "struct Plan *", "Plan", "struct", 1,                                         \
					 3) "," FIELD("flag", "bool", "bool", "builtin", 0, 4) "," FIELD("n", "int", "int", "builtin", 0, \
																					 5)) "," plan_struct,             \
		  "")

static void test_supertypes(void)
{
	gen_Error err;
	json_t *view =
		CHECK_OK("an abstract supertype embedded at the head of a node", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN, OV);
	check_conv(view, "Thing", "plan", "XPR", NULL);
	check_conv(view, "Thing", "lplan", "NODE", NULL);
	json_decref(view);
	/* the deparse contract (generator/deparse_rules.c): rules about a field wherever its message
	 * sits, summed per field for the generated walk */
	view = CHECK_OK("deparse rules: nonnull, and notkinds= on another label", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN,
					OV "Thing.lplan deparse:nonnull\nThing.lplan deparse_2:notkinds=Thing\n");
	json_t *rules = json_object_get(view, "deparse_rules");
	json_t *kb = json_object_get(json_array_get(rules, 1), "kind_bits");
	CHECK_INT("... two rules, the second admitting no kind (Thing, tag 1, is the only one)", 1,
			  json_array_size(rules) == 2 && json_is_true(json_object_get(json_array_get(rules, 0), "nonnull")) &&
				  json_array_size(kb) == 1 && strcmp(jstr(json_array_get(kb, 0), "b"), "0x00") == 0);
	json_t *tests = json_object_get(message(view, "Thing"), "contract_tests");
	json_t *t = json_array_get(tests, 0);
	CHECK_INT("... the walk's test of the field asks both", 1,
			  json_array_size(tests) == 1 && strcmp(jstr(t, "field"), "lplan") == 0 &&
				  json_is_true(json_object_get(t, "nonnull")) && json_is_true(json_object_get(t, "kinds")) &&
				  strcmp(jstr(json_array_get(json_object_get(t, "kind_bits"), 0), "b"), "0x00") == 0);
	json_decref(view);
	CHECK_ERROR("mincells= is for lists", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN, OV "Thing.lplan deparse:mincells=2\n",
				"ov.txt", 2, 13, "'mincells=2' is no clause of the deparse contract for a NODE field", &err);
	CHECK_ERROR("notkinds= naming no node kind", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN,
				OV "Thing.lplan deparse:notkinds=Thing|Nope\n", "ov.txt", 2, 13, "'Nope' is not a node kind", &err);
	/* the clauses of the contract narrowed by context are gone (issue 41): each stops the
	 * generator at its entry, saying what to write instead */
	static const char *const context[] = {"in=Thing.plan", "notin=Thing.plan", "if=flag=true", "ifnot=n=1",
										  "ifset=plan",    "ifnotset=plan",    "ifparent=n=1", "ifparentnot=n=1"};
	for (size_t i = 0; i < sizeof context / sizeof *context; i++) {
		char ov[200], what[200], part[200];
		snprintf(ov, sizeof ov, OV "Thing.lplan deparse:nonnull,%s\n", context[i]);
		snprintf(what, sizeof what, "the removed context clause %s is refused", context[i]);
		snprintf(part, sizeof part, "Thing.lplan deparse: '%s': context clauses were removed", context[i]);
		CHECK_ERROR(what, M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN, ov, "ov.txt", 2, 13, part, &err);
		CHECK_HAS("... saying what to write instead", err.message,
				  "write the rule without it, as nonnull, nonempty, mincells= or notkinds=");
	}
	CHECK_ERROR("the removed kinds= is refused", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN,
				OV "Thing.lplan deparse:kinds=Thing\n", "ov.txt", 2, 13,
				"'kinds=Thing': kinds= was removed: write notkinds= naming the kinds that crashed", &err);
	CHECK_ERROR("the removed cell= is refused", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN,
				OV "Thing.lplan deparse:nonnull,cell=1\n", "ov.txt", 2, 13,
				"'cell=1': cell= was removed: a rule is about every cell of the list; drop it", &err);
	CHECK_ERROR("the removed from= is refused", M_PLAN(SUPERTYPE("Plan", 10)), P_PLAN,
				OV "Thing.lplan deparse:nonnull,from=1\n", "ov.txt", 2, 13,
				"'from=1': from= was removed: a rule is about every cell of the list; drop it", &err);
	CHECK_ERROR("an embedded untagged struct with fields of its own is no supertype",
				M_PLAN("{'name':'Plan','tag':null,'location':'nodes.h:10:16','fields':[" F_TYPE(11) "," FIELD(
					"cost", "int", "int", "builtin", 0, 12) "]}"),
				P_PLAN, OV, "test.proto", 8, 3, "cannot classify Thing.plan: proto Node, C field plan", &err);
}

/* 18's SummaryResult: nested declarations and a map, nothing of the parse tree. */
#define P_SUMMARY                                              \
	"message Summary {\n"                        /* line 10 */ \
	"  enum Context { None = 0; Select = 1; }\n" /* 11 */      \
	"  message Table { Context context = 1; }\n" /* 12 */      \
	"  repeated Table tables = 1;\n"             /* 13 */      \
	"  map<string, string> aliases = 2;\n"       /* 14 */      \
	"}\n"

static void test_ignored_messages(void)
{
	gen_Error err;
	json_t *view = CHECK_OK("ignore:true leaves a message, its nested types and its map out", M_BASIC,
							P_HEAD P_THING P_SUMMARY, OV "Summary ignore:true\n");
	CHECK_INT("... no message of it is rendered", 1,
			  view && !find_by(json_object_get(view, "messages"), "name", "Summary") &&
				  !find_by(json_object_get(view, "messages"), "name", "Summary.Table"));
	CHECK_INT("... nor its enum", 1, view && !find_by(json_object_get(view, "enums"), "name", "Summary.Context"));
	json_decref(view);
	CHECK_ERROR("a nested enum in a message pgbind carries", M_BASIC,
				P_HEAD P_THING "message Summary {\n  enum Context { None = 0; }\n}\n", OV, "test.proto", 11, 3,
				"enum Summary.Context is nested in Summary", &err);
	CHECK_HAS("... names the override", err.message, "add 'Summary ignore:true' to the overrides");
	CHECK_ERROR("a nested message in a message pgbind carries", M_BASIC,
				P_HEAD P_THING "message Summary {\n  message Table {}\n}\n", OV, "test.proto", 11, 3,
				"message Summary.Table is nested in Summary", &err);
	CHECK_HAS("... names the override", err.message, "add 'Summary ignore:true' to the overrides");
	CHECK_ERROR("a map field in a message pgbind carries", M_BASIC,
				P_HEAD P_THING "message Summary {\n  map<string, string> aliases = 1;\n}\n", OV, "test.proto", 11, 3,
				"field Summary.aliases is a map", &err);
	CHECK_ERROR("a field of an ignored type", M_BASIC,
				P_HEAD "message Thing {\n  int32 i = 1;\n  Summary s = 2;\n}\nmessage Summary {}\n",
				OV "Summary ignore:true\n", "test.proto", 9, 3,
				"field Thing.s has type Summary, which the overrides ignore", &err);
	CHECK_ERROR("ignore takes true only", M_BASIC, P_HEAD P_THING P_SUMMARY, OV "Summary ignore:yes\n", "ov.txt", 2, 9,
				"Summary ignore:yes: the only value is true", &err);
	CHECK_ERROR("ignoring a message the proto lacks is stale", M_BASIC, P_HEAD P_THING, OV "Summary ignore:true\n",
				"ov.txt", 2, 9, "override 'Summary ignore:true' matches nothing", &err);
}

static void test_override_errors(void)
{
	gen_Error err;
	json_t *view;

	CHECK_ERROR("override matching nothing", M_BASIC, P_HEAD P_THING, OV "Nope   proto_only:true\n", "ov.txt", 2, 8,
				"override 'Nope proto_only:true' matches nothing in the inputs", &err);
	CHECK_ERROR("no_proto_value on a constant the proto has is stale", M_KIND_AB, P_KIND_AB,
				OV "Kind.KIND_A no_proto_value:true\n", "ov.txt", 2, 13,
				"override 'Kind.KIND_A no_proto_value:true' matches nothing", &err);
	/* the deparse contract's rules (schema/pgNN/deparse.txt) are overrides too */
	CHECK_ERROR("a deparse rule on a field that does not exist is stale", M_BASIC, P_HEAD P_THING,
				OV "Thing.nope deparse:nonnull\n", "ov.txt", 2, 12,
				"override 'Thing.nope deparse:nonnull' matches nothing", &err);
	CHECK_ERROR("a deparse clause the field's kind cannot have", M_BASIC, P_HEAD P_THING,
				OV "Thing.i deparse:nonnull\n", "ov.txt", 2, 9,
				"'nonnull' is no clause of the deparse contract for a INT32 field", &err);
	CHECK_ERROR("a labelled deparse rule naming an unknown value", M_KIND_AB, P_KIND_AB,
				OV "Thing.kind deparse_x:nonempty\n", "ov.txt", 2, 12, "'nonempty' is no clause", &err);
	CHECK_ERROR("no message with role:node_oneof", M_BASIC, P_HEAD P_THING, "# nothing\n", "test.proto", 0, 0,
				"no message is marked role:node_oneof", &err);

	view = run(M_BASIC, P_HEAD P_THING, OV "Thing c_struct:Thing\n", &err);
	REPORT(view == NULL, "c_struct naming the message's own struct is stale", "an error at ov.txt:2:7",
		   view ? "a view model" : err.message, __LINE__);
	json_decref(view);

	/* the shared file, then the version's own */
	Overrides *ov = overrides_parse("shared.txt", "Node role:node_oneof\nA proto_only:true\n", &err);
	bool more = ov && overrides_parse_more(ov, "pg99.txt", "# the version's own\nB proto_only:true\n", &err);
	REPORT(more && strcmp(overrides_location(ov, "B", "proto_only"), "pg99.txt:2:3") == 0 &&
			   strcmp(overrides_location(ov, "A", "proto_only"), "shared.txt:2:3") == 0,
		   "a second overrides file adds its entries, each located in its own file", "pg99.txt:2:3",
		   more ? overrides_location(ov, "B", "proto_only") : err.message, __LINE__);
	more = ov && overrides_parse_more(ov, "pg98.txt", "A proto_only:false\n", &err);
	REPORT(!more && strstr(err.message, "A proto_only: set twice (first at shared.txt:2:3)") &&
			   strcmp(err.file, "pg98.txt") == 0,
		   "a key set in two files is an error in the second", "set twice (first at shared.txt:2:3)",
		   more ? "accepted" : err.message, __LINE__);
	overrides_get(ov, "Node", "role");
	overrides_get(ov, "A", "proto_only");
	REPORT(ov && !overrides_check_all_used(ov, &err) && strcmp(err.file, "pg99.txt") == 0 && err.line == 2,
		   "a stale entry of the second file is reported in that file", "pg99.txt:2", err.file, __LINE__);
	overrides_free(ov);

	/* since:/until: bound a line by the majors it holds for; a major between or after them inherits */
	const char *by_major = "A k:old until:15\nA k:new since:16\nB k:v since:16 until:17\nC k:v since:18\n";
	for (int major = 15; major <= 19; major++) {
		ov = overrides_new("lpq.txt", major);
		more = overrides_parse_more(ov, "lpq.txt", by_major, &err);
		const char *a = more ? overrides_get(ov, "A", "k") : NULL;
		bool b = more && overrides_get(ov, "B", "k"), c = more && overrides_get(ov, "C", "k");
		char got[64];
		snprintf(got, sizeof got, "A=%s B=%d C=%d", a ? a : "-", b, c);
		char want[64];
		snprintf(want, sizeof want, "A=%s B=%d C=%d", major <= 15 ? "old" : "new", major == 16 || major == 17,
				 major >= 18);
		REPORT(strcmp(got, want) == 0, "since:/until: keep a line only for the majors it holds for", want,
			   more ? got : err.message, __LINE__);
		overrides_free(ov);
	}
	ov = overrides_new("lpq.txt", 17);
	more = overrides_parse_more(ov, "lpq.txt", "A k:x until:17\nA k:y since:17\n", &err);
	REPORT(!more && err.line == 2 && strstr(err.message, "A k: set twice (first at lpq.txt:1:3)"),
		   "two lines that both hold for a major are an error at the second", "set twice at line 2",
		   more ? "accepted" : err.message, __LINE__);
	overrides_free(ov);
	ov = overrides_new("lpq.txt", 17);
	more = overrides_parse_more(ov, "lpq.txt", "A k:x since:18 until:16\n", &err);
	REPORT(!more && strstr(err.message, "since:18 is after until:16"), "an empty range is an error",
		   "since:18 is after until:16", more ? "accepted" : err.message, __LINE__);
	overrides_free(ov);
	ov = overrides_parse("ov.txt", "A k:x since:sixteen\n", &err);
	REPORT(!ov && strstr(err.message, "since: expected a PostgreSQL major") && err.col == 13,
		   "a major that is no number is an error at its value", "since: expected a PostgreSQL major at col 13",
		   ov ? "accepted" : err.message, __LINE__);
	overrides_free(ov);
	ov = overrides_parse("ov.txt", "A k:x since:16\n", &err);
	REPORT(!ov && strstr(err.message, "need the major"), "since: without a major to compare is an error",
		   "need the major", ov ? "accepted" : err.message, __LINE__);
	overrides_free(ov);
}

static void test_node_oneof_errors(void)
{
	gen_Error err;

	CHECK_ERROR("Node oneof member that is not a message", M_BASIC,
				"syntax = \"proto3\";\nmessage Node {\n  oneof node {\n"
				"    Thing thing = 1 [json_name=\"Thing\"];\n"
				"    int32 bad = 2 [json_name=\"int32\"];\n  }\n}\n" P_THING,
				OV, "test.proto", 5, 5, "node oneof member Node.bad is not a message", &err);
	CHECK_ERROR("Node oneof member whose json_name is not its message", M_BASIC,
				"syntax = \"proto3\";\nmessage Node {\n  oneof node {\n    Thing thing = 1;\n  }\n}\n" P_THING, OV,
				"test.proto", 4, 5, "json_name 'thing' differs from its message 'Thing'", &err);
	CHECK_ERROR("two messages with role:node_oneof", M_BASIC,
				P_HEAD P_THING "message Node2 {\n  oneof node {\n    Thing thing = 1 [json_name=\"Thing\"];\n"
							   "  }\n}\n",
				OV "Node2 role:node_oneof\n", "test.proto", 10, 1, "two messages have role:node_oneof (Node and Node2)",
				&err);
	CHECK_ERROR("role:node_oneof on a message without a oneof", M_BASIC,
				"syntax = \"proto3\";\nmessage Node {\n  Thing thing = 1 [json_name=\"Thing\"];\n}\n" P_THING, OV,
				"test.proto", 2, 1, "message Node (role:node_oneof) must hold exactly one oneof", &err);
	CHECK_ERROR("proto_only on a node kind", M_BASIC, P_HEAD P_THING, OV "Thing proto_only:true\n", "test.proto", 7, 1,
				"message Thing is a node kind but the overrides say proto_only (ov.txt:2:7)", &err);
	CHECK_ERROR("oneof member that is not a node message",
				M_THING(F_I "," UNION("val", "U", 4, FIELD("x", "int", "int", "builtin", 0, 5))),
				P_HEAD "message Thing {\n  int32 i = 1;\n  oneof val {\n    int32 x = 2;\n  }\n}\n", OV, "test.proto",
				10, 5, "oneof Thing.val: member x is not a node message", &err);
	CHECK_ERROR("oneof member of a message that is not a node kind", M_BASIC,
				P_HEAD P_THING "message Extra {\n  oneof val {\n    Extra e = 1;\n  }\n}\n",
				OV "Extra proto_only:true\n", "test.proto", 12, 5, "oneof Extra.val: member e is not a node message",
				&err);
	CHECK_ERROR("oneof without a C union", M_BASIC,
				P_HEAD "message Thing {\n  int32 i = 1;\n  oneof val {\n    Thing t = 2;\n  }\n}\n", OV, "test.proto",
				10, 5, "oneof Thing.val has no C union field 'val' in struct Thing", &err);
}

static void test_member_names(void)
{
	gen_Error err;
	json_t *view;

	CHECK_ERROR("AST member name that is a C keyword", M_BASIC,
				P_HEAD "message Thing {\n  int32 i = 1;\n  int32 default = 2;\n}\n", OV, "test.proto", 9, 3,
				"field Thing.default: its AST member name 'default' is reserved", &err);
	CHECK_ERROR("AST member name 'tag' is reserved by pgbind", M_BASIC, P_HEAD "message Thing {\n  int32 tag = 1;\n}\n",
				OV, "test.proto", 8, 3, "its AST member name 'tag' is reserved", &err);
	CHECK_ERROR("explicit json_name that is a keyword", M_BASIC,
				P_HEAD P_THING "message Extra {\n  int32 x = 1 [json_name=\"while\"];\n}\n",
				OV "Extra proto_only:true\n", "test.proto", 11, 3, "its AST member name 'while' is reserved", &err);
	CHECK_ERROR("AST member name colliding with a count member", M_BASIC,
				P_HEAD "message Thing {\n  int32 i = 1;\n  int32 n_i = 2;\n}\n", OV, "test.proto", 9, 3,
				"field Thing.n_i: AST member name 'n_i' collides with another field", &err);
	CHECK_ERROR("oneof name colliding with a count member", M_BASIC,
				P_HEAD "message Thing {\n  int32 i = 1;\n  oneof n_i {\n    Thing t = 2;\n  }\n}\n", OV, "test.proto",
				10, 5, "AST member name 'n_i' collides", &err);

	CHECK_ERROR("AST member name _Atomic (a C11 keyword)", M_BASIC,
				P_HEAD P_THING "message Extra {\n  int32 _Atomic = 1;\n}\n", OV "Extra proto_only:true\n", "test.proto",
				11, 3, "its AST member name '_Atomic' is reserved", &err);

	view = run(M_BASIC, P_HEAD P_THING "message Extra {\n  int32 x = 1 [json_name=\"a b\"];\n}\n",
			   OV "Extra proto_only:true\n", &err);
	REPORT(view == NULL, "AST member name 'a b' is not a C identifier", "an error at test.proto:11:3",
		   view ? "a view model" : err.message, __LINE__);
	json_decref(view);
}

int main(void)
{
	test_happy();
	test_pairing_errors();
	test_enum_errors();
	test_supertypes();
	test_ignored_messages();
	test_override_errors();
	test_node_oneof_errors();
	test_member_names();
	return check_summary();
}
