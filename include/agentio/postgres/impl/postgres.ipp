//
// agentio/postgres/impl/postgres.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Non-template bodies of agentio/postgres.hpp.
//
// How an operation waits: libpq says what it needs (PQconnectPoll's answer,
// PQflush > 0, PQisBusy), and the coroutine waits for the socket with
// stream_descriptor::async_wait. libpq does not always read the socket dry,
// and Asio's epoll registration is edge-triggered; a wait is still never
// missed, because queuing a wait re-arms the registration (EPOLL_CTL_MOD),
// which reports a socket that is ready already.
//

#ifndef AGENTIO_POSTGRES_IMPL_POSTGRES_IPP
#define AGENTIO_POSTGRES_IMPL_POSTGRES_IPP

#include <agentio/config.hpp>

#include <boost/asio/append.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_state.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <poll.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <mutex>
#include <variant>
#include <vector>

namespace agentio::postgres {

namespace detail {

class postgres_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.postgres"; }

    std::string message(int ev) const override { return message(ev, nullptr, 0); }

    char const* message(int ev, char*, std::size_t) const noexcept override
    {
        switch(static_cast<errc>(ev))
        {
        case errc::connection_failed: return "could not connect to the database";
        case errc::connection_lost: return "the connection to the database was lost";
        case errc::query_failed: return "the database refused the statement";
        case errc::pool_closed: return "the connection pool is closed";
        case errc::timeout: return "timed out waiting for a database connection";
        }
        return "unknown postgres error";
    }
};

// libpq's messages end with a newline (and sometimes more lines); keep the text only.
AGENTIO_DECL std::string trimmed(char const* message)
{
    std::string_view s = message ? message : "";
    while(!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

// libpq prints the server's notices (NOTICE, WARNING) to stderr by default;
// a library must not write there.
AGENTIO_DECL void ignore_notice(void*, char const*) noexcept {}

// Whether the socket is ready now, without waiting.
AGENTIO_DECL bool socket_ready(int fd, asio::posix::stream_descriptor::wait_type what) noexcept
{
    ::pollfd p{fd, static_cast<short>(what == asio::posix::stream_descriptor::wait_write ? POLLOUT : POLLIN), 0};
    return ::poll(&p, 1, 0) > 0; // POLLERR and POLLHUP count: libpq then reads the error
}

// A libpq socket watched for one wait while connecting (PQconnectPoll may
// close it and open another). Released, never closed: the socket is libpq's.
struct borrowed_socket
{
    asio::posix::stream_descriptor socket;

    borrowed_socket(asio::any_io_executor const& ex, int fd, system::error_code& ec) : socket(ex)
    {
        socket.assign(fd, ec);
    }
    borrowed_socket(borrowed_socket const&) = delete;
    borrowed_socket& operator=(borrowed_socket const&) = delete;
    ~borrowed_socket()
    {
        if(socket.is_open())
            socket.release();
    }
};

AGENTIO_DECL error result_error(PGresult const* r)
{
    error e{make_error_code(errc::query_failed), {}, {}};
    if(char const* state = PQresultErrorField(r, PG_DIAG_SQLSTATE))
        e.sqlstate = state;
    if(char const* primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY))
        e.message = primary;
    else
        e.message = detail::trimmed(PQresultErrorMessage(r));
    return e;
}

AGENTIO_DECL error cancelled_error(system::error_code ec)
{
    return {ec, {}, "the operation was cancelled; its connection was closed"};
}

// A caller waiting for a free connection. The fields are written and read
// under pool_state::mutex; the timer both bounds the wait (acquire_timeout)
// and is how the waiter is woken (cancelled once the fields are set).
struct pool_waiter : std::enable_shared_from_this<pool_waiter>
{
    explicit pool_waiter(asio::any_io_executor ex) : timer(std::move(ex)) {}

    asio::steady_timer timer;
    std::unique_ptr<connection> conn; // handed over
    bool slot = false;                // may open a new connection (already counted)
    bool closed = false;
};

struct pool_state
{
    pool_state(asio::any_io_executor ex, std::string info, pool_options opts)
        : executor(std::move(ex))
        , conninfo(std::move(info))
        , options(opts)
    {
        if(options.max_connections == 0)
            options.max_connections = 1;
    }

    asio::any_io_executor executor;
    std::string conninfo;
    pool_options options;

    std::mutex mutex;
    std::vector<std::unique_ptr<connection>> idle; // the most recently used last
    std::size_t open = 0;                          // idle, leased and being opened
    std::deque<std::shared_ptr<pool_waiter>> waiters;
    bool closed = false;

    // Under the mutex: an idle connection or a slot to open one, if any.
    bool take(std::unique_ptr<connection>& conn, bool& slot)
    {
        if(!idle.empty())
        {
            conn = std::move(idle.back());
            idle.pop_back();
            return true;
        }
        if(open < options.max_connections)
        {
            ++open;
            slot = true;
            return true;
        }
        return false;
    }

    // Under the mutex: one connection fewer; the first waiter may open one.
    std::shared_ptr<pool_waiter> drop_one()
    {
        --open;
        if(closed || waiters.empty())
            return nullptr;
        auto w = std::move(waiters.front());
        waiters.pop_front();
        w->slot = true;
        ++open;
        return w;
    }

    void give_back(std::unique_ptr<connection> conn) noexcept
    {
        std::shared_ptr<pool_waiter> woken;
        std::unique_ptr<connection> dropped;
        {
            std::lock_guard lock(mutex);
            // A connection left inside a transaction (or busy) would hand its
            // state to the next user: closing it rolls the transaction back.
            bool usable = !closed && conn->is_open() && PQtransactionStatus(conn->native_handle()) == PQTRANS_IDLE;
            if(!usable)
            {
                dropped = std::move(conn);
                woken = drop_one();
            }
            else if(!waiters.empty())
            {
                woken = std::move(waiters.front());
                waiters.pop_front();
                woken->conn = std::move(conn);
            }
            else
                idle.push_back(std::move(conn));
        }
        dropped.reset(); // outside the lock
        if(woken)
            woken->timer.cancel();
    }

    void give_back_slot() noexcept
    {
        std::shared_ptr<pool_waiter> woken;
        {
            std::lock_guard lock(mutex);
            woken = drop_one();
        }
        if(woken)
            woken->timer.cancel();
    }
};

// Grants the waiter at once, or starts its timer and queues it, both under
// the mutex: nothing freed in between goes unseen, and a waker's cancel()
// always finds the wait. Nothing is touched after the mutex is released: the
// waiter may already run on another thread.
// Raw pointers: the acquiring coroutine keeps both alive while it waits (and
// GCC 12 may destroy a temporary of a co_await expression twice).
struct enqueue_waiter
{
    pool_state* state;
    pool_waiter* waiter;

    template<class Handler>
    void operator()(Handler&& handler) const
    {
        std::unique_lock lock(state->mutex);
        if(state->closed)
            waiter->closed = true;
        else if(!state->take(waiter->conn, waiter->slot))
        {
            waiter->timer.async_wait(std::forward<Handler>(handler));
            state->waiters.push_back(waiter->shared_from_this());
            return;
        }
        lock.unlock();
        asio::post(asio::append(std::forward<Handler>(handler), system::error_code()));
    }
};

// A slot to open a connection, given back unless a connection took it.
struct slot_guard
{
    std::shared_ptr<pool_state> state;
    ~slot_guard()
    {
        if(state)
            state->give_back_slot();
    }
};

} // namespace detail

AGENTIO_DECL system::error_category const& error_category() noexcept
{
    static detail::postgres_category const category;
    return category;
}

AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc)
{
    boost::throw_exception(system::system_error(e.code, e.message), loc);
}

// --- param -------------------------------------------------------------------

AGENTIO_DECL void param::set_inline(std::string_view text, Oid type) noexcept
{
    std::memcpy(buffer_, text.data(), text.size());
    size_ = text.size();
    type_ = type;
    inline_ = true;
}

AGENTIO_DECL param::param(std::int64_t value) noexcept
{
    auto end = std::to_chars(buffer_, buffer_ + sizeof buffer_, value).ptr;
    set_inline({buffer_, static_cast<std::size_t>(end - buffer_)}, 20); // int8
}

AGENTIO_DECL param::param(double value) noexcept
{
    if(std::isnan(value))
        set_inline("NaN", 701); // float8
    else if(std::isinf(value))
        set_inline(value > 0 ? "Infinity" : "-Infinity", 701);
    else
    {
        auto end = std::to_chars(buffer_, buffer_ + sizeof buffer_, value).ptr;
        set_inline({buffer_, static_cast<std::size_t>(end - buffer_)}, 701);
    }
}

AGENTIO_DECL param::param(bool value) noexcept
{
    set_inline(value ? "true" : "false", 16); // bool
}

// --- rows --------------------------------------------------------------------

AGENTIO_DECL rows& rows::operator=(rows&& other) noexcept
{
    if(this != &other)
    {
        PQclear(result_);
        result_ = std::exchange(other.result_, nullptr);
    }
    return *this;
}

AGENTIO_DECL rows::~rows()
{
    PQclear(result_);
}

AGENTIO_DECL std::size_t rows::size() const noexcept
{
    return result_ ? static_cast<std::size_t>(PQntuples(result_)) : 0;
}

AGENTIO_DECL int rows::columns() const noexcept
{
    return result_ ? PQnfields(result_) : 0;
}

AGENTIO_DECL std::string_view rows::column_name(int column) const noexcept
{
    char const* name = PQfname(result_, column);
    return name ? name : "";
}

AGENTIO_DECL bool rows::is_null(std::size_t row, int column) const noexcept
{
    return PQgetisnull(result_, static_cast<int>(row), column) != 0;
}

AGENTIO_DECL std::string_view rows::text(std::size_t row, int column) const noexcept
{
    int r = static_cast<int>(row);
    return {PQgetvalue(result_, r, column), static_cast<std::size_t>(PQgetlength(result_, r, column))};
}

AGENTIO_DECL std::int64_t rows::int64(std::size_t row, int column) const
{
    auto s = text(row, column);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if(ec != std::errc() || end != s.data() + s.size() || s.empty())
        boost::throw_exception(system::system_error(make_error_code(system::errc::invalid_argument),
            "postgres::rows::int64: not an integer: '" + std::string(s) + "'"));
    return value;
}

AGENTIO_DECL bool rows::boolean(std::size_t row, int column) const noexcept
{
    auto s = text(row, column);
    return !s.empty() && s.front() == 't';
}

AGENTIO_DECL std::uint64_t rows::affected() const noexcept
{
    char const* s = result_ ? PQcmdTuples(result_) : "";
    std::uint64_t n = 0;
    std::from_chars(s, s + std::strlen(s), n);
    return n;
}

// --- connection --------------------------------------------------------------

AGENTIO_DECL connection::connection(asio::any_io_executor ex) : executor_(std::move(ex)) {}

AGENTIO_DECL connection::~connection()
{
    close();
}

AGENTIO_DECL bool connection::is_open() const noexcept
{
    return conn_ && !broken_ && PQstatus(conn_) == CONNECTION_OK;
}

AGENTIO_DECL void connection::close() noexcept
{
    if(socket_)
    {
        // Deregisters from the reactor without closing: libpq closes its socket.
        if(socket_->is_open())
            socket_->release();
        socket_.reset();
    }
    if(conn_)
        PQfinish(conn_);
    conn_ = nullptr;
    broken_ = false;
    notifications_.clear();
}

AGENTIO_DECL error connection::lost(std::string_view what)
{
    broken_ = true;
    std::string message(what);
    if(message.empty())
        message = conn_ ? detail::trimmed(PQerrorMessage(conn_)) : "the connection is closed";
    if(message.empty())
        message = "the connection to the database was lost";
    return {make_error_code(errc::connection_lost), {}, std::move(message)};
}

AGENTIO_DECL void connection::keep_notifications() noexcept
{
    if(!conn_)
        return;
    while(PGnotify* n = PQnotifies(conn_))
    {
        notifications_.push_back({n->relname ? n->relname : "", n->extra ? n->extra : "", n->be_pid});
        PQfreemem(n);
    }
}

AGENTIO_DECL bool connection::refresh() noexcept
{
    if(!is_open())
        return false;
    if(detail::socket_ready(PQsocket(conn_), asio::posix::stream_descriptor::wait_read))
    {
        if(!PQconsumeInput(conn_))
            broken_ = true;
        keep_notifications();
    }
    return is_open();
}

// Waits for the socket; operation_aborted when the coroutine was cancelled.
// Callers stop at an error, so no co_await ever starts in a cancelled
// coroutine (Asio would throw there).
AGENTIO_DECL asio::awaitable<system::error_code> connection::wait(asio::posix::stream_descriptor& socket,
    asio::posix::stream_descriptor::wait_type what)
{
    // Already ready (libpq often reads only part of what arrived): no trip
    // through the reactor.
    if(detail::socket_ready(socket.native_handle(), what))
        co_return system::error_code();
    system::error_code ec;
    co_await socket.async_wait(what, asio::redirect_error(asio::use_awaitable, ec));
    asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if(state.cancelled() != asio::cancellation_type::none)
        ec = asio::error::operation_aborted;
    co_return ec;
}

AGENTIO_DECL asio::awaitable<system::error_code> connection::wait_once(asio::posix::stream_descriptor::wait_type what)
{
    system::error_code ec;
    detail::borrowed_socket s(executor_, PQsocket(conn_), ec);
    if(ec)
        co_return ec;
    ec = co_await wait(s.socket, what);
    co_return ec;
}

AGENTIO_DECL asio::awaitable<result<void>> connection::connect_poll()
{
    // PQconnectStart behaves as if PQconnectPoll had answered "writing".
    PostgresPollingStatusType status = PGRES_POLLING_WRITING;
    while(status != PGRES_POLLING_OK)
    {
        if(status == PGRES_POLLING_FAILED || PQsocket(conn_) < 0)
            co_return error{make_error_code(errc::connection_failed), {}, detail::trimmed(PQerrorMessage(conn_))};
        auto ec = co_await wait_once(status == PGRES_POLLING_READING ? asio::posix::stream_descriptor::wait_read
                                                                     : asio::posix::stream_descriptor::wait_write);
        if(ec == asio::error::operation_aborted)
            co_return error{ec, {}, "connecting was cancelled"};
        if(ec)
            co_return error{make_error_code(errc::connection_failed), {}, ec.message()};
        status = PQconnectPoll(conn_);
    }
    co_return result<void>();
}

AGENTIO_DECL asio::awaitable<result<void>> connection::connect(std::string_view conninfo)
{
    auto r = co_await connect(conninfo, std::chrono::steady_clock::duration::zero());
    co_return r;
}

// Starts libpq's connection and polls it to the end. A host name is resolved
// here, by Asio, because libpq would call getaddrinfo() and block: libpq gets
// the addresses as `hostaddr` (the name stays `host`, for TLS and Kerberos),
// one entry per address so that it tries each in turn, as it would have.
AGENTIO_DECL asio::awaitable<result<void>> connection::start(std::string_view conninfo)
{
    std::string info(conninfo); // libpq wants it NUL-terminated
    char* message = nullptr;
    PQconninfoOption* options = PQconninfoParse(info.c_str(), &message);
    if(!options)
    {
        error e{make_error_code(errc::connection_failed), {}, message ? detail::trimmed(message) : "out of memory"};
        PQfreemem(message);
        co_return e;
    }
    std::vector<std::string> keys;
    std::vector<std::string> values;
    std::string host;
    bool has_hostaddr = false;
    for(PQconninfoOption const* o = options; o->keyword; ++o)
    {
        if(!o->val)
            continue;
        keys.emplace_back(o->keyword);
        values.emplace_back(o->val);
        if(keys.back() == "host")
            host = o->val;
        else if(keys.back() == "hostaddr" && *o->val)
            has_hostaddr = true;
    }
    PQconninfoFree(options);

    // Only a single host name: not a socket directory, not a list, not an address.
    bool resolve = !host.empty() && !has_hostaddr && host.front() != '/' && host.front() != '@' &&
        host.find(',') == std::string::npos;
    system::error_code ec;
    if(resolve)
    {
        asio::ip::make_address(host, ec);
        resolve = !!ec;
        ec = {};
    }
    asio::ip::tcp::resolver resolver(executor_);
    asio::ip::tcp::resolver::results_type addresses;
    if(resolve)
    {
        addresses = co_await resolver.async_resolve(host, std::string_view(),
            asio::redirect_error(asio::use_awaitable, ec));
        if(ec == asio::error::operation_aborted)
            co_return error{ec, {}, "connecting was cancelled"};
        if(ec || addresses.empty())
            co_return error{make_error_code(errc::connection_failed), {},
                "could not translate host name \"" + host + "\" to address: " + ec.message()};
        std::string hosts;
        std::string hostaddrs;
        for(auto const& entry : addresses)
        {
            if(!hostaddrs.empty())
            {
                hosts += ',';
                hostaddrs += ',';
            }
            hosts += host;
            hostaddrs += entry.endpoint().address().to_string();
        }
        for(std::size_t i = 0; i < keys.size(); ++i)
            if(keys[i] == "host")
                values[i] = hosts;
        keys.emplace_back("hostaddr");
        values.emplace_back(hostaddrs);
    }

    std::vector<char const*> key_pointers;
    std::vector<char const*> value_pointers;
    for(std::size_t i = 0; i < keys.size(); ++i)
    {
        key_pointers.push_back(keys[i].c_str());
        value_pointers.push_back(values[i].c_str());
    }
    key_pointers.push_back(nullptr);
    value_pointers.push_back(nullptr);
    conn_ = PQconnectStartParams(key_pointers.data(), value_pointers.data(), 0);
    if(!conn_)
        co_return error{make_error_code(errc::connection_failed), {}, "out of memory"};
    if(PQstatus(conn_) == CONNECTION_BAD)
        co_return error{make_error_code(errc::connection_failed), {}, detail::trimmed(PQerrorMessage(conn_))};
    PQsetNoticeProcessor(conn_, &detail::ignore_notice, nullptr);
    auto polled = co_await connect_poll();
    co_return polled;
}

AGENTIO_DECL asio::awaitable<result<void>> connection::connect(std::string_view conninfo,
    std::chrono::steady_clock::duration timeout)
{
    using namespace asio::experimental::awaitable_operators;
    close();
    result<void> r;
    asio::steady_timer timer(executor_);
    std::variant<result<void>, std::monostate> raced;
    if(timeout > std::chrono::steady_clock::duration::zero())
    {
        // libpq ignores connect_timeout in PQconnectPoll: the timer is ours.
        timer.expires_after(timeout);
        raced = co_await (start(conninfo) || timer.async_wait(asio::use_awaitable));
        if(raced.index() == 1)
            r = error{make_error_code(errc::timeout), {}, "could not connect within the connect timeout"};
        else
            r = std::get<0>(std::move(raced));
    }
    else
        r = co_await start(conninfo);
    if(!r)
    {
        close();
        co_return r;
    }

    // From now on PQsendQuery and PQflush never block; libpq's socket itself
    // is non-blocking from the start.
    system::error_code ec;
    if(PQsetnonblocking(conn_, 1) != 0)
        ec = make_error_code(errc::connection_failed);
    else
    {
        socket_.emplace(executor_);
        socket_->assign(PQsocket(conn_), ec);
    }
    if(ec)
    {
        error e{make_error_code(errc::connection_failed), {}, "cannot watch the connection's socket: " + ec.message()};
        close();
        co_return e;
    }
    co_return result<void>();
}

AGENTIO_DECL asio::awaitable<result<rows>> connection::query(std::string_view sql, std::initializer_list<param> params)
{
    return query_owned(std::string(sql), std::vector<param>(params));
}

AGENTIO_DECL asio::awaitable<result<rows>> connection::query_owned(std::string sql, std::vector<param> params)
{
    auto r = co_await query(sql, std::span<param const>(params));
    co_return r;
}

AGENTIO_DECL asio::awaitable<result<rows>> connection::query(std::string_view sql, std::span<param const> params)
{
    if(!is_open())
        co_return lost(conn_ ? "" : "the connection is not open");

    // Text parameters go to libpq NUL-terminated: one buffer for all.
    std::string buffer(sql);
    buffer.push_back('\0');
    std::vector<std::size_t> offsets(params.size());
    std::vector<Oid> types(params.size());
    for(std::size_t i = 0; i < params.size(); ++i)
    {
        offsets[i] = buffer.size();
        types[i] = params[i].type();
        buffer.append(params[i].text());
        buffer.push_back('\0');
    }
    std::vector<char const*> values(params.size());
    for(std::size_t i = 0; i < params.size(); ++i)
        values[i] = params[i].is_null() ? nullptr : buffer.data() + offsets[i];

    if(!PQsendQueryParams(conn_, buffer.c_str(), static_cast<int>(params.size()), types.data(), values.data(), nullptr,
           nullptr, 0))
    {
        if(PQstatus(conn_) == CONNECTION_BAD)
            co_return lost("");
        co_return error{make_error_code(errc::query_failed), {}, detail::trimmed(PQerrorMessage(conn_))};
    }
    auto r = co_await finish();
    co_return r;
}

AGENTIO_DECL asio::awaitable<result<void>> connection::execute(std::string_view sql)
{
    if(!is_open())
        co_return lost(conn_ ? "" : "the connection is not open");
    std::string text(sql);
    if(!PQsendQuery(conn_, text.c_str()))
    {
        if(PQstatus(conn_) == CONNECTION_BAD)
            co_return lost("");
        co_return error{make_error_code(errc::query_failed), {}, detail::trimmed(PQerrorMessage(conn_))};
    }
    auto r = co_await finish();
    if(!r)
        co_return r.error();
    co_return result<void>();
}

// Sends what libpq still holds, then reads every result of the statement(s):
// the last one is returned, or the first error.
AGENTIO_DECL asio::awaitable<result<rows>> connection::finish()
{
    for(;;)
    {
        int flushed = PQflush(conn_);
        if(flushed == 0)
            break;
        if(flushed < 0)
            co_return lost("");
        // Writability alone: the server reads a whole statement before it
        // answers, so it is not waiting for us to read while we send.
        auto ec = co_await wait(*socket_, asio::posix::stream_descriptor::wait_write);
        if(ec)
        {
            close(); // libpq cannot abandon a statement half sent
            co_return detail::cancelled_error(ec);
        }
    }

    rows last;
    std::optional<error> failure;
    for(;;)
    {
        while(PQisBusy(conn_))
        {
            auto ec = co_await wait(*socket_, asio::posix::stream_descriptor::wait_read);
            if(ec)
            {
                close(); // the statement still runs; its result would reach the next one
                co_return detail::cancelled_error(ec);
            }
            if(!PQconsumeInput(conn_))
                co_return lost(failure ? failure->message : "");
            keep_notifications();
        }
        rows r(PQgetResult(conn_));
        if(!r.native_handle())
            break;
        switch(PQresultStatus(r.native_handle()))
        {
        case PGRES_COMMAND_OK:
        case PGRES_TUPLES_OK:
        case PGRES_EMPTY_QUERY:
        case PGRES_SINGLE_TUPLE: last = std::move(r); break;
        case PGRES_COPY_IN:
        case PGRES_COPY_OUT:
        case PGRES_COPY_BOTH:
            // The protocol would need a copy loop this class does not have.
            close();
            co_return error{make_error_code(errc::query_failed), {}, "COPY is not supported"};
        default:
            if(!failure)
                failure = detail::result_error(r.native_handle());
            break;
        }
    }
    keep_notifications();
    if(PQstatus(conn_) == CONNECTION_BAD)
        co_return lost(failure ? failure->message : "");
    if(failure)
        co_return std::move(*failure);
    co_return std::move(last);
}

AGENTIO_DECL asio::awaitable<result<notification>> connection::receive_notification()
{
    keep_notifications(); // parses what libpq has already read
    while(notifications_.empty())
    {
        if(!is_open())
            co_return lost(conn_ ? "" : "the connection is not open");
        auto ec = co_await wait(*socket_, asio::posix::stream_descriptor::wait_read);
        if(ec) // no statement in flight: the connection stays usable
            co_return error{ec, {}, "waiting for a notification was cancelled"};
        if(!PQconsumeInput(conn_) || PQstatus(conn_) != CONNECTION_OK)
            co_return lost("");
        keep_notifications();
    }
    notification n = std::move(notifications_.front());
    notifications_.pop_front();
    co_return std::move(n);
}

// --- pool --------------------------------------------------------------------

AGENTIO_DECL pool::pool(asio::any_io_executor ex, std::string conninfo, pool_options options)
    : state_(std::make_shared<detail::pool_state>(std::move(ex), std::move(conninfo), options))
{
}

AGENTIO_DECL pool::~pool()
{
    close();
}

AGENTIO_DECL std::string const& pool::conninfo() const noexcept
{
    return state_->conninfo;
}

AGENTIO_DECL void pool::close()
{
    std::vector<std::unique_ptr<connection>> idle;
    std::deque<std::shared_ptr<detail::pool_waiter>> waiters;
    {
        std::lock_guard lock(state_->mutex);
        state_->closed = true;
        idle.swap(state_->idle);
        waiters.swap(state_->waiters);
        state_->open -= idle.size();
        for(auto& w : waiters)
            w->closed = true;
    }
    for(auto& w : waiters)
        w->timer.cancel();
}

AGENTIO_DECL pool::lease& pool::lease::operator=(lease&& other) noexcept
{
    if(this != &other)
    {
        reset();
        state_ = std::move(other.state_);
        conn_ = std::move(other.conn_);
    }
    return *this;
}

AGENTIO_DECL pool::lease::~lease()
{
    reset();
}

AGENTIO_DECL void pool::lease::reset() noexcept
{
    if(conn_ && state_)
        state_->give_back(std::move(conn_));
    conn_.reset();
    state_.reset();
}

AGENTIO_DECL asio::awaitable<result<std::unique_ptr<connection>>> pool::open_connection()
{
    auto c = std::make_unique<connection>(state_->executor);
    auto r = co_await c->connect(state_->conninfo, state_->options.connect_timeout);
    if(!r)
        co_return r.error();
    co_return std::move(c);
}

AGENTIO_DECL asio::awaitable<result<pool::lease>> pool::acquire()
{
    // Every local at function scope: GCC 12 mishandles the lifetime of a
    // block-scope local whose initializer awaits.
    auto state = state_;
    auto ex = co_await asio::this_coro::executor;
    std::unique_ptr<connection> conn;
    std::shared_ptr<detail::pool_waiter> w;
    system::error_code ec;
    bool slot = false;
    bool closed = false;
    {
        std::lock_guard lock(state->mutex);
        closed = state->closed;
        if(!closed && !state->take(conn, slot))
        {
            w = std::make_shared<detail::pool_waiter>(ex);
            w->timer.expires_after(state->options.acquire_timeout);
        }
    }

    if(w)
    {
        auto token = asio::redirect_error(asio::use_awaitable, ec);
        detail::enqueue_waiter initiation{state.get(), w.get()};
        co_await asio::async_initiate<decltype(token), void(system::error_code)>(initiation, token);
        {
            std::lock_guard lock(state->mutex);
            conn = std::move(w->conn);
            slot = w->slot;
            closed = w->closed;
            if(!conn && !slot && !closed) // timed out or cancelled: leave the queue
                std::erase(state->waiters, w);
        }
        asio::cancellation_state cs = co_await asio::this_coro::cancellation_state;
        if(cs.cancelled() != asio::cancellation_type::none)
        {
            if(conn)
                state->give_back(std::move(conn));
            if(slot)
                state->give_back_slot();
            co_return error{asio::error::operation_aborted, {}, "waiting for a connection was cancelled"};
        }
        if(!conn && !slot && !closed)
            co_return error{make_error_code(errc::timeout), {}, "no database connection became free in time"};
    }
    if(closed)
        co_return error{make_error_code(errc::pool_closed), {}, "the connection pool is closed"};

    if(conn && !conn->refresh())
    {
        // Closed by the server while idle (a restart): open another in its place.
        conn.reset();
        slot = true;
    }
    if(conn)
        co_return lease(state, std::move(conn));

    detail::slot_guard guard{state};
    auto opened = co_await open_connection();
    if(!opened)
        co_return opened.error();
    guard.state.reset(); // the connection holds the slot now
    co_return lease(state, std::move(*opened));
}

AGENTIO_DECL asio::awaitable<result<void>> pool::check()
{
    auto l = co_await acquire();
    if(!l)
        co_return l.error();
    co_return result<void>();
}

AGENTIO_DECL asio::awaitable<result<rows>> pool::query(std::string_view sql, std::initializer_list<param> params)
{
    return query_owned(std::string(sql), std::vector<param>(params));
}

AGENTIO_DECL asio::awaitable<result<rows>> pool::query_owned(std::string sql, std::vector<param> params)
{
    auto r = co_await query(sql, std::span<param const>(params));
    co_return r;
}

AGENTIO_DECL asio::awaitable<result<rows>> pool::query(std::string_view sql, std::span<param const> params)
{
    auto l = co_await acquire();
    if(!l)
        co_return l.error();
    auto r = co_await (*l)->query(sql, params);
    co_return r;
}

AGENTIO_DECL asio::awaitable<result<void>> pool::execute(std::string_view sql)
{
    auto l = co_await acquire();
    if(!l)
        co_return l.error();
    auto r = co_await (*l)->execute(sql);
    co_return r;
}

} // namespace agentio::postgres

#endif
