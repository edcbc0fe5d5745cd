package codec

import "google.golang.org/protobuf/proto"

// Marshal is runtime.JSONPb's, with a shortcut for the messages of a
// stream. grpc-gateway hands each one over as {"result": msg}, a map that
// JSONPb marshals field by field and then re-encodes with encoding/json,
// which scans the whole protojson output a second time: a quarter of the
// gateway's work on a replay, where a message carries up to 1000 events.
// The shortcut writes the same JSON object around protojson's output
// (docs/api.md "Streams over HTTP"); anything else takes JSONPb's path.
func (m *Marshaler) Marshal(v any) ([]byte, error) {
	if chunk, ok := v.(map[string]any); ok && len(chunk) == 1 {
		if msg, ok := chunk["result"].(proto.Message); ok {
			return m.marshalResultChunk(msg)
		}
	}
	return m.JSONPb.Marshal(v)
}

// resultChunkPrefix opens the line of one stream message.
const resultChunkPrefix = `{"result":`

// marshalResultChunk is {"result": <msg as protojson>} on one line
// (protojson without Indent writes no newline).
func (m *Marshaler) marshalResultChunk(msg proto.Message) ([]byte, error) {
	buf := make([]byte, 0, len(resultChunkPrefix)+2*proto.Size(msg)+16)
	buf = append(buf, resultChunkPrefix...)
	buf, err := m.MarshalOptions.MarshalAppend(buf, msg)
	if err != nil {
		return nil, err
	}
	return append(buf, '}'), nil
}
