//
// agentio/http/impl/server.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//

#ifndef AGENTIO_HTTP_IMPL_SERVER_HPP
#define AGENTIO_HTTP_IMPL_SERVER_HPP

#include <agentio/json_text.hpp>

#include <boost/asio/as_tuple.hpp>
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
#include <boost/beast/http/write.hpp>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace agentio::http {

inline response make_error_response(beast::http::status status, std::string_view detail, unsigned version,
    bool keep_alive)
{
    response res{status, version};
    res.set(beast::http::field::content_type, "application/json");
    std::string body = "{\"detail\":";
    agentio::append_json_string(body, detail);
    body.push_back('}');
    res.body() = std::move(body);
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
inline asio::awaitable<system::error_code> write_header_only(beast::tcp_stream& stream, beast::http::message_generator& reply)
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
inline std::optional<response> answer_to_read_error(system::error_code const& ec, server_options const& opt)
{
    using beast::http::status;
    if(is_disconnect(ec))
        return std::nullopt;
    if(ec == beast::http::error::body_limit)
        return make_error_response(status::payload_too_large,
            "request body exceeds the limit of " + std::to_string(opt.max_body_bytes) + " bytes", 11, false);
    if(ec == beast::http::error::header_limit)
        return make_error_response(status::request_header_fields_too_large,
            "request header exceeds the limit of " + std::to_string(opt.max_header_bytes) + " bytes", 11, false);
    return make_error_response(status::bad_request, "malformed HTTP request: " + ec.message(), 11, false);
}

inline void log_unexpected(char const* where, std::exception_ptr ep) noexcept
{
    try
    {
        std::rethrow_exception(ep);
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio::http::server: %s: %s\n", where, e.what());
    }
    catch(...)
    {
        std::fprintf(stderr, "agentio::http::server: %s: unknown exception\n", where);
    }
}

} // detail

template<request_handler Handler>
server<Handler>::server(asio::any_io_executor ex, Handler handler, server_options options)
    : executor_(ex)
    , acceptor_(asio::make_strand(ex))
    , shared_(std::make_shared<shared_state>(std::move(handler), std::move(options)))
{
}

template<request_handler Handler>
system::result<tcp::endpoint> server<Handler>::listen(tcp::endpoint const& endpoint)
{
    system::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if(!ec)
        acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if(!ec)
        acceptor_.bind(endpoint, ec);
    if(!ec)
        acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if(ec)
    {
        system::error_code ignored;
        acceptor_.close(ignored);
        return ec;
    }
    return acceptor_.local_endpoint();
}

template<request_handler Handler>
void server<Handler>::start()
{
    asio::co_spawn(acceptor_.get_executor(), accept_loop(), [](std::exception_ptr ep) {
        if(ep)
            detail::log_unexpected("accept loop", ep);
    });
}

template<request_handler Handler>
void server<Handler>::stop()
{
    asio::post(acceptor_.get_executor(), [this] {
        system::error_code ignored;
        acceptor_.close(ignored);
    });
}

template<request_handler Handler>
asio::awaitable<void> server<Handler>::accept_loop()
{
    for(;;)
    {
        auto [ec, socket] = co_await acceptor_.async_accept(asio::make_strand(executor_), detail::use_tuple);
        if(ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor)
            co_return; // stopped
        if(ec)
        {
            // Out of descriptors or memory: back off instead of spinning.
            asio::steady_timer pause(acceptor_.get_executor(), std::chrono::milliseconds(50));
            co_await pause.async_wait(detail::use_tuple);
            continue;
        }
        system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        auto const ex = socket.get_executor();
        asio::co_spawn(ex, serve(shared_, beast::tcp_stream(tcp::socket(std::move(socket)))),
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
    while(!ec && total < 64 * 1024 * 1024)
    {
        std::size_t n = 0;
        std::tie(ec, n) = co_await stream.async_read_some(asio::buffer(sink), use_tuple);
        total += n;
    }
}

} // detail

template<request_handler Handler>
asio::awaitable<void> server<Handler>::serve(std::shared_ptr<shared_state> state, beast::tcp_stream stream)
{
    namespace bhttp = beast::http;
    using detail::linger;
    using detail::use_tuple;

    struct connection_count
    {
        std::atomic<std::size_t>& n;
        explicit connection_count(std::atomic<std::size_t>& c) : n(c) { ++n; }
        ~connection_count() { --n; }
    } counted(state->connections);

    server_options const& opt = state->options;
    beast::flat_buffer buffer;

    auto send_and_close = [&](response res) -> asio::awaitable<void> {
        res.set(bhttp::field::server, opt.server_name);
        stream.expires_after(opt.write_timeout);
        co_await bhttp::async_write(stream, res, use_tuple);
    };

    if(state->connections.load() > opt.max_connections)
    {
        co_await send_and_close(make_error_response(bhttp::status::service_unavailable,
            "too many connections", 11, false));
    }
    else
    {
        for(;;)
        {
            bhttp::request_parser<bhttp::string_body> parser;
            parser.body_limit(opt.max_body_bytes);
            parser.header_limit(opt.max_header_bytes);

            stream.expires_after(opt.read_timeout);
            auto [ec, n] = co_await bhttp::async_read_header(stream, buffer, parser, use_tuple);
            if(!ec && !parser.is_done())
            {
                // curl and others wait for this before sending a large body.
                if(beast::iequals(parser.get()[bhttp::field::expect], "100-continue"))
                {
                    bhttp::response<bhttp::empty_body> go_on{bhttp::status::continue_, parser.get().version()};
                    stream.expires_after(opt.write_timeout);
                    std::tie(ec, n) = co_await bhttp::async_write(stream, go_on, use_tuple);
                }
                if(!ec)
                {
                    stream.expires_after(opt.read_timeout);
                    std::tie(ec, n) = co_await bhttp::async_read(stream, buffer, parser, use_tuple);
                }
            }
            if(ec)
            {
                if(auto res = detail::answer_to_read_error(ec, opt))
                {
                    co_await send_and_close(std::move(*res));
                    co_await linger(stream);
                }
                break;
            }

            request req = parser.release();
            unsigned const version = req.version();
            bool const keep_alive = req.keep_alive();
            bool const head = req.method() == bhttp::verb::head;

            std::optional<bhttp::message_generator> reply;
            std::exception_ptr failure;
            try
            {
                if constexpr(streaming_request_handler<Handler>)
                    reply = co_await state->handler(std::move(req), stream);
                else
                    reply.emplace(co_await state->handler(std::move(req)));
            }
            catch(...)
            {
                failure = std::current_exception();
            }
            if(failure)
            {
                detail::log_unexpected("handler", failure);
                co_await send_and_close(make_error_response(bhttp::status::internal_server_error,
                    "internal server error", version, false));
                break;
            }

            if(!reply)
                break; // the handler answered on the stream itself (a streamed response)
            bool const reply_keeps_alive = reply->keep_alive();
            stream.expires_after(opt.write_timeout);
            system::error_code wec;
            if(head)
                wec = co_await detail::write_header_only(stream, *reply);
            else
                std::tie(wec, std::ignore) = co_await beast::async_write(stream, std::move(*reply), use_tuple);
            if(wec || !keep_alive || !reply_keeps_alive)
                break;
        }
    }

    system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

} // agentio::http

#endif
