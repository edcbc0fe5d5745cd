// Package webui holds the built dashboard (web/, see web/build.sh): the
// files the bundler wrote, copied into dist/ by the build before the gateway
// is compiled, and embedded here so the gateway binary serves them with no
// other files beside it.
//
// dist/ is produced by the build and not committed, except dist/.gitkeep,
// which keeps the embed pattern valid in a fresh clone: the package (and the
// gateway's unit tests) compile before the dashboard has been built. Such a
// gateway answers the dashboard's paths with a 404 saying so.
package webui

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Files returns the built dashboard, rooted at the folder holding index.html.
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid path: fs.Sub cannot fail on it
	}
	return sub
}
