package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"mdc/gateway/internal/transport"
)

// holdingBody gives n bytes, then blocks until released.
type holdingBody struct {
	n       int
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func (b *holdingBody) Read(p []byte) (int, error) {
	if b.n > 0 {
		k := min(len(p), b.n)
		for i := range p[:k] {
			p[i] = ' '
		}
		b.n -= k
		return k, nil
	}
	b.once.Do(func() { close(b.started) })
	<-b.release
	return 0, io.EOF
}

// TestBodyBudgetFullIs503: while strangers' bodies hold their half of the
// budget, another stranger waits transport.BodyWait once its bytes arrive and gets
// 503; a request with a token the server accepted before is served, and
// once the holder is done strangers get in again.
func TestBodyBudgetFullIs503(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.MaxBodyBytesInFlight = 1 << 20
	h := newTestHandlerWith(t, addr, o)

	// A known token: the server accepted it once.
	if w := post(h, "/v1/developer/collector/quotes", "Bearer known", strings.NewReader(`{}`)); w.Code != http.StatusOK {
		t.Fatalf("first request with the known token: %d %s", w.Code, w.Body.String())
	}

	slow := &holdingBody{n: 1 << 19, started: make(chan struct{}), release: make(chan struct{})}
	first := make(chan int)
	go func() {
		req := httptest.NewRequest("POST", "/v1/developer/collector/quotes", slow)
		req.ContentLength = -1
		req.Header.Set("Authorization", "Bearer stranger")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		first <- w.Code
	}()
	<-slow.started

	start := time.Now()
	w := post(h, "/v1/developer/collector/quotes", "Bearer other-stranger", strings.NewReader(`{"data":{}}`))
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503; body %s", w.Code, w.Body.String())
	}
	if waited := time.Since(start); waited < transport.BodyWait/2 {
		t.Errorf("answered after %v, want about %v", waited, transport.BodyWait)
	}
	if w.Header().Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if st := errorBody(t, w.Body.Bytes()); codes.Code(st.GetCode()) != codes.Unavailable || st.GetMessage() != transport.BusyMessage {
		t.Errorf("body = %s", w.Body.Bytes())
	}
	if w := post(h, "/v1/developer/collector/quotes", "Bearer known", strings.NewReader(`{}`)); w.Code != http.StatusOK {
		t.Fatalf("known token while strangers hold their half: %d %s", w.Code, w.Body.String())
	}

	close(slow.release)
	<-first
	if w := post(h, "/v1/developer/collector/quotes", "Bearer other-stranger", strings.NewReader(`{}`)); w.Code == http.StatusServiceUnavailable {
		t.Fatalf("status = 503 after the budget was released: %s", w.Body.String())
	}
}

// TestAnnouncedBodiesHoldNothing: the probe of issue 20, in small. Clients
// that announce large bodies and send nothing hold no budget, so writers
// with any token go on; and they are cut off with 408 once the minimum
// upload rate is missed.
func TestAnnouncedBodiesHoldNothing(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.MaxBodyBytesInFlight = 4 << 20
	o.uploadRate = transport.UploadRate{Grace: 300 * time.Millisecond, MinBytesPerSecond: 64 << 10}
	h := newTestHandlerWith(t, addr, o)
	// Counts the holders whose requests reached the handler: from then on
	// they wait for bodies that never come.
	var entered atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer mdc_made_up" {
			entered.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	const holders = 16
	answers := make(chan string, holders)
	for range holders {
		go func() {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				answers <- err.Error()
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /v1/developer/collector/quotes HTTP/1.1\r\nHost: x\r\n"+
				"Authorization: Bearer mdc_made_up\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n")
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				answers <- err.Error()
				return
			}
			resp.Body.Close()
			answers <- resp.Status
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); entered.Load() < holders; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d holders reached the gateway within 10 s", entered.Load(), holders)
		}
		time.Sleep(time.Millisecond) // polling, not ordering
	}
	client := ts.Client()
	for i := range 20 {
		req, _ := http.NewRequest("POST", ts.URL+"/v1/developer/collector/quotes", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer writer")
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("write %d while holders wait: %s", i, resp.Status)
		}
	}
	for range holders {
		if got := <-answers; got != "408 Request Timeout" {
			t.Errorf("holder answered %q, want 408 Request Timeout", got)
		}
	}
}

func post(h http.Handler, path, auth string, body io.Reader) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", path, body)
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
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
