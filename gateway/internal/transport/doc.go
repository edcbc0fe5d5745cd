// Package transport is the gateway's HTTP side, the middleware in front of
// the mux, each refusing what it must before a byte goes to a server: the
// client's address behind trusted proxies (clientaddr.go), security headers
// (securityheaders.go), CORS (cors.go), header limits (headerlimit.go), the
// bearer header of protected routes (bearer.go), the Content-Type of
// bodies (contenttype.go), the body limit, its upload rate and the budget
// of bodies in flight with the known tokens served first (body.go,
// inflight.go, knowntokens.go, chunks.go), UTF-8 of path, query and the
// forwarded headers (utf8.go); and the listener and TLS of the HTTP server
// (listener.go, tls.go).
package transport
