//
// agentio/retrieval/impl/open_index_writer.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_OPEN_INDEX_WRITER_IPP
#define AGENTIO_RETRIEVAL_IMPL_OPEN_INDEX_WRITER_IPP

#include <agentio/retrieval/open_index_writer.hpp>

#include <boost/asio/this_coro.hpp>

#include <filesystem>
#include <string>
#include <system_error>

namespace agentio::retrieval {

AGENTIO_DECL asio::awaitable<result<std::unique_ptr<index_writer>>> open_index_writer(std::string_view where,
    analyzer text, open_index_writer_options options)
{
    using opened = result<std::unique_ptr<index_writer>>;
    if(where.starts_with("postgresql://") || where.starts_with("postgres://"))
    {
        auto const ex = co_await asio::this_coro::executor;
        auto pool = std::make_shared<postgres::pool>(ex, std::string(where), options.pool);
        auto pg = co_await postgres_index_writer::open(std::move(pool), std::move(text), std::move(options.postgres));
        if(!pg)
            co_return opened(pg.error());
        co_return opened(std::make_unique<postgres_index_writer>(std::move(*pg)));
    }
    std::filesystem::path const path(where.starts_with("sqlite:") ? where.substr(7) : where);
    // A folder that cannot be made shows as the open's error, which names the file.
    std::error_code ec;
    if(auto const dir = path.parent_path(); !dir.empty())
        std::filesystem::create_directories(dir, ec);
    auto lite = sqlite_index_async_writer::open(path, std::move(text));
    if(!lite)
        co_return opened(lite.error());
    co_return opened(std::move(*lite));
}

AGENTIO_DECL asio::awaitable<result<std::unique_ptr<index>>> open_index(std::string_view where,
    postgres::pool_options pool)
{
    using opened = result<std::unique_ptr<index>>;
    if(where.starts_with("postgresql://") || where.starts_with("postgres://"))
    {
        auto const ex = co_await asio::this_coro::executor;
        auto db = std::make_shared<postgres::pool>(ex, std::string(where), std::move(pool));
        auto pg = co_await postgres_index::open(std::move(db));
        if(!pg)
            co_return opened(pg.error());
        co_return opened(std::move(*pg));
    }
    auto lite = sqlite_index::open(std::filesystem::path(where.starts_with("sqlite:") ? where.substr(7) : where));
    if(!lite)
        co_return opened(lite.error());
    co_return opened(std::move(*lite));
}

} // namespace agentio::retrieval

#endif
