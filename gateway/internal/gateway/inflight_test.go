package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
)

func TestBodyBudget(t *testing.T) {
	b := newBodyBudget(100)
	ctx := context.Background()
	if !b.acquire(ctx, 60) {
		t.Fatal("first acquire failed")
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if b.acquire(short, 50) {
		t.Fatal("acquired past the budget")
	}
	got := make(chan bool)
	go func() { got <- b.acquire(ctx, 50) }()
	time.Sleep(10 * time.Millisecond)
	b.release(60)
	if !<-got {
		t.Fatal("waiter not served after release")
	}
	if n := b.inUse(); n != 50 {
		t.Errorf("in use = %d, want 50", n)
	}
	b.release(50)
	if n := b.inUse(); n != 0 {
		t.Errorf("in use = %d, want 0", n)
	}
	if s := b.share(1000); s != 100 {
		t.Errorf("share = %d, want the whole budget", s)
	}
}

// blockingBody gives one byte, then blocks until released.
type blockingBody struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
	sent    bool
}

func (b *blockingBody) Read(p []byte) (int, error) {
	if !b.sent {
		b.sent = true
		b.once.Do(func() { close(b.started) })
		p[0] = ' '
		return 1, nil
	}
	<-b.release
	return 0, io.EOF
}

// TestBodyBudgetFullIs503: while one chunked body holds the whole budget,
// another request waits bodyWait and gets 503 without its body being read;
// once the first is done the budget is free again.
func TestBodyBudgetFullIs503(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.MaxBodyBytesInFlight = 1 << 20
	h := newTestHandlerWith(t, addr, o)

	slow := &blockingBody{started: make(chan struct{}), release: make(chan struct{})}
	first := make(chan int)
	go func() {
		req := httptest.NewRequest("POST", "/v1/developer/collector/quotes", slow)
		req.ContentLength = -1 // share: the body limit, capped at the budget
		req.Header.Set("Authorization", "Bearer t")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		first <- w.Code
	}()
	<-slow.started

	body := &countingReader{r: strings.NewReader(`{"data":{}}`)}
	req := httptest.NewRequest("POST", "/v1/developer/collector/quotes", body)
	req.Header.Set("Authorization", "Bearer t")
	w := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503; body %s", w.Code, w.Body.String())
	}
	if waited := time.Since(start); waited < bodyWait/2 {
		t.Errorf("answered after %v, want about %v", waited, bodyWait)
	}
	if body.n != 0 {
		t.Errorf("read %d body bytes before the 503", body.n)
	}
	if w.Header().Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if st := errorBody(t, w.Body.Bytes()); codes.Code(st.GetCode()) != codes.Unavailable || st.GetMessage() != busyMessage {
		t.Errorf("body = %s", w.Body.Bytes())
	}

	close(slow.release)
	<-first
	req = httptest.NewRequest("POST", "/v1/developer/collector/quotes", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer t")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code == http.StatusServiceUnavailable {
		t.Fatalf("status = 503 after the budget was released: %s", w.Body.String())
	}
}

// zeros is an endless body that allocates nothing.
type zeros struct{ n, max int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n >= z.max {
		return 0, io.EOF
	}
	n := int64(len(p))
	if left := z.max - z.n; left < n {
		n = left
	}
	for i := range p[:n] {
		p[i] = ' '
	}
	z.n += n
	return int(n), nil
}

// TestConcurrentUploadsMemory sends 200 concurrent 5 MiB uploads without a
// token and 200 with a well-formed one (half chunked, half with
// Content-Length) to the gateway over real HTTP, and checks the peak heap
// stays well under 150 MB: unauthenticated bodies are never read, and the
// default 64 MiB budget bounds the bodies being buffered.
func TestConcurrentUploadsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 2 GB over loopback")
	}
	_, addr := startFakeServer(t)
	ts := httptest.NewServer(newTestHandler(t, addr))
	t.Cleanup(ts.Close)
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 400}}
	t.Cleanup(client.CloseIdleConnections)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	const n, size = 200, 5 << 20
	var mu sync.Mutex
	statuses := map[string]int{}
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			auth := i%2 == 1
			chunked := (i/2)%2 == 1
			var body io.Reader = &zeros{max: size}
			if chunked {
				body = io.MultiReader(body) // hides the length: sent chunked
			}
			req, err := http.NewRequest("POST", ts.URL+"/v1/developer/collector/quotes", body)
			if err != nil {
				t.Error(err)
				return
			}
			if !chunked {
				req.ContentLength = size
			}
			if auth {
				req.Header.Set("Authorization", "Bearer looks-fine")
			}
			key := fmt.Sprintf("auth=%v chunked=%v: ", auth, chunked)
			resp, err := client.Do(req)
			if err != nil {
				// The gateway may close the connection before the client
				// has written the body it did not read.
				key += "connection closed"
			} else {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				key += resp.Status
			}
			mu.Lock()
			statuses[key]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	client.CloseIdleConnections()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	t.Logf("answers: %v", statuses)
	t.Logf("heap in use: before %.1f MB, peak %.1f MB, after GC %.1f MB; Sys %.1f MB",
		mb(before.HeapInuse), mb(peak.Load()), mb(after.HeapInuse), mb(after.Sys))
	for k := range statuses {
		if strings.HasPrefix(k, "auth=false") && !strings.HasSuffix(k, "401 Unauthorized") && !strings.HasSuffix(k, "connection closed") {
			t.Errorf("unauthenticated upload answered %q, want 401", k)
		}
		if strings.HasPrefix(k, "auth=true") && strings.Contains(k, "200") {
			t.Errorf("5 MiB upload accepted: %q", k)
		}
	}
	if p := mb(peak.Load()); p > 150 {
		t.Errorf("peak heap in use %.1f MB, want under 150 MB", p)
	}
}

func mb(b uint64) float64 { return float64(b) / 1e6 }
