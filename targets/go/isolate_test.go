package pg_query

// DeparseIsolated: the plain Deparse's SQL and refusals, with the deparser in a child process;
// and deep trees from the parser (a 2,000-way UNION ALL, a 1,500-term || chain) deparse.

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestDeparseIsolatedIsDeparse(t *testing.T) {
	for _, sql := range []string{
		"SELECT a, b FROM t WHERE id = ANY($1::int[]) ORDER BY 1",
		"INSERT INTO t VALUES (1, 'x'); UPDATE t SET a = 2; DELETE FROM t",
		"COMMENT ON TABLE t IS ''",
		strings.Repeat("SELECT 1 UNION ALL ", 1999) + "SELECT 1",
		"SELECT " + strings.Repeat("'a' || ", 1499) + "'a'",
	} {
		tree, err := Parse(sql)
		if err != nil {
			t.Fatalf("%.40s: %v", sql, err)
		}
		plain, err := Deparse(tree)
		if err != nil {
			t.Fatalf("%.40s: Deparse: %v", sql, err)
		}
		isolated, err := DeparseIsolated(tree)
		check(t, err == nil && isolated == plain, fmt.Sprintf("DeparseIsolated gives Deparse's SQL: %.40s", sql),
			func() string { return fmt.Sprintf("%.60q, %v; Deparse %.60q", isolated, err, plain) })
	}
}

func TestDeparseIsolatedFailsAsDeparse(t *testing.T) {
	// a RangeVar without its name: outside the deparse contract, so Deparse too runs the deparser
	// in a child, where it dies on it: the same error from both, wrapping ErrDeparserCrashed
	tree, err := Parse("SELECT a FROM t")
	if err != nil {
		t.Fatal(err)
	}
	tree.Stmts[0].Stmt.GetSelectStmt().FromClause[0].GetRangeVar().Relname = ""
	_, plain := Deparse(tree)
	_, isolated := DeparseIsolated(tree)
	check(t, plain != nil && isolated != nil && plain.Error() == isolated.Error() &&
		errors.Is(plain, ErrDeparserCrashed) && strings.Contains(plain.Error(), "RangeVar.relname is NULL"),
		"a RangeVar without relname: Deparse and DeparseIsolated both report the crash in the child, naming the rule",
		func() string { return fmt.Sprintf("Deparse says %v, DeparseIsolated %v", plain, isolated) })
}
