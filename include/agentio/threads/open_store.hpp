//
// agentio/threads/open_store.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A thread store named the way applications configure one: a PostgreSQL URL
// (`postgresql://…`, `postgres://…`) or a SQLite file (`sqlite:PATH` or a bare
// path, its folder created). Needs the sqlite and postgres components.
//

#ifndef AGENTIO_THREADS_OPEN_STORE_HPP
#define AGENTIO_THREADS_OPEN_STORE_HPP

#include <agentio/threads/postgres_store.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/this_coro.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace agentio::threads {

/** Opens the store `where` names, its connections on the caller's executor.
    @return the store, or the backend's error (its message names the cause)
*/
inline asio::awaitable<result<std::unique_ptr<thread_store>>> open_store(std::string_view where)
{
    using opened = result<std::unique_ptr<thread_store>>;
    if(where.starts_with("postgresql://") || where.starts_with("postgres://"))
    {
        auto const ex = co_await asio::this_coro::executor;
        std::string const url(where);
        auto pg = co_await postgres::thread_store::open(ex, url);
        if(!pg)
            co_return opened(pg.error());
        co_return opened(std::unique_ptr<thread_store>(std::move(*pg)));
    }
    std::filesystem::path const path(where.starts_with("sqlite:") ? where.substr(7) : where);
    std::error_code ec;
    if(auto const dir = path.parent_path(); !dir.empty())
        std::filesystem::create_directories(dir, ec);
    auto lite = sqlite::thread_store::open(path);
    if(!lite)
        co_return opened(lite.error());
    co_return opened(std::unique_ptr<thread_store>(std::move(*lite)));
}

} // namespace agentio::threads

#endif
