//
// agentio/http/detail/client_pool.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A client connection (plain or TLS behind one stream interface) and the
// per-origin pool of them: a cap on live connections, idle ones reused most
// recent first, and a FIFO of requests waiting for one.
//

#ifndef AGENTIO_HTTP_DETAIL_CLIENT_POOL_HPP
#define AGENTIO_HTTP_DETAIL_CLIENT_POOL_HPP

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace agentio::http::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;

/* One connection to an origin (or to a proxy, for http:// through it).

   Starts as TCP; `start_tls` moves the TCP stream under a TLS stream (after a
   proxy's CONNECT, say). Either way it is an AsyncStream, so Beast's HTTP
   operations are written once for both.
*/
class connection
{
public:
    using executor_type = asio::any_io_executor;

    explicit connection(asio::any_io_executor ex) : plain_(std::in_place, std::move(ex)) {}

    executor_type get_executor() noexcept { return tcp().get_executor(); }

    beast::tcp_stream& tcp() noexcept { return tls_ ? tls_->next_layer() : *plain_; }

    bool is_tls() const noexcept { return tls_.has_value(); }

    beast::ssl_stream<beast::tcp_stream>& tls() noexcept { return *tls_; }

    void start_tls(asio::ssl::context& ctx)
    {
        tls_.emplace(std::move(*plain_), ctx);
        plain_.reset();
    }

    template<class MutableBufferSequence, class ReadHandler>
    auto async_read_some(MutableBufferSequence const& buffers, ReadHandler&& handler)
    {
        return asio::async_initiate<ReadHandler, void(boost::system::error_code, std::size_t)>(
            [this](auto h, MutableBufferSequence const& b) {
                if(tls_)
                    tls_->async_read_some(b, std::move(h));
                else
                    plain_->async_read_some(b, std::move(h));
            },
            handler, buffers);
    }

    template<class ConstBufferSequence, class WriteHandler>
    auto async_write_some(ConstBufferSequence const& buffers, WriteHandler&& handler)
    {
        return asio::async_initiate<WriteHandler, void(boost::system::error_code, std::size_t)>(
            [this](auto h, ConstBufferSequence const& b) {
                if(tls_)
                    tls_->async_write_some(b, std::move(h));
                else
                    plain_->async_write_some(b, std::move(h));
            },
            handler, buffers);
    }

    // No TLS close_notify: a peer that wants it cannot make us wait for it.
    void close() noexcept { tcp().close(); }

    /* Whether an idle connection may still be used: the peer has neither
       closed it nor sent anything (a stray byte on an idle HTTP/1.1
       connection means it is unusable, a TLS alert included). A
       non-blocking peek, as curl does before reusing a connection.
    */
    bool looks_alive() noexcept
    {
        auto& s = tcp().socket();
        if(!s.is_open())
            return false;
        boost::system::error_code ec;
        s.non_blocking(true, ec);
        if(ec)
            return false;
        char c;
        s.receive(asio::buffer(&c, 1), asio::socket_base::message_peek, ec);
        bool const alive = ec == asio::error::would_block || ec == asio::error::try_again;
        s.non_blocking(false, ec);
        return alive && !ec;
    }

    beast::flat_buffer buffer;
    std::chrono::steady_clock::time_point idle_since;

private:
    std::optional<beast::tcp_stream> plain_;
    std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
};

/* The pool. A "slot" is the right to have one live connection to an origin;
   `live` counts slots (connecting, busy and idle connections). Requests at
   the cap wait in a FIFO; a released slot goes to the first waiter, with the
   connection if it is reusable.
*/
class connection_pool
{
public:
    // A request waiting for a slot. The timer is a condition variable: it
    // expires at the request's deadline and is cancelled to grant the slot.
    struct waiter
    {
        explicit waiter(asio::any_io_executor strand_ex) : ex(strand_ex), timer(strand_ex) {}

        asio::any_io_executor ex; // the waiting coroutine's strand
        asio::steady_timer timer;
        std::unique_ptr<connection> conn; // the granted connection, or none: connect anew
        bool granted = false;
    };

    struct acquired
    {
        bool granted = false;
        std::unique_ptr<connection> conn;
        std::shared_ptr<waiter> wait; // set when not granted: wait on it
    };

    connection_pool(std::size_t cap, std::chrono::steady_clock::duration keep_alive, bool watch_idle)
        : core_(std::make_shared<core>())
        , cap_(cap == 0 ? 1 : cap)
        , keep_alive_(keep_alive)
        , watch_idle_(watch_idle)
    {
    }

    // Takes an idle connection, or a slot to connect, or enqueues a waiter
    // (made with `strand_ex`, the caller's strand) to wait on.
    acquired acquire(std::string const& key, asio::any_io_executor const& strand_ex)
    {
        std::unique_lock lock(core_->mutex);
        auto& o = core_->origins[key];
        prune(o, std::chrono::steady_clock::now());
        acquired a;
        while(!o.idle.empty())
        {
            auto conn = std::move(o.idle.back());
            o.idle.pop_back();
            boost::system::error_code ignored;
            conn->tcp().socket().cancel(ignored); // its idle watch: it is ours now
            if(conn->looks_alive())
            {
                a.granted = true;
                a.conn = std::move(conn);
                return a;
            }
            conn->close();
            --o.live;
        }
        if(o.live < cap_)
        {
            ++o.live;
            a.granted = true;
            return a;
        }
        a.wait = std::make_shared<waiter>(strand_ex);
        o.waiters.push_back(a.wait);
        return a;
    }

    // After the wait ended: whether the waiter was granted a slot (then it
    // owns it, and `w.conn` if any); if not it leaves the queue.
    bool withdraw(std::string const& key, waiter& w)
    {
        std::lock_guard lock(core_->mutex);
        if(w.granted)
            return true;
        auto it = core_->origins.find(key);
        if(it != core_->origins.end())
        {
            auto& q = it->second.waiters;
            for(auto wi = q.begin(); wi != q.end(); ++wi)
                if(wi->get() == &w)
                {
                    q.erase(wi);
                    break;
                }
            erase_if_unused(*core_, it);
        }
        return false;
    }

    // Gives a slot back, with its connection if that may be reused (null: it
    // was closed). The connection must have nothing pending.
    void release(std::string const& key, std::unique_ptr<connection> conn)
    {
        std::shared_ptr<waiter> next;
        {
            std::lock_guard lock(core_->mutex);
            auto it = core_->origins.find(key);
            if(it == core_->origins.end())
                return; // cannot happen: the slot was counted
            auto& o = it->second;
            auto const now = std::chrono::steady_clock::now();
            if(conn && core_->closed)
            {
                conn->close();
                conn.reset();
            }
            if(conn)
                conn->idle_since = now;
            if(!o.waiters.empty())
            {
                next = std::move(o.waiters.front());
                o.waiters.pop_front();
                next->granted = true;
                next->conn = std::move(conn);
            }
            else
            {
                if(conn)
                {
                    if(watch_idle_)
                        watch_idle(key, *conn);
                    o.idle.push_back(std::move(conn));
                }
                else
                    --o.live;
                prune(o, now);
                erase_if_unused(*core_, it);
            }
        }
        if(next)
        {
            // The waiter may not be waiting on its timer yet (it enqueued
            // itself and then started the wait); its strand runs this after.
            auto ex = next->ex;
            asio::post(ex, [w = std::move(next)] { w->timer.cancel(); });
        }
    }

    std::size_t idle_count() const
    {
        std::lock_guard lock(core_->mutex);
        std::size_t n = 0;
        for(auto const& [key, o] : core_->origins)
            n += o.idle.size();
        return n;
    }

    // Closes the idle connections of every origin (descriptors are short);
    // returns how many.
    std::size_t drop_idle()
    {
        std::lock_guard lock(core_->mutex);
        std::size_t dropped = 0;
        for(auto it = core_->origins.begin(); it != core_->origins.end();)
        {
            auto& o = it->second;
            for(auto& c : o.idle)
                c->close();
            dropped += o.idle.size();
            o.live -= o.idle.size();
            o.idle.clear();
            if(o.live == 0 && o.waiters.empty())
                it = core_->origins.erase(it);
            else
                ++it;
        }
        return dropped;
    }

    // Closes idle connections; later released ones are closed too.
    void shutdown()
    {
        {
            std::lock_guard lock(core_->mutex);
            core_->closed = true;
        }
        drop_idle();
    }

private:
    struct origin
    {
        std::deque<std::unique_ptr<connection>> idle; // oldest first
        std::deque<std::shared_ptr<waiter>> waiters;
        std::size_t live = 0;
    };
    using origin_map = std::unordered_map<std::string, origin>;

    // What the idle watches reach: shared, so that a watch completing after
    // the pool is gone finds nothing rather than freed memory.
    struct core
    {
        std::mutex mutex;
        origin_map origins;
        bool closed = false;
    };

    // Drops idle connections older than the keep-alive timeout.
    void prune(origin& o, std::chrono::steady_clock::time_point now)
    {
        while(!o.idle.empty() && now - o.idle.front()->idle_since >= keep_alive_)
        {
            o.idle.front()->close();
            o.idle.pop_front();
            --o.live;
        }
    }

    static void erase_if_unused(core& c, origin_map::iterator it)
    {
        if(it->second.live == 0 && it->second.waiters.empty())
            c.origins.erase(it);
    }

    // An idle connection becomes readable when the peer closes it (or sends
    // anything, which makes it unusable too): it is closed and dropped then,
    // instead of sitting in CLOSE_WAIT until a request to the same origin
    // finds it dead. Taking it for a request cancels the watch. Optional: a
    // pending watch keeps io_context::run() from returning.
    void watch_idle(std::string const& key, connection& conn)
    {
        std::weak_ptr<core> weak = core_;
        conn.tcp().socket().async_wait(asio::socket_base::wait_read,
            [weak, key, watched = &conn](boost::system::error_code ec) {
                if(ec == asio::error::operation_aborted)
                    return; // taken for a request, or closed
                auto c = weak.lock();
                if(!c)
                    return;
                std::lock_guard lock(c->mutex);
                auto it = c->origins.find(key);
                if(it == c->origins.end())
                    return;
                auto& idle = it->second.idle;
                for(auto i = idle.begin(); i != idle.end(); ++i)
                    if(i->get() == watched)
                    {
                        (*i)->close();
                        idle.erase(i);
                        --it->second.live;
                        erase_if_unused(*c, it);
                        return;
                    }
            });
    }

    std::shared_ptr<core> core_;
    std::size_t const cap_;
    std::chrono::steady_clock::duration const keep_alive_;
    bool const watch_idle_;
};

} // namespace agentio::http::detail

#endif
