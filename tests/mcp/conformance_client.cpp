// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The client the official MCP conformance suite (@modelcontextprotocol/conformance)
// runs against its client scenarios: agentio::mcp::client over Streamable HTTP.
// The suite starts a server, runs this program with the server's URL as the
// last argument and the scenario in MCP_CONFORMANCE_SCENARIO, and judges what
// the server saw. Each scenario is what an application would do with the
// client; the protocol itself (negotiation, headers, resumption, MRTR) is the
// library's.
//
//   agentio_mcp_conformance_client URL
//     MCP_CONFORMANCE_SCENARIO          the scenario
//     MCP_CONFORMANCE_PROTOCOL_VERSION  2026-07-28: the stateless revision; else the handshake
//     MCP_CONFORMANCE_CONTEXT           JSON the scenario gives (http-custom-headers: the calls to make)
#include <agentio/mcp/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;

namespace {

std::string env(char const* name)
{
    char const* v = std::getenv(name);
    return v ? v : "";
}

// An elicitation answered as a user who accepts the form as offered: each
// field's default (SEP-1034), else a value of the field's type.
asio::awaitable<json::object> accept_defaults(json::object const& params)
{
    json::object content;
    auto const* schema = params.if_contains("requestedSchema");
    auto const* properties = schema && schema->is_object() ? schema->get_object().if_contains("properties") : nullptr;
    if(properties && properties->is_object())
        for(auto const& [name, field] : properties->get_object())
        {
            auto const* f = field.if_object();
            if(!f)
                continue;
            if(auto const* d = f->if_contains("default"))
                content[name] = *d;
            else if(auto const* e = f->if_contains("enum"); e && e->is_array() && !e->get_array().empty())
                content[name] = e->get_array().front();
            else if(auto const* t = f->if_contains("type"); t && t->is_string())
            {
                std::string_view const type = t->get_string();
                content[name] = type == "boolean"           ? json::value(true)
                    : type == "integer" || type == "number" ? json::value(0)
                                                            : json::value("");
            }
        }
    co_return json::object{{"action", "accept"}, {"content", std::move(content)}};
}

json::object params_with(std::string_view key, json::value value)
{
    json::object o;
    o[key] = std::move(value);
    return o;
}

asio::awaitable<int> run(std::string url, std::string scenario)
{
    auto const ex = co_await asio::this_coro::executor;
    bool const stateless = env("MCP_CONFORMANCE_PROTOCOL_VERSION") == "2026-07-28";
    mcp::client_options options;
    options.name = "agentio-conformance-client";
    options.mode = stateless ? mcp::negotiation::stateless : mcp::negotiation::handshake;
    options.on_elicitation = accept_defaults;
    options.request_timeout = std::chrono::seconds(20);
    mcp::http_transport_options transport;
    transport.url = url;
    mcp::client c(mcp::make_http_transport(ex, std::move(transport)), options);
    co_await c.connect();
    auto const tools = co_await c.list_tools();

    json::object const none;
    if(scenario == "tools_call")
    {
        json::object const numbers{{"a", 5}, {"b", 3}};
        (void)co_await c.call_tool("add_numbers", numbers);
    }
    else if(scenario == "elicitation-sep1034-client-defaults")
        (void)co_await c.call_tool("test_client_elicitation_defaults", none);
    else if(scenario == "sse-retry")
        (void)co_await c.call_tool("test_reconnection", none);
    else if(scenario == "sep-2322-client-request-state")
    {
        for(auto const& t : tools)
            (void)co_await c.call_tool(t.name, none);
    }
    else if(scenario == "http-standard-headers")
    {
        for(auto const& t : tools)
            (void)co_await c.call_tool(t.name, none);
        auto resources = co_await c.request("resources/list", none);
        if(auto const* list = resources.if_contains("resources"); list && list->is_array())
            for(auto const& r : list->get_array())
                (void)co_await c.request("resources/read", params_with("uri", r.at("uri")));
        auto prompts = co_await c.request("prompts/list", none);
        if(auto const* list = prompts.if_contains("prompts"); list && list->is_array())
            for(auto const& p : list->get_array())
                (void)co_await c.request("prompts/get", params_with("name", p.at("name")));
    }
    else if(scenario == "http-custom-headers")
    {
        auto const context = json::parse(env("MCP_CONFORMANCE_CONTEXT"));
        for(auto const& call : context.at("toolCalls").as_array())
            (void)co_await c.call_tool(std::string(call.at("name").as_string()), call.at("arguments"));
    }
    else if(scenario == "http-invalid-tool-headers")
    {
        // The client left out the tools whose header annotations are invalid.
        json::object const region{{"region", "us-west1"}};
        for(auto const& t : tools)
            (void)co_await c.call_tool(t.name, region);
    }
    else if(scenario == "json-schema-2020-12-preservation")
    {
        for(auto const& t : tools)
            if(t.name == "json_schema_2020_12_tool")
            {
                json::object const echo{{"schema", t.input_schema}};
                (void)co_await c.call_tool("json_schema_echo", echo);
            }
    }
    // initialize, request-metadata, json-schema-ref-no-deref: connecting and listing is the scenario.
    co_await c.close();
    co_return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 2)
    {
        std::fprintf(stderr, "usage: %s URL (MCP_CONFORMANCE_SCENARIO names the scenario)\n", argv[0]);
        return 2;
    }
    std::string const scenario = env("MCP_CONFORMANCE_SCENARIO");
    asio::io_context ioc;
    int status = 1;
    asio::co_spawn(ioc, run(argv[argc - 1], scenario), [&](std::exception_ptr e, int s) {
        status = s;
        if(!e)
            return;
        try
        {
            std::rethrow_exception(e);
        }
        catch(std::exception const& failure)
        {
            std::fprintf(stderr, "%s: %s\n", scenario.c_str(), failure.what());
        }
        status = 1;
    });
    ioc.run();
    return status;
}
