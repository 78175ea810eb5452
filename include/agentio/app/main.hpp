//
// agentio/app/main.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_APP_MAIN_HPP
#define AGENTIO_APP_MAIN_HPP

#include <agentio/app/command_line.hpp>
#include <agentio/app/dotenv.hpp>

#include <concepts>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

namespace agentio::app {

/// How @ref run_main starts a program.
struct main_options
{
    /// Read `.env` from the working directory first (its variables never override the environment's).
    bool dotenv = true;
    /** Ignore SIGPIPE, as servers do: a write to a pipe whose reader has
        gone (an MCP server on stdio that ended) is then an error the caller
        sees, not the end of the process. */
    bool ignore_sigpipe = true;
};

/** The whole of a program's `main` around its commands: reads `.env`,
    parses the command line, prints the usage for `--help`, and runs
    `body(command)`, whose value is the exit status.

    @li A @ref usage_error — from the parse or thrown by `body` for a bad
    variable or combination — is one line on stderr, `program: message`
    followed by the hint to `--help`, and exit status 2. So is a program with
    commands run without one.
    @li Any other exception is `program: what()` on stderr and exit status 1.

    @code
    int main(int argc, char** argv)
    {
        agentio::app::command_line cli("agentio-facturas", agentio::spanish_messages);
        // ... cli.command(...), options ...
        return agentio::app::run_main(cli, argc, argv, [&](std::string_view command) {
            return command == "serve" ? serve() : ask();
        });
    }
    @endcode
*/
template<class Body>
requires std::invocable<Body&, std::string_view>
int run_main(command_line& cli, int argc, char** argv, Body&& body, main_options const& options = {})
{
    auto const say = [&](std::string const& message) {
        std::fprintf(stderr, "%s: %s\n", cli.program().c_str(), message.c_str());
    };
    try
    {
        if(options.ignore_sigpipe)
            std::signal(SIGPIPE, SIG_IGN);
        if(options.dotenv)
            load_dotenv();
        auto const parsed = cli.parse(argc, argv);
        if(parsed.help)
        {
            std::fputs(cli.usage().c_str(), stdout);
            return 0;
        }
        return static_cast<int>(body(std::string_view(parsed.command)));
    }
    catch(usage_error const& e)
    {
        say(std::string(e.what()) + " (" + format_message(cli.texts().usage_hint, {{"program", cli.program()}}) + ")");
        return 2;
    }
    catch(std::exception const& e)
    {
        say(e.what());
        return 1;
    }
}

} // namespace agentio::app

#endif
