package apierror

import (
	"fmt"
	"io"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/reqinfo"
)

// Write writes st as the JSON error body with the given HTTP status.
func Write(w http.ResponseWriter, m runtime.Marshaler, httpStatus int, st *status.Status) {
	const fallback = `{"code":13,"message":"failed to marshal error message","details":[]}`
	h := w.Header()
	h.Del("Trailer")
	h.Del("Transfer-Encoding")
	h.Set("Content-Type", "application/json")
	if st.Code() == codes.Unauthenticated {
		h.Set("WWW-Authenticate", "Bearer")
	}
	setRetryAfter(h, st)
	buf, err := m.Marshal(st.Proto())
	if err != nil {
		// Text that is not UTF-8 (a client's bytes quoted back) cannot be
		// marshaled: answer with the message cleaned and without details.
		buf, err = m.Marshal(status.New(st.Code(), SanitizeUTF8(st.Message())).Proto())
	}
	if err != nil {
		reqinfo.RecordCause(w, fmt.Errorf("marshal error body: %w", err))
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, fallback)
		return
	}
	w.WriteHeader(httpStatus)
	_, _ = w.Write(buf)
}

// WriteRefusal answers a request whose body the gateway stopped reading.
func WriteRefusal(w http.ResponseWriter, r *http.Request, m runtime.Marshaler, refusal *reqinfo.Refusal) {
	// The rest of the body is still on the connection: do not reuse it.
	w.Header().Set("Connection", "close")
	if refusal.HTTPStatus == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	reqinfo.SetCause(r.Context(), refusal.Cause)
	Write(w, m, refusal.HTTPStatus, refusal.Status)
}
