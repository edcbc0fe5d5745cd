package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"

	"mdc/gateway/internal/routes"
)

// NewDocs returns Swagger UI for /openapi.json. Its assets (Swagger
// UI 5, from the swgui module pinned in go.mod) are embedded in the binary,
// so the page loads with no network beyond the gateway itself. Every
// answer carries a Content-Security-Policy as strict as the page allows
// (docsCSP) and may not be framed.
func NewDocs() http.Handler {
	ui := v5emb.NewHandlerWithConfig(swgui.Config{
		Title:       "mdc API",
		SwaggerJSON: routes.OpenAPIPath,
		BasePath:    routes.DocsPath,
		// Keep the token entered under "Authorize" across page reloads, and
		// show the schemas section.
		SettingsUI: map[string]string{
			"persistAuthorization":     "true",
			"defaultModelsExpandDepth": "1",
		},
	})
	csp := docsCSP(renderPage(ui, routes.DocsPath))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("Referrer-Policy", "no-referrer")
		ui.ServeHTTP(w, r)
	})
}

// inlineScript matches a script element without attributes: the page's own
// code, as opposed to <script src=...>.
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// docsCSP is the policy of the Swagger UI page whose HTML is page: scripts
// only from the gateway and the page's own inline scripts, by their hashes
// (swgui writes its configuration inline); styles from the gateway and
// inline (Swagger UI styles elements as it renders them; a browser ignores
// 'unsafe-inline' beside a hash, so styles have none); images also as data:
// URLs (its icons); API calls to the gateway only; no plugins, no <base>,
// no framing.
func docsCSP(page string) string {
	scripts := []string{"'self'"}
	for _, m := range inlineScript.FindAllStringSubmatch(page, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		scripts = append(scripts, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return "default-src 'self'; script-src " + strings.Join(scripts, " ") +
		"; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// renderPage is the body h answers GET path with.
func renderPage(h http.Handler, path string) string {
	w := &pageRecorder{header: http.Header{}}
	r, _ := http.NewRequest(http.MethodGet, path, nil)
	h.ServeHTTP(w, r)
	return w.body.String()
}

// pageRecorder is the smallest http.ResponseWriter that keeps the body.
type pageRecorder struct {
	header http.Header
	body   bytes.Buffer
}

func (p *pageRecorder) Header() http.Header         { return p.header }
func (p *pageRecorder) Write(b []byte) (int, error) { return p.body.Write(b) }
func (p *pageRecorder) WriteHeader(int)             {}
