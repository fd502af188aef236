/*
 * test_template.c -- unit tests for the template engine (generator/template.c); a standalone
 * program whose entry point is main().
 *
 * Each case builds a context from inline JSON, renders an inline template and compares the
 * output byte for byte, or checks the exact line:col and message of an expected error. To keep
 * the JSON readable in C source it is written with single quotes, which load_json() turns into
 * double quotes (so no test string may contain an apostrophe). Prints one "ok - " or
 * "not ok - " line per check and a final "N passed, M failed"; exits 1 when anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../check.h"
#include "common.h"
#include "template.h"

#define TEMPLATE_NAME "test.tmpl"

static void ok(const char *what)
{
	printf("ok - %s\n", what);
	n_passed++;
}

static void not_ok(const char *what)
{
	printf("not ok - %s\n", what);
	n_failed++;
}

/* Mismatches are usually about whitespace, so every newline, tab and CR is made visible. */
static void show(const char *label, const char *s)
{
	printf("#   %-9s \"", label);
	for (; *s; s++) {
		switch (*s) {
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		default:
			putchar(*s);
			break;
		}
	}
	puts("\"");
}

static json_t *load_json(const char *what, const char *json)
{
	char *copy = gen_xstrdup(json);
	for (char *p = copy; *p; p++) {
		if (*p == '\'')
			*p = '"';
	}
	json_error_t jerr;
	json_t *ctx = json_loads(copy, JSON_DECODE_ANY, &jerr);
	free(copy);
	if (!ctx) {
		not_ok(what);
		printf("#   bad test JSON: %s (line %d col %d)\n", jerr.text, jerr.line, jerr.column);
	}
	return ctx;
}

static void expect_render(const char *what, const char *json, const char *tmpl, const char *expected)
{
	json_t *ctx = load_json(what, json);
	if (!ctx)
		return;
	gen_Buf out = {0};
	gen_Error err = {0};
	if (!template_render(TEMPLATE_NAME, tmpl, ctx, &out, &err)) {
		not_ok(what);
		printf("#   unexpected error: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
		show("template:", tmpl);
	} else if (strcmp(out.data ? out.data : "", expected) != 0) {
		not_ok(what);
		show("template:", tmpl);
		show("expected:", expected);
		show("got:", out.data ? out.data : "");
	} else {
		ok(what);
	}
	gen_Buf_free(&out);
	json_decref(ctx);
}

/* Also checks that a failed render leaves the output buffer exactly as it was. */
static void expect_error(const char *what, const char *json, const char *tmpl, int line, int col, const char *message)
{
	json_t *ctx = load_json(what, json);
	if (!ctx)
		return;
	gen_Buf out = {0};
	gen_Buf_puts(&out, "before");
	gen_Error err = {0};
	if (template_render(TEMPLATE_NAME, tmpl, ctx, &out, &err)) {
		not_ok(what);
		printf("#   expected an error at %d:%d containing \"%s\", but it rendered\n", line, col, message);
		show("template:", tmpl);
		show("got:", out.data);
	} else if (strcmp(err.file, TEMPLATE_NAME) != 0 || err.line != line || err.col != col ||
			   strstr(err.message, message) == NULL) {
		not_ok(what);
		printf("#   expected: %s:%d:%d: ...%s...\n", TEMPLATE_NAME, line, col, message);
		printf("#   got:      %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
		show("template:", tmpl);
	} else if (strcmp(out.data, "before") != 0 || out.len != 6) {
		not_ok(what);
		printf("#   the error was right but the output buffer was changed\n");
		show("got:", out.data);
	} else {
		ok(what);
	}
	gen_Buf_free(&out);
	json_decref(ctx);
}

static void test_values(void)
{
	expect_render("plain text passes through", "{}", "hello\n\tworld\n", "hello\n\tworld\n");
	expect_render("empty template", "{}", "", "");
	expect_render("string variable, with and without spaces in the tag", "{'name': 'users'}",
				  "struct {{name}}_row; /* {{ name }} */", "struct users_row; /* users */");
	expect_render("no escaping of any kind", "{'s': '<a & b>'}", "{{s}}", "<a & b>");
	expect_render("integers in decimal", "{'n': 42, 'm': -7, 'z': 0}", "{{n}} {{m}} {{z}}", "42 -7 0");
	expect_render("64-bit integer", "{'n': 9007199254740993}", "{{n}}", "9007199254740993");
	expect_render("booleans", "{'t': true, 'f': false}", "{{t}}/{{f}}", "true/false");
	expect_render("dotted names", "{'a': {'b': {'c': 'deep'}}, 'c': 'top'}", "{{a.b.c}} {{c}}", "deep top");
	expect_render("braces that are not tags", "{'x': 'v'}", "{ {x} } {x}} {{x}}", "{ {x} } {x}} v");
}

static void test_sections(void)
{
	expect_render("array of objects", "{'fields': [{'name': 'id', 'type': 'int4'}, {'name': 'email', 'type': 'text'}]}",
				  "{{#fields}}{{name}}:{{type}};{{/fields}}", "id:int4;email:text;");
	expect_render("{{.}} over an array of strings", "{'xs': ['a', 'b', 'c']}", "{{#xs}}[{{.}}]{{/xs}}", "[a][b][c]");
	expect_render("{{.}} over an array of integers", "{'xs': [1, 20, 300]}", "{{#xs}}{{.}} {{/xs}}", "1 20 300 ");
	expect_render("empty array renders nothing", "{'xs': []}", "a{{#xs}}X{{.}}{{/xs}}b", "ab");
	expect_render("object section pushes the object", "{'pk': {'name': 'id'}, 'name': 'outer'}",
				  "{{#pk}}pk={{name}}{{/pk}} {{name}}", "pk=id outer");
	expect_render("empty object still renders once", "{'o': {}, 'x': 1}", "{{#o}}in{{x}}{{/o}}", "in1");
	expect_render("truthy scalars render once and push nothing", "{'t': true, 's': 'x', 'i': -3, 'name': 'n'}",
				  "{{#t}}T{{name}}{{/t}}{{#s}}S{{name}}{{/s}}{{#i}}I{{/i}}", "TnSnI");
	expect_render("falsy values render nothing", "{'f': false, 'n': null, 'e': '', 'z': 0, 'ea': []}",
				  "[{{#f}}F{{/f}}{{#n}}N{{/n}}{{#e}}E{{/e}}{{#z}}Z{{/z}}{{#ea}}A{{/ea}}]", "[]");
	expect_render("inverted sections",
				  "{'f': false, 'n': null, 'e': '', 'z': 0, 'ea': [], 'a': [1], 't': true, 'o': {}, "
				  "'s': 'x', 'i': 5}",
				  "{{^f}}f{{/f}}{{^n}}n{{/n}}{{^e}}e{{/e}}{{^z}}z{{/z}}{{^ea}}ea{{/ea}}"
				  "{{^a}}A{{/a}}{{^t}}T{{/t}}{{^o}}O{{/o}}{{^s}}S{{/s}}{{^i}}I{{/i}}",
				  "fnezea");
	expect_render("section and inverted section on the same key", "{'cols': []}",
				  "{{#cols}}has{{/cols}}{{^cols}}none{{/cols}}", "none");
	expect_render("dotted section name", "{'t': {'pk': {'cols': ['a', 'b']}}}", "{{#t.pk.cols}}{{.}}{{/t.pk.cols}}",
				  "ab");
	expect_render("section on {{.}} for arrays of arrays", "{'xs': [[1, 2], [], [3]]}",
				  "{{#xs}}[{{#.}}{{.}}{{/.}}]{{/xs}}", "[12][][3]");
}

static void test_stack(void)
{
	const char *schema = "{'schema': 'public', 'tables': ["
						 "  {'tname': 'users', 'cols': [{'name': 'id'}, {'name': 'email'}]},"
						 "  {'tname': 'orders', 'cols': [{'name': 'id'}]}]}";

	expect_render("nested sections look keys up outwards", schema,
				  "{{#tables}}{{#cols}}{{schema}}.{{tname}}.{{name}} {{/cols}}{{/tables}}",
				  "public.users.id public.users.email public.orders.id ");
	expect_render("inner keys shadow outer ones", "{'x': 'outer', 'o': {'x': 'inner'}}", "{{x}}{{#o}}{{x}}{{/o}}{{x}}",
				  "outerinnerouter");
	expect_render("string elements are skipped by lookup", "{'sep': ',', 'xs': ['a', 'b']}",
				  "{{#xs}}{{.}}{{sep}}{{/xs}}", "a,b,");
	expect_render("dotted name starts from the stack", "{'table': {'name': 't'}, 'cols': [{'x': 1}, {'x': 2}]}",
				  "{{#cols}}{{table.name}}.{{x}} {{/cols}}", "t.1 t.2 ");
	expect_render("a falsy inner key shadows a truthy outer one",
				  "{'opt': true, 'xs': [{'opt': false, 'v': 'a'}, {'v': 'b'}]}", "{{#xs}}{{#opt}}{{v}}{{/opt}}{{/xs}}",
				  "b");
}

static void test_specials(void)
{
	expect_render("@index, @first and @last", "{'xs': ['a', 'b', 'c']}",
				  "{{#xs}}{{@index}}{{.}}{{#@first}}F{{/@first}}{{#@last}}L{{/@last}}"
				  "{{^@last}},{{/@last}}{{/xs}}",
				  "0aF,1b,2cL");
	expect_render("@first and @last on a one-element array", "{'xs': ['a']}", "{{#xs}}{{@first}}/{{@last}}{{/xs}}",
				  "true/true");
	expect_render("comma-separated list", "{'args': ['a', 'b', 'c']}",
				  "f({{#args}}{{.}}{{^@last}}, {{/@last}}{{/args}})", "f(a, b, c)");
	expect_render("@index seen through an object section", "{'xs': [{'o': {'v': 'p'}}, {'o': {'v': 'q'}}]}",
				  "{{#xs}}{{#o}}{{v}}{{@index}}{{/o}}{{/xs}}", "p0q1");
	expect_render("@index belongs to the innermost array", "{'rows': [{'cols': ['a', 'b']}, {'cols': ['c']}]}",
				  "{{#rows}}{{@index}}:{{#cols}}{{@index}}{{/cols}}{{@index}} {{/rows}}", "0:010 1:01 ");
}

static void test_standalone(void)
{
	expect_render("inline comment", "{}", "a{{! ignore me }}b{{!}}c", "abc");
	expect_render("standalone section lines are removed", "{'fields': [{'name': 'a'}, {'name': 'b'}]}",
				  "struct row {\n{{#fields}}\n\tint {{name}};\n{{/fields}}\n};\n",
				  "struct row {\n\tint a;\n\tint b;\n};\n");
	expect_render("indented standalone tags, blanks after the tag", "{'xs': ['a', 'b']}",
				  "begin\n\t  {{#xs}}\n  {{.}}\n    {{/xs}}  \t\nend\n", "begin\n  a\n  b\nend\n");
	expect_render("standalone comment and inverted section", "{'e': []}",
				  "a\n  {{! note }}\n{{^e}}\nempty\n{{/e}}\nz\n", "a\nempty\nz\n");
	expect_render("standalone tag on the last line without newline", "{'t': true}", "{{#t}}\nyes\n  {{/t}}", "yes\n");
	expect_render("standalone tag on the first line", "{'t': true}", "  {{#t}}\nyes\n{{/t}}\nno\n", "yes\nno\n");
	expect_render("CRLF line endings", "{'t': true}", "{{#t}}\r\nx\r\n{{/t}}\r\ny\r\n", "x\r\ny\r\n");
	expect_render("multi-line standalone comment", "{}", "a\n{{! one\n    two }}\nb\n", "a\nb\n");
	expect_render("two tags on a line are not standalone", "{'t': true}", "{{#t}}{{/t}}\n  {{#t}}a{{/t}}\nx\n",
				  "\n  a\nx\n");
	expect_render("a tag followed by text is not standalone", "{'t': true}", "{{#t}} x\n{{/t}}\n", " x\n");
	expect_render("text before a tag makes it not standalone", "{'t': true}", "a {{#t}}\nb\n{{/t}}\n", "a \nb\n");
	expect_render("variable tags are never standalone", "{'v': ''}", "a\n{{v}}\nb\n  {{v}}\n", "a\n\nb\n  \n");
	expect_render("empty section between standalone lines leaves no blank line", "{'xs': []}",
				  "a\n{{#xs}}\n{{.}}\n{{/xs}}\nb", "a\nb");
	expect_render("nested standalone sections", "{'ts': [{'n': 't1', 'cs': ['a', 'b']}, {'n': 't2', 'cs': []}]}",
				  "{{#ts}}\n{{n}}:\n\t{{#cs}}\n\t- {{.}}\n\t{{/cs}}\n\t{{^cs}}\n\t(none)\n\t{{/cs}}\n{{/ts}}\n",
				  "t1:\n\t- a\n\t- b\nt2:\n\t(none)\n");
}

static void test_errors(void)
{
	expect_error("unclosed {{", "{'name': 'x'}", "line1\n  ab {{name\n", 2, 6, "unclosed '{{'");
	expect_error("unclosed section is reported at its opening tag", "{'fields': []}", "x\n{{#fields}}\n  {{name}}\n", 2,
				 1, "section 'fields' is never closed");
	expect_error("unclosed inner section", "{}", "{{#a}}\n  {{#b}}\n", 2, 3, "section 'b' is never closed");
	expect_error("mismatched close", "{'a': true}", "{{#a}}x{{/b}}", 1, 8, "{{/b}} closes section 'a'");
	expect_error("close without open section", "{}", "x\n\n{{/a}}", 3, 1, "{{/a}} closes no open section");
	expect_error("empty tag", "{}", "ab{{ }}", 1, 3, "empty tag");
	expect_error("empty section tag", "{}", "\t{{# }}{{/}}", 1, 2, "empty tag");
	expect_error("unknown key", "{'name': 'x'}", "a\nb {{nmae}}", 2, 3, "unknown key 'nmae'");
	expect_error("unknown key inside an array section", "{'xs': [{'a': 1}]}", "{{#xs}}\n  {{b}}\n{{/xs}}", 2, 3,
				 "unknown key 'b'");
	expect_error("unknown key only in a later element", "{'xs': [{'a': 1}, {'b': 2}]}", "{{#xs}}{{a}}{{/xs}}", 1, 8,
				 "unknown key 'a'");
	expect_error("section on a missing key", "{}", "ok\n  {{#nope}}{{/nope}}", 2, 3, "unknown key 'nope'");
	expect_error("inverted section on a missing key", "{}", "{{^nope}}x{{/nope}}", 1, 1, "unknown key 'nope'");
	expect_error("dotted name with a missing member", "{'a': {'b': {}}}", "{{a.b.c}}", 1, 1,
				 "unknown key 'a.b.c': 'a.b' has no member 'c'");
	expect_error("dotted name through a string", "{'a': 's'}", "{{a.b}}", 1, 1, "'a' is a string, not an object");
	expect_error("inserting an array", "{'key': [1]}", "x {{key}}", 1, 3, "{{key}}: cannot insert an array");
	expect_error("inserting an object", "{'key': {}}", "{{ key }}", 1, 1, "{{key}}: cannot insert an object");
	expect_error("inserting null", "{'key': null}", "{{key}}", 1, 1, "{{key}}: cannot insert null");
	expect_error("inserting a real", "{'key': 1.5}", "{{key}}", 1, 1, "cannot insert a real number");
	expect_error("section on a real", "{'key': 0.0}", "{{#key}}{{/key}}", 1, 1,
				 "cannot use a real number as a section");
	expect_error("@index outside an array section", "{'o': {}}", "{{#o}}{{@index}}{{/o}}", 1, 7,
				 "'@index' used outside an array section");
	expect_error("@last outside an array section", "{}", "{{^@last}}x{{/@last}}", 1, 1,
				 "'@last' used outside an array section");
	expect_error("unknown special key", "{'xs': [1]}", "{{#xs}}{{@idx}}{{/xs}}", 1, 8, "unknown special key '@idx'");
	expect_error("empty segment in a dotted name", "{}", "{{a..b}}", 1, 1, "invalid key 'a..b'");
	expect_error("space inside a key", "{}", "{{a b}}", 1, 1, "invalid key 'a b'");
	expect_error("C initializer {{0}} is read as a tag", "{}", "int x[1][1] = {{0}};", 1, 15, "unknown key '0'");
	expect_error("column counts bytes", "{}", "\xc3\xa9 {{x}}", 1, 4, "unknown key 'x'");
	expect_error("syntax errors are found in sections that do not render", "{'f': false}", "{{#f}}\n{{a..b}}\n{{/f}}\n",
				 2, 1, "invalid key");
	expect_render("unknown keys in sections that do not render go unnoticed", "{'f': false}", "{{#f}}{{nope}}{{/f}}",
				  "");
}

static void test_buffer(void)
{
	json_t *ctx = json_pack("{s:s}", "x", "v");
	gen_Buf out = {0};
	gen_Error err = {0};

	gen_Buf_puts(&out, "head;");
	if (template_render(TEMPLATE_NAME, "{{x}};", ctx, &out, &err) && strcmp(out.data, "head;v;") == 0)
		ok("output is appended to the buffer");
	else {
		not_ok("output is appended to the buffer");
		show("got:", out.data);
	}
	gen_Buf_free(&out);
	json_decref(ctx);

	json_t *arr = json_array();
	if (!template_render(TEMPLATE_NAME, "x", arr, &out, &err) && strstr(err.message, "not an object"))
		ok("a context that is not an object is refused");
	else
		not_ok("a context that is not an object is refused");
	gen_Buf_free(&out);
	json_decref(arr);
}

/* A large render: checks the exact output size (no timing assertion; speed lives in benchmarks). */
static void test_large(void)
{
	json_t *cols = json_array();
	for (int i = 0; i < 100000; i++)
		json_array_append_new(cols, json_pack("{s:s,s:i}", "name", "column_name", "oid", 23));
	json_t *ctx = json_pack("{s:s,s:o}", "table", "t", "cols", cols);
	gen_Buf out = {0};
	gen_Error err = {0};
	clock_t start = clock();
	bool rendered = template_render(
		TEMPLATE_NAME,
		"{{#cols}}\n\t{ \"{{name}}\", {{oid}}, {{@index}} }{{^@last}},{{/@last}} /* {{table}} */\n{{/cols}}\n", ctx,
		&out, &err);
	double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
	/* Each line is 34 bytes plus the digits of the index, less the last comma. */
	size_t expected = 0;
	for (int i = 0; i < 100000; i++)
		expected += 34 + (size_t)snprintf(NULL, 0, "%d", i) - (i == 99999 ? 1 : 0);
	if (rendered && out.len == expected) {
		char what[128];
		snprintf(what, sizeof what, "100000 rows, %zu bytes rendered in %.3f s", out.len, secs);
		ok(what);
	} else {
		not_ok("large render");
		printf("#   rendered=%d len=%zu expected=%zu secs=%.3f %s\n", rendered, out.len, expected, secs,
			   rendered ? "" : err.message);
	}
	gen_Buf_free(&out);
	json_decref(ctx);
}

int main(void)
{
	test_values();
	test_sections();
	test_stack();
	test_specials();
	test_standalone();
	test_errors();
	test_buffer();
	test_large();
	return check_summary();
}
