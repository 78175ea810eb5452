//
// agentio/http/impl/server.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_SERVER_HPP
#define AGENTIO_HTTP_IMPL_SERVER_HPP

#include <agentio/text.hpp>
#include <agentio/json_text.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/beast/http/write.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>
#include <exception>
#include <stdexcept>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace agentio::http {

inline void write_problem_details(response& res, std::string_view detail)
{
    res.set(beast::http::field::content_type, "application/problem+json");
    std::string body = "{\"title\":";
    agentio::append_json_string(body, beast::http::obsolete_reason(res.result()));
    body += ",\"status\":" + std::to_string(res.result_int()) + ",\"detail\":";
    agentio::append_json_string(body, detail);
    body.push_back('}');
    res.body() = std::move(body);
}

inline response make_error_response(beast::http::status status, std::string_view detail, unsigned version,
    bool keep_alive, error_body_writer const& write_body)
{
    response res{status, version};
    if(write_body)
        write_body(res, detail);
    else
        write_problem_details(res, detail);
    res.keep_alive(keep_alive);
    res.prepare_payload();
    return res;
}

namespace detail {

inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// RFC 9110 §9.3.2: the answer to HEAD is the GET's header, Content-Length
// included, and no content: a body here would be read as the next response.
// Handlers build one message for both (and errors such as 404/405 have a
// body); the generator yields the header's bytes first, and a header ends at
// its first empty line.
template<class Stream>
asio::awaitable<system::error_code> write_header_only(Stream& stream, beast::http::message_generator& reply)
{
    std::string header;
    system::error_code ec;
    std::size_t end = std::string::npos;
    while(end == std::string::npos && !reply.is_done())
    {
        auto const buffers = reply.prepare(ec);
        if(ec)
            co_return ec;
        std::size_t n = 0;
        for(auto const& b : buffers)
        {
            header.append(static_cast<char const*>(b.data()), b.size());
            n += b.size();
        }
        reply.consume(n);
        end = header.find("\r\n\r\n");
    }
    if(end != std::string::npos)
        header.resize(end + 4);
    auto [wec, written] = co_await asio::async_write(stream, asio::buffer(header), use_tuple);
    (void)written;
    co_return wec;
}

// Errors that only mean the peer went away or went quiet: nothing to answer.
inline bool is_disconnect(system::error_code const& ec) noexcept
{
    return ec == beast::http::error::end_of_stream || ec == beast::http::error::partial_message ||
        ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
        ec == asio::error::operation_aborted || ec == beast::error::timeout;
}

// The answer to a request that could not be read, or none if there is nobody
// to answer. The connection is closed after it in any case: the unread rest of
// the request would otherwise be taken for the next one.
inline std::optional<response> answer_to_read_error(system::error_code const& ec, server_options const& opt,
    std::size_t body_limit)
{
    using beast::http::status;
    if(is_disconnect(ec))
        return std::nullopt;
    if(ec == beast::http::error::body_limit)
        return make_error_response(status::payload_too_large,
            "request body exceeds the limit of " + std::to_string(body_limit) + " bytes", 11, false, opt.error_body);
    if(ec == beast::http::error::header_limit)
        return make_error_response(status::request_header_fields_too_large,
            "request header exceeds the limit of " + std::to_string(opt.max_header_bytes) + " bytes", 11, false,
            opt.error_body);
    if(ec == beast::http::error::buffer_overflow)
        return make_error_response(status::request_header_fields_too_large,
            "a chunk header or the trailer exceeds the limit of " + std::to_string(opt.max_header_bytes) + " bytes", 11,
            false, opt.error_body);
    return make_error_response(status::bad_request, "malformed HTTP request: " + ec.message(), 11, false,
        opt.error_body);
}

inline void log_unexpected(char const* where, std::exception_ptr ep) noexcept
{
    try
    {
        std::rethrow_exception(ep);
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio::http::server: %s: %s\n", where, agentio::log_text(e.what()).c_str());
    }
    catch(...)
    {
        std::fprintf(stderr, "agentio::http::server: %s: unknown exception\n", where);
    }
}

} // namespace detail

namespace detail {

// What the server holds for one client address.
struct peer_usage
{
    std::size_t connections = 0;
    std::size_t pending_output = 0;
};

// Connections and bytes of unsent answers, server-wide and per address.
class usage_ledger
{
public:
    explicit usage_ledger(server_options const& o) : opt_(o) {}

    enum class admission
    {
        ok,
        server_full,
        address_full
    };

    admission open(asio::ip::address const& a)
    {
        std::lock_guard lock(mutex_);
        if(connections_ >= opt_.max_connections)
            return admission::server_full;
        auto& u = peers_[a];
        if(opt_.max_connections_per_address != 0 && u.connections >= opt_.max_connections_per_address)
            return admission::address_full;
        ++u.connections;
        ++connections_;
        return admission::ok;
    }

    void close(asio::ip::address const& a)
    {
        std::lock_guard lock(mutex_);
        auto it = peers_.find(a);
        if(it == peers_.end())
            return;
        --it->second.connections;
        --connections_;
        release_if_empty(a, it->second);
    }

    // Takes `n` bytes of the output budget for a piece of an answer. The
    // first piece of an answer is refused past a bound, unless it is small or
    // the only bytes its client (for the server-wide bound: anyone) holds, so
    // that every client can always get one answer at a time.
    bool try_hold_output(asio::ip::address const& a, std::size_t n, bool first_piece)
    {
        constexpr std::size_t always_sent = 16 * 1024;
        std::lock_guard lock(mutex_);
        auto& u = peers_[a];
        if(first_piece && n >= always_sent)
        {
            auto const total = opt_.max_pending_output_bytes;
            auto const per_peer = opt_.max_pending_output_bytes_per_address;
            if((total != 0 && pending_ != 0 && pending_ + n > total) ||
                (per_peer != 0 && u.pending_output != 0 && u.pending_output + n > per_peer))
            {
                release_if_empty(a, u);
                return false;
            }
        }
        u.pending_output += n;
        pending_ += n;
        return true;
    }

    void release_output(asio::ip::address const& a, std::size_t n)
    {
        std::lock_guard lock(mutex_);
        auto it = peers_.find(a);
        if(it == peers_.end())
            return;
        it->second.pending_output -= n;
        pending_ -= n;
        release_if_empty(a, it->second);
    }

    std::size_t connections() const
    {
        std::lock_guard lock(mutex_);
        return connections_;
    }

    std::size_t pending_output() const
    {
        std::lock_guard lock(mutex_);
        return pending_;
    }

private:
    void release_if_empty(asio::ip::address const& a, peer_usage const& u)
    {
        if(u.connections == 0 && u.pending_output == 0)
            peers_.erase(a);
    }

    server_options const& opt_;
    mutable std::mutex mutex_;
    std::unordered_map<asio::ip::address, peer_usage> peers_;
    std::size_t connections_ = 0;
    std::size_t pending_ = 0;
};

// What shutdown() needs of a connection: touched only on the connection's strand.
struct connection_control
{
    asio::any_io_executor strand;
    tcp::socket* socket = nullptr; // null once the connection has ended
    bool idle = true;              // waiting for a request head with nothing of it read yet
};

// Why a request head must be refused before its body is read (RFC 9112
// §3.2, §6.1–6.3): the framing shapes request smuggling relies on once a
// proxy sits in front. The body's length would be ambiguous, so the answer
// closes the connection and nothing after the head is ever read as a request.
struct framing_error
{
    beast::http::status status;
    std::string detail;
};

inline std::optional<framing_error> check_framing(beast::http::request_header<> const& h)
{
    using beast::http::field;
    using beast::http::status;
    if(h.version() >= 11 && h.count(field::host) == 0)
        return framing_error{status::bad_request, "missing Host header"};
    if(h.count(field::host) > 1)
        return framing_error{status::bad_request, "more than one Host header"};
    if(h.count(field::content_length) > 1)
        return framing_error{status::bad_request, "more than one Content-Length header"};
    if(auto const it = h.find(field::content_length); it != h.end())
    {
        auto const v = it->value();
        if(v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != beast::string_view::npos)
            return framing_error{status::bad_request, "invalid Content-Length"};
    }
    if(h.count(field::transfer_encoding) == 0)
        return std::nullopt;
    if(h.version() < 11)
        return framing_error{status::bad_request, "Transfer-Encoding in an HTTP/1.0 request"};
    if(h.count(field::content_length) != 0)
        return framing_error{status::bad_request, "both Transfer-Encoding and Content-Length"};
    // Every field line is one list of codings, each with optional parameters.
    std::vector<beast::string_view> codings;
    bool parameters = false;
    auto const [first, last] = h.equal_range(field::transfer_encoding);
    for(auto f = first; f != last; ++f)
        for(auto const& coding : beast::http::ext_list(f->value()))
        {
            codings.push_back(coding.first);
            parameters = parameters || coding.second.begin() != coding.second.end();
        }
    if(codings.empty())
        return framing_error{status::bad_request, "empty Transfer-Encoding"};
    auto const is_chunked = [](beast::string_view c) { return beast::iequals(c, "chunked"); };
    if(std::count_if(codings.begin(), codings.end(), is_chunked) > 1)
        return framing_error{status::bad_request, "chunked applied more than once"};
    if(!is_chunked(codings.back()))
        return framing_error{status::bad_request, "the last transfer coding is not chunked"};
    for(auto const c : codings)
        if(!is_chunked(c))
            return framing_error{status::not_implemented, "transfer coding not implemented: " + std::string(c)};
    if(parameters)
        return framing_error{status::bad_request, "chunked takes no parameters"};
    return std::nullopt;
}

} // namespace detail

template<request_handler Handler>
struct server<Handler>::shared_state
{
    shared_state(Handler h, server_options o) : handler(std::move(h)), options(std::move(o)), ledger(options)
    {
        options.max_header_bytes = (std::min<std::uint32_t>)(options.max_header_bytes, 65535);
    }

    Handler handler;
    server_options options;
    detail::usage_ledger ledger;
    std::atomic<bool> stopping{false};
    std::mutex mutex; // guards `open`
    std::list<std::shared_ptr<detail::connection_control>> open;

    // Runs `f(control)` on each open connection's strand.
    template<class F>
    void for_each_connection(F f)
    {
        std::lock_guard lock(mutex);
        for(auto const& c : open)
            asio::post(c->strand, [c, f] {
                if(c->socket)
                    f(*c);
            });
    }
};

template<request_handler Handler>
server<Handler>::server(asio::any_io_executor ex, Handler handler, server_options options)
    : executor_(ex)
    , acceptor_(std::make_shared<tcp::acceptor>(asio::make_strand(ex)))
    , shared_(std::make_shared<shared_state>(std::move(handler), std::move(options)))
{
    if(shared_->options.tls && !serves_tls)
        throw std::invalid_argument("agentio::http::server: TLS needs a plain handler or one that takes "
                                    "an any_stream& or a tls_stream&");
}

template<request_handler Handler>
std::size_t server<Handler>::connection_count() const noexcept
{
    return shared_->ledger.connections();
}

template<request_handler Handler>
Handler& server<Handler>::handler() noexcept
{
    return shared_->handler;
}

template<request_handler Handler>
system::result<tcp::endpoint> server<Handler>::listen(tcp::endpoint const& endpoint)
{
    system::error_code ec;
    acceptor_->open(endpoint.protocol(), ec);
    if(!ec)
        acceptor_->set_option(asio::socket_base::reuse_address(true), ec);
    if(!ec)
        acceptor_->bind(endpoint, ec);
    if(!ec)
        acceptor_->listen(asio::socket_base::max_listen_connections, ec);
    if(ec)
    {
        system::error_code ignored;
        acceptor_->close(ignored);
        return ec;
    }
    return acceptor_->local_endpoint();
}

template<request_handler Handler>
void server<Handler>::start()
{
    asio::co_spawn(acceptor_->get_executor(), accept_loop(), [](std::exception_ptr ep) {
        if(ep)
            detail::log_unexpected("accept loop", ep);
    });
}

template<request_handler Handler>
void server<Handler>::stop()
{
    // The acceptor is shared with the posted close: a server destroyed
    // before it runs leaves it nothing to touch but the acceptor it keeps.
    asio::post(acceptor_->get_executor(), [acceptor = acceptor_] {
        system::error_code ignored;
        acceptor->close(ignored);
    });
}

template<request_handler Handler>
void server<Handler>::shutdown(std::chrono::steady_clock::duration grace, std::function<void()> done)
{
    auto drain = [](server* self, std::shared_ptr<shared_state> state, std::chrono::steady_clock::duration wait,
                     std::function<void()> then) -> asio::awaitable<void> {
        system::error_code ignored;
        self->acceptor_->close(ignored);
        state->stopping = true;
        // Idle keep-alive connections go now; a busy one closes after its answer.
        state->for_each_connection([](detail::connection_control& c) {
            system::error_code ec;
            if(c.idle)
                c.socket->close(ec);
        });
        asio::steady_timer tick(co_await asio::this_coro::executor);
        auto const until = std::chrono::steady_clock::now() + wait;
        while(state->ledger.connections() != 0 && std::chrono::steady_clock::now() < until)
        {
            tick.expires_after(std::chrono::milliseconds(20));
            co_await tick.async_wait(detail::use_tuple);
        }
        if(state->ledger.connections() != 0)
        {
            state->for_each_connection([](detail::connection_control& c) {
                system::error_code ec;
                c.socket->shutdown(tcp::socket::shutdown_both, ec);
                c.socket->close(ec);
            });
            auto const last = std::chrono::steady_clock::now() + std::chrono::seconds(1);
            while(state->ledger.connections() != 0 && std::chrono::steady_clock::now() < last)
            {
                tick.expires_after(std::chrono::milliseconds(20));
                co_await tick.async_wait(detail::use_tuple);
            }
        }
        if(then)
            then();
    };
    asio::co_spawn(acceptor_->get_executor(), drain(this, shared_, grace, std::move(done)), [](std::exception_ptr ep) {
        if(ep)
            detail::log_unexpected("shutdown", ep);
    });
}

template<request_handler Handler>
asio::awaitable<void> server<Handler>::accept_loop()
{
    for(;;)
    {
        auto [ec, socket] = co_await acceptor_->async_accept(asio::make_strand(executor_), detail::use_tuple);
        if(ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor)
            co_return; // stopped
        if(ec)
        {
            // Out of descriptors: idle keep-alive connections give theirs back
            // (as nginx does), so that new clients are not kept waiting behind
            // connections nobody uses. Either way, back off instead of spinning.
            if(ec == asio::error::no_descriptors || ec == system::errc::too_many_files_open_in_system)
                shared_->for_each_connection([](detail::connection_control& c) {
                    system::error_code ignored;
                    if(c.idle)
                        c.socket->close(ignored);
                });
            asio::steady_timer pause(acceptor_->get_executor(), std::chrono::milliseconds(50));
            co_await pause.async_wait(detail::use_tuple);
            continue;
        }
        system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        auto const peer = socket.remote_endpoint(ec);
        if(ec)
            continue; // already gone
        auto const ex = socket.get_executor();
        asio::co_spawn(ex, serve(shared_, beast::tcp_stream(tcp::socket(std::move(socket))), peer.address()),
            [](std::exception_ptr ep) {
                if(ep)
                    detail::log_unexpected("connection", ep);
            });
    }
}

namespace detail {

// After an error answer to a request whose body was not read (413, 400): the
// client may still be sending it, and closing with unread input makes the
// kernel send a reset that can destroy the answer before the client reads it.
// So stop sending, then read and drop what still comes, for a bounded time
// and amount, as servers' "lingering close" does.
inline asio::awaitable<void> linger(beast::tcp_stream& stream)
{
    system::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    char sink[16 * 1024];
    std::size_t total = 0;
    stream.expires_after(std::chrono::seconds(2));
    while(!ec && total < 1024 * 1024)
    {
        std::size_t n = 0;
        std::tie(ec, n) = co_await stream.async_read_some(asio::buffer(sink), use_tuple);
        total += n;
    }
}

// Writes a handler's answer piece by piece, holding the bytes each piece
// exposes against the output budget while it is written; a first piece the
// budget refuses is not written and `refused` is set. A HEAD answer stops at
// the end of its header.
template<class Stream>
asio::awaitable<system::error_code> write_answer(Stream& stream, beast::http::message_generator& reply, bool head,
    usage_ledger& ledger, asio::ip::address const& peer, bool& refused)
{
    if(head)
        co_return co_await write_header_only(stream, reply);
    system::error_code ec;
    bool first = true;
    while(!reply.is_done())
    {
        auto const buffers = reply.prepare(ec);
        if(ec)
            co_return ec;
        std::size_t const size = asio::buffer_size(buffers);
        if(!ledger.try_hold_output(peer, size, first))
        {
            refused = true;
            co_return system::error_code{};
        }
        first = false;
        auto [wec, n] = co_await asio::async_write(stream, buffers, use_tuple);
        ledger.release_output(peer, size);
        if(wec)
            co_return wec;
        reply.consume(n);
    }
    co_return system::error_code{};
}

} // namespace detail

template<request_handler Handler>
asio::awaitable<void> server<Handler>::serve(std::shared_ptr<shared_state> state, beast::tcp_stream stream,
    asio::ip::address peer)
{
    namespace bhttp = beast::http;
    using detail::use_tuple;

    server_options const& opt = state->options;

    auto const admission = state->ledger.open(peer);
    if(admission != detail::usage_ledger::admission::ok)
    {
        if(opt.tls)
            co_return; // no answer without a handshake, and a refused client gets none
        auto res = make_error_response(bhttp::status::service_unavailable,
            admission == detail::usage_ledger::admission::server_full ? "too many connections"
                                                                      : "too many connections from this address",
            11, false, opt.error_body);
        res.set(bhttp::field::server, opt.server_name);
        stream.expires_after(opt.write_timeout);
        co_await bhttp::async_write(stream, res, use_tuple);
        co_return;
    }

    // Registered for shutdown(); unregistered, and the ledger told, on every way out.
    auto control = std::make_shared<detail::connection_control>();
    control->strand = stream.get_executor();
    control->socket = &stream.socket();
    typename std::list<std::shared_ptr<detail::connection_control>>::iterator registered;
    {
        std::lock_guard lock(state->mutex);
        registered = state->open.insert(state->open.end(), control);
    }
    struct on_exit
    {
        std::shared_ptr<shared_state>& state;
        std::shared_ptr<detail::connection_control>& control;
        typename std::list<std::shared_ptr<detail::connection_control>>::iterator it;
        asio::ip::address const& peer;
        ~on_exit()
        {
            control->socket = nullptr;
            {
                std::lock_guard lock(state->mutex);
                state->open.erase(it);
            }
            state->ledger.close(peer);
        }
    } cleanup{state, control, registered, peer};

    if constexpr(serves_tls)
    {
        if(opt.tls)
        {
            tls_stream tls(std::move(stream), *opt.tls);
            control->socket = &beast::get_lowest_layer(tls).socket();
            // The handshake is the start of the request head: the same bound holds.
            beast::get_lowest_layer(tls).expires_after(opt.header_timeout);
            auto [ec] = co_await tls.async_handshake(asio::ssl::stream_base::server, use_tuple);
            if(ec)
                co_return;
            bool const in_order = co_await serve_requests(state, tls, peer, *control);
            if(in_order)
            {
                // close_notify, and the peer's for a bounded time: a client
                // that never answers it costs at most the timeout.
                beast::get_lowest_layer(tls).expires_after(opt.tls_shutdown_timeout);
                auto [sec] = co_await tls.async_shutdown(use_tuple);
                (void)sec;
            }
            system::error_code ignored;
            beast::get_lowest_layer(tls).socket().shutdown(tcp::socket::shutdown_both, ignored);
            co_return;
        }
    }
    co_await serve_requests(state, stream, peer, *control);
    system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

// Serves requests until the connection ends; true when it ended in order
// (an answer with `Connection: close`, a streamed answer, shutdown) rather
// than by an error of the stream.
template<request_handler Handler>
template<class Stream>
asio::awaitable<bool> server<Handler>::serve_requests(std::shared_ptr<shared_state> const& state, Stream& stream,
    asio::ip::address const& peer, detail::connection_control& control)
{
    namespace bhttp = beast::http;
    using detail::linger;
    using detail::use_tuple;

    server_options const& opt = state->options;
    auto& tcp_layer = beast::get_lowest_layer(stream);

    auto send_and_close = [&](response res) -> asio::awaitable<bool> {
        res.set(bhttp::field::server, opt.server_name);
        res.keep_alive(false);
        tcp_layer.expires_after(opt.write_timeout);
        auto [ec, n] = co_await bhttp::async_write(stream, res, use_tuple);
        co_return !ec;
    };
    // Bounded, so that what a request holds before it is parsed (its head,
    // a chunk header, the trailer) stays within the header limit; the body
    // goes into the request as it is parsed.
    beast::flat_buffer buffer(opt.max_header_bytes + 1024);

    while(!state->stopping)
    {
        bhttp::request_parser<bhttp::string_body> parser;
        // With a limit per request, it is known once the head is: until
        // then the parser must not judge the declared length by another.
        std::size_t body_limit = opt.max_body_bytes;
        if(opt.max_body_bytes_for)
            parser.body_limit(boost::none);
        else
            parser.body_limit(body_limit);
        parser.header_limit(opt.max_header_bytes);

        control.idle = buffer.size() == 0;
        tcp_layer.expires_after(opt.header_timeout);
        auto [ec, n] = co_await bhttp::async_read_header(stream, buffer, parser, use_tuple);
        control.idle = false;
        if(!ec)
        {
            if(auto refused = detail::check_framing(parser.get()))
            {
                co_await send_and_close(make_error_response(refused->status, refused->detail, 11, false,
                    opt.error_body));
                co_await linger(tcp_layer);
                co_return false;
            }
            if(opt.max_body_bytes_for)
            {
                body_limit = opt.max_body_bytes_for(parser.get());
                if(auto const length = parser.content_length(); length && *length > body_limit)
                    ec = bhttp::error::body_limit; // answered below, the body never read
                else
                    parser.body_limit(body_limit);
            }
        }
        if(!ec && !parser.is_done())
        {
            // curl and others wait for this before sending a large body.
            if(parser.get().version() >= 11 && beast::iequals(parser.get()[bhttp::field::expect], "100-continue"))
            {
                bhttp::response<bhttp::empty_body> go_on{bhttp::status::continue_, parser.get().version()};
                tcp_layer.expires_after(opt.write_timeout);
                std::tie(ec, n) = co_await bhttp::async_write(stream, go_on, use_tuple);
            }
            if(!ec)
            {
                tcp_layer.expires_after(opt.read_timeout);
                std::tie(ec, n) = co_await bhttp::async_read(stream, buffer, parser, use_tuple);
            }
        }
        if(ec)
        {
            if(auto res = detail::answer_to_read_error(ec, opt, body_limit))
            {
                co_await send_and_close(std::move(*res));
                co_await linger(tcp_layer);
            }
            co_return false;
        }

        request req = parser.release();
        unsigned const version = req.version();
        bool const keep_alive = req.keep_alive();
        bool const head = req.method() == bhttp::verb::head;

        std::optional<bhttp::message_generator> reply;
        std::exception_ptr failure;
        try
        {
            if constexpr(streaming_request_handler<Handler, any_stream>)
            {
                any_stream erased(stream);
                reply = co_await state->handler(std::move(req), erased);
            }
            else if constexpr(streaming_request_handler<Handler, Stream>)
                reply = co_await state->handler(std::move(req), stream);
            else if constexpr(plain_request_handler<Handler>)
                reply.emplace(co_await state->handler(std::move(req)));
            else
                throw std::logic_error("the handler takes no stream of this kind"); // excluded by the constructor
        }
        catch(...)
        {
            failure = std::current_exception();
        }
        if(failure)
        {
            detail::log_unexpected("handler", failure);
            co_await send_and_close(make_error_response(bhttp::status::internal_server_error, "internal server error",
                version, false, opt.error_body));
            break;
        }

        if(!reply)
            break; // the handler answered on the stream itself (a streamed response)
        bool const reply_keeps_alive = reply->keep_alive();
        tcp_layer.expires_after(opt.write_timeout);
        bool refused = false;
        auto const wec = co_await detail::write_answer(stream, *reply, head, state->ledger, peer, refused);
        if(refused)
        {
            reply.reset(); // its memory goes now, not after the 503 is written
            auto busy = make_error_response(bhttp::status::service_unavailable,
                "the server holds too many unread answers; try again", version, false, opt.error_body);
            busy.set(bhttp::field::retry_after, "1");
            co_await send_and_close(std::move(busy));
            break;
        }
        if(wec)
            co_return false;
        if(!keep_alive || !reply_keeps_alive)
            break;
    }

    co_return true;
}

inline void run_threads(asio::io_context& ioc, unsigned threads, std::function<void(std::exception_ptr)> on_error)
{
    auto run_one = [&ioc, &on_error] {
        for(;;)
        {
            try
            {
                ioc.run();
                return;
            }
            catch(...)
            {
                if(on_error)
                    on_error(std::current_exception());
                else
                    detail::log_unexpected("io_context::run", std::current_exception());
            }
        }
    };
    std::vector<std::thread> extra;
    for(unsigned i = 1; i < threads; ++i)
        extra.emplace_back(run_one);
    run_one();
    for(auto& t : extra)
        t.join();
}

inline std::size_t raise_open_file_limit() noexcept
{
    rlimit lim{};
    if(::getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 0;
    if(lim.rlim_cur < lim.rlim_max)
    {
        lim.rlim_cur = lim.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &lim);
        ::getrlimit(RLIMIT_NOFILE, &lim);
    }
    return static_cast<std::size_t>(lim.rlim_cur);
}

} // namespace agentio::http

#endif
