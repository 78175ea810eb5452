// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The server the official MCP conformance suite (@modelcontextprotocol/conformance)
// runs against: agentio::mcp over Streamable HTTP, carrying the fixtures the
// suite's scenarios expect (docs/notes/mcp-plan.md §4): test_* tools as ordinary
// agentio tool types, test:// resources and a template, prompts, completion.
//
//   agentio_mcp_conformance_server [--host 127.0.0.1] [--port 0] [--port-file PATH]
#include <agentio/http/server.hpp>
#include <agentio/mcp.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;
using agentio::tool_context;
using agentio::tool_result;

namespace fixtures {

// A 1×1 red PNG and a tiny WAV, as the suite's reference server has them.
constexpr char png[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr char wav[] = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

struct no_args
{
};
BOOST_DESCRIBE_STRUCT(no_args, (), ())

asio::awaitable<void> sleep_ms(int ms)
{
    asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(ms));
    co_await t.async_wait(asio::use_awaitable);
}

#define AGENTIO_FIXTURE_TOOL(type, tool_name, text)                                                                    \
    struct type                                                                                                        \
    {                                                                                                                  \
        static constexpr std::string_view name = tool_name;                                                            \
        static constexpr std::string_view description = text;                                                          \
        using args = no_args;                                                                                          \
        asio::awaitable<tool_result> operator()(args, tool_context&) const;                                            \
    };

AGENTIO_FIXTURE_TOOL(simple_text, "test_simple_text", "Tests simple text content response")
AGENTIO_FIXTURE_TOOL(image_content, "test_image_content", "Tests image content response")
AGENTIO_FIXTURE_TOOL(audio_content, "test_audio_content", "Tests audio content response")
AGENTIO_FIXTURE_TOOL(embedded_resource, "test_embedded_resource", "Tests embedded resource content response")
AGENTIO_FIXTURE_TOOL(multiple_content_types, "test_multiple_content_types",
    "Tests response with multiple content types (text, image, resource)")
AGENTIO_FIXTURE_TOOL(tool_with_logging, "test_tool_with_logging", "Tests tool that emits log messages during execution")
AGENTIO_FIXTURE_TOOL(tool_with_progress, "test_tool_with_progress", "Tests tool that reports progress notifications")
AGENTIO_FIXTURE_TOOL(error_handling, "test_error_handling", "Tests error response handling")
AGENTIO_FIXTURE_TOOL(elicitation_defaults, "test_elicitation_sep1034_defaults",
    "Tests elicitation with default values per SEP-1034")
AGENTIO_FIXTURE_TOOL(elicitation_enums, "test_elicitation_sep1330_enums",
    "Tests elicitation with enum schema improvements per SEP-1330")
// The 2026-07-28 suite's diagnostics (server-stateless).
AGENTIO_FIXTURE_TOOL(missing_capability, "test_missing_capability",
    "Needs the client's sampling capability: without it the call is refused with -32021")
AGENTIO_FIXTURE_TOOL(streaming_elicitation, "test_streaming_elicitation",
    "Reports progress, then would elicit: the response stream never carries a request")
AGENTIO_FIXTURE_TOOL(logging_tool, "test_logging_tool", "Logs at info level (sent only when the request asks for logs)")
// Multi-round input (SEP-2322), each as the suite specifies it.
AGENTIO_FIXTURE_TOOL(input_elicitation, "test_input_required_result_elicitation", "Asks the user's name, then greets")
AGENTIO_FIXTURE_TOOL(input_sampling, "test_input_required_result_sampling", "Asks the client's LLM a question")
AGENTIO_FIXTURE_TOOL(input_list_roots, "test_input_required_result_list_roots", "Asks the client's roots")
AGENTIO_FIXTURE_TOOL(input_request_state, "test_input_required_result_request_state",
    "Asks for a confirmation, keeping state between rounds")
AGENTIO_FIXTURE_TOOL(input_multiple, "test_input_required_result_multiple_inputs",
    "Asks for a name, a greeting and the roots at once")
AGENTIO_FIXTURE_TOOL(input_multi_round, "test_input_required_result_multi_round", "Asks in two rounds")
AGENTIO_FIXTURE_TOOL(input_tampered_state, "test_input_required_result_tampered_state",
    "Keeps signed state: a forged one is refused")
AGENTIO_FIXTURE_TOOL(input_capabilities, "test_input_required_result_capabilities",
    "Asks only for what the client can give")
#undef AGENTIO_FIXTURE_TOOL

// The MCP client that called a tool (these tools are only served over MCP).
agentio::mcp::client_channel& client(tool_context& ctx)
{
    return *agentio::mcp::client_of(ctx);
}

asio::awaitable<tool_result> simple_text::operator()(args, tool_context&) const
{
    co_return tool_result::text("This is a simple text response for testing.");
}

asio::awaitable<tool_result> image_content::operator()(args, tool_context&) const
{
    tool_result r;
    r.add_image("image/png", png);
    co_return r;
}

asio::awaitable<tool_result> audio_content::operator()(args, tool_context&) const
{
    tool_result r;
    r.content.emplace_back(agentio::audio_content{"audio/wav", wav});
    co_return r;
}

asio::awaitable<tool_result> embedded_resource::operator()(args, tool_context&) const
{
    tool_result r;
    r.content.emplace_back(agentio::resource_content{"test://embedded-resource", "text/plain",
        "This is an embedded resource content.", {}});
    co_return r;
}

asio::awaitable<tool_result> multiple_content_types::operator()(args, tool_context&) const
{
    tool_result r = tool_result::text("Multiple content types test:");
    r.add_image("image/png", png);
    r.content.emplace_back(agentio::resource_content{"test://mixed-content-resource", "application/json",
        R"({"test":"data","value":123})", {}});
    co_return r;
}

asio::awaitable<tool_result> tool_with_logging::operator()(args, tool_context& ctx) const
{
    ctx.write_log("info", "Tool execution started");
    co_await sleep_ms(50);
    ctx.write_log("info", "Tool processing data");
    co_await sleep_ms(50);
    ctx.write_log("info", "Tool execution completed");
    co_return tool_result::text("Tool with logging executed successfully");
}

asio::awaitable<tool_result> tool_with_progress::operator()(args, tool_context& ctx) const
{
    for(int step : {0, 50, 100})
    {
        ctx.report_progress(step, 100, "Completed step " + std::to_string(step) + " of 100");
        if(step != 100)
            co_await sleep_ms(50);
    }
    co_return tool_result::text("Progress completed");
}

asio::awaitable<tool_result> missing_capability::operator()(args, tool_context& ctx) const
{
    json::object params{
        {"messages",
            json::array{json::object{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", "ping"}}}}}},
        {"maxTokens", 10}};
    auto const reply = co_await client(ctx).ask("sampling/createMessage", std::move(params));
    if(!reply.ok())
        co_return tool_result::error("sampling unavailable: " + agentio::to_json_text(reply.error));
    co_return tool_result::text("sampled");
}

asio::awaitable<tool_result> streaming_elicitation::operator()(args, tool_context& ctx) const
{
    ctx.report_progress(0, 1, "asking");
    co_await sleep_ms(20);
    json::object params{{"message", "Name?"},
        {"requestedSchema",
            json::object{{"type", "object"},
                {"properties", json::object{{"name", json::object{{"type", "string"}}}}}}}};
    auto const reply = co_await client(ctx).ask("elicitation/create", std::move(params));
    ctx.report_progress(1, 1, "done");
    co_return tool_result::text(reply.ok() ? "elicited" : "elicitation unavailable within this request");
}

asio::awaitable<tool_result> logging_tool::operator()(args, tool_context& ctx) const
{
    ctx.write_log("info", "logging tool ran");
    co_return tool_result::text("logged");
}

json::object elicit(std::string message, std::string field, std::string type)
{
    return json::object{{"method", "elicitation/create"},
        {"params",
            json::object{{"message", std::move(message)},
                {"requestedSchema",
                    json::object{{"type", "object"},
                        {"properties", json::object{{field, json::object{{"type", type}}}}},
                        {"required", json::array{json::string(field)}}}}}}};
}

json::object sample(std::string text, int max_tokens)
{
    return json::object{{"method", "sampling/createMessage"},
        {"params",
            json::object{{"messages",
                             json::array{json::object{{"role", "user"},
                                 {"content", json::object{{"type", "text"}, {"text", std::move(text)}}}}}},
                {"maxTokens", max_tokens}}}};
}

json::object list_roots()
{
    return json::object{{"method", "roots/list"}, {"params", json::object{}}};
}

// The accepted elicitation answer's `content[field]` as text; empty when absent or declined.
std::string elicited(json::object const& answers, std::string_view key, std::string_view field)
{
    auto const* answer = answers.if_contains(key);
    if(!answer || !answer->is_object())
        return {};
    auto const* content = answer->get_object().if_contains("content");
    if(!content || !content->is_object())
        return {};
    auto const* value = content->get_object().if_contains(field);
    return value ? (value->is_string() ? std::string(value->get_string()) : agentio::to_json_text(*value))
                 : std::string();
}

bool answered(json::object const& answers, std::string_view key)
{
    auto const* a = answers.if_contains(key);
    return a && a->is_object();
}

asio::awaitable<tool_result> input_elicitation::operator()(args, tool_context& ctx) const
{
    auto const user = elicited(client(ctx).input_responses, "user_name", "name");
    if(user.empty()) // first round, or an answer that does not fit: ask (again)
        co_return agentio::mcp::input_required(json::object{
            {"user_name", elicit("What is your name?", "name", "string")}});
    co_return tool_result::text("Hello, " + user + "!");
}

asio::awaitable<tool_result> input_sampling::operator()(args, tool_context& ctx) const
{
    auto const* answer = client(ctx).input_responses.if_contains("capital_question");
    if(!answer || !answer->is_object() || !answer->get_object().contains("content"))
        co_return agentio::mcp::input_required(json::object{
            {"capital_question", sample("What is the capital of France?", 100)}});
    auto const& content = answer->at("content");
    co_return tool_result::text("LLM response: " +
        (content.is_object() && content.get_object().contains("text") ? std::string(content.at("text").as_string())
                                                                      : agentio::to_json_text(content)));
}

asio::awaitable<tool_result> input_list_roots::operator()(args, tool_context& ctx) const
{
    auto const* answer = client(ctx).input_responses.if_contains("client_roots");
    if(!answer || !answer->is_object() || !answer->get_object().contains("roots"))
        co_return agentio::mcp::input_required(json::object{{"client_roots", list_roots()}});
    co_return tool_result::text("Roots: " + agentio::to_json_text(answer->at("roots")));
}

asio::awaitable<tool_result> input_request_state::operator()(args, tool_context& ctx) const
{
    if(!answered(client(ctx).input_responses, "confirm") || client(ctx).request_state != "awaiting-confirmation")
        co_return agentio::mcp::input_required(json::object{{"confirm", elicit("Please confirm", "ok", "boolean")}},
            "awaiting-confirmation");
    co_return tool_result::text("state-ok: confirmed " + elicited(client(ctx).input_responses, "confirm", "ok"));
}

asio::awaitable<tool_result> input_multiple::operator()(args, tool_context& ctx) const
{
    auto const& a = client(ctx).input_responses;
    if(!answered(a, "user_name") || !answered(a, "greeting") || !answered(a, "client_roots") ||
        client(ctx).request_state != "three-inputs")
        co_return agentio::mcp::input_required(
            json::object{{"user_name", elicit("What is your name?", "name", "string")},
                {"greeting", sample("Generate a greeting", 50)}, {"client_roots", list_roots()}},
            "three-inputs");
    co_return tool_result::text("All inputs received for " + elicited(a, "user_name", "name"));
}

asio::awaitable<tool_result> input_multi_round::operator()(args, tool_context& ctx) const
{
    if(client(ctx).request_state.starts_with("step2:") && answered(client(ctx).input_responses, "step2"))
        co_return tool_result::text("Name " + client(ctx).request_state.substr(6) + ", colour " +
            elicited(client(ctx).input_responses, "step2", "color"));
    if(client(ctx).request_state == "step1" && answered(client(ctx).input_responses, "step1"))
        co_return agentio::mcp::input_required(json::object{{"step2",
                                                   elicit("Step 2: What is your favorite color?", "color", "string")}},
            "step2:" + elicited(client(ctx).input_responses, "step1", "name"));
    co_return agentio::mcp::input_required(
        json::object{{"step1", elicit("Step 1: What is your name?", "name", "string")}}, "step1");
}

asio::awaitable<tool_result> input_tampered_state::operator()(args, tool_context& ctx) const
{
    // The server refuses a forged state before the tool runs; an honest one comes back whole.
    if(client(ctx).request_state == "signed-state" && answered(client(ctx).input_responses, "user_name"))
        co_return tool_result::text("state intact");
    co_return agentio::mcp::input_required(json::object{{"user_name", elicit("What is your name?", "name", "string")}},
        "signed-state");
}

asio::awaitable<tool_result> input_capabilities::operator()(args, tool_context& ctx) const
{
    json::object wanted;
    if(agentio::mcp::client_of(ctx) && client(ctx).can("elicitation") &&
        !answered(client(ctx).input_responses, "user_name"))
        wanted["user_name"] = elicit("What is your name?", "name", "string");
    if(agentio::mcp::client_of(ctx) && client(ctx).can("sampling") &&
        !answered(client(ctx).input_responses, "greeting"))
        wanted["greeting"] = sample("Generate a greeting", 50);
    if(!wanted.empty())
        co_return agentio::mcp::input_required(std::move(wanted));
    co_return tool_result::text("Done with what the client could give");
}

asio::awaitable<tool_result> error_handling::operator()(args, tool_context&) const
{
    co_return tool_result::error("This tool intentionally returns an error for testing");
}

// "action=<action>, content=<json>" of an elicitation answer.
std::string describe_elicitation(agentio::mcp::client_reply const& reply)
{
    if(!reply.ok())
        return "error=" + agentio::to_json_text(reply.error);
    auto const& o = reply.result.as_object();
    std::string out = "action=" + (o.contains("action") ? std::string(o.at("action").as_string()) : std::string("?"));
    out += ", content=" + (o.contains("content") ? agentio::to_json_text(o.at("content")) : std::string("{}"));
    return out;
}

asio::awaitable<tool_result> elicitation_defaults::operator()(args, tool_context& ctx) const
{
    auto reply = co_await client(ctx).ask("elicitation/create",
        json::parse(R"({"mode":"form",
        "message":"Please review and update the form fields with defaults",
        "requestedSchema":{"type":"object","properties":{
            "name":{"type":"string","description":"User name","default":"John Doe"},
            "age":{"type":"integer","description":"User age","default":30},
            "score":{"type":"number","description":"User score","default":95.5},
            "status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
            "verified":{"type":"boolean","description":"Verification status","default":true}},"required":[]}})")
            .as_object());
    co_return tool_result::text("Elicitation completed: " + describe_elicitation(reply));
}

asio::awaitable<tool_result> elicitation_enums::operator()(args, tool_context& ctx) const
{
    auto reply = co_await client(ctx).ask("elicitation/create",
        json::parse(R"({"mode":"form",
        "message":"Please select options from the enum fields",
        "requestedSchema":{"type":"object","required":[],"properties":{
            "untitledSingle":{"type":"string","description":"Untitled single select","enum":["option1","option2","option3"]},
            "titledSingle":{"type":"string","description":"Titled single select","oneOf":[
                {"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},
                {"const":"value3","title":"Third Option"}]},
            "legacyEnum":{"type":"string","description":"Legacy enum","enum":["opt1","opt2","opt3"],
                "enumNames":["Option One","Option Two","Option Three"]},
            "untitledMulti":{"type":"array","description":"Untitled multi select","minItems":1,"maxItems":3,
                "items":{"type":"string","enum":["option1","option2","option3"]}},
            "titledMulti":{"type":"array","description":"Titled multi select","minItems":1,"maxItems":3,
                "items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},
                    {"const":"value3","title":"Third Choice"}]}}}}})")
            .as_object());
    co_return tool_result::text("Elicitation completed: " + describe_elicitation(reply));
}

struct sampling
{
    static constexpr std::string_view name = "test_sampling";
    static constexpr std::string_view description = "Tests server-initiated sampling (LLM completion request)";
    struct args
    {
        std::string prompt;
    };
    asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const
    {
        json::object params{{"messages",
                                json::array{json::object{{"role", "user"},
                                    {"content", json::object{{"type", "text"}, {"text", a.prompt}}}}}},
            {"maxTokens", 100}};
        auto reply = co_await client(ctx).ask("sampling/createMessage", std::move(params));
        if(!reply.ok())
            co_return tool_result::error("Sampling failed: " + agentio::to_json_text(reply.error));
        auto const* content = reply.result.as_object().if_contains("content");
        auto const* text = content && content->is_object() ? content->get_object().if_contains("text") : nullptr;
        co_return tool_result::text("LLM response: " +
            (text && text->is_string() ? std::string(text->get_string()) : ""));
    }
};
BOOST_DESCRIBE_STRUCT(sampling::args, (), (prompt))

struct elicitation
{
    static constexpr std::string_view name = "test_elicitation";
    static constexpr std::string_view description = "Tests server-initiated elicitation (user input request)";
    struct args
    {
        std::string message;
    };
    asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const
    {
        json::object params{{"message", a.message}, {"requestedSchema", json::parse(R"({"type":"object","properties":{
                "username":{"type":"string","description":"User's response"},
                "email":{"type":"string","description":"User's email address"}},"required":["username","email"]})")}};
        auto reply = co_await client(ctx).ask("elicitation/create", std::move(params));
        co_return tool_result::text("User response: " + describe_elicitation(reply));
    }
};
BOOST_DESCRIBE_STRUCT(elicitation::args, (), (message))

// SEP-2243: an argument mirrored in an Mcp-Param header, which the server
// checks against the body on 2026-07-28 requests.
struct header_param
{
    static constexpr std::string_view name = "test_header_param";
    static constexpr std::string_view description = "Echoes a region that is also sent in the Mcp-Param-Region header";
    struct args
    {
        std::string region;
    };
    asio::awaitable<tool_result> operator()(args a, tool_context&) const
    {
        co_return tool_result::text("Region: " + a.region);
    }
};
BOOST_DESCRIBE_STRUCT(header_param::args, (), (region))

} // namespace fixtures

template<>
struct agentio::field_traits<fixtures::header_param::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "region", .description = "The region to echo", .annotation = agentio::mcp::param_header("Region")}};
};
template<>
struct agentio::field_traits<fixtures::sampling::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "prompt", .description = "The prompt to send to the LLM"}};
};
template<>
struct agentio::field_traits<fixtures::elicitation::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "message", .description = "The message to show the user"}};
};

namespace {

using conformance_tools = agentio::toolset<fixtures::simple_text, fixtures::image_content, fixtures::audio_content,
    fixtures::embedded_resource, fixtures::multiple_content_types, fixtures::tool_with_logging,
    fixtures::tool_with_progress, fixtures::error_handling, fixtures::sampling, fixtures::elicitation,
    fixtures::elicitation_defaults, fixtures::elicitation_enums, fixtures::missing_capability,
    fixtures::streaming_elicitation, fixtures::logging_tool, fixtures::input_elicitation, fixtures::input_sampling,
    fixtures::input_list_roots, fixtures::input_request_state, fixtures::input_multiple, fixtures::input_multi_round,
    fixtures::input_tampered_state, fixtures::input_capabilities, fixtures::header_param>;

using conformance_catalog = agentio::combined_toolset<conformance_tools>;

// json-schema-2020-12 (SEP-1613, SEP-2106): a runtime tool whose schema is
// listed exactly as written ($schema, $defs, $anchor, $ref, allOf/anyOf,
// if/then/else) and still validates every call.
agentio::dynamic_tools::definition json_schema_2020_12_tool()
{
    return {.name = "json_schema_2020_12_tool",
        .description = "Tests JSON Schema 2020-12 keyword preservation",
        .input_schema = json::parse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
            "$defs":{"address":{"$anchor":"addressDef","type":"object",
                "properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
            "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},
                "contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},
                "email":{"type":"string"}},
            "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
            "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
            "then":{"required":["phone"]},"else":{"required":["email"]},
            "additionalProperties":false})")
                            .as_object(),
        .handler = [](json::value const& arguments, tool_context&) -> asio::awaitable<tool_result> {
            co_return tool_result::text("JSON Schema 2020-12 tool called with: " + json::serialize(arguments));
        }};
}

json::object text_message(std::string text)
{
    return json::object{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", std::move(text)}}}};
}

void add_fixtures(mcp::server<conformance_catalog>& s)
{
    using contents = std::vector<mcp::resource_contents>;
    s.add_resource({.uri = "test://static-text",
        .name = "static-text",
        .title = "Static Text Resource",
        .description = "A static text resource for testing",
        .mime_type = "text/plain",
        .read = [](std::string const& uri) {
            return contents{{uri, "text/plain", "This is the content of the static text resource.", {}}};
        }});
    s.add_resource({.uri = "test://static-binary",
        .name = "static-binary",
        .title = "Static Binary Resource",
        .description = "A static binary resource (image) for testing",
        .mime_type = "image/png",
        .read = [](std::string const& uri) {
            return contents{{uri, "image/png", {}, fixtures::png}};
        }});
    s.add_resource({.uri = "test://watched-resource",
        .name = "watched-resource",
        .title = "Watched Resource",
        .description = "A resource that can be subscribed to",
        .mime_type = "text/plain",
        .read = [](std::string const& uri) {
            return contents{{uri, "text/plain", "Watched resource content", {}}};
        }});
    s.add_resource_template({.uri_template = "test://template/{id}/data",
        .name = "template",
        .title = "Template Resource",
        .description = "A resource template with an id parameter",
        .mime_type = "application/json",
        .read = [](std::string const& uri, std::map<std::string, std::string> const& v) {
            std::string const& id = v.at("id");
            return contents{{uri, "application/json",
                agentio::to_json_text(json::object{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}),
                {}}};
        }});

    s.add_prompt({.name = "test_simple_prompt",
        .title = "Simple Prompt",
        .description = "A simple prompt without arguments",
        .get = [](auto const&) { return json::array{text_message("This is a simple prompt for testing.")}; }});
    s.add_prompt({.name = "test_prompt_with_arguments",
        .title = "Prompt With Arguments",
        .description = "A prompt with required arguments",
        .arguments = {{"arg1", "First test argument", true}, {"arg2", "Second test argument", true}},
        .get = [](std::map<std::string, std::string> const& a) {
            return json::array{
                text_message("Prompt with arguments: arg1='" + a.at("arg1") + "', arg2='" + a.at("arg2") + "'")};
        }});
    s.add_prompt({.name = "test_prompt_with_embedded_resource",
        .title = "Prompt With Embedded Resource",
        .description = "A prompt that includes an embedded resource",
        .arguments = {{"resourceUri", "URI of the resource to embed", true}},
        .get = [](std::map<std::string, std::string> const& a) {
            return json::array{json::object{{"role", "user"},
                                   {"content",
                                       json::object{{"type", "resource"},
                                           {"resource",
                                               json::object{{"uri", a.at("resourceUri")}, {"mimeType", "text/plain"},
                                                   {"text", "Embedded resource content for testing."}}}}}},
                text_message("Please process the embedded resource above.")};
        }});
    s.add_prompt({.name = "test_prompt_with_image",
        .title = "Prompt With Image",
        .description = "A prompt that includes an image",
        .get = [](auto const&) {
            return json::array{
                json::object{{"role", "user"},
                    {"content", json::object{{"type", "image"}, {"data", fixtures::png}, {"mimeType", "image/png"}}}},
                text_message("Please analyze the image above.")};
        }});
    s.add_prompt({.name = "test_input_required_result_prompt",
        .title = "Prompt Needing Context",
        .description = "Asks the user for context before it can be written (multi-round input)",
        .get_with_input = [](auto const&, json::object const& answers) {
            auto const context = fixtures::elicited(answers, "user_context", "context");
            if(context.empty())
                return mcp::prompt_result{{},
                    json::object{{"user_context",
                        fixtures::elicit("What context should the prompt use?", "context", "string")}}};
            return mcp::prompt_result{json::array{text_message("Context: " + context)}};
        }});
    s.set_completion([](json::object const&, std::string const&, std::string const&) {
        return std::vector<std::string>{};
    });
}

} // namespace

int main(int argc, char** argv)
{
    std::string host = "127.0.0.1";
    unsigned short port = 0;
    std::string port_file;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        if(!std::strcmp(argv[i], "--host"))
            host = argv[i + 1];
        else if(!std::strcmp(argv[i], "--port"))
            port = static_cast<unsigned short>(std::atoi(argv[i + 1]));
        else if(!std::strcmp(argv[i], "--port-file"))
            port_file = argv[i + 1];
    }
    asio::io_context ioc;
    conformance_tools tools{agentio::toolset_options{}, fixtures::simple_text{}, fixtures::image_content{},
        fixtures::audio_content{}, fixtures::embedded_resource{}, fixtures::multiple_content_types{},
        fixtures::tool_with_logging{}, fixtures::tool_with_progress{}, fixtures::error_handling{}, fixtures::sampling{},
        fixtures::elicitation{}, fixtures::elicitation_defaults{}, fixtures::elicitation_enums{},
        fixtures::missing_capability{}, fixtures::streaming_elicitation{}, fixtures::logging_tool{},
        fixtures::input_elicitation{}, fixtures::input_sampling{}, fixtures::input_list_roots{},
        fixtures::input_request_state{}, fixtures::input_multiple{}, fixtures::input_multi_round{},
        fixtures::input_tampered_state{}, fixtures::input_capabilities{}, fixtures::header_param{}};
    conformance_catalog catalog(std::move(tools));
    if(auto added = catalog.add(json_schema_2020_12_tool()); !added)
    {
        std::fprintf(stderr, "json_schema_2020_12_tool: %s\n", added.error().c_str());
        return 1;
    }
    mcp::server<conformance_catalog> server(catalog,
        {.info = {"agentio-conformance-server", "0.1.0", "agentio conformance server"}});
    add_fixtures(server);
    // The suites open hundreds of sessions from 127.0.0.1 and end few of them:
    // the per-address session cap, meant for hostile clients, is off here.
    mcp::http_options transport;
    transport.max_sessions_per_address = 0;
    agentio::http::server http(ioc.get_executor(), mcp::streamable_http<conformance_catalog>(server, transport));
    auto const ep = http.listen({asio::ip::make_address(host), port});
    if(!ep)
    {
        std::fprintf(stderr, "cannot listen on %s:%u: %s\n", host.c_str(), port, ep.error().message().c_str());
        return 1;
    }
    http.start();
    std::fprintf(stderr, "MCP conformance server on http://%s:%u/mcp\n", host.c_str(), ep->port());
    if(!port_file.empty())
        std::ofstream(port_file) << ep->port() << '\n';
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](auto, int) { ioc.stop(); });
    ioc.run();
}
