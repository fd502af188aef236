/*
 * test_makes_go.c -- unit tests for pg_query_go's declared Make* helpers (targets/go/decorator/makes_go.c):
 * a small view with the Go decorator's keys, declared lines read by overrides_parse("mk.txt"), the
 * go_makes they give, and the exact file:line:col and message of each line the generator cannot
 * map. JSON is written with single quotes (turned into double quotes). Prints one line per check
 * and "N passed, M failed"; exits 1 when anything failed.
 */
#include "../check.h"
#include "common.h"
#include "targets/go/decorator/makes_go.h"
#include "unit.h"

static const char *const VIEW =
	"{'messages': ["
	" {'name': 'RangeVar', 'go_name': 'RangeVar', 'fields': ["
	"  {'name': 'relname', 'wire': 'STRING', 'type': '_', 'go_name': 'Relname', 'go_type': 'string', "
	"'go_kind_string': true},"
	"  {'name': 'inh', 'wire': 'BOOL', 'type': '_', 'go_name': 'Inh', 'go_type': 'bool', 'go_kind_scalar': true},"
	"  {'name': 'location', 'wire': 'INT32', 'type': '_', 'go_name': 'Location', 'go_type': 'int32', "
	"'go_kind_scalar': true},"
	"  {'name': 'alias', 'wire': 'MESSAGE', 'type': 'Alias', 'go_name': 'Alias', 'go_type': 'Alias', "
	"'go_kind_message': true},"
	"  {'name': 'jointype', 'wire': 'ENUM', 'type': 'JoinType', 'go_name': 'Jointype', 'go_type': 'JoinType', "
	"'go_kind_scalar': true},"
	"  {'name': 'args', 'wire': 'REPEATED_NODE', 'type': 'Node', 'go_name': 'Args', 'go_type': 'Node', "
	"'go_kind_rep_node': true},"
	"  {'name': 'sort_by', 'wire': 'NODE', 'type': 'Node', 'go_name': 'SortBy', 'go_type': 'Node', "
	"'go_kind_node': true},"
	"  {'name': 'val', 'wire': 'ONEOF', 'type': 'RangeVar_val', 'go_name': 'Val', 'go_type': 'RangeVar_val', "
	"'go_kind_oneof': true},"
	"  {'name': 'type', 'wire': 'STRING', 'type': '_', 'go_name': 'Type', 'go_type': 'string', "
	"'go_kind_string': true}]},"
	" {'name': 'A_Star', 'go_name': 'A_Star', 'fields': []}],"
	" 'enums': [{'name': 'JoinType', 'go_name': 'JoinType', 'values': [{'name': 'JOIN_INNER'}]}]}";

static json_t *load_view(void)
{
	char *text = xmalloc(strlen(VIEW) + 1);
	for (size_t i = 0; i <= strlen(VIEW); i++)
		text[i] = VIEW[i] == '\'' ? '"' : VIEW[i];
	json_error_t jerr;
	json_t *view = json_loads(text, 0, &jerr);
	free(text);
	if (!view) {
		printf("not ok - the test view: %s\n", jerr.text);
		exit(1);
	}
	return view;
}

/* The view after the declared lines, or NULL with "file:line:col: message" in got. */
static json_t *apply(const char *lines, char *got, size_t n)
{
	gen_Error err = {0};
	json_t *view = load_view();
	Overrides *ov = overrides_parse("mk.txt", lines, &err);
	bool ok = ov && makes_go_apply(view, ov, &err);
	overrides_free(ov);
	snprintf(got, n, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
	if (!ok) {
		json_decref(view);
		return NULL;
	}
	return view;
}

static json_t *path(json_t *view, int msg, int make)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(view, "messages"), msg), "go_makes"), make);
}

static void good(void)
{
	char got[1600];
	json_t *view = apply("RangeVar  go_make_MakeX:relname,args,sort_by,alias,location,inh=true,jointype=JOIN_INNER\n"
						 "RangeVar  go_new_MakeY:relname,relname=p\n" /* a field twice */
						 "A_Star    go_make_MakeAStar:-\n",
						 got, sizeof got);
	CHECK_STR("a field named twice is refused", "mk.txt:2:11: RangeVar go_new_MakeY: field relname named twice",
			  view ? "(accepted)" : got);
	json_decref(view);
	view = apply("RangeVar  go_make_MakeX:relname,args,sort_by,alias,location,inh=true,jointype=JOIN_INNER\n"
				 "RangeVar  go_new_MakeY:relname,relpersistence_is_not_here=p\n",
				 got, sizeof got);
	CHECK_STR("a field the message lacks is refused",
			  "mk.txt:2:11: RangeVar go_new_MakeY: RangeVar has no field "
			  "relpersistence_is_not_here (the proto's json_name)",
			  view ? "(accepted)" : got);
	json_decref(view);
	view = apply("RangeVar  go_make_MakeX:relname,args,sort_by,alias,location,inh=true,jointype=JOIN_INNER\n"
				 "RangeVar  go_new_MakeY:location,relname=p\n"
				 "A_Star    go_make_MakeAStar:-\n",
				 got, sizeof got);
	CHECK(view != NULL, "declared lines give go_makes: %s", got);
	if (!view)
		return;
	json_t *x = path(view, 0, 0), *params = json_object_get(x, "params"), *fixed = json_object_get(x, "fixed");
	CHECK_STR("go_make_NAME: the helper's name", "MakeX", jstr(x, "name"));
	CHECK(json_is_true(json_object_get(x, "node")), "go_make_NAME: it returns a Node");
	CHECK_STR("... of the message", "RangeVar", jstr(x, "message"));
	CHECK_INT("every field without = is a parameter, in the line's order", 5, json_array_size(params));
	const char *expect[][3] = {{"relname", "string", "Relname"},
							   {"args", "[]*Node", "Args"},
							   {"sortBy", "*Node", "SortBy"},
							   {"alias", "*Alias", "Alias"},
							   {"location", "int32", "Location"}};
	for (size_t i = 0; i < 5; i++) {
		json_t *p = json_array_get(params, i);
		CHECK_STR("a parameter is named after its field, lowerCamelCase", expect[i][0], jstr(p, "name"));
		CHECK_STR("... of the field's Go type as a value", expect[i][1], jstr(p, "go_type"));
		CHECK_STR("... setting the field", expect[i][2], jstr(p, "go_field"));
	}
	CHECK_INT("field=value is a fixed value", 2, json_array_size(fixed));
	CHECK_STR("... a bool", "true", jstr(json_array_get(fixed, 0), "value"));
	CHECK_STR("... an enum value, protoc-gen-go's constant", "JoinType_JOIN_INNER",
			  jstr(json_array_get(fixed, 1), "value"));
	CHECK_STR("... setting the field", "Jointype", jstr(json_array_get(fixed, 1), "go_field"));
	json_t *y = path(view, 0, 1);
	CHECK_STR("go_new_NAME: the helper's name", "MakeY", jstr(y, "name"));
	CHECK(json_is_false(json_object_get(y, "node")), "go_new_NAME: it returns the message");
	CHECK_STR("... a string, quoted", "\"p\"", jstr(json_array_get(json_object_get(y, "fixed"), 0), "value"));
	CHECK_INT("`-`: no parameter", 0, json_array_size(json_object_get(path(view, 1, 0), "params")));
	json_decref(view);
}

/* A declared line the generator cannot map stops it at the line, saying what is wrong. */
static void refused(const char *what, const char *lines, const char *expected)
{
	char got[1600];
	json_t *view = apply(lines, got, sizeof got);
	CHECK_STR(what, expected, view ? "(accepted)" : got);
	json_decref(view);
}

int main(void)
{
	good();
	refused("a message the view lacks", "\nNope  go_make_MakeN:-\n",
			"mk.txt:2:7: override 'Nope go_make_MakeN:-' matches nothing in the inputs (a stale exception: remove it)");
	refused("a key the generator does not know", "RangeVar  go_mak_MakeN:relname\n",
			"mk.txt:1:11: override 'RangeVar go_mak_MakeN:relname' matches nothing in the inputs (a stale exception: "
			"remove it)");
	refused("a key naming no exported helper", "RangeVar  go_make_makeN:relname\n",
			"mk.txt:1:11: RangeVar go_make_makeN: the key names no helper: write go_make_NAME or go_new_NAME, NAME "
			"exported (MakeColumnRefNode)");
	refused("a oneof as a parameter", "RangeVar  go_make_MakeN:val\n",
			"mk.txt:1:11: RangeVar go_make_MakeN: field val (wire ONEOF) cannot be a parameter; write the helper in "
			"targets/go/makefuncs.go with a line saying why");
	refused("a parameter named by a Go keyword", "RangeVar  go_make_MakeN:type\n",
			"mk.txt:1:11: RangeVar go_make_MakeN: field type would be a parameter named type, a Go keyword");
	refused("a value the enum lacks", "RangeVar  go_make_MakeN:jointype=JOIN_OUTERMOST\n",
			"mk.txt:1:11: RangeVar go_make_MakeN: jointype=JOIN_OUTERMOST: not a value of field jointype (wire ENUM, "
			"enum JoinType): give true/false, a number, a string's characters or a value of the enum");
	refused("a bool that is not true or false", "RangeVar  go_make_MakeN:inh=yes\n",
			"mk.txt:1:11: RangeVar go_make_MakeN: inh=yes: not a value of field inh (wire BOOL): give true/false, a "
			"number, a string's characters or a value of the enum");
	refused("a number that is not one", "RangeVar  go_make_MakeN:location=1x\n",
			"mk.txt:1:11: RangeVar go_make_MakeN: location=1x: not a value of field location (wire INT32): give "
			"true/false, a number, a string's characters or a value of the enum");
	refused("a helper declared twice", "RangeVar  go_make_MakeN:relname\nA_Star  go_make_MakeN:-\n",
			"mk.txt:2:9: A_Star go_make_MakeN: helper MakeN declared twice (first on RangeVar)");
	refused("a field target (helpers are the message's)", "RangeVar.relname  go_make_MakeN:-\n",
			"mk.txt:1:19: override 'RangeVar.relname go_make_MakeN:-' matches nothing in the inputs (a stale "
			"exception: remove it)");
	return check_summary();
}
