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

#include <atomic>
#include <memory>
#include <thread>

namespace agentio::sqlite {

namespace detail {

// A job's last moments on its worker thread. After the job hands its result
// to the caller's executor, the worker still holds a copy of that executor
// (and the job's function) until the job object is destroyed; should the
// caller's io_context be destroyed meanwhile (the program ending right after
// the result arrived), releasing that copy would touch a freed service. So
// the result's delivery, run or destroyed unrun, first waits for the worker
// to have let go of everything: a few instructions, almost always over.
struct job_epilogue
{
    std::atomic<bool> over{false};

    void wait() const noexcept
    {
        while(!over.load(std::memory_order_acquire))
            std::this_thread::yield();
    }
};

// Declared first in the job, so destroyed last: says the worker has let go.
struct job_epilogue_signal
{
    std::shared_ptr<job_epilogue> state;
    explicit job_epilogue_signal(std::shared_ptr<job_epilogue> s) noexcept : state(std::move(s)) {}
    job_epilogue_signal(job_epilogue_signal&& other) noexcept = default;
    ~job_epilogue_signal()
    {
        if(state)
            state->over.store(true, std::memory_order_release);
    }
};

// A function run on a worker with the connection it owns, its result then
// posted to the caller's executor. Members in this order: `signal` is
// destroyed last, once the worker holds nothing of the caller's.
template<class Handler, class Function, class Executor, class Result>
struct pool_job
{
    job_epilogue_signal signal;
    std::shared_ptr<job_epilogue> epilogue;
    Handler handler;
    Function fn;
    Executor handler_ex;

    void operator()();
};

// Held by the delivery: waits for the worker whether the delivery runs or is destroyed unrun.
struct job_epilogue_wait
{
    std::shared_ptr<job_epilogue> state;
    explicit job_epilogue_wait(std::shared_ptr<job_epilogue> s) noexcept : state(std::move(s)) {}
    job_epilogue_wait(job_epilogue_wait&& other) noexcept = default;
    ~job_epilogue_wait()
    {
        if(state)
            state->wait();
    }
};

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
        auto epilogue = std::make_shared<detail::job_epilogue>();
        using job = detail::pool_job<decltype(handler), decltype(fn), decltype(handler_ex), Result>;
        asio::post(context_,
            job{detail::job_epilogue_signal(epilogue), epilogue, std::move(handler), std::move(fn),
                std::move(handler_ex)});
    };
    return asio::async_initiate<CompletionToken, void(std::exception_ptr, Result)>(std::move(initiation), token,
        std::forward<Function>(f));
}

namespace detail {

template<class Handler, class Function, class Executor, class Result>
void pool_job<Handler, Function, Executor, Result>::operator()()
{
    std::exception_ptr ep;
    Result result{};
    try
    {
        result = fn(*worker_connection);
    }
    catch(...)
    {
        ep = std::current_exception();
    }
    // Posted, never run inline: a handler without an executor of its own
    // runs on a worker, and never this one before this job has ended.
    asio::post(handler_ex,
        [wait = job_epilogue_wait(std::move(epilogue)), h = std::move(handler), ep = std::move(ep),
            result = std::move(result)]() mutable {
            wait.state->wait();
            std::move(h)(std::move(ep), std::move(result));
        });
}

} // namespace detail

} // namespace agentio::sqlite

#endif
