// Package ref holds what the verification suite and the benchmark read: the SQL scripts, read
// into statements as `pgbind verify` reads them (reader/reader.c). libpg_query's own routes, which
// they compare with, are the parser package's.
package ref

import (
	"bytes"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/pgbind/pgbind/targets/go/parser"
)

// Statements reads a SQL script as `pgbind verify` does: psql's backslash lines blanked,
// extension scripts' placeholders replaced, split with libpg_query's parser (its scanner where
// the parser fails); statements that are not UTF-8 are left out (Go's protobuf strings must be).
func Statements(path string) ([]string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(text, []byte("\n"))
	for _, l := range lines {
		t := bytes.TrimLeft(l, " \t")
		if len(t) > 0 && t[0] == '\\' {
			for i := range l {
				l[i] = ' '
			}
		}
	}
	text = bytes.Join(lines, []byte("\n"))
	text = bytes.ReplaceAll(text, []byte("@extschema@"), []byte("extschema__"))
	text = bytes.ReplaceAll(text, []byte("@extowner@"), []byte("extowner__"))
	if bytes.IndexByte(text, 0) >= 0 {
		return nil, fmt.Errorf("%s: a SQL script with a NUL byte", path)
	}
	s := string(text)
	stmts, err := parser.SplitWithParser(s, false)
	if err != nil {
		if stmts, err = parser.SplitWithScanner(s, false); err != nil {
			return nil, nil
		}
	}
	var out []string
	for _, stmt := range stmts {
		if utf8.ValidString(stmt) {
			out = append(out, stmt)
		}
	}
	return out, nil
}
