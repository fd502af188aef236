// A program written against pg_query_go v4's API, built against pgbind's Go module: its import
// line is the whole port (make check builds and runs it).
module example.com/pgbind-port

go 1.19

require github.com/pgbind/pgbind/targets/go v0.0.0

require google.golang.org/protobuf v1.28.1 // indirect

replace (
	github.com/pgbind/pgbind/targets/go => ../../targets/go
	google.golang.org/protobuf => /usr/share/gocode/src/google.golang.org/protobuf
)
