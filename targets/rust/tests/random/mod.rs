//! tests/random/mod.rs -- random trees of every message for the property test (tests/property.rs): the
//! generated builders (targets/rust/tests/generated/random.rs) call `rand!` once a field; what each wire kind's
//! random value is, is said here once. Every field is set to a value other than its default
//! (below the depth limit, where node and message fields stay unset), and `Gen` records what was
//! set, by name, so the test can report its coverage.
#![allow(non_snake_case, non_upper_case_globals, clippy::all, dead_code)]

use std::collections::HashSet;

use pgbind::protobuf as pb;

/// How deep node and message fields are filled.
pub const MAX_DEPTH: u32 = 5;

/// A deterministic generator (xorshift64*) and the coverage record.
pub struct Gen {
    state: u64,
    pub messages: HashSet<&'static str>,
    pub fields: HashSet<(&'static str, &'static str)>,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen { state: seed.max(1), messages: HashSet::new(), fields: HashSet::new() }
    }
    pub fn next(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545F4914F6CDD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn message(&mut self, name: &'static str) {
        self.messages.insert(name);
    }
    fn field(&mut self, message: &'static str, name: &'static str) {
        self.fields.insert((message, name));
    }
    fn nonzero(&mut self) -> u64 {
        self.next() | 1
    }
    fn string(&mut self) -> String {
        let n = 1 + self.below(8);
        (0..n).map(|_| (b'a' + self.below(26) as u8) as char).collect()
    }
    fn node(&mut self, depth: u32) -> Option<pb::Node> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let k = self.below(NODE_KINDS.len());
        Some(rand_node_kind(self, k, depth))
    }
}

/// Sets one field; true when it set something: `rand!(WIRE, field, gen, depth, rand_<Type>, VALUES_<Enum>)`.
macro_rules! rand {
    (INT32, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.nonzero() as i32; true }};
    (UINT32, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.nonzero() as u32; true }};
    (INT64, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.nonzero() as i64; true }};
    (UINT64, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.nonzero(); true }};
    (BOOL, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = true; true }};
    (DOUBLE, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = ($r.below(1 << 20) as f64 + 1.0) / 8.0; true }};
    (ENUM, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        let set: Vec<i32> = $v.iter().copied().filter(|&x| x != 0).collect();
        if set.is_empty() { false } else { $m = set[$r.below(set.len())]; true }
    }};
    (STRING, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.string(); true }};
    (NODE, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{ $m = $r.node($d).map(Into::into); $m.is_some() }};
    (MESSAGE, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        if $d < MAX_DEPTH { $m = Some($f($r, $d + 1).into()); true } else { false }
    }};
    (REPEATED_NODE, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        if $d < MAX_DEPTH {
            for _ in 0..1 + $r.below(3) {
                // now and then a NULL cell, as SELECT DISTINCT has
                let cell = if $r.below(4) == 0 { pb::Node::default() } else { $r.node($d).unwrap_or_default() };
                $m.push(cell);
            }
        }
        $m.iter().any(|n| n.node.is_some())
    }};
    (REPEATED_MESSAGE, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        if $d < MAX_DEPTH {
            for _ in 0..1 + $r.below(2) {
                $m.push($f($r, $d + 1));
            }
        }
        !$m.is_empty()
    }};
    (PACKED_UINT64, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        for _ in 0..1 + $r.below(3) {
            $m.push($r.next());
        }
        true
    }};
    (ONEOF, $m:expr, $r:expr, $d:expr, $f:ident, $v:ident) => {{
        if $d < MAX_DEPTH { $m = $f($r, $d); $m.is_some() } else { false }
    }};
}

include!("../generated/random.rs");
