// isolate.go -- DeparseIsolated: Deparse with libpg_query's deparser in the deparse server, a
// child process kept for the whole process (pgbind_Options.isolate_deparse), for trees from
// outside, which the deparse contract does not always keep from crashing the deparser.

package pg_query

/*
#include "pgbind.h"
*/
import "C"

import "errors"

// ErrDeparserCrashed: libpg_query's deparser died on the tree (or did not answer in time) in
// its process, the deparse server (DeparseIsolated's, or Deparse's for a tree that breaks the
// deparse contract); the error wrapping it names the signal, the statement and the rule.
var ErrDeparserCrashed = errors.New("pg_query: libpg_query's deparser crashed in its process")

// DeparseIsolated returns SQL for tree as Deparse does (the same refusals before the deparser,
// the same SQL), with libpg_query's deparser run in the deparse server whatever the tree: where it
// crashes on the tree, the error wraps ErrDeparserCrashed and this process goes on. Use it for
// trees that did not come from Parse (decoded protobuf, JSON, built or edited by hand): Deparse
// isolates only those that break the deparse contract, which knows only the shapes that crashed
// the deparser in its probe.
//
// No fork per call: the tree goes to the server through a socket and the SQL comes back (the
// first call forks the server; a crash or timeout ends it and the next call starts another; see
// pgbind_Options.isolate_deparse in pgbind.h for the cost, threads and fork). The server runs
// only the C deparser, no Go code. Safe for concurrent use: calls take turns at the one server.
func DeparseIsolated(tree *ParseResult) (string, error) {
	var options C.pgbind_Options
	options.isolate_deparse = true
	return deparseWith(tree, &options)
}
