package mdcclient

// A collector's spool: the writes mdc has not acknowledged yet, kept on disk
// (the Python client's mdc.Spool, for Go).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// Spool sends collector writes through a CollectorServiceClient and keeps
// those mdc has not acknowledged in a folder, so that an outage of mdc (a
// database failover, a restart, a network cut) loses no observation: an
// observation not written is lost for good.
//
// Each Save* first stores the write in a file of the folder (written whole,
// synced, then renamed into place), then delivers what the folder holds,
// oldest first, until one cannot be delivered now (UNAVAILABLE, a timeout,
// a rate limit: it stays, with those after it, for the next Save* or Flush).
// A write leaves the folder once mdc answered OK. A Spool opened on a folder
// a previous process left delivers what it holds. Writes are idempotent
// upserts, so one delivered twice (answered UNAVAILABLE after it was in fact
// stored) stores the same thing.
//
// Bounded: SpoolOptions.MaxWrites writes and MaxBytes bytes at most; a Save*
// beyond them returns ErrSpoolFull and spools nothing. A write mdc refuses
// for good (INVALID_ARGUMENT, FAILED_PRECONDITION, ...) would block the ones
// after it forever: it is moved to the folder's rejected/ with its error and
// counted in SpoolState.Rejected. A refused token keeps the writes (a
// collector restarted with a good one delivers them).
//
// Safe for concurrent use; one process per folder.
type Spool struct {
	collector mdcv1.CollectorServiceClient
	dir       string
	opts      SpoolOptions

	mu      sync.Mutex
	next    uint64
	lastErr string
}

// SpoolOptions bounds a Spool; zero values take the defaults.
type SpoolOptions struct {
	// MaxWrites is the most writes held (default 100,000: over an hour of a
	// collector writing 20 a second).
	MaxWrites int
	// MaxBytes is the most bytes held (default 256 MiB).
	MaxBytes int64
}

// SpoolState is what a Spool holds.
type SpoolState struct {
	Writes    int       // writes not acknowledged yet
	Bytes     int64     // their size on disk
	Oldest    time.Time // when the oldest was spooled; zero when none
	Rejected  int       // writes mdc refused for good, in rejected/
	LastError string    // the last failed delivery's error, "" once one succeeded
}

// ErrSpoolFull is returned by a Save* that would pass the spool's bounds.
var ErrSpoolFull = status.Error(codes.ResourceExhausted, "the spool is full: mdc has been unavailable for long; nothing was spooled")

const (
	spoolSuffix = ".write"
	rejectedDir = "rejected"
)

// OpenSpool opens (and creates) the spool folder dir for writes through
// collector.
func OpenSpool(collector mdcv1.CollectorServiceClient, dir string, opts SpoolOptions) (*Spool, error) {
	if opts.MaxWrites <= 0 {
		opts.MaxWrites = 100_000
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 256 << 20
	}
	if err := os.MkdirAll(filepath.Join(dir, rejectedDir), 0o700); err != nil {
		return nil, err
	}
	// Leftovers of a write interrupted before its rename.
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	for _, tmp := range leftovers {
		os.Remove(tmp)
	}
	s := &Spool{collector: collector, dir: dir, opts: opts, next: 1}
	held, err := s.held()
	if err != nil {
		return nil, err
	}
	if len(held) > 0 {
		last, _ := strconv.ParseUint(strings.TrimSuffix(filepath.Base(held[len(held)-1]), spoolSuffix), 10, 64)
		s.next = last + 1
	}
	return s, nil
}

// SaveQuotes is CollectorService.SaveQuotes, spooled. The error is
// ErrSpoolFull or a failure of the disk; mdc's answer is in State.
func (s *Spool) SaveQuotes(ctx context.Context, req *mdcv1.SaveQuotesRequest) error {
	return s.save(ctx, "SaveQuotes", req)
}

// SaveNifty is CollectorService.SaveNifty, spooled (as SaveQuotes).
func (s *Spool) SaveNifty(ctx context.Context, req *mdcv1.SaveNiftyRequest) error {
	return s.save(ctx, "SaveNifty", req)
}

// SaveShortlist is CollectorService.SaveShortlist, spooled (as SaveQuotes).
func (s *Spool) SaveShortlist(ctx context.Context, req *mdcv1.SaveShortlistRequest) error {
	return s.save(ctx, "SaveShortlist", req)
}

func (s *Spool) save(ctx context.Context, method string, req proto.Message) error {
	body, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	record := append([]byte(method+"\n"), body...)
	s.mu.Lock()
	held, err := s.held()
	if err != nil {
		s.mu.Unlock()
		return err
	}
	size, err := sizeOf(held)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	if len(held)+1 > s.opts.MaxWrites || size+int64(len(record)) > s.opts.MaxBytes {
		s.mu.Unlock()
		return ErrSpoolFull
	}
	name := fmt.Sprintf("%020d", s.next)
	s.next++
	err = writeDurably(s.dir, name, record)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	_, err = s.Flush(ctx)
	return err
}

// Flush delivers the writes held, oldest first, until one cannot be
// delivered now, and returns how many were delivered. The error is a
// failure of the disk, or ctx's.
func (s *Spool) Flush(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held, err := s.held()
	if err != nil {
		return 0, err
	}
	delivered := 0
	for _, path := range held {
		if err := ctx.Err(); err != nil {
			return delivered, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return delivered, err
		}
		method, body, _ := bytes.Cut(data, []byte("\n"))
		if err := s.deliver(ctx, string(method), body); err != nil {
			e := ErrorOf(err)
			s.lastErr = e.Error()
			if spoolLater[e.Code] {
				return delivered, nil
			}
			base := strings.TrimSuffix(filepath.Base(path), spoolSuffix)
			if err := os.Rename(path, filepath.Join(s.dir, rejectedDir, filepath.Base(path))); err != nil {
				return delivered, err
			}
			os.WriteFile(filepath.Join(s.dir, rejectedDir, base+".error"), []byte(s.lastErr+"\n"), 0o600)
			continue
		}
		if err := os.Remove(path); err != nil {
			return delivered, err
		}
		delivered++
		s.lastErr = ""
	}
	return delivered, nil
}

// State reports what the spool holds.
func (s *Spool) State() (SpoolState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held, err := s.held()
	if err != nil {
		return SpoolState{}, err
	}
	st := SpoolState{Writes: len(held), LastError: s.lastErr}
	for _, path := range held {
		info, err := os.Stat(path)
		if err != nil {
			return SpoolState{}, err
		}
		st.Bytes += info.Size()
		if st.Oldest.IsZero() || info.ModTime().Before(st.Oldest) {
			st.Oldest = info.ModTime()
		}
	}
	rejected, err := filepath.Glob(filepath.Join(s.dir, rejectedDir, "*"+spoolSuffix))
	if err != nil {
		return SpoolState{}, err
	}
	st.Rejected = len(rejected)
	return st, nil
}

// spoolLater: the codes after which a write is delivered later, in its turn.
var spoolLater = map[codes.Code]bool{
	codes.Unavailable: true, codes.DeadlineExceeded: true, codes.ResourceExhausted: true,
	codes.Aborted: true, codes.Internal: true, codes.Canceled: true,
	codes.Unauthenticated: true, codes.PermissionDenied: true,
}

func (s *Spool) deliver(ctx context.Context, method string, body []byte) error {
	switch method {
	case "SaveQuotes":
		req := &mdcv1.SaveQuotesRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return status.Errorf(codes.InvalidArgument, "spooled write: %v", err)
		}
		_, err := s.collector.SaveQuotes(ctx, req)
		return err
	case "SaveNifty":
		req := &mdcv1.SaveNiftyRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return status.Errorf(codes.InvalidArgument, "spooled write: %v", err)
		}
		_, err := s.collector.SaveNifty(ctx, req)
		return err
	case "SaveShortlist":
		req := &mdcv1.SaveShortlistRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return status.Errorf(codes.InvalidArgument, "spooled write: %v", err)
		}
		_, err := s.collector.SaveShortlist(ctx, req)
		return err
	}
	return status.Errorf(codes.InvalidArgument, "spooled write of unknown method %q", method)
}

// held lists the spooled writes, oldest first (their names are sequence
// numbers of fixed width).
func (s *Spool) held() ([]string, error) {
	held, err := filepath.Glob(filepath.Join(s.dir, "*"+spoolSuffix))
	sort.Strings(held)
	return held, err
}

func sizeOf(paths []string) (int64, error) {
	var size int64
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		size += info.Size()
	}
	return size, nil
}

// writeDurably writes dir/name.write so that it is there whole after a
// crash of the machine, or not at all.
func writeDurably(dir, name string, data []byte) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name+spoolSuffix)); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
