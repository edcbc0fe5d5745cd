package export

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// An export arrives as pages: each mdc.v1.ExportChunk holds up to 1,000
// records. Turning a page of full quotes into CSV text or an Arrow record
// is most of the gateway's work for an export (~3.5 µs a row: reading the
// wire, formatting floats, the depth's JSON), and on one goroutine it set
// the export's pace below psql's (issue 36). A page does not depend on the
// page before it, so the encoders of one-row-per-record layouts (quotes,
// NIFTY, candles) encode pages on several goroutines at once and write them
// out in the stream's order, one page after the other, on the handler's
// goroutine (writePages). Memory stays bounded: at most pagesInFlight pages
// are received and not yet written, each of one page's size.

// pagedEncoder is an encoder that can encode pages apart from one another.
type pagedEncoder interface {
	encoder
	// pageWorker makes what one goroutine encodes pages with.
	pageWorker() pageWorker
}

// pageWorker encodes whole pages. encode returns how to write the encoded
// page out: called once, in the file's order, on the writing goroutine
// (nil: the page is dropped, as the file was broken off).
type pageWorker interface {
	encode(chunk []byte) (write func() error, err error)
	release()
}

// pageWorkers is how many goroutines encode the pages of one export: one
// per core the runtime may use, up to four. With one, pages are encoded on
// the handler's goroutine as they arrive.
var pageWorkers = min(runtime.GOMAXPROCS(0), 4)

// pagesInFlight bounds the pages received and not yet written out, per
// worker, besides the one each worker encodes: enough to keep every worker
// busy while the writer waits for the oldest page, few enough that an
// export holds a few MB (~1.3 MB a page of full quotes, received and
// encoded; TestParquetEncoderMemoryIsBounded). With two, the gateway's
// peak RSS over bench/export's 2M-row exports was 183 MB against 133 MB
// before the pages were encoded at once (GOGC=400 lets the heap grow to
// five times what is live; one run on a loaded machine).
const pagesInFlight = 1

// chunkPool recycles the receive buffers of the pages (~0.5 MB a page of
// full quotes).
var chunkPool = sync.Pool{New: func() any { return new(wireChunk) }}

// pageJob is one page on its way through the pipeline.
type pageJob struct {
	chunk *wireChunk
	write func() error
	err   error
	done  chan struct{} // closed when write or err is set
}

// writePages writes the records of first (when more is true) and of every
// chunk recv receives after it, until recv answers io.EOF, through enc.
// progress is called before each page is written out. On a failure
// (encoding, writing, receiving) it calls stop, which must end a recv under
// way (cancels the stream), waits for its goroutines and returns the error;
// the rows written so far are enc.Rows().
func writePages(enc encoder, first *wireChunk, more bool, recv func(*wireChunk) error, progress, stop func()) error {
	pe, ok := enc.(pagedEncoder)
	if !ok || pageWorkers < 2 {
		return writeInTurn(enc, first, more, recv, progress)
	}
	ordered := make(chan *pageJob, pageWorkers*pagesInFlight)
	work := make(chan *pageJob, pageWorkers*pagesInFlight)
	quit := make(chan struct{})
	var wg sync.WaitGroup

	// The receiver: every page goes into the file's order first, then to
	// the workers; the end of the stream closes both queues.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(ordered)
		defer close(work)
		chunk := first
		for more {
			job := &pageJob{chunk: chunk, done: make(chan struct{})}
			select {
			case ordered <- job:
			case <-quit:
				return
			}
			select {
			case work <- job:
			case <-quit:
				return
			}
			chunk = chunkPool.Get().(*wireChunk)
			err := recv(chunk)
			if errors.Is(err, io.EOF) {
				chunkPool.Put(chunk)
				return
			}
			if err != nil {
				failed := &pageJob{err: err, done: make(chan struct{})}
				close(failed.done)
				select {
				case ordered <- failed:
				case <-quit:
				}
				return
			}
		}
	}()

	for range pageWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := pe.pageWorker()
			defer w.release()
			for job := range work {
				job.write, job.err = encodeSafely(w, job.chunk.b)
				chunkPool.Put(job.chunk)
				job.chunk = nil
				close(job.done)
			}
		}()
	}

	var err error
	for job := range ordered {
		<-job.done
		if job.err == nil {
			progress()
			job.err = job.write()
		}
		if job.err != nil {
			err = job.err
			break
		}
	}
	if err != nil {
		stop()
		// The receiver stops at its next hand-over; pages queued and not
		// written go with the broken-off file.
		close(quit)
	}
	wg.Wait()
	return err
}

// encodeSafely is w.encode, with a panic (a bug in a layout or an
// encoder) turned into the page's error: on the handler's goroutine net/http
// would have caught it for this request alone, on a worker it would end the
// gateway.
func encodeSafely(w pageWorker, chunk []byte) (write func() error, err error) {
	defer func() {
		if p := recover(); p != nil {
			write, err = nil, fmt.Errorf("export: encoding a page failed: %v", p)
		}
	}()
	return w.encode(chunk)
}

// writeInTurn encodes each page on the calling goroutine as it arrives.
func writeInTurn(enc encoder, chunk *wireChunk, more bool, recv func(*wireChunk) error, progress func()) error {
	for more {
		progress()
		if err := eachRecord(chunk.b, enc.Write); err != nil {
			return err
		}
		err := recv(chunk)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}
