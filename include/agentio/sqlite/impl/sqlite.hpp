//
// agentio/sqlite/impl/sqlite.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Template bodies of agentio/sqlite.hpp.
//

#ifndef AGENTIO_SQLITE_IMPL_SQLITE_HPP
#define AGENTIO_SQLITE_IMPL_SQLITE_HPP

#include <boost/asio/append.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>

namespace agentio::sqlite {

namespace detail {
// The connection owned by the query_pool worker running on this thread.
inline thread_local connection* worker_connection = nullptr;
} // namespace detail

template<class Function, class CompletionToken, class Result>
auto query_pool::async_run(Function&& f, CompletionToken&& token)
{
    static_assert(std::is_default_constructible_v<Result>,
        "query_pool::async_run: the function's result type must be default-constructible "
        "(it is what the handler receives when the function throws)");

    auto initiation = [this](auto handler, auto fn) {
        // The handler's executor must stay alive until the result is delivered,
        // and the result must be delivered there, not on a worker thread.
        auto handler_ex = asio::prefer(asio::get_associated_executor(handler, context_.get_executor()),
            asio::execution::outstanding_work.tracked);
        asio::post(context_,
            [handler = std::move(handler), fn = std::move(fn), handler_ex = std::move(handler_ex)]() mutable {
                std::exception_ptr ep;
                Result result{};
                try
                {
                    result = fn(*detail::worker_connection);
                }
                catch(...)
                {
                    ep = std::current_exception();
                }
                asio::dispatch(handler_ex, asio::append(std::move(handler), std::move(ep), std::move(result)));
            });
    };
    return asio::async_initiate<CompletionToken, void(std::exception_ptr, Result)>(std::move(initiation), token,
        std::forward<Function>(f));
}

} // namespace agentio::sqlite

#endif
