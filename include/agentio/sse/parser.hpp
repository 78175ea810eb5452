//
// agentio/sse/parser.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An incremental parser of `text/event-stream` that follows the WHATWG
// algorithm ("Parsing an event stream", HTML §9.2.6) exactly: LF, CR and CRLF
// line ends, one leading BOM, comments, multi-line data, `id`, `retry`,
// fields without a colon, dispatch on a blank line, and input split at any
// byte. It also tells a stream that ended mid-event from one that ended
// cleanly, which the algorithm alone would silently hide.
//

#ifndef AGENTIO_SSE_PARSER_HPP
#define AGENTIO_SSE_PARSER_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::sse {

/// One dispatched event.
struct event
{
    /// The `event:` field, or "message" when the event had none.
    std::string type;

    /// The `data:` lines joined with LF (no trailing LF).
    std::string data;

    /// The last event ID at dispatch (it persists across events, as the spec says).
    std::string last_event_id;
};

/// How a stream ended, from `parser::finish`.
enum class end_state
{
    /// After a blank line (or nothing at all): every event was dispatched.
    clean,

    /// In the middle of an event: a partial line or fields without their blank
    /// line. The spec discards that event; a client should treat the stream as cut.
    truncated
};

/** The incremental parser.

    Feed it bytes as they arrive, in chunks of any size; it calls a function
    for each event as soon as the blank line that ends it has arrived.

    @code
    agentio::sse::parser p;
    p.feed(chunk, [&](agentio::sse::event const& e) { handle(e.type, e.data); });
    ...
    if(p.finish() == agentio::sse::end_state::truncated)
        fail("stream cut");
    @endcode

    Invalid UTF-8 in a field value is replaced with U+FFFD, as the spec's
    UTF-8 decode does. Memory use is bounded by the longest line and the
    largest event (`max_event_bytes`, beyond which `feed` reports an overflow).
*/
class parser
{
public:
    /// @param max_event_bytes Largest data (and partial line) kept; 0 for no limit.
    explicit parser(std::size_t max_event_bytes = 16 * 1024 * 1024) noexcept : max_event_bytes_(max_event_bytes) {}

    /** Parses the next bytes of the stream.

        @param bytes Any number of bytes, split anywhere (even inside a CRLF
        pair or a UTF-8 sequence).
        @param on_event Called as `on_event(event const&)` for each event.
        The reference is valid only during the call.
        @return false if an event or line grew past `max_event_bytes`; the
        parser is then in error and ignores further input.
    */
    template<class OnEvent>
    bool feed(std::string_view bytes, OnEvent&& on_event);

    /// Ends the stream: discards an incomplete event, as the spec says, and tells whether there was one.
    end_state finish() noexcept;

    /// The reconnection time of the last valid `retry:` field, if any.
    std::optional<std::uint64_t> retry() const noexcept { return retry_; }

    /// The last event ID buffer.
    std::string_view last_event_id() const noexcept { return last_event_id_; }

    /// Whether `feed` reported an overflow.
    bool failed() const noexcept { return failed_; }

private:
    template<class OnEvent>
    void process_line(std::string_view line, OnEvent& on_event);

    std::size_t max_event_bytes_;
    std::string line_;          // a line not yet ended
    std::string data_;          // data buffer
    std::string type_;          // event type buffer
    std::string last_event_id_; // last event ID buffer
    std::optional<std::uint64_t> retry_;
    event event_;           // reused for each dispatch
    bool at_start_ = true;  // the first line, which may start with a BOM, is still to come
    bool after_cr_ = false; // last byte was CR: an LF right after it is part of CRLF
    bool in_event_ = false; // a field line since the last blank line
    bool failed_ = false;
};

} // namespace agentio::sse

#include <agentio/sse/impl/parser.hpp>

#endif
