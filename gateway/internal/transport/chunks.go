package transport

import (
	"io"
	"sync"
)

// bodyChunkSize is the size of the buffers a body of unknown length is read
// into. They are pooled: the memory of bodies that come and go is reused
// instead of left to the garbage collector.
const bodyChunkSize = 32 << 10

var bodyChunks = sync.Pool{New: func() any { return new([bodyChunkSize]byte) }}

// chunkedBody is a body read into pooled chunks.
type chunkedBody struct {
	chunks []*[bodyChunkSize]byte
	n      int64
}

// readChunked reads at most max bytes of r.
func readChunked(r io.Reader, max int64) (*chunkedBody, error) {
	b := &chunkedBody{}
	for b.n < max {
		c := bodyChunks.Get().(*[bodyChunkSize]byte)
		b.chunks = append(b.chunks, c)
		want := int64(bodyChunkSize)
		if max-b.n < want {
			want = max - b.n
		}
		got, err := io.ReadFull(r, c[:want])
		b.n += int64(got)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return b, nil
		}
		if err != nil {
			b.free()
			return nil, err
		}
	}
	return b, nil
}

// reader reads the body. It must not be used after free.
func (b *chunkedBody) reader() io.Reader {
	readers := make([]io.Reader, 0, len(b.chunks))
	left := b.n
	for _, c := range b.chunks {
		n := min(left, bodyChunkSize)
		readers = append(readers, &chunkReader{buf: c[:n]})
		left -= n
	}
	return io.MultiReader(readers...)
}

// free returns the chunks to the pool.
func (b *chunkedBody) free() {
	for i, c := range b.chunks {
		bodyChunks.Put(c)
		b.chunks[i] = nil
	}
	b.chunks = nil
}

// chunkReader reads buf once.
type chunkReader struct{ buf []byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}
