/*
 * extract.c -- pgbind-extract: reads PostgreSQL's node headers with libclang and writes the node
 * model (schema/pgNN/nodes.json) with jansson.
 *
 * This is the only part of pgbind that needs libclang. It records facts, not decisions: every
 * NodeTag constant with its value; for every tag T_X whose X is a struct (or a typedef of one, as
 * DistinctExpr is of OpExpr) the struct's fields in declaration order with their types as spelled
 * and canonical, pointer depth, the struct/union/enum they name and their location; and every
 * enum declared under nodes/ with its exact constant values. What those facts mean for the
 * protobuf encoding is decided later, by the classifier, against pg_query.proto.
 *
 * Entry point: main(). Usage: pgbind-extract --include-dir DIR --out FILE [--header H]...
 */
#include "common.h"

#include <clang-c/Index.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PGBIND_CLANG_RESOURCE_DIR
#define PGBIND_CLANG_RESOURCE_DIR ""
#endif

/* The headers whose node structs and enums make up the model, in include order. */
static const char *const default_headers[] = {
	"postgres.h",        "nodes/nodes.h",       "nodes/pg_list.h",   "nodes/value.h",
	"nodes/bitmapset.h", "nodes/lockoptions.h", "nodes/primnodes.h", "nodes/parsenodes.h",
};

typedef struct {
	const char *include_dir;
	size_t include_dir_len;
	json_t *tags;      /* [{name, value}] in declaration order */
	json_t *enums;     /* name -> {name, location, values} */
	json_t *enum_list; /* enums in declaration order (the output) */
	json_t *typedefs;  /* typedef name -> cursor hash key of the struct it names */
	CXTranslationUnit tu;
	gen_Error *err;
	bool failed;
	long long pg_version_num; /* PG_VERSION_NUM of the headers */
} Extract;

/* "file:line:col" relative to the include dir, so the model does not depend on where the
 * headers are installed. */
static char *location_of(Extract *ex, CXCursor cursor, int *line_out)
{
	CXFile file;
	unsigned line, col;
	clang_getExpansionLocation(clang_getCursorLocation(cursor), &file, &line, &col, NULL);
	CXString name = clang_getFileName(file);
	const char *path = clang_getCString(name);
	if (!path)
		path = "<unknown>";
	if (strncmp(path, ex->include_dir, ex->include_dir_len) == 0 && path[ex->include_dir_len] == '/')
		path += ex->include_dir_len + 1;
	gen_Buf buf = {0};
	gen_Buf_printf(&buf, "%s:%u:%u", path, line, col);
	clang_disposeString(name);
	if (line_out)
		*line_out = (int)line;
	return buf.data;
}

static char *spelling(CXString s)
{
	char *out = gen_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	return out;
}

static bool in_nodes_dir(Extract *ex, CXCursor cursor)
{
	char *loc = location_of(ex, cursor, NULL);
	bool yes = strncmp(loc, "nodes/", 6) == 0;
	free(loc);
	return yes;
}

/* The name a struct/union/enum declaration is known by: its tag, or for an anonymous one the
 * typedef that names it (libclang spells those "(anonymous ...)"). */
static char *decl_name(CXCursor decl)
{
	char *name = spelling(clang_getCursorSpelling(decl));
	if (name[0] == '\0' || strchr(name, '(') || strchr(name, ' ')) {
		free(name);
		CXType t = clang_getCursorType(decl);
		name = spelling(clang_getTypeSpelling(t));
		/* "enum Foo" -> "Foo" */
		const char *p = strrchr(name, ' ');
		if (p) {
			char *n = gen_xstrdup(p + 1);
			free(name);
			name = n;
		}
	}
	return name;
}

static void record_enum(Extract *ex, CXCursor decl, bool anywhere);

/* Describes one field's type: what it is as written and what it is underneath. An enum it names
 * is recorded wherever it is declared (18's CompareType lives in access/cmptype.h). */
static json_t *describe_type(Extract *ex, CXType type)
{
	json_t *out = json_object();
	char *type_s = spelling(clang_getTypeSpelling(type));
	json_object_set_new(out, "type", json_string(type_s));
	free(type_s);
	CXType canon = clang_getCanonicalType(type);
	char *canon_s = spelling(clang_getTypeSpelling(canon));
	json_object_set_new(out, "canonical", json_string(canon_s));
	free(canon_s);

	json_t *array = json_null();
	if (canon.kind == CXType_ConstantArray) {
		array = json_integer(clang_getArraySize(canon));
		canon = clang_getCanonicalType(clang_getArrayElementType(canon));
	} else if (canon.kind == CXType_IncompleteArray) {
		array = json_integer(-1);
		canon = clang_getCanonicalType(clang_getArrayElementType(canon));
	}
	json_object_set_new(out, "array", array);

	int depth = 0;
	while (canon.kind == CXType_Pointer) {
		depth++;
		canon = clang_getCanonicalType(clang_getPointeeType(canon));
	}
	json_object_set_new(out, "pointer_depth", json_integer(depth));

	const char *base_kind;
	char *base;
	CXCursor decl = clang_getTypeDeclaration(canon);
	switch (canon.kind) {
	case CXType_Record:
		base_kind = clang_getCursorKind(decl) == CXCursor_UnionDecl ? "union" : "struct";
		base = decl_name(decl);
		break;
	case CXType_Enum:
		base_kind = "enum";
		base = decl_name(decl);
		record_enum(ex, clang_getCursorDefinition(decl), true);
		break;
	case CXType_FunctionProto:
	case CXType_FunctionNoProto:
		base_kind = "function";
		base = spelling(clang_getTypeSpelling(canon));
		break;
	default:
		base_kind = "builtin";
		base = spelling(clang_getTypeSpelling(canon));
		break;
	}
	/* Qualifiers belong to the field, not to what it names: "const char *" is a char string. */
	bool is_const = clang_isConstQualifiedType(canon);
	for (;;) {
		if (strncmp(base, "const ", 6) == 0)
			memmove(base, base + 6, strlen(base + 6) + 1);
		else if (strncmp(base, "volatile ", 9) == 0)
			memmove(base, base + 9, strlen(base + 9) + 1);
		else
			break;
	}
	json_object_set_new(out, "const", json_boolean(is_const));
	json_object_set_new(out, "base", json_string(base));
	json_object_set_new(out, "base_kind", json_string(base_kind));
	free(base);
	return out;
}

typedef struct {
	Extract *ex;
	json_t *fields;
} FieldVisit;

static enum CXChildVisitResult visit_field(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	FieldVisit *fv = data;
	if (clang_getCursorKind(c) != CXCursor_FieldDecl)
		return CXChildVisit_Continue;
	json_t *field = json_object();
	char *name = spelling(clang_getCursorSpelling(c));
	json_object_set_new(field, "name", json_string(name));
	free(name);
	json_t *type = describe_type(fv->ex, clang_getCursorType(c));
	json_object_update(field, type);
	json_decref(type);
	char *loc = location_of(fv->ex, c, NULL);
	json_object_set_new(field, "location", json_string(loc));
	free(loc);

	/* A union held by value (A_Const's ValUnion): record its members, the classifier matches
	 * them to the proto oneof. */
	CXType canon = clang_getCanonicalType(clang_getCursorType(c));
	if (canon.kind == CXType_Record && clang_getCursorKind(clang_getTypeDeclaration(canon)) == CXCursor_UnionDecl) {
		FieldVisit inner = {fv->ex, json_array()};
		clang_visitChildren(clang_getTypeDeclaration(canon), visit_field, &inner);
		json_object_set_new(field, "members", inner.fields);
	}
	json_array_append_new(fv->fields, field);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit_enum_constant(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	json_t *values = data;
	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	json_t *v = json_object();
	char *name = spelling(clang_getCursorSpelling(c));
	json_object_set_new(v, "name", json_string(name));
	free(name);
	json_object_set_new(v, "value", json_integer(clang_getEnumConstantDeclValue(c)));
	json_array_append_new(values, v);
	return CXChildVisit_Continue;
}

/* An enum of the node headers (nodes/), or, with anywhere, one a node field uses. */
static void record_enum(Extract *ex, CXCursor decl, bool anywhere)
{
	if (clang_Cursor_isNull(decl) || !clang_isCursorDefinition(decl) || (!anywhere && !in_nodes_dir(ex, decl)))
		return;
	char *name = decl_name(decl);
	if (json_object_get(ex->enums, name)) {
		free(name);
		return;
	}
	json_t *e = json_object();
	json_object_set_new(e, "name", json_string(name));
	char *loc = location_of(ex, decl, NULL);
	json_object_set_new(e, "location", json_string(loc));
	free(loc);
	json_t *values = json_array();
	clang_visitChildren(decl, visit_enum_constant, values);
	json_object_set_new(e, "values", values);
	json_object_set(ex->enums, name, e);
	json_array_append_new(ex->enum_list, e);
	if (strcmp(name, "NodeTag") == 0)
		json_object_set(ex->tags, "values", values);
	free(name);
}

/* Top level: typedefs (to find the struct each node name denotes) and enums. */
static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	Extract *ex = data;
	switch (clang_getCursorKind(c)) {
	case CXCursor_EnumDecl:
		record_enum(ex, c, false);
		break;
	case CXCursor_VarDecl: {
		char *name = spelling(clang_getCursorSpelling(c));
		if (strcmp(name, "pgbind_pg_version_num") == 0) {
			CXEvalResult r = clang_Cursor_Evaluate(c);
			if (r && clang_EvalResult_getKind(r) == CXEval_Int)
				ex->pg_version_num = clang_EvalResult_getAsLongLong(r);
			if (r)
				clang_EvalResult_dispose(r);
		}
		free(name);
		break;
	}
	case CXCursor_TypedefDecl: {
		CXType under = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(c));
		if (under.kind == CXType_Enum) {
			record_enum(ex, clang_getTypeDeclaration(under), false);
		} else if (under.kind == CXType_Record) {
			char *name = spelling(clang_getCursorSpelling(c));
			CXCursor decl = clang_getTypeDeclaration(under);
			/* Keep the definition's cursor: struct fields are read from it later. */
			CXCursor def = clang_getCursorDefinition(decl);
			if (!clang_Cursor_isNull(def)) {
				json_t *rec = json_object();
				char *target = decl_name(def);
				json_object_set_new(rec, "struct", json_string(target));
				free(target);
				char *loc = location_of(ex, c, NULL);
				json_object_set_new(rec, "location", json_string(loc));
				free(loc);
				json_object_set_new(ex->typedefs, name, rec);
			}
			free(name);
		}
		break;
	}
	default:
		break;
	}
	return CXChildVisit_Continue;
}

typedef struct {
	Extract *ex;
	json_t *wanted; /* struct name -> fields array to fill */
} StructVisit;

static enum CXChildVisitResult visit_struct_defs(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	StructVisit *sv = data;
	if (clang_getCursorKind(c) == CXCursor_StructDecl && clang_isCursorDefinition(c)) {
		char *name = decl_name(c);
		json_t *rec = json_object_get(sv->wanted, name);
		if (rec && !json_object_get(rec, "fields")) {
			FieldVisit fv = {sv->ex, json_array()};
			clang_visitChildren(c, visit_field, &fv);
			json_object_set_new(rec, "fields", fv.fields);
			char *loc = location_of(sv->ex, c, NULL);
			json_object_set_new(rec, "location", json_string(loc));
			free(loc);
		}
		free(name);
	}
	/* struct definitions written inside a typedef appear as children of the typedef */
	if (clang_getCursorKind(c) == CXCursor_TypedefDecl)
		clang_visitChildren(c, visit_struct_defs, data);
	return CXChildVisit_Continue;
}

static int usage(void)
{
	fprintf(stderr, "usage: pgbind-extract --include-dir DIR --out FILE [--header HEADER]...\n"
					"Reads PostgreSQL's node headers under DIR with libclang and writes the node model.\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *include_dir = NULL, *out_path = NULL;
	const char **headers = NULL;
	int n_headers = 0;
	headers = gen_xcalloc((size_t)argc + sizeof default_headers / sizeof *default_headers, sizeof *headers);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--include-dir") == 0 && i + 1 < argc)
			include_dir = argv[++i];
		else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out_path = argv[++i];
		else if (strcmp(argv[i], "--header") == 0 && i + 1 < argc)
			headers[n_headers++] = argv[++i];
		else
			return usage();
	}
	if (!include_dir || !out_path)
		return usage();
	if (n_headers == 0) {
		for (size_t i = 0; i < sizeof default_headers / sizeof *default_headers; i++)
			headers[n_headers++] = default_headers[i];
	}

	gen_Error err = {0};
	for (int i = 0; i < n_headers; i++) {
		gen_Buf path = {0};
		gen_Buf_printf(&path, "%s/%s", include_dir, headers[i]);
		FILE *f = fopen(path.data, "r");
		if (!f) {
			gen_fail(&err, path.data, 0, 0,
					 "header not found (install postgresql-server-dev-15, or pass --include-dir)");
			gen_Error_print(&err);
			return 1;
		}
		fclose(f);
		gen_Buf_free(&path);
	}

	/* One synthetic translation unit that includes every header. */
	gen_Buf src = {0};
	for (int i = 0; i < n_headers; i++)
		gen_Buf_printf(&src, "#include \"%s\"\n", headers[i]);
	/* the headers' PostgreSQL version (pg_config.h), read back by visit_top */
	gen_Buf_puts(&src, "static const int pgbind_pg_version_num = PG_VERSION_NUM;\n");

	gen_Buf inc = {0};
	gen_Buf_printf(&inc, "-I%s", include_dir);
	gen_Buf res = {0};
	const char *args[8];
	int nargs = 0;
	args[nargs++] = "-xc";
	args[nargs++] = "-std=gnu11";
	args[nargs++] = inc.data;
	if (PGBIND_CLANG_RESOURCE_DIR[0]) {
		gen_Buf_printf(&res, "-I%s/include", PGBIND_CLANG_RESOURCE_DIR);
		args[nargs++] = res.data;
	}

	struct CXUnsavedFile unsaved = {"pgbind_nodes.c", src.data, (unsigned long)src.len};
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu;
	enum CXErrorCode rc = clang_parseTranslationUnit2(index, "pgbind_nodes.c", args, nargs, &unsaved, 1,
													  CXTranslationUnit_SkipFunctionBodies, &tu);
	if (rc != CXError_Success) {
		gen_fail(&err, include_dir, 0, 0, "libclang could not parse the node headers (error %d)", (int)rc);
		gen_Error_print(&err);
		return 1;
	}
	unsigned n_diag = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n_diag; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
			fprintf(stderr, "%s\n", clang_getCString(s));
			fprintf(stderr, "pgbind-extract: error: the node headers do not compile; nothing written\n");
			clang_disposeString(s);
			return 1;
		}
		clang_disposeDiagnostic(d);
	}

	Extract ex = {
		.include_dir = include_dir,
		.include_dir_len = strlen(include_dir),
		.tags = json_object(),
		.enums = json_object(),
		.enum_list = json_array(),
		.typedefs = json_object(),
		.tu = tu,
		.err = &err,
	};
	while (ex.include_dir_len > 1 && include_dir[ex.include_dir_len - 1] == '/')
		ex.include_dir_len--;
	CXCursor root = clang_getTranslationUnitCursor(tu);
	clang_visitChildren(root, visit_top, &ex);

	json_t *tag_values = json_object_get(ex.tags, "values");
	if (!tag_values) {
		gen_fail(&err, include_dir, 0, 0, "no enum NodeTag found in the headers");
		gen_Error_print(&err);
		return 1;
	}

	/* Node structs: for every T_X, the struct X names (through typedefs). */
	json_t *wanted = json_object(); /* struct name -> record */
	json_t *structs = json_array(); /* output, in NodeTag order */
	size_t i;
	json_t *tv;
	json_array_foreach(tag_values, i, tv)
	{
		const char *tag = json_string_value(json_object_get(tv, "name"));
		if (strncmp(tag, "T_", 2) != 0)
			continue;
		const char *node = tag + 2;
		json_t *td = json_object_get(ex.typedefs, node);
		if (!td)
			continue; /* a tag without a struct in these headers (executor, planner, IntList) */
		const char *target = json_string_value(json_object_get(td, "struct"));
		json_t *rec = json_object();
		json_object_set_new(rec, "name", json_string(node));
		json_object_set_new(rec, "tag", json_string(tag));
		if (strcmp(target, node) != 0) {
			json_object_set_new(rec, "alias_of", json_string(target));
			json_object_set(rec, "location", json_object_get(td, "location"));
		} else {
			json_object_set(wanted, node, rec);
		}
		json_array_append_new(structs, rec);
	}
	/* Structs embedded by value or aliased need their fields too (Expr, CreateStmt, OpExpr). */
	json_array_foreach(structs, i, tv)
	{
		const char *alias = json_string_value(json_object_get(tv, "alias_of"));
		if (alias && !json_object_get(wanted, alias)) {
			gen_fail(&err, include_dir, 0, 0, "typedef %s names struct %s, which has no NodeTag",
					 json_string_value(json_object_get(tv, "name")), alias);
			gen_Error_print(&err);
			return 1;
		}
	}
	/* Structs under nodes/ that look like nodes (they will be checked to begin with a NodeTag)
	 * but have no T_ tag: recorded with "tag": null, so that the classifier can say a tag is
	 * missing rather than that the struct is (Node and Expr are such; so is a new node whose
	 * T_ value was forgotten). */
	json_t *untagged = json_array();
	const char *td_name;
	json_t *td;
	json_object_foreach(ex.typedefs, td_name, td)
	{
		const char *target = json_string_value(json_object_get(td, "struct"));
		const char *loc = json_string_value(json_object_get(td, "location"));
		if (strcmp(target, td_name) != 0 || json_object_get(wanted, td_name) || strncmp(loc, "nodes/", 6) != 0)
			continue;
		json_t *rec = json_pack("{s:s, s:n}", "name", td_name, "tag");
		json_object_set(wanted, td_name, rec);
		json_array_append_new(untagged, rec);
	}
	StructVisit sv = {&ex, wanted};
	clang_visitChildren(root, visit_struct_defs, &sv);
	/* keep the untagged ones that begin with NodeTag, in name order (a hash has no order) */
	json_t *kept = json_array();
	json_array_foreach(untagged, i, tv)
	{
		json_t *first = json_array_get(json_object_get(tv, "fields"), 0);
		if (first && strcmp(json_string_value(json_object_get(first, "base")), "NodeTag") == 0)
			json_array_append(kept, tv);
	}
	size_t n_kept = json_array_size(kept);
	for (size_t a = 1; a < n_kept; a++) /* insertion sort: a handful of entries */
		for (size_t b = a; b > 0 && strcmp(json_string_value(json_object_get(json_array_get(kept, b - 1), "name")),
										   json_string_value(json_object_get(json_array_get(kept, b), "name"))) > 0;
			 b--) {
			json_t *x = json_incref(json_array_get(kept, b - 1));
			json_array_set(kept, b - 1, json_array_get(kept, b));
			json_array_set_new(kept, b, x);
		}
	json_array_extend(structs, kept);
	json_decref(kept);
	json_decref(untagged);
	json_array_foreach(structs, i, tv)
	{
		if (!json_object_get(tv, "alias_of") && !json_object_get(tv, "fields")) {
			gen_fail(&err, include_dir, 0, 0, "struct %s is declared but never defined in the headers",
					 json_string_value(json_object_get(tv, "name")));
			gen_Error_print(&err);
			return 1;
		}
	}

	if (ex.pg_version_num < 100000) {
		gen_fail(&err, include_dir, 0, 0,
				 "the headers define no PG_VERSION_NUM of PostgreSQL 10 or later (pg_config.h)");
		gen_Error_print(&err);
		return 1;
	}
	json_t *model = json_object();
	json_object_set_new(model, "generator", json_string("pgbind-extract"));
	json_t *hdrs = json_array();
	for (int h = 0; h < n_headers; h++)
		json_array_append_new(hdrs, json_string(headers[h]));
	json_object_set_new(model, "headers", hdrs);
	/* the major only: a minor release of the headers must not change the model */
	json_object_set_new(model, "pg_major", json_integer(ex.pg_version_num / 10000));
	json_object_set(model, "nodetags", tag_values);
	json_object_set_new(model, "structs", structs);
	json_object_set(model, "enums", ex.enum_list);

	char *text = json_dumps(model, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (!text) {
		fprintf(stderr, "pgbind-extract: error: could not serialise the model\n");
		return 1;
	}
	gen_Buf out = {0};
	gen_Buf_puts(&out, text);
	gen_Buf_puts(&out, "\n");
	free(text);
	if (!gen_write_file_atomic(out_path, out.data, out.len, &err)) {
		gen_Error_print(&err);
		return 1;
	}
	size_t n_alias = 0;
	json_array_foreach(structs, i, tv) n_alias += json_object_get(tv, "alias_of") != NULL;
	printf("pgbind-extract: %zu NodeTag values, %zu node structs (%zu typedef aliases), %zu enums -> %s\n",
		   json_array_size(tag_values), json_array_size(structs), n_alias, json_array_size(ex.enum_list), out_path);

	json_decref(model);
	json_decref(wanted);
	json_decref(ex.tags);
	json_decref(ex.enums);
	json_decref(ex.enum_list);
	json_decref(ex.typedefs);
	gen_Buf_free(&out);
	gen_Buf_free(&src);
	gen_Buf_free(&inc);
	gen_Buf_free(&res);
	free(headers);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return 0;
}
