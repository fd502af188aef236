package pg_query

// The API's contract (pg_query_go v4's names and signatures; v6's: v6_test.go), its errors on bad input and deep
// nesting (never a panic), and concurrent use (run under the race detector by make check).

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/pgbind/pgbind/targets/go/internal/ref"
	"github.com/pgbind/pgbind/targets/go/parser"
)

// pg_query_go v4's signatures: a program written against them builds against this package.
var (
	_ func(string) (*ParseResult, error)   = Parse
	_ func(string) (string, error)         = ParseToJSON
	_ func(string) ([]byte, error)         = ParseToProtobuf
	_ func(*ParseResult) (string, error)   = Deparse
	_ func(string) (string, error)         = Fingerprint
	_ func(string) (uint64, error)         = FingerprintToUInt64
	_ func(string) (string, error)         = Normalize
	_ func(string) (*ScanResult, error)    = Scan
	_ func(string, bool) ([]string, error) = SplitWithScanner
	_ func(string, bool) ([]string, error) = SplitWithParser
	_ error                                = &Error{}
)

func TestTour(t *testing.T) {
	tree, err := Parse("SELECT a FROM t WHERE b > 1")
	check(t, err == nil, "parse", func() string { return errString(err) })
	if err != nil {
		return
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	s.FromClause[0].GetRangeVar().Relname = "t_archive" // rewrite
	s.WhereClause = nil
	out, err := Deparse(tree)
	check(t, err == nil && out == "SELECT a FROM t_archive", "deparse of the rewritten tree", func() string { return out + errString(err) })
	fp, err := Fingerprint("SELECT 1")
	rfp, _ := parser.FingerprintToHexStr("SELECT 1")
	check(t, err == nil && fp == rfp && len(fp) == 16, "fingerprint is 16 hex digits", func() string { return fp })
	n, err := Normalize("SELECT * FROM t WHERE a = 1 AND b = 'x'")
	check(t, err == nil && n == "SELECT * FROM t WHERE a = $1 AND b = $2", "normalize", func() string { return n })
	sp, err := SplitWithScanner("select 1; select 2 ;", true)
	check(t, err == nil && len(sp) == 2 && sp[0] == "select 1" && sp[1] == "select 2", "split", func() string { return strings.Join(sp, "|") })
}

func TestErrors(t *testing.T) {
	_, err := Parse("SELECT FROM WHERE")
	var e *Error
	check(t, errors.As(err, &e) && e.Message == `syntax error at or near "WHERE"` && e.Cursorpos == 13 &&
		e.Filename != "" && e.Funcname != "" && e.Lineno > 0, "a syntax error is pg_query_go's Error, every field",
		func() string { return errString(err) })
	for name, f := range map[string]func(string) error{
		"Parse":       func(s string) error { _, err := Parse(s); return err },
		"ParseToJSON": func(s string) error { _, err := ParseToJSON(s); return err },
		"Fingerprint": func(s string) error { _, err := Fingerprint(s); return err },
		"Normalize":   func(s string) error { _, err := Normalize(s); return err },
		"Scan":        func(s string) error { _, err := Scan(s); return err },
		"Split":       func(s string) error { _, err := SplitWithParser(s, true); return err },
	} {
		// each expected error is the one said, never another (nor a panic: check would not be reached)
		err := f("SELECT 'unterminated")
		check(t, errors.As(err, &e) && strings.HasPrefix(e.Message, "unterminated quoted string"),
			name+": an unterminated quote is PostgreSQL's Error", func() string { return errString(err) })
	}
	_, err = Parse("SELECT '\xff'")
	check(t, err != nil && strings.Contains(err.Error(), "UTF-8"), "a string that is not UTF-8 is an error, as pg_query_go's proto.Unmarshal makes it", func() string { return errString(err) })

	// nesting past the C side's limit: an error in both directions, never a crash
	deep := "SELECT " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000)
	_, err = Parse(deep)
	check(t, errors.As(err, &e) && e.Message == `memory exhausted at or near "("`, "parse of 20,000 nested parentheses is PostgreSQL's error (its parser's stack is full)", func() string { return errString(err) })
	expr := &Node{Node: &Node_AConst{AConst: &A_Const{Val: &A_Const_Ival{Ival: &Integer{Ival: 1}}}}}
	for i := 0; i < 11000; i++ {
		expr = &Node{Node: &Node_BoolExpr{BoolExpr: &BoolExpr{Boolop: BoolExprType_NOT_EXPR, Args: []*Node{expr}}}}
	}
	tree := &ParseResult{Stmts: []*RawStmt{{Stmt: &Node{Node: &Node_SelectStmt{SelectStmt: &SelectStmt{
		TargetList: []*Node{{Node: &Node_ResTarget{ResTarget: &ResTarget{Val: expr}}}}}}}}}}
	_, err = Deparse(tree)
	check(t, errors.Is(err, ErrDepth), "deparse of a Go tree 11,000 levels deep is ErrDepth", func() string { return errString(err) })
	_, err = encode(tree)
	check(t, errors.Is(err, ErrDepth), "... and so is its encoding", func() string { return errString(err) })
	expr = tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
	for i := 0; i < 11000-1500; i++ {
		expr = expr.GetBoolExpr().Args[0]
	}
	tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val = expr
	_, err = Deparse(tree)
	check(t, err == nil, "deparse of 1,500 levels deparses (bounded by the thread's stack, not a fixed 1,000)", func() string { return errString(err) })

	// trees the protocol cannot express
	// an enum value the proto lacks is valid proto3 (an open enum): what pg_query_go's route does
	bad := &ParseResult{Stmts: []*RawStmt{{Stmt: &Node{Node: &Node_SelectStmt{SelectStmt: &SelectStmt{Op: SetOperation(99)}}}}}}
	d, err := Deparse(bad)
	b, _ := proto.Marshal(bad)
	rd, rerr := parser.DeparseFromProtobuf(b)
	// or the deparse contract refuses it: an enum value its enum does not declare, on every major
	// (18's deparser writes a bare SELECT for it; 17's crashed on such a DROP), or by a rule
	refused := err != nil && (strings.Contains(err.Error(), "SelectStmt.op holds 99, which enum SetOperation does not declare") ||
		strings.Contains(err.Error(), "deparse.txt:"))
	check(t, refused || (d == rd && (err == nil) == (rerr == nil)), "an unknown enum value deparses as pg_query_go's route does, or the contract refuses it", func() string { return d + " vs " + rd + ": " + errString(err) })
	bad = &ParseResult{Stmts: []*RawStmt{{Stmt: &Node{Node: &Node_String_{String_: &String{Sval: "a\x00b"}}}}}}
	_, err = Deparse(bad)
	check(t, err != nil && strings.Contains(err.Error(), "a string of the tree holds a NUL byte"), "a string with a NUL byte is an error", func() string { return errString(err) })
	bad = &ParseResult{Stmts: []*RawStmt{nil}}
	_, err = Deparse(bad)
	check(t, err != nil && strings.Contains(err.Error(), "holds a nil element"), "a nil element of a repeated message field is an error", func() string { return errString(err) })
	empty := &ParseResult{Stmts: []*RawStmt{{Stmt: &Node{Node: (*Node_SelectStmt)(nil)}}}}
	_, err = Deparse(empty)
	check(t, true, "a typed nil oneof wrapper does not panic", func() string { return errString(err) })
	_, err = Deparse(nil)
	check(t, true, "Deparse(nil) does not panic", func() string { return errString(err) })
}

// TestConcurrent runs every function from several goroutines at once over the statements of the
// files named (or a few of its own) and compares each result with the same call made alone.
func TestConcurrent(t *testing.T) {
	stmts := []string{"SELECT a, b FROM t WHERE c = 1", "INSERT INTO t VALUES (1, 'x')", "SELECT FROM WHERE",
		"CREATE TABLE t (a int PRIMARY KEY, b text DEFAULT '')", "WITH x AS (SELECT 1) SELECT * FROM x"}
	for _, f := range files {
		s, err := ref.Statements(f)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, s...)
	}
	type result struct {
		tree              *ParseResult
		json, dep, fp, nm string
		util              string
		hash              uint64
		scan              *ScanResult
		walked            int
		misread           bool // libpg_query's deparser wrote SQL of another tree (below)
	}
	run := func(sql string) (r result) {
		r.tree, _ = Parse(sql)
		r.json, _ = ParseToJSON(sql)
		// a tree that lost a "" (protobuf's NULL) may crash libpg_query's deparser, as it does
		// pg_query_go's: the C side's open exception (docs/go.md); those are not deparsed here
		if j, err := toJSON(r.tree); r.tree != nil && err == nil && j == r.json {
			r.dep, _ = Deparse(r.tree)
		}
		r.fp, _ = Fingerprint(sql)
		// SQL of another tree than the statement's (its fingerprint differs) is libpg_query's
		// deparser reading past a node of a parsed tree (XMLROOT(x, VERSION v) before 18, the
		// version read as an A_Const): what it writes there is what that memory held, which
		// differs between threads; such a deparse is not compared (the rest of the statement is)
		if r.dep != "" {
			fp, err := Fingerprint(r.dep)
			r.misread = err != nil || fp != r.fp
		}
		r.nm, _ = Normalize(sql)
		r.scan, _ = Scan(sql)
		u, err := IsUtilityStmt(sql)
		r.util = fmt.Sprint(u, err)
		r.hash = HashXXH3_64([]byte(sql), 7)
		if tr, err := ParseTree(sql); err == nil {
			tr.Walk(func(n NodeView) bool { r.walked++; return true })
			tr.Close()
		}
		return r
	}
	want := make([]result, len(stmts))
	for i, s := range stmts {
		want[i] = run(s)
	}
	const workers = 4
	var wg sync.WaitGroup
	bad := make([]int, workers)
	first := make([]string, workers) // each worker's first difference, for the report
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(stmts)+w; i++ {
				k := i % len(stmts)
				g := run(stmts[k])
				if !proto.Equal(g.tree, want[k].tree) || g.json != want[k].json || (g.dep != want[k].dep && !g.misread && !want[k].misread) ||
					g.fp != want[k].fp || g.nm != want[k].nm || !proto.Equal(g.scan, want[k].scan) || g.walked != want[k].walked ||
					g.util != want[k].util || g.hash != want[k].hash {
					if bad[w] == 0 {
						first[w] = fmt.Sprintf("%.80q: deparse %.80q (alone %.80q), fingerprint %s (%s), normalize %.60q (%.60q)",
							stmts[k], g.dep, want[k].dep, g.fp, want[k].fp, g.nm, want[k].nm)
					}
					bad[w]++
				}
			}
		}(w)
	}
	wg.Wait()
	for w := range bad {
		check(t, bad[w] == 0, "concurrent results equal the sequential ones", func() string {
			return fmt.Sprintf("%d differ, the first %s", bad[w], first[w])
		})
	}
}
