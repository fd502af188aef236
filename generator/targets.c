/*
 * targets.c -- the table of targets (targets.h).
 */
#include "targets.h"

#include "names.h"
#include "names_c.h"

#include <string.h>

static bool decorate_rust(json_t *view, gen_Error *err)
{
	(void)err;
	names_add_prost(view); /* the crate refers to prost-build's types and bindgen's members */
	return true;
}

const gen_TargetDesc gen_targets[] = {
	{"c", "templates/c", "generated/c", GEN_COMMENT_BLOCK, names_add_c},
	{"rust", "templates/rust", "generated/rust", GEN_COMMENT_LINES, decorate_rust},
};
const int gen_n_targets = (int)(sizeof gen_targets / sizeof *gen_targets);

const gen_TargetDesc *gen_target_by_name(const char *name)
{
	for (int i = 0; i < gen_n_targets; i++)
		if (strcmp(gen_targets[i].name, name) == 0)
			return &gen_targets[i];
	return NULL;
}
