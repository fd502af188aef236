package pg_query

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
)

// The suite's counts: every comparison of every test adds one, and TestMain prints them as the
// "N passed, M failed" line make check's tests/run.sh reads.
var counts struct {
	sync.Mutex
	passed, failed int
}

// check counts one comparison; a failure is reported (the first 30 of them in full).
func check(t *testing.T, ok bool, what string, detail func() string) {
	counts.Lock()
	defer counts.Unlock()
	if ok {
		counts.passed++
		return
	}
	counts.failed++
	if counts.failed <= 30 {
		t.Errorf("MISMATCH %s: %s", what, detail())
	} else {
		t.Fail()
	}
}

// The SQL scripts named after the flags (tests/sql, the Debian corpus).
var files []string

func TestMain(m *testing.M) {
	flag.Parse()
	files = flag.Args()
	rc := m.Run()
	fmt.Printf("%d passed, %d failed\n", counts.passed, counts.failed)
	if counts.failed > 0 && rc == 0 {
		rc = 1
	}
	os.Exit(rc)
}
