package pg_query

// Summary against libpg_query 18's pg_query_summary: every line of
// tests/runtime/summary_cases.txt holds a limit, a statement and the protobuf bytes libpg_query
// 18 returned for it (tests/runtime/summary_oracle.c, the oracle; "ERROR" when it failed).

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
)

// SummaryResult's fields and types, by name (pg_query_go v6's, protoc-gen-go's for
// pg_query.SummaryResult).
var (
	_ []*SummaryResult_Table        = (&SummaryResult{}).Tables
	_ map[string]string             = (&SummaryResult{}).Aliases
	_ []string                      = (&SummaryResult{}).CteNames
	_ []*SummaryResult_Function     = (&SummaryResult{}).Functions
	_ []*SummaryResult_FilterColumn = (&SummaryResult{}).FilterColumns
	_ []string                      = (&SummaryResult{}).StatementTypes
	_ string                        = (&SummaryResult{}).TruncatedQuery
	_ [4]string                     = [4]string{(&SummaryResult_Table{}).Name, (&SummaryResult_Table{}).SchemaName, (&SummaryResult_Table{}).TableName, (&SummaryResult_FilterColumn{}).Column}
	_ [3]string                     = [3]string{(&SummaryResult_Function{}).Name, (&SummaryResult_Function{}).FunctionName, (&SummaryResult_Function{}).SchemaName}
	_ [2]SummaryResult_Context      = [2]SummaryResult_Context{(&SummaryResult_Table{}).Context, (&SummaryResult_Function{}).Context}
	_ [5]SummaryResult_Context      = [5]SummaryResult_Context{SummaryResult_None, SummaryResult_Select, SummaryResult_DML, SummaryResult_DDL, SummaryResult_Call}
)

func TestV6SummaryEqualsPgQuerySummary(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(self), "..", "..", "tests", "runtime", "summary_cases.txt")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, line := range strings.Split(string(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("%s: not LIMIT<TAB>SQL<TAB>HEX: %q", path, line)
		}
		limit, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		sql := f[1]
		got, err := Summary(sql, limit)
		compared++
		if f[2] == "ERROR" {
			if err == nil {
				t.Errorf("%s (limit %d): libpg_query 18 fails, Summary gives %v", sql, limit, got)
			}
			continue
		}
		bytes, err2 := hex.DecodeString(f[2])
		want := &SummaryResult{}
		if err2 == nil {
			err2 = proto.Unmarshal(bytes, want)
		}
		if err2 != nil {
			t.Fatalf("%s: the oracle's bytes for %q: %v", path, sql, err2)
		}
		if err != nil {
			t.Errorf("%s (limit %d): %v", sql, limit, err)
		} else if !proto.Equal(got, want) {
			t.Errorf("%s (limit %d):\n got %v\nwant %v", sql, limit, got, want)
		}
	}
	if compared < 80 {
		t.Fatalf("%s: only %d cases", path, compared)
	}
	t.Logf("%d statements equal to libpg_query 18's pg_query_summary", compared)
}

// Values from the oracle's bytes (tests/runtime/summary_cases.txt) and from pg_query_go's
// summary tests.
func TestV6Summary(t *testing.T) {
	s, err := Summary(`SELECT * FROM "Foo"."Bar" b, "select" s, u AS a, t AS a`, -1)
	if err != nil {
		t.Fatal(err)
	}
	if tb := s.Tables[0]; tb.Name != `"Foo"."Bar"` || tb.SchemaName != "Foo" || tb.TableName != "Bar" || tb.Context != SummaryResult_Select {
		t.Errorf("tables[0] = %v", tb)
	}
	if s.Aliases["a"] != "t" || s.Aliases["b"] != `"Foo"."Bar"` || len(s.Aliases) != 3 {
		t.Errorf("aliases = %v", s.Aliases)
	}
	s, err = Summary("SELECT a, b, c, d, e, f FROM xyz WHERE a = b", 40)
	if err != nil || s.TruncatedQuery != "SELECT ... FROM xyz WHERE a = b" {
		t.Errorf("truncated: %v, %v", s, err)
	}
	// a syntax error is libpg_query's *Error, as Parse's
	_, err = Summary("CREATE RANDOM ix_test ON contacts.person;", -1)
	if e, ok := err.(*Error); !ok || e.Message != `syntax error at or near "RANDOM"` {
		t.Errorf("syntax error: %#v", err)
	}
	// pgbind's refusals: a limit below -1; DROP TABLE of 4 parts (PostgreSQL's "improper
	// relation name", as pg_query_summary)
	if _, err = Summary("SELECT 1", -2); err == nil {
		t.Errorf("limit -2: no error")
	}
	if _, err = Summary("DROP TABLE a.b.c.d", -1); err == nil || !strings.Contains(err.Error(), "improper relation name") {
		t.Errorf("DROP TABLE a.b.c.d: %v", err)
	}
}
