//
// agentio/mcp/client/impl/stdio_transport.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_MCP_CLIENT_IMPL_STDIO_TRANSPORT_IPP
#define AGENTIO_MCP_CLIENT_IMPL_STDIO_TRANSPORT_IPP

#include <agentio/config.hpp>
#include <agentio/detail/child_process.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/client/transport.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/process/v2/environment.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>

#include <deque>
#include <stdexcept>

namespace agentio::mcp {

AGENTIO_DECL process_options process_options::from_command_line(std::string_view command)
{
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for(std::size_t i = 0; i < command.size(); ++i)
    {
        char const c = command[i];
        if(quote == '\'')
        {
            if(c == '\'')
                quote = 0;
            else
                word.push_back(c);
        }
        else if(c == '\\' && i + 1 < command.size() &&
            (quote == 0 || std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos))
        {
            word.push_back(command[++i]);
            in_word = true;
        }
        else if(quote == '"')
        {
            if(c == '"')
                quote = 0;
            else
                word.push_back(c);
        }
        else if(c == '\'' || c == '"')
        {
            quote = c;
            in_word = true;
        }
        else if(c == ' ' || c == '\t' || c == '\n')
        {
            if(in_word)
                words.push_back(std::move(word));
            word.clear();
            in_word = false;
        }
        else
        {
            word.push_back(c);
            in_word = true;
        }
    }
    if(quote != 0)
        throw std::invalid_argument("the command has an unclosed quote");
    if(in_word)
        words.push_back(std::move(word));
    if(words.empty())
        throw std::invalid_argument("the command is empty");
    process_options options;
    options.program = std::move(words.front());
    options.arguments.assign(std::make_move_iterator(words.begin() + 1), std::make_move_iterator(words.end()));
    return options;
}

namespace detail {

namespace bp = boost::process::v2;

class stdio_transport final : public client_transport
{
public:
    stdio_transport(asio::any_io_executor ex, process_options options)
        : strand_(asio::make_strand(std::move(ex)))
        , options_(std::move(options))
        , to_child_(strand_)
        , from_child_(strand_)
    {
    }

    ~stdio_transport() override { kill_now(); }

    void abort() noexcept override
    {
        asio::post(strand_,
            [self = std::static_pointer_cast<stdio_transport>(shared_from_this())] { self->kill_now(); });
    }

private:
    void kill_now() noexcept
    {
        boost::system::error_code ec;
        // A reaped child's pid may belong to another process by now: the handle leaves it alone.
        child_.kill_and_reap();
        exited_ = true;
        to_child_.close(ec);
        from_child_.close(ec);
        closed_ = true;
    }

public:
    asio::any_io_executor get_executor() const override { return strand_; }

    asio::awaitable<void> start(receiver r) override
    {
        receiver_ = std::move(r);
        std::filesystem::path program = options_.program;
        if(options_.program.find('/') == std::string::npos)
        {
            program = bp::environment::find_executable(options_.program);
            if(program.empty())
                throw client_error(client_errc::transport_failed,
                    "cannot start the MCP server: '" + options_.program + "' is not in PATH");
        }
        int err_fd = -1;
        if(!options_.stderr_log.empty())
        {
            err_fd = ::open(options_.stderr_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if(err_fd < 0)
                throw client_error(client_errc::transport_failed,
                    "cannot open the MCP server's log '" + options_.stderr_log.string() + "'");
        }
        agentio::detail::child_process::pipes ends;
        try
        {
            ends = child_.start({program, options_.arguments, options_.working_directory, err_fd,
                options_.environment});
        }
        catch(std::exception const& e)
        {
            if(err_fd >= 0)
                ::close(err_fd);
            throw client_error(client_errc::transport_failed,
                "cannot start the MCP server '" + program.string() + "': " + e.what());
        }
        if(err_fd >= 0)
            ::close(err_fd); // the child has its copy
        started_ = true;
        to_child_.assign(ends.to_child);
        from_child_.assign(ends.from_child);
        asio::co_spawn(strand_, read_lines(shared_from_this()), asio::detached);
        co_return;
    }

    asio::awaitable<void> send(json::object const& message, send_options const&) override
    {
        if(closed_)
            throw client_error(client_errc::closed, "the MCP server process has ended");
        std::string line = to_json_text(message);
        line.push_back('\n');
        outbox_.push_back(std::move(line));
        // One writer for every sender, bound to nobody's cancellation: a line
        // is written whole or the connection is over (a half line would merge
        // with the next message).
        if(!writing_)
        {
            writing_ = true;
            asio::co_spawn(strand_, write_lines(shared_from_this()), asio::detached);
        }
        co_return;
    }

    asio::awaitable<void> close() override
    {
        if(!started_)
            co_return;
        boost::system::error_code ec;
        to_child_.close(ec); // end of input: the server's cue to exit
        for(int step = 0; step < 3 && !exited_; ++step)
        {
            if(step == 1)
                child_.signal(SIGTERM);
            else if(step == 2)
                child_.signal(SIGKILL);
            co_await wait_for_exit(options_.shutdown_grace);
        }
        from_child_.close(ec);
        closed_ = true;
    }

private:
    asio::awaitable<void> write_lines([[maybe_unused]] std::shared_ptr<client_transport> keep_alive)
    {
        while(!outbox_.empty() && !closed_)
        {
            std::string const next = std::move(outbox_.front());
            outbox_.pop_front();
            auto [ec, n] = co_await asio::async_write(to_child_, asio::buffer(next),
                asio::as_tuple(asio::use_awaitable));
            (void)n;
            if(ec)
            {
                // The child stopped reading: every request waiting is told at once.
                outbox_.clear();
                closed_ = true;
                boost::system::error_code ignored;
                from_child_.close(ignored);
                if(receiver_.on_closed)
                    receiver_.on_closed(client_error(client_errc::transport_failed,
                        "cannot write to the MCP server process: " + ec.message()));
            }
        }
        writing_ = false;
    }

    // Polls the child's state for up to `limit` (pidfd waits are not available
    // everywhere, gVisor for one); the check that sees it ended reaps it, once.
    asio::awaitable<void> wait_for_exit(std::chrono::steady_clock::duration limit)
    {
        auto const until = std::chrono::steady_clock::now() + limit;
        asio::steady_timer moment(strand_);
        while(started_ && !exited_)
        {
            if(!child_.running())
            {
                // Ended and reaped: its pid is no longer ours.
                exited_ = true;
                break;
            }
            if(std::chrono::steady_clock::now() >= until)
                break;
            moment.expires_after(std::chrono::milliseconds(10));
            co_await moment.async_wait(asio::as_tuple(asio::use_awaitable));
        }
    }

    asio::awaitable<void> read_lines([[maybe_unused]] std::shared_ptr<client_transport> keep_alive)
    {
        std::string buffer;
        boost::system::error_code ec;
        while(!ec)
        {
            std::size_t n = 0;
            std::tie(ec, n) = co_await asio::async_read_until(from_child_,
                asio::dynamic_buffer(buffer, options_.max_message_bytes), '\n', asio::as_tuple(asio::use_awaitable));
            std::size_t start = 0;
            for(std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1)
                deliver(std::string_view(buffer).substr(start, end - start));
            buffer.erase(0, start);
        }
        closed_ = true;
        std::string why = "the MCP server process closed its output";
        if(ec == asio::error::not_found)
            why = "the MCP server sent a message longer than " + std::to_string(options_.max_message_bytes) + " bytes";
        else if(ec != asio::error::eof && ec != asio::error::operation_aborted)
            why = "cannot read from the MCP server process: " + ec.message();
        // Its output closes as it exits: a moment to learn how it ended.
        co_await wait_for_exit(std::chrono::milliseconds(500));
        if(auto code = child_.exit_code())
            why += " (exit code " + std::to_string(*code) + ")";
        if(receiver_.on_closed)
            receiver_.on_closed(client_error(client_errc::closed, why));
    }

    void deliver(std::string_view line)
    {
        if(!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if(line.find_first_not_of(" \t") == std::string_view::npos)
            return;
        boost::system::error_code ec;
        auto message = json::parse(line, ec);
        // A line that is not a JSON object is not MCP: a server that prints to
        // stdout by mistake should not end the session.
        if(!ec && message.is_object() && receiver_.on_message)
            receiver_.on_message(std::move(message.get_object()));
    }

    asio::strand<asio::any_io_executor> strand_;
    process_options options_;
    asio::writable_pipe to_child_;
    asio::readable_pipe from_child_;
    agentio::detail::child_process child_;
    receiver receiver_;
    std::deque<std::string> outbox_;
    bool writing_ = false;
    bool closed_ = false;
    bool started_ = false;
    bool exited_ = false; // reaped: its pid is no longer ours
};

} // namespace detail

AGENTIO_DECL std::shared_ptr<client_transport> make_stdio_transport(asio::any_io_executor ex, process_options options)
{
    // A server that exits (or crashes) while a request is being written
    // would otherwise end this process with SIGPIPE rather than fail the
    // request. A pipe has no MSG_NOSIGNAL, so the signal is ignored
    // process-wide, as gRPC and libcurl do, unless the program handles it itself.
    struct sigaction current = {};
    if(::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
        (current.sa_flags & SA_SIGINFO) == 0)
        std::signal(SIGPIPE, SIG_IGN);
    return std::make_shared<detail::stdio_transport>(std::move(ex), std::move(options));
}

} // namespace agentio::mcp

#endif
