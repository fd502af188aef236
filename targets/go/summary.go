package pg_query

// #include "pgbind_go.h"
import "C"

import (
	"unsafe"

	"google.golang.org/protobuf/proto"
)

// Summary returns what input touches, pg_query_go v6's Summary: its tables with the context each
// is met in, the aliases, the CTE names, its functions, the columns its SELECTs' WHERE clauses
// read, the kinds of its statements, and for a truncateLimit of 0 or more the query deparsed and
// shortened to that many bytes (-1: none). libpg_query 18's pg_query_summary computes it; pgbind
// computes the same on every major by the same route, from PostgreSQL's raw parse tree without
// building pgbind's (pgbind_summary_sql, docs/summary.md), and writes the same protobuf bytes (pgbind_summary_encode), read here into SummaryResult as pg_query_go
// reads pg_query_summary's. A truncateLimit below -1 is an error.
func Summary(input string, truncateLimit int) (out *SummaryResult, err error) {
	var data []byte
	err = callC(input, false, func(sql *C.char, call *C.go_Call) error {
		if C.go_arena(call) == nil {
			return errFailed
		}
		s := C.pgbind_summary_sql(sql, C.int(truncateLimit), nil, call.arena, &call.status)
		var p *C.uint8_t
		var n C.size_t
		if s == nil || !C.pgbind_summary_encode(s, call.arena, &p, &n, &call.status) {
			return errFailed
		}
		data = C.GoBytes(unsafe.Pointer(p), C.int(n))
		return nil
	})
	if err != nil {
		return nil, err
	}
	out = &SummaryResult{}
	if err = proto.Unmarshal(data, out); err != nil {
		return nil, err
	}
	return out, nil
}
