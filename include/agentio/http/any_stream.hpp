//
// agentio/http/any_stream.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A type-erased reference to an AsyncStream, so that an application compiles
// its streaming handlers once whatever the transport under them (plain TCP,
// TLS, an in-memory test stream).
//

#ifndef AGENTIO_HTTP_ANY_STREAM_HPP
#define AGENTIO_HTTP_ANY_STREAM_HPP

#include <agentio/detail/stream_ops.hpp>

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/system/error_code.hpp>

#include <array>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace agentio::http {

namespace asio = boost::asio;
namespace system = boost::system;

namespace detail {

// Up to 16 non-empty buffers of a sequence: a `*_some` operation may transfer
// less than it is offered, so the rest of a longer sequence waits for the next call.
template<class Buffer>
struct buffer_window
{
    static constexpr std::size_t capacity = 16;

    std::array<Buffer, capacity> items{};
    std::size_t count = 0;

    template<class Sequence>
    explicit buffer_window(Sequence const& buffers)
    {
        for(auto it = asio::buffer_sequence_begin(buffers);
            it != asio::buffer_sequence_end(buffers) && count < capacity; ++it)
        {
            Buffer const b(*it);
            if(b.size() != 0)
                items[count++] = b;
        }
    }

    Buffer const* begin() const noexcept { return items.data(); }
    Buffer const* end() const noexcept { return items.data() + count; }
};

using io_signature = void(system::error_code, std::size_t);

// The erased handler with its executor as an any_io_executor: Asio 1.81's
// any_completion_executor cannot be required to be non-blocking, which a
// stream posting an immediate completion (Beast's) needs. The cancellation
// slot goes along.
struct io_handler
{
    asio::any_completion_handler<io_signature> handler;
    asio::any_io_executor executor;

    using executor_type = asio::any_io_executor;
    executor_type get_executor() const noexcept { return executor; }

    using cancellation_slot_type = asio::cancellation_slot;
    cancellation_slot_type get_cancellation_slot() const noexcept { return handler.get_cancellation_slot(); }

    void operator()(system::error_code ec, std::size_t n) { std::move(handler)(ec, n); }
};

struct any_stream_vtable
{
    asio::any_io_executor (*executor)(void*) noexcept;
    void (*read_some)(void*, buffer_window<asio::mutable_buffer>, io_handler);
    void (*write_some)(void*, buffer_window<asio::const_buffer>, io_handler);
    void (*expires_after)(void*, std::chrono::steady_clock::duration);
    void (*expires_never)(void*);
    void (*close)(void*);
    void (*cancel)(void*);
    asio::ip::address (*peer_address)(void*);
};

template<class Stream>
inline constexpr any_stream_vtable any_stream_vtable_for{
    [](void* s) noexcept -> asio::any_io_executor { return static_cast<Stream*>(s)->get_executor(); },
    [](void* s, buffer_window<asio::mutable_buffer> b, io_handler h) {
        static_cast<Stream*>(s)->async_read_some(b, std::move(h));
    },
    [](void* s, buffer_window<asio::const_buffer> b, io_handler h) {
        static_cast<Stream*>(s)->async_write_some(b, std::move(h));
    },
    [](void* s, std::chrono::steady_clock::duration d) { agentio::detail::expires_after(*static_cast<Stream*>(s), d); },
    [](void* s) { agentio::detail::expires_never(*static_cast<Stream*>(s)); },
    [](void* s) { agentio::detail::close_stream(*static_cast<Stream*>(s)); },
    [](void* s) { agentio::detail::cancel_stream(*static_cast<Stream*>(s)); },
    [](void* s) { return agentio::detail::peer_address(*static_cast<Stream*>(s)); },
};

} // namespace detail

/** A type-erased reference to an AsyncStream.

    It models AsyncReadStream and AsyncWriteStream by forwarding each
    operation to the stream it refers to, which must outlive it. The
    completion handler is erased with `asio::any_completion_handler`, which
    keeps its executor, allocator and cancellation slot, so per-operation
    cancellation (`asio::bind_cancellation_slot`, the `||` of awaitable
    operators) reaches the stream underneath.

    @ref http::server hands one to a streaming handler that accepts
    `any_stream&`, for plain and TLS connections alike: the handler, and all
    it instantiates (an `sse::basic_writer<any_stream>`, an MCP transport),
    is compiled once.

    Besides the stream operations it forwards what a streaming answer needs
    of the transport: a deadline (on the lowest layer when that is a
    `beast::basic_stream`, otherwise nothing), closing it, and the peer's
    address.

    @code
    beast::tcp_stream tcp(...);
    http::any_stream s(tcp);
    co_await asio::async_write(s, asio::buffer(text), asio::use_awaitable);
    @endcode
*/
class any_stream
{
public:
    /// The executor of the stream it refers to.
    using executor_type = asio::any_io_executor;

    /** Refers to `stream`, which must outlive this object.

        @tparam Stream An AsyncReadStream and AsyncWriteStream.
    */
    template<class Stream>
    requires(!std::same_as<std::remove_cv_t<Stream>, any_stream>) explicit any_stream(Stream& stream) noexcept
        : target_(std::addressof(stream))
        , vtable_(&detail::any_stream_vtable_for<Stream>)
    {
    }

    any_stream(any_stream const&) = default;
    any_stream& operator=(any_stream const&) = default;

    /// The executor of the stream it refers to.
    executor_type get_executor() const noexcept { return vtable_->executor(target_); }

    /** Starts reading some bytes; the completion signature is
        `void(system::error_code, std::size_t)`.

        At most the first 16 non-empty buffers of `buffers` are offered to the stream.
    */
    template<class MutableBufferSequence,
        asio::completion_token_for<detail::io_signature> ReadToken = asio::default_completion_token_t<executor_type>>
    auto async_read_some(MutableBufferSequence const& buffers, ReadToken&& token = {})
    {
        return asio::async_initiate<ReadToken, detail::io_signature>(
            [](auto handler, any_stream const* self, detail::buffer_window<asio::mutable_buffer> b) {
                self->vtable_->read_some(self->target_, b, self->erase(std::move(handler)));
            },
            token, this, detail::buffer_window<asio::mutable_buffer>(buffers));
    }

    /** Starts writing some bytes; the completion signature is
        `void(system::error_code, std::size_t)`.

        At most the first 16 non-empty buffers of `buffers` are offered to the stream.
    */
    template<class ConstBufferSequence,
        asio::completion_token_for<detail::io_signature> WriteToken = asio::default_completion_token_t<executor_type>>
    auto async_write_some(ConstBufferSequence const& buffers, WriteToken&& token = {})
    {
        return asio::async_initiate<WriteToken, detail::io_signature>(
            [](auto handler, any_stream const* self, detail::buffer_window<asio::const_buffer> b) {
                self->vtable_->write_some(self->target_, b, self->erase(std::move(handler)));
            },
            token, this, detail::buffer_window<asio::const_buffer>(buffers));
    }

    /** Sets the deadline of the operations started from now on, when the
        lowest layer has one (`beast::basic_stream`); otherwise does nothing.
    */
    void expires_after(std::chrono::steady_clock::duration d) { vtable_->expires_after(target_, d); }

    /// Removes the deadline, when the lowest layer has one.
    void expires_never() { vtable_->expires_never(target_); }

    /// Closes the lowest layer (`beast::close_socket`): pending operations complete with an error.
    void close() { vtable_->close(target_); }

    /** Cancels the pending operations (`socket().cancel()` on the lowest
        layer); a stream without cancellation is closed.
    */
    void cancel() { vtable_->cancel(target_); }

    /// The peer's address when the lowest layer is a socket; unspecified otherwise.
    asio::ip::address peer_address() const { return vtable_->peer_address(target_); }

    /// The stream referred to, if its type is `Stream`; null otherwise.
    template<class Stream>
    Stream* target() const noexcept
    {
        return vtable_ == &detail::any_stream_vtable_for<Stream> ? static_cast<Stream*>(target_) : nullptr;
    }

    /// `beast::close_socket` support.
    friend void beast_close_socket(any_stream& s) { s.close(); }

private:
    template<class Handler>
    detail::io_handler erase(Handler&& h) const
    {
        asio::any_io_executor ex = asio::get_associated_executor(h, get_executor());
        return {asio::any_completion_handler<detail::io_signature>(std::forward<Handler>(h)), std::move(ex)};
    }

    void* target_;
    detail::any_stream_vtable const* vtable_;
};

} // namespace agentio::http

#endif
