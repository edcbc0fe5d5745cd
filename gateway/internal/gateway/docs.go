package gateway

import (
	"net/http"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"
)

// docsPath is where Swagger UI is served; its assets are under docsPath/.
const docsPath = "/docs"

// newDocsHandler returns Swagger UI for /openapi.json. Its assets (Swagger
// UI 5, from the swgui module pinned in go.mod) are embedded in the binary,
// so the page loads with no network beyond the gateway itself.
func newDocsHandler() http.Handler {
	return v5emb.NewHandlerWithConfig(swgui.Config{
		Title:       "mdc API",
		SwaggerJSON: openAPIPath,
		BasePath:    docsPath,
		// Keep the token entered under "Authorize" across page reloads, and
		// show the schemas section.
		SettingsUI: map[string]string{
			"persistAuthorization":     "true",
			"defaultModelsExpandDepth": "1",
		},
	})
}
