// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio's side of the MCP benchmark: the same cheap `echo` tool as
// tests/mcp/js/echo_server.mjs (the official TypeScript SDK), served by
// agentio::mcp over stdio or Streamable HTTP. bench/mcp_bench.sh drives both.
//
//   agentio_mcp_echo_server --stdio
//   agentio_mcp_echo_server --port P [--threads N]   (prints "listening on http://127.0.0.1:P/mcp")
#include <agentio/http/server.hpp>
#include <agentio/mcp.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/describe.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <thread>
#include <unistd.h>

namespace asio = boost::asio;

namespace bench {

struct echo
{
    static constexpr std::string_view name = "echo";
    static constexpr std::string_view description = "Repite el texto";
    struct args
    {
        std::string text;
    };
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        co_return agentio::tool_result::text(std::move(a.text));
    }
};
BOOST_DESCRIBE_STRUCT(echo::args, (), (text))

} // namespace bench

template<>
struct agentio::field_traits<bench::echo::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "text", .description = "Texto", .min_length = 1}};
};

int main(int argc, char** argv)
{
    bool stdio = false;
    unsigned short port = 0;
    unsigned threads = 1;
    for(int i = 1; i < argc; ++i)
    {
        if(!std::strcmp(argv[i], "--stdio"))
            stdio = true;
        else if(!std::strcmp(argv[i], "--port") && i + 1 < argc)
            port = static_cast<unsigned short>(std::atoi(argv[++i]));
        else if(!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    }

    using tools_t = agentio::toolset<bench::echo>;
    tools_t tools{agentio::toolset_options{}, bench::echo{}};
    agentio::mcp::server<tools_t> server(tools,
        agentio::mcp::server_options{.info = {.name = "echo-agentio", .version = "1.0.0"}, .read_only_tools = true});
    asio::io_context ioc(static_cast<int>(threads));

    if(stdio)
    {
        asio::posix::stream_descriptor in(ioc, ::dup(STDIN_FILENO));
        asio::posix::stream_descriptor out(ioc, ::dup(STDOUT_FILENO));
        asio::co_spawn(ioc, agentio::mcp::serve_stdio(server, in, out), [&](std::exception_ptr) { ioc.stop(); });
        ioc.run();
        return 0;
    }
    agentio::http::server http(ioc.get_executor(), agentio::mcp::streamable_http(server));
    auto const ep = http.listen({asio::ip::make_address("127.0.0.1"), port}).value();
    http.start();
    std::printf("listening on http://127.0.0.1:%u/mcp\n", ep.port());
    std::fflush(stdout);
    std::vector<std::thread> extra;
    for(unsigned i = 1; i < threads; ++i)
        extra.emplace_back([&] { ioc.run(); });
    ioc.run();
    for(auto& t : extra)
        t.join();
}
