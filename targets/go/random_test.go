package pg_query

// random_test.go -- what each kind of field's random value is, said once, for the generated
// builders (random_gen_test.go): every field gets a value other than its default (below the
// depth limit, where node and message fields stay unset), and gen records what was set.

// How deep node and message fields are filled.
const randMaxDepth = 5

// gen is a deterministic generator (xorshift64*) and the coverage record.
type gen struct {
	state    uint64
	messages map[string]bool
	fields   map[[2]string]bool
}

func newGen(seed uint64) *gen {
	return &gen{state: seed | 1, messages: map[string]bool{}, fields: map[[2]string]bool{}}
}

func (r *gen) next() uint64 {
	r.state ^= r.state >> 12
	r.state ^= r.state << 25
	r.state ^= r.state >> 27
	return r.state * 0x2545F4914F6CDD1D
}

func (r *gen) below(n int) int             { return int(r.next() % uint64(n)) }
func (r *gen) nonzero() uint64             { return r.next() | 1 }
func (r *gen) message(name string)         { r.messages[name] = true }
func (r *gen) field(message, field string) { r.fields[[2]string{message, field}] = true }

func (r *gen) str() string {
	b := make([]byte, 1+r.below(8))
	for i := range b {
		b[i] = byte('a' + r.below(26))
	}
	return string(b)
}

func (r *gen) node(depth int) *Node {
	if depth >= randMaxDepth {
		return nil
	}
	return randNodeKind(r, r.below(len(randNodeKinds)), depth)
}

// nodes is a repeated node field: now and then a NULL cell, as SELECT DISTINCT has.
func (r *gen) nodes(depth int) ([]*Node, bool) {
	if depth >= randMaxDepth {
		return nil, false
	}
	var s []*Node
	set := false
	for i := 0; i < 1+r.below(3); i++ {
		n := &Node{}
		if r.below(4) != 0 {
			if x := r.node(depth); x != nil {
				n, set = x, true
			}
		}
		s = append(s, n)
	}
	return s, set
}

func (r *gen) uint64s() []uint64 {
	s := make([]uint64, 1+r.below(3))
	for i := range s {
		s[i] = r.next()
	}
	return s
}

func randInt32(r *gen, _ []int32) (int32, bool)   { return int32(r.nonzero()), true }
func randUint32(r *gen, _ []int32) (uint32, bool) { return uint32(r.nonzero()), true }
func randInt64(r *gen, _ []int32) (int64, bool)   { return int64(r.nonzero()), true }
func randUint64(r *gen, _ []int32) (uint64, bool) { return r.nonzero(), true }
func randBool(r *gen, _ []int32) (bool, bool)     { return true, true }
func randFloat64(r *gen, _ []int32) (float64, bool) {
	return (float64(r.below(1<<20)) + 1) / 8, true
}

// randEnum is one of the enum's values other than 0 (false when it has none).
func randEnum(r *gen, values []int32) (int32, bool) {
	var set []int32
	for _, v := range values {
		if v != 0 {
			set = append(set, v)
		}
	}
	if len(set) == 0 {
		return 0, false
	}
	return set[r.below(len(set))], true
}
