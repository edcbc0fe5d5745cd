package codec

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// sized is a body that announces a length (SizedBody), right or not.
type sized struct {
	io.Reader
	n int64
}

func (s sized) ContentLength() int64 { return s.n }

// readBody reads what io.ReadAll reads, whatever the announced length and
// however the bytes arrive, and passes read errors on.
func TestReadBody(t *testing.T) {
	for _, n := range []int{1, 100, 2100, firstReadMax - 1, firstReadMax, firstReadMax + 1, 100_000} {
		data := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		readers := map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(data) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
			"halves":   func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		}
		for name, r := range readers {
			for _, announced := range []int64{int64(n), int64(n) / 2, int64(n) * 2, 0, -1} {
				got, err := readBody(sized{r(), announced})
				if err != nil || !bytes.Equal(got, data) {
					t.Errorf("%d bytes, %s, announced %d: %d bytes, %v", n, name, announced, len(got), err)
				}
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readBody(sized{io.MultiReader(bytes.NewReader([]byte("{}")), iotest.ErrReader(boom)), 10}); !errors.Is(err, boom) {
		t.Errorf("error = %v, want boom", err)
	}
}
