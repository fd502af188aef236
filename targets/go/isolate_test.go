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

func TestDeparseCheckedIsTheOnePlace(t *testing.T) {
	// one policy: Deparse returns libpg_query's SQL, right or wrong, whether a rule of the deparse
	// contract sends the tree to the server or not (15-4.0.0 writes this cast without its
	// parentheses: SQL that does not parse); DeparseChecked alone makes it an error
	if pgMajor() == 15 {
		sql := "CREATE TABLE circles (c1 circle, c2 text, EXCLUDE USING gist (c1 WITH &&, (c2::circle) WITH &&))"
		tree, err := Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Deparse(tree)
		check(t, err == nil && strings.Contains(plain, "(c1 WITH &&, c2::circle WITH &&)"),
			"Deparse of an exclusion constraint with a cast (a rule fires): 15's SQL as it writes it",
			func() string { return fmt.Sprintf("%q, %v", plain, err) })
		_, err = DeparseChecked(tree)
		check(t, errors.Is(err, ErrRoundTrip), "DeparseChecked of it: ErrRoundTrip",
			func() string { return fmt.Sprint(err) })
	}
	// where the deparser reads past a node (declared before 18: XMLROOT's version), SQL only where
	// it parses back, else ErrRoundTrip naming libpg_query's bug, from both
	tree, err := Parse("SELECT XMLROOT(x, VERSION a % 2 + -a * 3 / 4 ^ 2) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	plain, perr := Deparse(tree)
	checked, cerr := DeparseChecked(tree)
	if pgMajor() < 18 {
		check(t, errors.Is(perr, ErrRoundTrip) && strings.Contains(perr.Error(), "libpg_query's bug") &&
			errors.Is(cerr, ErrRoundTrip), "XMLROOT with an expression for its version: ErrRoundTrip naming the bug",
			func() string { return fmt.Sprintf("Deparse %q, %v; DeparseChecked %q, %v", plain, perr, checked, cerr) })
	} else {
		check(t, perr == nil && cerr == nil && plain == checked && strings.Contains(plain, "version a % 2"),
			"XMLROOT with an expression for its version: 18 writes it",
			func() string { return fmt.Sprintf("Deparse %q, %v; DeparseChecked %q, %v", plain, perr, checked, cerr) })
	}
}
