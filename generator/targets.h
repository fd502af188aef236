/*
 * targets.h -- the targets pgbind-gen renders, each one declared unit: its name, where its
 * templates and its output go by default, the comment syntax of its files' do-not-edit banner,
 * the file its decorator reads, and its decorator, which adds the target's own spellings to a copy
 * of the shared view model. A new target is one row of gen_targets (targets.c, the one file of
 * generator/ that names targets) and one folder, targets/NAME/, holding its templates, its
 * decorator (decorator/, compiled into pgbind-gen), its generated files and its hand-written
 * runtime, crate or module (docs/architecture.md, "A new target").
 */
#ifndef PGBIND_GENERATOR_TARGETS_H
#define PGBIND_GENERATOR_TARGETS_H

#include "common.h"

#include <jansson.h>
#include <stdbool.h>

typedef enum {
	GEN_COMMENT_BLOCK, /* C: a block comment */
	GEN_COMMENT_LINES, /* Rust: line comments (a block comment would be an inner doc for nothing) */
	GEN_COMMENT_GO     /* Go: line comments, the first one Go's `// Code generated ... DO NOT EDIT.` */
} gen_CommentStyle;

typedef struct {
	const char *name;          /* --target NAME */
	const char *templates_dir; /* its templates, by default */
	const char *out_dir;       /* where they render, by default */
	/* where the test-only templates (templates_dir/tests/) render, by default: out of the folder
	 * users vendor. NULL: the target has none, and such a folder is an error. */
	const char *tests_out_dir;
	gen_CommentStyle comment; /* the banner of its source files (a .md file gets an HTML comment) */
	/* a declared file its decorator reads (relative to the checkout), hashed into every generated
	 * file's banner as the other inputs are; NULL: none */
	const char *declared;
	/* Adds the target's spellings to view (its own copy); false with err. NULL: none. */
	bool (*decorate)(json_t *view, gen_Error *err);
} gen_TargetDesc;

extern const gen_TargetDesc gen_targets[];
extern const int gen_n_targets;

/* The target named name, or NULL. */
const gen_TargetDesc *gen_target_by_name(const char *name);

#endif
