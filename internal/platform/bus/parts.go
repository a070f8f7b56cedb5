package bus

import (
	"strconv"
	"strings"
)

// Notify's messages above the server's max_payload (a video key frame can be larger than NATS's 1 MB
// default) go in parts, each with the header partHeader = "<message id> <index>/<count>"; the listener
// puts them back together. Parts of one message come in order (one publisher, one subject: NATS keeps
// its order); a part lost on the way loses the whole message, as a lost message would be.
const (
	partHeader = "Tw-Part"
	partRoom   = 256 // what the header takes of max_payload, with room to spare
	maxParts   = 256 // a larger message is refused, not sent, rather than held whole by every listener
)

// splitParts cuts data into parts of at most size bytes (size > 0).
func splitParts(data []byte, size int) [][]byte {
	parts := make([][]byte, 0, (len(data)+size-1)/size)
	for len(data) > size {
		parts = append(parts, data[:size:size])
		data = data[size:]
	}
	return append(parts, data)
}

func partValue(id string, i, n int) string {
	return id + " " + strconv.Itoa(i) + "/" + strconv.Itoa(n)
}

// assembler gathers one listener's parts (its callbacks run one at a time).
type assembler struct {
	id   string
	next int // the index expected next
	n    int
	buf  []byte
}

// add takes a part and returns the whole message when it was the last; a part out of order, or of a
// message other than the one being gathered, drops what was gathered.
func (a *assembler) add(header string, data []byte) ([]byte, bool) {
	id, pos, ok1 := strings.Cut(header, " ")
	is, ns, ok2 := strings.Cut(pos, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || n < 1 || n > maxParts || i < 0 || i >= n {
		*a = assembler{}
		return nil, false
	}
	if i == 0 {
		*a = assembler{id: id, n: n, buf: append(make([]byte, 0, n*len(data)), data...)}
	} else if id != a.id || i != a.next || n != a.n {
		*a = assembler{}
		return nil, false
	} else {
		a.buf = append(a.buf, data...)
	}
	a.next = i + 1
	if a.next < n {
		return nil, false
	}
	whole := a.buf
	*a = assembler{}
	return whole, true
}
