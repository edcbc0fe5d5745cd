// A protobuf message made on an arena of its own, for a stream whose
// messages hold many small parts (an export chunk: a thousand records of
// several sub-messages and strings each). On the arena those parts are
// carved out of a few large blocks and freed together with the message,
// instead of one allocation and one destructor call each.
//
// Movable, not copyable; moving moves the ownership of the arena, never the
// message (moving a message off its arena would copy it). Not thread-safe:
// one thread at a time builds or reads the message.
#ifndef MDC_SERVICE_STREAMS_ARENA_MESSAGE_H_
#define MDC_SERVICE_STREAMS_ARENA_MESSAGE_H_

#include <memory>

#include "google/protobuf/arena.h"

namespace mdc {

template <typename Message>
class ArenaMessage {
 public:
  // An empty message on a new arena with `options` (its block sizes).
  explicit ArenaMessage(const google::protobuf::ArenaOptions& options = {})
      : arena_(std::make_unique<google::protobuf::Arena>(options)),
        message_(
            google::protobuf::Arena::CreateMessage<Message>(arena_.get())) {}

  Message& operator*() const { return *message_; }
  Message* operator->() const { return message_; }

 private:
  // Owns the message (an arena's messages are freed with it).
  std::unique_ptr<google::protobuf::Arena> arena_;
  Message* message_;
};

// What a stream of `Made` messages (PagedStream) sends: the message itself,
// or the message an ArenaMessage holds.
template <typename Made>
struct SentMessage {
  using type = Made;
  static const type* Of(const Made& made) { return &made; }
};
template <typename Message>
struct SentMessage<ArenaMessage<Message>> {
  using type = Message;
  static const type* Of(const ArenaMessage<Message>& made) { return &*made; }
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_ARENA_MESSAGE_H_
