module github.com/pgbind/pgbind/targets/go

go 1.19

require google.golang.org/protobuf v1.28.1

// Offline, from Debian 12's golang-google-protobuf-dev (1.28.1): no module proxy is needed.
replace google.golang.org/protobuf => /usr/share/gocode/src/google.golang.org/protobuf
