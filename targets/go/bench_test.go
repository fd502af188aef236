package pg_query

// The benchmark (make bench): a plain harness in one process, paths alternated in rounds, best
// round kept, ratios side by side, per statement of the SQL scripts named (the Debian corpus)
// and of -short-sql (tools/bench/short.sql). Go allocations per statement from runtime.MemStats
// (C's malloc calls are not counted). Not part of make check: go test -run '^TestBench$' ...
//
// Rows:
//   route          pg_query_go's Parse: cgo pg_query_parse_protobuf + C.GoBytes + proto.Unmarshal
//   Parse          pgbind_parse + the generated converters (own_gen.go)
//   views          ParseTree (pgbind_parse, nothing built in Go), and with a Walk of every node
//   deparse route  pg_query_go's Deparse: proto.Marshal + cgo pg_query_deparse_protobuf
//   Deparse        the generated converters (make_gen.go) into a C arena + pgbind_deparse
// Growth: wide and deep statements of 250 to 8,000 items, time per doubling.

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/pgbind/pgbind/targets/go/internal/ref"
	"github.com/pgbind/pgbind/targets/go/parser"
)

var (
	benchShort  = flag.String("short-sql", "", "benchmark: the short statements' SQL script")
	benchRounds = flag.Int("bench-rounds", 5, "benchmark: rounds (the short statements get four times as many)")
)

type benchStmt struct {
	sql  string
	tree *ParseResult
}

type benchPath struct {
	name string
	base int // the row its ratio is against
	f    func(s *benchStmt)
}

var sink interface{}

// routeParse is pg_query_go's Parse; its proto.Unmarshal stops at protobuf-go's default of 10,000
// nested messages (some 5,000 levels of SQL: a Node and its message are two), so the growth rows
// lift the limit (deep) to time the route at all.
func routeParse(sql string, deep bool) *ParseResult {
	b, err := parser.ParseToProtobuf(sql)
	if err != nil {
		panic(err)
	}
	t := &ParseResult{}
	opts := proto.UnmarshalOptions{}
	if deep {
		opts.RecursionLimit = 1 << 30
	}
	if err := opts.Unmarshal(b, t); err != nil {
		panic(err)
	}
	return t
}

func routeDeparse(t *ParseResult) (string, error) {
	b, err := proto.Marshal(t)
	if err != nil {
		return "", err
	}
	return parser.DeparseFromProtobuf(b)
}

var benchPaths = []benchPath{
	{"route: pg_query_parse_protobuf + proto.Unmarshal (pg_query_go's Parse)", 0, func(s *benchStmt) { sink = routeParse(s.sql, false) }},
	{"Parse (pgbind_parse + generated converters)", 0, func(s *benchStmt) { sink, _ = Parse(s.sql) }},
	{"views: ParseTree + Close (the tree stays in C, read in place)", 0, func(s *benchStmt) {
		t, _ := ParseTree(s.sql)
		t.Close()
	}},
	{"views: ParseTree + Walk every node + Close", 0, func(s *benchStmt) {
		t, _ := ParseTree(s.sql)
		n := 0
		t.Walk(func(NodeView) bool { n++; return true })
		sink = n
		t.Close()
	}},
	{"deparse route: proto.Marshal + pg_query_deparse_protobuf (pg_query_go's)", 4, func(s *benchStmt) { sink, _ = routeDeparse(s.tree) }},
	{"Deparse (generated converters into a C arena + pgbind_deparse)", 4, func(s *benchStmt) { sink, _ = Deparse(s.tree) }},
}

// pass times one pass of f over stmts: seconds and Go allocations per statement.
func pass(stmts []*benchStmt, f func(*benchStmt)) (float64, float64) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	for _, s := range stmts {
		f(s)
	}
	secs := time.Since(t0).Seconds()
	runtime.ReadMemStats(&m1)
	n := float64(len(stmts))
	return secs / n, float64(m1.Mallocs-m0.Mallocs) / n
}

func benchRun(title string, stmts []*benchStmt, rounds int) {
	best := make([][2]float64, len(benchPaths))
	for i := range best {
		best[i][0] = 1e9
	}
	for r := 0; r < rounds; r++ {
		for i, p := range benchPaths {
			runtime.GC()
			t, a := pass(stmts, p.f)
			if t < best[i][0] {
				best[i] = [2]float64{t, a}
			}
		}
	}
	fmt.Printf("\n%s (%d statements, best of %d rounds)\n", title, len(stmts), rounds)
	fmt.Printf("%-76s %10s %9s %12s\n", "path", "stmts/s", "ratio", "Go allocs/stmt")
	for i, p := range benchPaths {
		fmt.Printf("%-76s %10.0f %8.2fx %12.1f\n", p.name, 1/best[i][0], best[p.base][0]/best[i][0], best[i][1])
	}
}

func benchCorpus(sqls []string) []*benchStmt {
	var out []*benchStmt
	for _, sql := range sqls {
		t, err := Parse(sql)
		if err != nil {
			continue
		}
		if _, err := parser.ParseToProtobuf(sql); err != nil {
			continue
		}
		// a tree that lost a "" may crash libpg_query's deparser (docs/go.md): not timed
		if j, err := toJSON(t); err != nil || func() bool { r, _ := ParseToJSON(sql); return r != j }() {
			continue
		}
		out = append(out, &benchStmt{sql: sql, tree: t})
	}
	return out
}

func benchGrowth() {
	fmt.Printf("\ngrowth: time per doubling from 250 to 8,000 items (1.8-2.3 is linear)\n")
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"wide (SELECT a0, ..., an)", func(n int) string {
			cols := make([]string, n)
			for i := range cols {
				cols[i] = fmt.Sprintf("a%d", i)
			}
			return "SELECT " + strings.Join(cols, ", ")
		}},
		{"deep (SELECT 1+1+...+1)", func(n int) string { return "SELECT " + strings.Repeat("1+", n) + "1" }},
	}
	for _, sh := range shapes {
		line := fmt.Sprintf("%-28s", sh.name)
		for _, p := range []struct {
			label string
			f     func(sql string, t *ParseResult)
		}{
			{"route", func(sql string, _ *ParseResult) { sink = routeParse(sql, true) }},
			{"Parse", func(sql string, _ *ParseResult) { sink, _ = Parse(sql) }},
			{"Deparse", func(_ string, t *ParseResult) { sink, _ = Deparse(t) }},
		} {
			// sizes alternated within each round, the best round of each size kept; the same
			// work at every size (fewer repetitions of larger statements)
			const sizes, rounds = 6, 9
			sqls := make([]string, sizes)
			trees := make([]*ParseResult, sizes)
			times := make([]float64, sizes)
			for k := range sqls {
				sqls[k] = sh.make(250 << k)
				t, err := Parse(sqls[k])
				if err != nil {
					panic(err)
				}
				trees[k], times[k] = t, 1e9
			}
			// libpg_query 18's upb writer refuses trees past its own nesting limit ("nested too
			// deeply to serialize to protobuf"): the route's row stops at the first size it
			// refuses, and says so
			n, note := sizes, ""
			for k := 0; p.label == "route" && k < sizes; k++ {
				if _, err := parser.ParseToProtobuf(sqls[k]); err != nil {
					n, note = k, fmt.Sprintf(" (libpg_query refuses %d items: %v)", 250<<k, err)
					break
				}
			}
			for r := 0; r < rounds; r++ {
				for k := 0; k < n; k++ {
					reps := 256 >> k
					runtime.GC()
					t0 := time.Now()
					for i := 0; i < reps; i++ {
						p.f(sqls[k], trees[k])
					}
					if s := time.Since(t0).Seconds() / float64(reps); s < times[k] {
						times[k] = s
					}
				}
			}
			line += "  " + p.label
			for i := 1; i < n; i++ {
				line += fmt.Sprintf(" %.2f", times[i]/times[i-1])
			}
			line += note
		}
		fmt.Println(line)
	}
}

func TestBench(t *testing.T) {
	if len(files) == 0 && *benchShort == "" {
		t.Skip("no SQL files named")
	}
	var debian []string
	for _, f := range files {
		s, err := ref.Statements(f)
		if err != nil {
			t.Fatal(err)
		}
		debian = append(debian, s...)
	}
	if len(debian) > 0 {
		benchRun(fmt.Sprintf("Debian corpus (%d files)", len(files)), benchCorpus(debian), *benchRounds)
	}
	if *benchShort != "" {
		s, err := ref.Statements(*benchShort)
		if err != nil {
			t.Fatal(err)
		}
		benchRun("short statements ("+*benchShort+")", benchCorpus(s), *benchRounds*4)
	}
	benchGrowth()
}
