package main

// session_raw.go: the ring of a session's most recent raw output (escape
// sequences kept), which shell_read with raw returns.

// rawTailCap is how many bytes of raw output a session keeps.
const rawTailCap = 1 << 20

// rawRing keeps the last rawTailCap bytes appended to it. It grows to
// rawTailCap, then wraps at pos: in order it holds buf[pos:] then
// buf[:pos]. The zero value is an empty ring. It is not safe for
// concurrent use: Session.mu guards a session's.
type rawRing struct {
	buf   []byte
	pos   int   // where the next byte goes once buf is full
	total int64 // bytes ever appended: the ring cut output when it holds fewer
}

// append keeps p, dropping the oldest bytes beyond rawTailCap.
func (r *rawRing) append(p []byte) {
	r.total += int64(len(p))
	if len(p) > rawTailCap {
		p = p[len(p)-rawTailCap:]
	}
	if n := min(len(p), rawTailCap-len(r.buf)); n > 0 {
		if len(r.buf)+n > cap(r.buf) {
			// Grow fourfold (append grows large slices by 1.25x, which for a
			// flood makes four times the ring's size in garbage).
			grown := make([]byte, len(r.buf), min(rawTailCap, max(4*cap(r.buf), len(r.buf)+n, 64<<10)))
			copy(grown, r.buf)
			r.buf = grown
		}
		r.buf = append(r.buf, p[:n]...)
		p = p[n:]
	}
	for len(p) > 0 {
		n := copy(r.buf[r.pos:], p)
		p = p[n:]
		r.pos = (r.pos + n) % rawTailCap
	}
}

// tail returns a copy of the last max bytes kept (fewer when the ring
// holds fewer).
func (r *rawRing) tail(max int) []byte {
	n := min(len(r.buf), max)
	p := make([]byte, 0, n)
	if n <= r.pos {
		return append(p, r.buf[r.pos-n:r.pos]...)
	}
	p = append(p, r.buf[len(r.buf)-(n-r.pos):]...)
	return append(p, r.buf[:r.pos]...)
}
