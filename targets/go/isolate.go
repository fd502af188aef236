// isolate.go -- DeparseIsolated: Deparse with libpg_query's deparser in a child process
// (pgbind_Options.isolate_deparse), for trees from outside, which the deparse contract does not
// always keep from crashing the deparser.

package pg_query

/*
#include "pgbind.h"
*/
import "C"

import (
	"errors"
	"fmt"
)

// ErrDeparserCrashed: libpg_query's deparser died on the tree (or did not answer in time) in
// DeparseIsolated's child process; the error wrapping it names the signal and the statement.
var ErrDeparserCrashed = errors.New("pg_query: libpg_query's deparser crashed in its child process")

// DeparseIsolated returns SQL for tree as Deparse does (the same refusals before the deparser,
// the same SQL), with libpg_query's deparser run in a child process: where it crashes on the
// tree, the error wraps ErrDeparserCrashed and this process goes on. Use it for trees that did
// not come from Parse (decoded protobuf, JSON, built or edited by hand).
//
// Each call forks the calling thread (see pgbind_Options.isolate_deparse in pgbind.h for the
// cost): the child runs only the C deparser, no Go code, and leaves with _exit. Safe for
// concurrent use, as Deparse.
func DeparseIsolated(tree *ParseResult) (out string, err error) {
	err = withCTree(tree, func(a *arena, c *C.pgbind_ParseResult) error {
		var st C.pgbind_Status
		var options C.pgbind_Options
		options.isolate_deparse = true
		s := C.pgbind_deparse(c, &options, a.p, &st)
		if s == nil {
			if st.code == C.PGBIND_ERROR_DEPARSER_CRASHED {
				return fmt.Errorf("%w: %s", ErrDeparserCrashed, C.GoString(&st.message[0]))
			}
			return statusError(&st)
		}
		out = C.GoString(s)
		return nil
	})
	return out, err
}
