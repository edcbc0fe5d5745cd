package transport

import (
	"crypto/sha256"
	"strings"
	"sync"
	"time"
)

// knownTokenTTL is how long a bearer token the server accepted counts as
// known without being seen accepted again.
const knownTokenTTL = 10 * time.Minute

// maxKnownTokens bounds the cache; when it is full, expired entries go,
// then the whole cache (a few requests then wait among strangers until
// their tokens are seen again).
const maxKnownTokens = 50_000

// KnownTokens remembers the bearer tokens the server recently accepted, by
// their SHA-256, so that the body budget serves their requests first (inflight.go).
// It never decides whether a token is valid: the server checks every
// request; a revoked token stays "known" until its entry expires and only
// keeps its place in the queue.
//
// Safe for concurrent use.
type KnownTokens struct {
	mu     sync.Mutex
	expiry map[[sha256.Size]byte]time.Time
	now    func() time.Time
}

func NewKnownTokens() *KnownTokens {
	return &KnownTokens{expiry: map[[sha256.Size]byte]time.Time{}, now: time.Now}
}

// bearerToken is the token of an Authorization header, "" when it has none.
func bearerToken(header string) string {
	if bearerProblem(header) != "" {
		return ""
	}
	return strings.Trim(header[len("bearer "):], " \t\n\v\f\r")
}

// tokenKey is the map key of the Authorization header's token; false when
// the header carries none.
func tokenKey(header string) ([sha256.Size]byte, bool) {
	token := bearerToken(header)
	if token == "" {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256([]byte(token)), true
}

// known reports whether the token of the Authorization header was accepted
// within knownTokenTTL.
func (k *KnownTokens) known(header string) bool {
	key, ok := tokenKey(header)
	if !ok {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	until, ok := k.expiry[key]
	return ok && k.now().Before(until)
}

// remember notes that the server accepted the token of the Authorization
// header (it answered after looking the token up: reqinfo.Info.TokenAccepted).
func (k *KnownTokens) remember(header string) {
	key, ok := tokenKey(header)
	if !ok {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.now()
	if _, ok := k.expiry[key]; !ok && len(k.expiry) >= maxKnownTokens {
		for key, until := range k.expiry {
			if !now.Before(until) {
				delete(k.expiry, key)
			}
		}
		if len(k.expiry) >= maxKnownTokens {
			clear(k.expiry)
		}
	}
	k.expiry[key] = now.Add(knownTokenTTL)
}

// forget drops the token of the Authorization header (the server answered
// 401: unknown or revoked).
func (k *KnownTokens) forget(header string) {
	key, ok := tokenKey(header)
	if !ok {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.expiry, key)
}
