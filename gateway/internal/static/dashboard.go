// Package static serves the gateway's pages beside the API: the dashboard
// (web/, embedded by package webui) at / and every path outside the API's
// namespaces (dashboard.go), Swagger UI at /docs (docs.go), their error
// answers as the API's JSON body (jsonerrors.go).
package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
)

// The dashboard (web/, embedded by package webui) is served beside the API:
// GET and HEAD of any path outside the API's namespaces. A path naming a file
// of the build is that file; any other path without a file extension is a
// page of the dashboard (it routes in the browser), answered with index.html;
// anything else is the JSON 404 of the API. The API's namespaces keep their
// behaviour exactly, unknown paths included.

// dashboardRoute is the "route" of the log line of every dashboard answer:
// one value, whatever the path, so logs and metrics stay low-cardinality.
const dashboardRoute = "/ (dashboard)"

// dashboardCSP allows nothing from outside the gateway: the dashboard's
// scripts, styles and API calls all come from its own origin. Styles set
// through the CSSOM (element.style) are not inline styles and stay allowed.
const dashboardCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'none'"

// immutableCache is for the bundler's content-hashed files (assets/): a
// new build gives them new names, so a browser may keep them for a year.
const immutableCache = "public, max-age=31536000, immutable"

// webFile is one file of the dashboard's build, ready to answer with.
type webFile struct {
	body        []byte
	gzipBody    []byte // the build's precompressed copy (name.gz), if any
	contentType string
	etag        string // of body; the gzip copy's is etag with a suffix
	cache       string
}

// Dashboard is the dashboard's files by path (without the leading slash).
type Dashboard struct {
	files map[string]*webFile
	index *webFile // index.html; nil when the dashboard was not built
}

// NewDashboard reads every file of fsys (webui.Files(), the build of web/).
// A file "x.gz" beside "x" is x's gzip-encoded copy, served to clients that
// accept gzip.
func NewDashboard(fsys fs.FS) (*Dashboard, error) {
	ui := &Dashboard{files: map[string]*webFile{}}
	gz := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != "." && strings.HasPrefix(path.Base(name), ".") {
			// .gitkeep, the bundler's .vite/ manifest: not part of the dashboard.
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".gz") {
			gz[strings.TrimSuffix(name, ".gz")] = body
			return nil
		}
		sum := sha256.Sum256(body)
		cache := "no-cache" // revalidate (ETag) on every use: index.html names the current assets
		if strings.HasPrefix(name, "assets/") {
			cache = immutableCache
		}
		ui.files[name] = &webFile{
			body:        body,
			contentType: contentTypeOf(name),
			etag:        `"` + hex.EncodeToString(sum[:12]) + `"`,
			cache:       cache,
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the dashboard's files: %w", err)
	}
	for name, body := range gz {
		if f := ui.files[name]; f != nil {
			f.gzipBody = body
		}
	}
	ui.index = ui.files["index.html"]
	return ui, nil
}

// contentTypeOf is the Content-Type of a file of the build by its extension;
// the usual ones are fixed here rather than taken from the system's MIME
// tables, which differ between machines.
func contentTypeOf(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// WithDashboard answers GET and HEAD outside the API's namespaces from ui
// and passes every other request to next unchanged.
func WithDashboard(ui *Dashboard, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || routes.IsAPIPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ui.serve(w, r, m)
	})
}

func (ui *Dashboard) serve(w http.ResponseWriter, r *http.Request, m runtime.Marshaler) {
	if info := reqinfo.From(r.Context()); info != nil {
		info.Route = dashboardRoute
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	f := ui.files[name]
	if f == nil && (name == "" || !strings.Contains(path.Base(name), ".")) {
		// A page of the dashboard (/runs/12, /chart?...): the browser routes
		// it. A name with an extension is a missing file, never index.html
		// (a script tag must not receive HTML).
		f = ui.index
	}
	if f == nil {
		msg := fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path)
		if ui.index == nil {
			msg += " (the dashboard is not part of this build: scripts/build.sh builds web/ into the gateway)"
		}
		apierror.Write(w, m, http.StatusNotFound, status.New(codes.NotFound, msg))
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", f.cache)
	h.Set("Content-Security-Policy", dashboardCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	body, etag := f.body, f.etag
	if f.gzipBody != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, etag = f.gzipBody, strings.TrimSuffix(f.etag, `"`)+`-gzip"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	// A range or precondition it cannot meet is 416 or 412, as JSON.
	http.ServeContent(&jsonErrorWriter{ResponseWriter: w, m: m}, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether Accept-Encoding values accept gzip: "gzip" or
// "*" listed with a weight above 0 (no q means 1).
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "*" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				if k, val, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
					if parsed, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = parsed
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}
