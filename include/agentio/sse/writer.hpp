//
// agentio/sse/writer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Streaming Server-Sent Events on an HTTP connection: the response header,
// one chunk per flush, keep-alive comments while idle, a bounded queue so a
// slow client cannot make the server buffer without limit, and a signal when
// the client goes away, so that whatever produces the events can stop.
//

#ifndef AGENTIO_SSE_WRITER_HPP
#define AGENTIO_SSE_WRITER_HPP

#include <agentio/async_queue.hpp>
#include <agentio/sse/format.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/system/error_code.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace agentio::sse {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace system = boost::system;

/// Errors of a writer.
enum class error
{
    /// The client closed the connection (or it broke).
    client_gone = 1,

    /// The queue was full and the policy is `overflow_policy::disconnect`.
    slow_client,

    /// `send` after `finish`.
    finished
};

system::error_category const& error_category() noexcept;

inline system::error_code make_error_code(error e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

/// What `send` does when the client reads slower than events are produced.
enum class overflow_policy
{
    /// `send` waits until the queue has room again: the producer is slowed
    /// to the client's pace (backpressure).
    wait,

    /// The client is dropped: the connection is closed and `send` fails with
    /// `error::slow_client`.
    disconnect
};

namespace detail {
inline std::atomic<std::size_t>& open_writers() noexcept
{
    static std::atomic<std::size_t> count{0};
    return count;
}
} // namespace detail

/** Event streams open in this process: writers made and not yet destroyed,
    whatever their stream type (the gauge `agentio_sse_streams_open` of
    `http::request_metrics`). */
inline std::size_t open_streams() noexcept
{
    return detail::open_writers().load(std::memory_order_relaxed);
}

struct writer_options
{
    /// Bytes of formatted events that may wait for the socket (an event larger
    /// than this is queued alone); one more flush may be in flight.
    std::size_t max_queued_bytes = 256 * 1024;

    overflow_policy on_overflow = overflow_policy::wait;

    /// A comment is sent after this long without an event (HTML §9.2.7
    /// suggests about 15 s against proxies that drop idle connections). Zero: never.
    std::chrono::steady_clock::duration heartbeat = std::chrono::seconds(15);

    /// How long one flush may take before the client is considered gone.
    std::chrono::steady_clock::duration write_timeout = std::chrono::seconds(30);
};

/** Writes an SSE response on a connection.

    @tparam AsyncStream The connection: an AsyncReadStream and
    AsyncWriteStream (`beast::tcp_stream`, a TLS stream over one,
    `http::any_stream`, `beast::test::stream`). The write timeout is set on
    its lowest layer when that is a `beast::basic_stream` (see
    `agentio/detail/stream_ops.hpp`); a stream without deadlines gets none.

    Used from the connection's strand, by one or more coroutines:

    @code
    sse::basic_writer w(stream);
    if(auto ec = co_await w.start(req.version()))
        co_return;
    co_await w.send("chunk", R"({"content":"Hola"})");
    ...
    co_await w.finish();          // always, also after an error
    @endcode

    The response is `200`, `Content-Type: text/event-stream`,
    `Cache-Control: no-cache`, `X-Accel-Buffering: no`, chunked for HTTP/1.1
    (ended by the last chunk) and delimited by closing for HTTP/1.0. The
    connection is not reused afterwards: while the stream lasts the writer
    reads from it to notice the client leaving.

    `disconnect_slot()` emits `asio::cancellation_type::terminal` when the
    client goes away: bind the producer to it (`asio::bind_cancellation_slot`)
    and it stops at its next cancellable wait. A client that only shuts down
    its sending side after the request still gets the whole stream: when its
    data ends, the writer sends comments (soon, then every second) and a
    client that closed is told by the write that fails after its reset.

    @note `finish` must complete before the writer or the stream is destroyed.
*/
template<class AsyncStream>
class basic_writer
{
public:
    /// The stream written to.
    using stream_type = AsyncStream;

    explicit basic_writer(AsyncStream& stream, writer_options options = {});

    basic_writer(basic_writer const&) = delete;
    basic_writer& operator=(basic_writer const&) = delete;
    ~basic_writer();

    /** Writes the response header and starts flushing, heartbeats and
        watching for the client to leave.

        @param http_version The request's version (11 for HTTP/1.1).
        @return The error of writing the header, if any.
    */
    asio::awaitable<system::error_code> start(unsigned http_version = 11);

    /// Fields added to the response head by start() (e.g. `Mcp-Session-Id`); set them before.
    beast::http::fields& headers() noexcept { return headers_; }

    /** Queues one event; waits while the queue is full (policy `wait`).

        @return `error::client_gone`, `error::slow_client`, `error::finished`
        or a write error; no error once the event is queued.
    */
    asio::awaitable<system::error_code> send(std::string_view type, std::string_view data, std::string_view id = {});

    /// Queues a comment (ignored by clients).
    asio::awaitable<system::error_code> comment(std::string_view text);

    /** Flushes what is queued, ends the response and stops the background
        work. Returns the first error the stream had, if any.
    */
    asio::awaitable<system::error_code> finish();

    /// Emits `terminal` when the client goes away (or the stream fails).
    asio::cancellation_slot disconnect_slot() noexcept { return gone_signal_.slot(); }

    /// Whether the client went away or the stream failed.
    bool client_gone() const noexcept { return static_cast<bool>(failure_); }

    /// Bytes queued and not yet handed to the socket.
    std::size_t queued_bytes() const noexcept { return queue_.queued(); }

    /// Bytes written to the socket so far (body only, chunk framing included).
    std::size_t bytes_written() const noexcept { return written_; }

private:
    asio::awaitable<void> pump();
    asio::awaitable<void> watch();
    asio::awaitable<void> probe_after_eof();
    asio::awaitable<system::error_code> enqueue(std::string text);
    void fail(system::error_code ec);

    AsyncStream& stream_;
    writer_options options_;
    beast::http::fields headers_;
    async_queue<std::string, count_bytes> queue_; // formatted events waiting for the socket
    std::string inflight_;                        // what the current write is sending
    asio::steady_timer joined_;                   // wakes finish when a background loop ends
    asio::steady_timer probe_;                    // paces the probes after the client's data ended
    asio::cancellation_signal gone_signal_;
    system::error_code failure_;
    std::size_t written_ = 0;
    int running_ = 0;              // background loops alive
    asio::io_context* io_context_; // the stream's, when it runs on one: only for the destructor's check
    bool chunked_ = true;
    bool started_ = false;
    bool finishing_ = false;
    bool stop_watching_ = false; // finish() is done with the watcher: it must end, whatever its last wait returned
};

/// The writer on a plain TCP connection.
using writer = basic_writer<beast::tcp_stream>;

} // namespace agentio::sse

namespace boost::system {
template<>
struct is_error_code_enum<agentio::sse::error> : std::true_type
{
};
} // namespace boost::system

#include <agentio/sse/impl/writer.hpp>

#endif
