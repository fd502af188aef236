// isolate.go -- DeparseIsolated: Deparse with libpg_query's deparser in a child process
// (pgbind_Options.isolate_deparse), for trees from outside, which the deparse contract does not
// always keep from crashing the deparser.

package pg_query

/*
#include "pgbind.h"
*/
import "C"

import "errors"

// ErrDeparserCrashed: libpg_query's deparser died on the tree (or did not answer in time) in
// a child process (DeparseIsolated's, or Deparse's for a tree that breaks the deparse contract);
// the error wrapping it names the signal, the statement and the rule.
var ErrDeparserCrashed = errors.New("pg_query: libpg_query's deparser crashed in its child process")

// DeparseIsolated returns SQL for tree as Deparse does (the same refusals before the deparser,
// the same SQL), with libpg_query's deparser run in a child process whatever the tree: where it
// crashes on the tree, the error wraps ErrDeparserCrashed and this process goes on. Use it for
// trees that did not come from Parse (decoded protobuf, JSON, built or edited by hand): Deparse
// isolates only those that break the deparse contract, which knows only the shapes that crashed
// the deparser in its probe.
//
// Each call forks the calling thread (see pgbind_Options.isolate_deparse in pgbind.h for the
// cost): the child runs only the C deparser, no Go code, and leaves with _exit. Safe for
// concurrent use, as Deparse.
func DeparseIsolated(tree *ParseResult) (string, error) {
	var options C.pgbind_Options
	options.isolate_deparse = true
	return deparseWith(tree, &options)
}
