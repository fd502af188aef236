// isolate.go -- Deparse's variants: DeparseIsolated, Deparse with libpg_query's deparser in the
// deparse server, a child process kept for the whole process (pgbind_Options.isolate_deparse),
// for trees from outside, which the deparse contract does not always keep from crashing the
// deparser; and DeparseChecked, the one that parses the SQL back (pgbind_Options.check_deparse).

package pg_query

/*
#include "pgbind_go.h"
#include "pgbind.h"
*/
import "C"

import "errors"

// ErrDeparserCrashed: libpg_query's deparser died on the tree (or did not answer in time) in
// its process, the deparse server (DeparseIsolated's, or Deparse's for a tree that breaks the
// deparse contract); the error wrapping it names the signal, the statement and the rule.
var ErrDeparserCrashed = errors.New("pg_query: libpg_query's deparser crashed in its process")

// ErrRoundTrip: the SQL libpg_query's deparser wrote for the tree does not parse back to it
// (DeparseChecked's error; Deparse's too, for a tree the deparser reads past a node in, as
// XMLROOT's version before 18, whose SQL it returns only where it parses back). The error
// wrapping it names the first differing field or quotes the SQL that does not parse.
var ErrRoundTrip = errors.New("pg_query: the deparsed SQL does not parse back to the tree")

// DeparseChecked returns SQL for tree as Deparse does, only where it parses back to the same
// tree by PostgreSQL's equal() (pgbind_Options.check_deparse, as `pgbind deparse --check`): else
// an error wrapping ErrRoundTrip. The one place where wrong SQL becomes an error: Deparse returns
// what libpg_query's deparser writes, right or wrong, as pg_query_go does.
func DeparseChecked(tree *ParseResult) (string, error) {
	var options C.pgbind_Options
	options.check_deparse = true
	return deparseWith(tree, &options)
}

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

// pgMajor is the PostgreSQL major of the linked libpg_query (for the tests of what differs by
// major).
func pgMajor() int { return int(C.PG_VERSION_NUM) / 10000 }
