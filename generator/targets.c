/*
 * targets.c -- the table of targets (targets.h): the one file of generator/ that names them. Each
 * target's decorator lives in its folder, targets/NAME/decorator/.
 */
#include "targets.h"

#include "targets/c/decorator/names_c.h"
#include "targets/go/decorator/makes_go.h"
#include "targets/go/decorator/names_go.h"
#include "targets/rust/decorator/names_rust.h"

#include <string.h>

static bool decorate_rust(json_t *view, gen_Error *err)
{
	(void)err;
	names_add_prost(view); /* the crate refers to prost-build's types and bindgen's members */
	return true;
}

static bool decorate_go(json_t *view, gen_Error *err)
{
	/* protoc-gen-go's and cgo's names, then pg_query_go's Make* helpers, declared per message */
	return names_add_go(view, err) && makes_go_add(view, MAKES_GO_FILE, err);
}

const gen_TargetDesc gen_targets[] = {
	/* one folder of generated C per PostgreSQL major ({major}: the model's) */
	{"c", "targets/c/templates", "targets/c/generated/pg{major}", "tests/runtime/generated", GEN_COMMENT_BLOCK, NULL,
	 names_add_c},
	{"rust", "targets/rust/templates", "targets/rust/generated", "targets/rust/tests/generated", GEN_COMMENT_LINES,
	 NULL, decorate_rust},
	/* a Go package is one folder: the module's, beside its hand-written files (--check leaves
	 * those out); its test-only files are Go's own *_test.go there */
	{"go", "targets/go/templates", "targets/go", NULL, GEN_COMMENT_LINES_MARKED, MAKES_GO_FILE, decorate_go},
	/* not a binding: the generator's account of what it matched and left out, from the neutral
	 * view (no decorator) */
	{"report", "generator/report", "docs/generated", NULL, GEN_COMMENT_BLOCK, NULL, NULL},
};
const int gen_n_targets = (int)(sizeof gen_targets / sizeof *gen_targets);

const gen_TargetDesc *gen_target_by_name(const char *name)
{
	for (int i = 0; i < gen_n_targets; i++)
		if (strcmp(gen_targets[i].name, name) == 0)
			return &gen_targets[i];
	return NULL;
}
