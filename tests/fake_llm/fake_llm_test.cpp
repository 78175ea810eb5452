// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/testing/fake_llm.hpp>
// The piece-splitting rules are tested directly.
#include <agentio/testing/detail/fake_llm_wire.hpp>
// So are the fake's embedding vectors.
#include <agentio/testing/detail/fake_llm_embeddings.hpp>

#include <agentio/detail/base64.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/openai_embeddings.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>
#include "test_paths.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
namespace sse = agentio::sse;
namespace fake = agentio::testing;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// --- a fake on its own thread --------------------------------------------------

struct running_fake
{
    asio::io_context ioc;
    std::optional<fake::fake_llm> llm;
    tcp::endpoint ep;
    std::thread thread;

    explicit running_fake(fake::fake_llm_options options = {})
    {
        llm.emplace(ioc.get_executor(), std::move(options));
        llm->load_scenarios(AGENTIO_SCENARIOS);
        ep = llm->start().value();
        thread = std::thread([this] { ioc.run(); });
    }

    ~running_fake()
    {
        llm->stop();
        ioc.stop();
        thread.join();
        llm.reset();
    }

    void add(std::string_view scenario_json) { llm->add_scenario(fake::parse_scenario(json::parse(scenario_json))); }
};

// --- a raw Beast client --------------------------------------------------------

struct reply
{
    unsigned status = 0;
    http::fields headers;
    std::string body;
    bool complete = false;   // the body ended as HTTP says (the last chunk, or Content-Length)
    beast::error_code error; // what ended reading otherwise
    std::vector<sse::event> events;
    std::vector<clock_type::time_point> arrivals; // when each event arrived
    sse::end_state sse_end = sse::end_state::clean;

    json::value json() const { return json::parse(body); }
    json::value event_json(std::size_t i) const { return json::parse(events.at(i).data); }
};

using header_list = std::vector<std::pair<std::string, std::string>>;

header_list anthropic_headers()
{
    return {{"anthropic-version", "2023-06-01"}, {"x-api-key", "sk-ant-test"}};
}

header_list openai_headers()
{
    return {{"authorization", "Bearer sk-test"}};
}

asio::awaitable<reply> exchange(tcp::endpoint ep, std::string target, std::string body, header_list headers,
    std::chrono::milliseconds timeout)
{
    reply r;
    beast::tcp_stream s(co_await asio::this_coro::executor);
    s.expires_after(timeout);
    if(auto [ec] = co_await s.async_connect(ep, use_tuple); ec)
    {
        r.error = ec;
        co_return r;
    }
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    for(auto const& [name, value] : headers)
        req.set(name, value);
    req.body() = std::move(body);
    req.prepare_payload();
    if(auto [ec, n] = co_await http::async_write(s, req, use_tuple); ec)
    {
        r.error = ec;
        co_return r;
    }

    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    sse::parser events;
    std::size_t fed = 0;
    auto [ec, n] = co_await http::async_read_header(s, buffer, parser, use_tuple);
    while(!ec && !parser.is_done())
    {
        std::tie(ec, n) = co_await http::async_read_some(s, buffer, parser, use_tuple);
        auto const& b = parser.get().body();
        auto const now = clock_type::now();
        events.feed(std::string_view(b).substr(fed), [&](sse::event const& e) {
            r.events.push_back(e);
            r.arrivals.push_back(now);
        });
        fed = b.size();
    }
    r.error = ec;
    r.complete = parser.is_done();
    r.sse_end = events.finish();
    if(parser.is_header_done())
    {
        auto const& res = parser.get();
        r.status = res.result_int();
        for(auto const& f : res)
            r.headers.insert(f.name_string(), f.value());
        r.body = res.body();
    }
    co_return r;
}

reply post_text(tcp::endpoint ep, std::string target, std::string body, header_list headers,
    std::chrono::milliseconds timeout = 10s)
{
    asio::io_context ioc;
    reply r;
    asio::co_spawn(ioc, exchange(ep, std::move(target), std::move(body), std::move(headers), timeout),
        [&](std::exception_ptr e, reply got) {
            if(e)
                std::rethrow_exception(e);
            r = std::move(got);
        });
    ioc.run();
    return r;
}

reply post(tcp::endpoint ep, std::string target, json::value const& body, header_list headers,
    std::chrono::milliseconds timeout = 10s)
{
    return post_text(ep, std::move(target), agentio::to_json_text(body), std::move(headers), timeout);
}

reply post_anthropic(tcp::endpoint ep, json::value const& body, std::chrono::milliseconds timeout = 10s)
{
    return post(ep, "/v1/messages", body, anthropic_headers(), timeout);
}

reply post_openai(tcp::endpoint ep, json::value const& body, std::chrono::milliseconds timeout = 10s)
{
    return post(ep, "/v1/chat/completions", body, openai_headers(), timeout);
}

json::value anthropic_request(std::string_view model, bool stream = true)
{
    return json::parse(R"({"model":")" + std::string(model) +
        R"(","max_tokens":1024,"messages":[{"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"}],"stream":)" +
        (stream ? "true" : "false") + "}");
}

json::value openai_request(std::string_view model, bool stream = true)
{
    return json::parse(R"({"model":")" + std::string(model) +
        R"(","messages":[{"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"}],"stream":)" +
        (stream ? R"(true,"stream_options":{"include_usage":true})" : "false") + "}");
}

// --- fixtures ------------------------------------------------------------------------

std::string read_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string fixture(std::string const& name)
{
    return read_file(std::string(AGENTIO_WIRE_FIXTURES) + "/" + name);
}

std::vector<sse::event> fixture_events(std::string const& name)
{
    std::vector<sse::event> out;
    sse::parser p;
    p.feed(fixture(name), [&](sse::event const& e) { out.push_back(e); });
    BOOST_TEST((p.finish() == sse::end_state::clean));
    return out;
}

// --- comparing structure ----------------------------------------------------------------

std::string_view kind_of(json::value const& v)
{
    switch(v.kind())
    {
    case json::kind::null: return "null";
    case json::kind::bool_: return "bool";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: return "number";
    case json::kind::string: return "string";
    case json::kind::array: return "array";
    case json::kind::object: return "object";
    }
    return "?";
}

// Same keys in the same order, recursively, and same kinds of values; the
// values themselves (ids, texts, counts) may differ.
void compare_shape(json::value const& got, json::value const& want, std::string const& at,
    std::vector<std::string>& diffs)
{
    if(kind_of(got) != kind_of(want))
    {
        diffs.push_back(at + ": " + std::string(kind_of(got)) + " instead of " + std::string(kind_of(want)));
        return;
    }
    if(want.is_object())
    {
        std::vector<std::string> gk, wk;
        for(auto const& kv : got.get_object())
            gk.emplace_back(kv.key());
        for(auto const& kv : want.get_object())
            wk.emplace_back(kv.key());
        if(gk != wk)
        {
            auto join = [](auto const& v) {
                std::string s;
                for(auto const& k : v)
                    s += (s.empty() ? "" : ",") + k;
                return s;
            };
            diffs.push_back(at + ": keys [" + join(gk) + "] instead of [" + join(wk) + "]");
            return;
        }
        for(auto const& kv : want.get_object())
            compare_shape(got.at(kv.key()), kv.value(), at + "/" + std::string(kv.key()), diffs);
    }
    else if(want.is_array())
    {
        if(got.get_array().size() != want.get_array().size())
        {
            diffs.push_back(at + ": " + std::to_string(got.get_array().size()) + " elements instead of " +
                std::to_string(want.get_array().size()));
            return;
        }
        for(std::size_t i = 0; i < want.get_array().size(); ++i)
            compare_shape(got.get_array()[i], want.get_array()[i], at + "/" + std::to_string(i), diffs);
    }
}

std::vector<std::string> shape_diffs(json::value const& got, json::value const& want)
{
    std::vector<std::string> diffs;
    compare_shape(got, want, "", diffs);
    return diffs;
}

// What a client assembles from a stream: per block (Anthropic) or per
// choice part (OpenAI), the concatenated text / thinking / arguments. Ids
// are left out (generated), names and signatures kept.
std::vector<std::string> assemble(std::vector<sse::event> const& events)
{
    std::map<std::int64_t, std::string> blocks;
    std::string content;
    std::map<std::int64_t, std::string> calls;
    for(auto const& e : events)
    {
        if(e.data == "[DONE]")
            continue;
        auto const v = json::parse(e.data);
        auto const& o = v.as_object();
        if(e.type == "content_block_start")
        {
            auto const& b = o.at("content_block").as_object();
            std::string head = std::string(b.at("type").as_string());
            if(auto const* n = b.if_contains("name"))
                head += " " + std::string(n->as_string());
            blocks[o.at("index").as_int64()] = head + ": ";
        }
        else if(e.type == "content_block_delta")
        {
            auto const& d = o.at("delta").as_object();
            auto& b = blocks[o.at("index").as_int64()];
            for(auto const* field : {"text", "thinking", "partial_json"})
                if(auto const* t = d.if_contains(field))
                    b += t->as_string();
            if(auto const* sig = d.if_contains("signature"))
                b += " [signature " + std::string(sig->as_string()) + "]";
        }
        else if(auto const* choices = o.if_contains("choices"))
        {
            for(auto const& ch : choices->as_array())
            {
                auto const& d = ch.at("delta").as_object();
                if(auto const* c = d.if_contains("content"); c && c->is_string())
                    content += c->as_string();
                if(auto const* tc = d.if_contains("tool_calls"))
                    for(auto const& call : tc->as_array())
                    {
                        auto& s = calls[call.at("index").as_int64()];
                        auto const& f = call.at("function").as_object();
                        if(auto const* n = f.if_contains("name"))
                            s += std::string(n->as_string()) + ": ";
                        s += f.at("arguments").as_string();
                    }
            }
        }
    }
    std::vector<std::string> out;
    for(auto const& [i, b] : blocks)
        out.push_back(std::to_string(i) + " " + b);
    if(!content.empty())
        out.push_back("content: " + content);
    for(auto const& [i, c] : calls)
        out.push_back("call " + std::to_string(i) + " " + c);
    return out;
}

// The fake's stream for `model` has the fixture's events, structure and content.
void check_stream_fixture(reply const& got, std::string const& fixture_name)
{
    auto const want = fixture_events(fixture_name);
    BOOST_TEST(got.status == 200u);
    BOOST_TEST(got.headers[http::field::content_type] == "text/event-stream");
    BOOST_TEST(got.complete);
    BOOST_TEST((got.sse_end == sse::end_state::clean));

    std::vector<std::string> got_names, want_names;
    for(auto const& e : got.events)
        got_names.push_back(e.type);
    for(auto const& e : want)
        want_names.push_back(e.type);
    BOOST_TEST(got_names == want_names, boost::test_tools::per_element());
    BOOST_REQUIRE(got.events.size() == want.size());

    for(std::size_t i = 0; i < want.size(); ++i)
    {
        BOOST_TEST_CONTEXT(fixture_name << " event " << i << " (" << want[i].type << ")")
        {
            auto const& g = got.events[i].data;
            auto const& w = want[i].data;
            bool const fixed = w == "[DONE]" || want[i].type == "ping" || want[i].type == "error" ||
                w.starts_with(R"({"error")") || want[i].type == "content_block_stop" || want[i].type == "message_stop";
            if(fixed)
            {
                BOOST_TEST(g == w); // nothing variable in these: byte for byte
                continue;
            }
            auto const gv = json::parse(g);
            BOOST_TEST(shape_diffs(gv, json::parse(w)) == std::vector<std::string>{}, boost::test_tools::per_element());
            BOOST_TEST(agentio::to_json_text(gv) == g); // compact, as the APIs send it
        }
    }
    BOOST_TEST(assemble(got.events) == assemble(want), boost::test_tools::per_element());
}

} // namespace

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_fixtures)

BOOST_AUTO_TEST_CASE(anthropic_streams_equal_their_fixtures)
{
    running_fake f;
    for(std::string const name : {"anthropic-text-only", "anthropic-tool-use", "anthropic-two-parallel-tools",
            "anthropic-thinking-tool-use", "anthropic-max-tokens", "anthropic-overloaded-midstream"})
    {
        BOOST_TEST_CONTEXT(name)
        {
            auto const got = post_anthropic(f.ep, anthropic_request(name));
            BOOST_TEST(got.headers["request-id"].starts_with("req_011C"));
            check_stream_fixture(got, name + ".sse");
        }
    }
}

BOOST_AUTO_TEST_CASE(openai_streams_equal_their_fixtures)
{
    running_fake f;
    for(std::string const name : {"openai-text-only", "openai-tool-calls", "openai-error-midstream"})
    {
        BOOST_TEST_CONTEXT(name)
        {
            auto const got = post_openai(f.ep, openai_request(name));
            BOOST_TEST(got.headers["x-request-id"].starts_with("req_"));
            check_stream_fixture(got, name + ".sse");
            // Same id and created on every chunk.
            std::set<std::string> ids;
            for(auto const& e : got.events)
                if(e.data.starts_with(R"({"id")"))
                    ids.insert(std::string(json::parse(e.data).at("id").as_string()) + " " +
                        std::to_string(json::parse(e.data).at("created").as_int64()));
            BOOST_TEST(ids.size() == 1u);
        }
    }
}

BOOST_AUTO_TEST_CASE(non_streamed_answers_equal_their_fixtures)
{
    running_fake f;
    {
        auto const got = post_anthropic(f.ep, anthropic_request("anthropic-tool-use", false));
        BOOST_TEST(got.status == 200u);
        BOOST_TEST(got.headers[http::field::content_type] == "application/json");
        auto const want = json::parse(fixture("anthropic-tool-use.json"));
        auto const gv = got.json();
        BOOST_TEST(shape_diffs(gv, want) == std::vector<std::string>{}, boost::test_tools::per_element());
        BOOST_TEST(gv.at("content").at(0).at("text") == want.at("content").at(0).at("text"));
        BOOST_TEST(gv.at("content").at(1).at("input") == want.at("content").at(1).at("input"));
        BOOST_TEST(gv.at("usage") == want.at("usage"));
    }
    {
        auto const got = post_openai(f.ep, openai_request("openai-tool-calls", false));
        BOOST_TEST(got.status == 200u);
        auto const want = json::parse(fixture("openai-tool-calls.json"));
        auto const gv = got.json();
        BOOST_TEST(shape_diffs(gv, want) == std::vector<std::string>{}, boost::test_tools::per_element());
        BOOST_TEST(gv.at("choices").at(0).at("message") == want.at("choices").at(0).at("message"));
        BOOST_TEST(gv.at("usage") == want.at("usage"));
    }
}

BOOST_AUTO_TEST_CASE(ids_are_shaped_like_the_providers)
{
    running_fake f;
    auto const a = post_anthropic(f.ep, anthropic_request("anthropic-tool-use"));
    BOOST_REQUIRE(a.events.size() > 6u);
    std::string const msg(a.event_json(0).at("message").at("id").as_string());
    std::string const tool(a.event_json(6).at("content_block").at("id").as_string());
    BOOST_TEST(std::regex_match(msg, std::regex("msg_01[0-9A-Za-z]{22}")), msg);
    BOOST_TEST(std::regex_match(tool, std::regex("toolu_01[0-9A-Za-z]{22}")), tool);
    BOOST_TEST(std::regex_match(std::string(a.headers["request-id"]), std::regex("req_011C[0-9A-Za-z]{20}")));

    auto const o = post_openai(f.ep, openai_request("openai-text-only"));
    std::string const chunk(o.event_json(0).at("id").as_string());
    BOOST_TEST(std::regex_match(chunk, std::regex("chatcmpl-[0-9A-Za-z]{29}")), chunk);
    auto const created = o.event_json(0).at("created").as_int64();
    BOOST_TEST(std::abs(created - static_cast<std::int64_t>(std::time(nullptr))) < 60);
}

BOOST_AUTO_TEST_CASE(error_bodies_equal_their_fixtures)
{
    running_fake f;
    f.add(
        R"({"name":"fail-429","turns":[{"text":"x","faults":[{"kind":"http_error","status":429,"retry_after":"1"}]}]})");
    f.add(R"({"name":"fail-529","turns":[{"text":"x","faults":[{"kind":"http_error","status":529}]}]})");
    struct expectation
    {
        std::string model;
        std::string fixture;
        unsigned status;
        bool anthropic;
    } const cases[] = {{"fail-429", "anthropic-error-rate-limit-429.json", 429, true},
        {"fail-529", "anthropic-error-overloaded-529.json", 529, true},
        {"fail-429", "openai-error-rate-limit-429.json", 429, false}};
    for(auto const& c : cases)
    {
        BOOST_TEST_CONTEXT(c.fixture)
        {
            auto const got = c.anthropic ? post_anthropic(f.ep, anthropic_request(c.model))
                                         : post_openai(f.ep, openai_request(c.model));
            BOOST_TEST(got.status == c.status);
            BOOST_TEST(got.headers[http::field::content_type] == "application/json");
            auto const want = json::parse(fixture(c.fixture));
            BOOST_TEST(shape_diffs(got.json(), want) == std::vector<std::string>{}, boost::test_tools::per_element());
            BOOST_TEST(got.json().at("error").at("message") == want.at("error").at("message"));
            if(c.anthropic)
                BOOST_TEST(got.json().at("request_id").as_string() == got.headers["request-id"]);
        }
    }
}

// Anthropic's token counting: the Messages request's input without the answer's settings, counted as the fake
// counts a request's input (its body's bytes / 4); what does not belong is refused in the API's words.
BOOST_AUTO_TEST_CASE(anthropic_counts_tokens)
{
    running_fake f;
    f.add(R"({"name":"contar","turns":[{"text":"x"}]})");
    auto const body = json::parse(R"({"model":"contar","system":"Eres breve.",
        "messages":[{"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"}]})");
    auto const counted = post(f.ep, "/v1/messages/count_tokens", body, anthropic_headers());
    BOOST_TEST_REQUIRE(counted.status == 200u, counted.body);
    BOOST_TEST(counted.headers[http::field::content_type] == "application/json");
    BOOST_TEST(counted.json().at("input_tokens").as_int64() ==
        static_cast<std::int64_t>(agentio::to_json_text(body).size() / 4));
    BOOST_TEST(counted.json().as_object().size() == 1u);

    auto const with_answer = post(f.ep, "/v1/messages/count_tokens", anthropic_request("contar"), anthropic_headers());
    BOOST_TEST(with_answer.status == 400u);
    BOOST_TEST(with_answer.json().at("error").at("type") == "invalid_request_error");
    BOOST_TEST(with_answer.json().at("error").at("message") == "max_tokens: Extra inputs are not permitted");
    auto const unknown = post(f.ep, "/v1/messages/count_tokens",
        json::parse(R"({"model":"nadie","messages":[{"role":"user","content":"hola"}]})"), anthropic_headers());
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("error").at("type") == "not_found_error");
    auto const no_messages = post(f.ep, "/v1/messages/count_tokens", json::parse(R"({"model":"contar"})"),
        anthropic_headers());
    BOOST_TEST(no_messages.status == 400u);
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_faults)

BOOST_AUTO_TEST_CASE(http_errors_carry_retry_headers_and_count_attempts)
{
    running_fake f;
    f.add(R"({"name":"retry","turns":[{"text":"Hola.","faults":[
        {"kind":"http_error","status":429,"retry_after":"1","retry_after_ms":150,"x_should_retry":"true","times":1},
        {"kind":"http_error","status":529,"times":3}]}]})");
    auto const r1 = post_anthropic(f.ep, anthropic_request("retry"));
    BOOST_TEST(r1.status == 429u);
    BOOST_TEST(r1.headers[http::field::retry_after] == "1");
    BOOST_TEST(r1.headers["retry-after-ms"] == "150");
    BOOST_TEST(r1.headers["x-should-retry"] == "true");
    BOOST_TEST(r1.json().at("error").at("type") == "rate_limit_error");
    auto const r2 = post_anthropic(f.ep, anthropic_request("retry"));
    auto const r3 = post_anthropic(f.ep, anthropic_request("retry"));
    BOOST_TEST(r2.status == 529u);
    BOOST_TEST(r3.status == 529u);
    BOOST_TEST(r2.json().at("error").at("message") == "Overloaded");
    BOOST_TEST(r2.headers.count(http::field::retry_after) == 0u);
    auto const r4 = post_anthropic(f.ep, anthropic_request("retry"));
    BOOST_TEST(r4.status == 200u);
    BOOST_TEST(r4.complete);

    // Another conversation (other messages) counts its own attempts.
    auto other = anthropic_request("retry");
    other.at("messages").at(0).at("content") = "Otra pregunta";
    BOOST_TEST(post_anthropic(f.ep, other).status == 429u);
    // So does the other API.
    BOOST_TEST(post_openai(f.ep, openai_request("retry")).status == 429u);

    f.llm->reset();
    BOOST_TEST(post_anthropic(f.ep, anthropic_request("retry")).status == 429u);
}

BOOST_AUTO_TEST_CASE(a_midstream_error_hits_only_the_first_attempts)
{
    running_fake f;
    f.add(R"({"name":"flaky","turns":[{"text":["Hay 12"," iniciativas"," en ejecución."],
        "faults":[{"kind":"midstream_error","after_events":4,"times":1}]}]})");
    auto const first = post_anthropic(f.ep, anthropic_request("flaky"));
    BOOST_REQUIRE(first.events.size() == 5u);
    BOOST_TEST(first.events[4].type == "error");
    BOOST_TEST(first.events[4].data ==
        R"({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})");
    BOOST_TEST(first.complete); // the body ends cleanly after the error event
    auto const second = post_anthropic(f.ep, anthropic_request("flaky"));
    BOOST_TEST(second.events.back().type == "message_stop");
    BOOST_TEST(assemble(second.events) == std::vector<std::string>{"0 text: Hay 12 iniciativas en ejecución."},
        boost::test_tools::per_element());

    // Without a stream, the same failure is an HTTP error.
    f.llm->reset();
    auto const plain = post_anthropic(f.ep, anthropic_request("flaky", false));
    BOOST_TEST(plain.status == 529u);
    BOOST_TEST(plain.json().at("error").at("type") == "overloaded_error");
}

BOOST_AUTO_TEST_CASE(truncate_ends_the_body_without_the_final_events)
{
    running_fake f;
    f.add(
        R"({"name":"cut","turns":[{"text":["Hay"," 12"," iniciativas"],"faults":[{"kind":"truncate","after_events":4}]}]})");
    auto const a = post_anthropic(f.ep, anthropic_request("cut"));
    BOOST_TEST(a.complete); // the terminating chunk came
    BOOST_TEST(a.events.size() == 4u);
    BOOST_TEST(a.events.back().type == "content_block_delta");
    BOOST_TEST((a.sse_end == sse::end_state::clean));

    auto const o = post_openai(f.ep, openai_request("cut"));
    BOOST_TEST(o.complete);
    BOOST_TEST(o.events.size() == 4u);
    BOOST_TEST(o.events.back().data != "[DONE]");
}

BOOST_AUTO_TEST_CASE(a_stall_sends_nothing_until_the_client_gives_up)
{
    running_fake f;
    f.add(R"({"name":"stall","turns":[{"text":["Hay"," 12"],"faults":[{"kind":"stall","after_events":2}]}]})");
    auto const t0 = clock_type::now();
    auto const r = post_anthropic(f.ep, anthropic_request("stall"), 400ms);
    BOOST_TEST((clock_type::now() - t0 >= 350ms));
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.events.size() == 2u);
    BOOST_TEST(!r.complete);
    BOOST_TEST((r.error == beast::error::timeout));
    auto const deadline = clock_type::now() + 2s;
    while(f.llm->connection_count() != 0 && clock_type::now() < deadline)
        std::this_thread::sleep_for(10ms);
    BOOST_TEST(f.llm->connection_count() == 0u); // the stall ended with the client
}

BOOST_AUTO_TEST_CASE(a_stall_before_the_first_event_ends_when_the_client_leaves)
{
    running_fake f;
    f.add(R"({"name":"mute","turns":[{"text":"Hola.","faults":[{"kind":"stall","after_events":0,"times":1}]}]})");
    auto const r = post_openai(f.ep, openai_request("mute"), 300ms);
    BOOST_TEST(r.status == 200u); // the header came, then nothing
    BOOST_TEST(r.events.empty());
    BOOST_TEST((r.error == beast::error::timeout));
    // The fake noticed the client leaving and let the connection go.
    auto const deadline = clock_type::now() + 2s;
    while(f.llm->connection_count() != 0 && clock_type::now() < deadline)
        std::this_thread::sleep_for(10ms);
    BOOST_TEST(f.llm->connection_count() == 0u);
    auto const next = post_openai(f.ep, openai_request("mute"), 2s); // times: 1
    BOOST_TEST(next.status == 200u);
    BOOST_TEST(next.complete);
    BOOST_TEST(next.events.back().data == "[DONE]");
}

BOOST_AUTO_TEST_CASE(a_timed_stall_pauses_the_stream)
{
    running_fake f;
    f.add(R"({"name":"pause","turns":[{"text":["Hay"," 12"],"faults":[{"kind":"stall","after_events":3,"ms":300}]}]})");
    auto const r = post_openai(f.ep, openai_request("pause"));
    BOOST_TEST(r.complete);
    BOOST_REQUIRE(r.events.size() > 3u);
    BOOST_TEST(r.events.back().data == "[DONE]");
    BOOST_TEST((r.arrivals[3] - r.arrivals[2] >= 250ms));

    // A non-streamed answer is held back the same way.
    auto const t0 = clock_type::now();
    auto const plain = post_openai(f.ep, openai_request("pause", false));
    BOOST_TEST(plain.status == 200u);
    BOOST_TEST((clock_type::now() - t0 >= 250ms));
}

BOOST_AUTO_TEST_CASE(disconnect_closes_the_connection_mid_stream)
{
    running_fake f;
    f.add(
        R"({"name":"drop","turns":[{"text":["Hay"," 12"," iniciativas"],"faults":[{"kind":"disconnect","after_events":3}]}]})");
    f.add(
        R"({"name":"reset","turns":[{"text":["Hay"," 12"," iniciativas"],"faults":[{"kind":"disconnect","after_events":3,"reset":true}]}]})");
    auto const r = post_anthropic(f.ep, anthropic_request("drop"));
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.events.size() == 3u);
    BOOST_TEST(!r.complete); // no terminating chunk
    BOOST_TEST((r.error == http::error::partial_message || r.error == asio::error::eof));

    auto const rst = post_anthropic(f.ep, anthropic_request("reset"));
    BOOST_TEST(!rst.complete);
    BOOST_TEST(rst.error.failed());

    // Not streamed: no answer at all.
    auto const plain = post_anthropic(f.ep, anthropic_request("drop", false));
    BOOST_TEST(plain.status == 0u);
    BOOST_TEST(plain.error.failed());
}

BOOST_AUTO_TEST_CASE(a_truncated_plain_body_is_shorter_than_announced)
{
    running_fake f;
    f.add(R"({"name":"half","turns":[{"text":"Hay 12 iniciativas en ejecución.","faults":[{"kind":"truncate"}]}]})");
    auto const r = post_openai(f.ep, openai_request("half", false));
    BOOST_TEST(!r.complete);
    BOOST_TEST((r.error == http::error::partial_message));
}

BOOST_AUTO_TEST_CASE(slow_tokens_space_the_pieces)
{
    running_fake f;
    f.add(
        R"({"name":"slow","turns":[{"text":["a","b","c","d","e"],"faults":[{"kind":"slow_tokens","token_interval_ms":60}]}]})");
    auto const r = post_anthropic(f.ep, anthropic_request("slow"));
    BOOST_TEST(r.complete);
    std::vector<clock_type::time_point> pieces;
    for(std::size_t i = 0; i < r.events.size(); ++i)
        if(r.events[i].type == "content_block_delta")
            pieces.push_back(r.arrivals[i]);
    BOOST_REQUIRE(pieces.size() == 5u);
    for(std::size_t i = 1; i < pieces.size(); ++i)
        BOOST_TEST((pieces[i] - pieces[i - 1] >= 45ms)); // loosely: timers never fire early, reads may batch late ones
    BOOST_TEST((pieces.back() - pieces.front() >= 4 * 55ms));
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_requests)

BOOST_AUTO_TEST_CASE(rounds_conditions_and_the_last_tool_result)
{
    running_fake f;
    std::string const result = R"({\"En ejecución\": 12, \"Planificada\": 9, \"Finalizada\": 21, \"Cancelada\": 5})";
    auto round0 = json::parse(R"({"model":"portfolio-two-rounds","max_tokens":1024,"stream":true,
        "messages":[{"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"}]})");
    auto const r0 = post_anthropic(f.ep, round0);
    auto const got0 = assemble(r0.events);
    BOOST_REQUIRE(got0.size() == 2u);
    BOOST_TEST(got0[0] == "0 text: Voy a contar las iniciativas de la cartera agrupadas por estado.");
    BOOST_TEST(got0[1] == R"(1 tool_use contar_iniciativas: {"campo_agrupacion": "estado_de_la_iniciativa"})");
    std::string tool_id;
    for(std::size_t i = 0; i < r0.events.size(); ++i)
        if(r0.events[i].type == "content_block_start" && r0.event_json(i).at("content_block").at("type") == "tool_use")
            tool_id = r0.event_json(i).at("content_block").at("id").as_string();
    BOOST_REQUIRE(tool_id.starts_with("toolu_01"));

    auto round1 = [&](std::string const& tool_result) {
        auto body = round0;
        auto& messages = body.at("messages").as_array();
        messages.push_back(json::parse(R"({"role":"assistant","content":[{"type":"text","text":"Voy a contar."},
            {"type":"tool_use","id":")" +
            tool_id + R"(","name":"contar_iniciativas","input":{"campo_agrupacion":"estado_de_la_iniciativa"}}]})"));
        messages.push_back(json::parse(R"({"role":"user","content":[{"type":"tool_result","tool_use_id":")" + tool_id +
            R"(","content":")" + tool_result + R"("}]})"));
        return body;
    };
    auto const r1 = post_anthropic(f.ep, round1(result));
    BOOST_TEST(assemble(r1.events) ==
            std::vector<std::string>{"0 text: Hay **12 iniciativas en ejecución** de un total de 47 en la cartera. "
                                     "Además, 9 están planificadas, 21 finalizadas y 5 canceladas."},
        boost::test_tools::per_element());
    auto const echo = post_anthropic(f.ep, round1("Campo desconocido: estado"));
    BOOST_TEST(assemble(echo.events) ==
            std::vector<std::string>{"0 text: La herramienta devolvió: Campo desconocido: estado"},
        boost::test_tools::per_element());

    // A new question starts again at round 0.
    auto again = round1(result);
    again.at("messages").as_array().push_back(json::parse(R"({"role":"assistant","content":"Hay 12."})"));
    again.at("messages").as_array().push_back(json::parse(R"({"role":"user","content":"¿Y planificadas?"})"));
    BOOST_TEST(assemble(post_anthropic(f.ep, again).events).size() == 2u);

    // OpenAI: the same rounds from tool messages.
    auto const o1 = post_openai(f.ep,
        json::parse(R"({"model":"portfolio-two-rounds","stream":true,"messages":[
        {"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"contar_iniciativas","arguments":"{}"}}]},
        {"role":"tool","tool_call_id":"call_1","content":")" +
            result + R"("}]})"));
    BOOST_TEST(assemble(o1.events) ==
            std::vector<std::string>{"content: Hay **12 iniciativas en ejecución** de un total de 47 en la cartera. "
                                     "Además, 9 están planificadas, 21 finalizadas y 5 canceladas."},
        boost::test_tools::per_element());
    BOOST_TEST(o1.events.back().data == "[DONE]");
    BOOST_TEST(o1.events[o1.events.size() - 2].data.find(R"("usage")") ==
        std::string::npos); // include_usage not asked for
}

BOOST_AUTO_TEST_CASE(a_word_of_the_question_reaches_text_and_tool_input)
{
    running_fake f;
    f.add(R"({"name":"copies","turns":[{"text":"Miro {{user_word:file-}} y {{user_word:nada-}}.{{other}}",
        "tool_calls":[{"name":"data_analysis","input":{"file_id":"{{user_word:file-}}","filters":[{"value":"{{user_word:file-}}x"}],"n":2}}]}]})");
    auto const r = post_openai(f.ep, json::parse(R"({"model":"copies","stream":true,"messages":[
        {"role":"user","content":"Primero otra-file-1, luego: ¿la media de file-Ab_9-c, por región?"}]})"));
    auto const got = assemble(r.events);
    BOOST_TEST_REQUIRE(got.size() == 2u);
    BOOST_TEST(got[0] == "content: Miro file-Ab_9-c y .{{other}}");
    std::string_view const call = got[1];
    std::string_view const head = "call 0 data_analysis: ";
    BOOST_TEST_REQUIRE(call.starts_with(head), call);
    BOOST_TEST(json::parse(call.substr(head.size())) ==
        json::parse(R"({"file_id":"file-Ab_9-c","filters":[{"value":"file-Ab_9-cx"}],"n":2})"));
}

BOOST_AUTO_TEST_CASE(an_alternative_may_ask_for_several_words)
{
    running_fake f;
    f.add(R"({"name":"both","turns":[[{"when_user_message_contains":["Your step:","python"],"text":"paso python"},
        {"when_user_message_contains":["python"],"text":"python"},{"text":"otra cosa"}]]})");
    auto ask = [&](std::string const& question) {
        json::object body = json::parse(R"({"model":"both","stream":true})").as_object();
        body["messages"] = json::array{json::object{{"role", "user"}, {"content", question}}};
        auto const got = assemble(post_openai(f.ep, body).events);
        return got.empty() ? std::string() : got[0];
    };
    BOOST_TEST(ask("Request: usa python\nYour step: hazlo") == "content: paso python");
    BOOST_TEST(ask("usa python") == "content: python");
    BOOST_TEST(ask("Your step: hazlo") == "content: otra cosa");
    BOOST_CHECK_THROW(fake::parse_scenario(
                          json::parse(R"({"name":"bad","turns":[{"when_user_message_contains":["a",1],"text":"x"}]})")),
        fake::scenario_error);
}

// A tool loop's call (tools offered) and plain chat's (none) get different answers.
BOOST_AUTO_TEST_CASE(an_alternative_may_ask_whether_tools_are_offered)
{
    running_fake f;
    f.add(R"({"name":"menu","turns":[[{"when_tools_offered":true,"text":"con herramientas"},
        {"when_tools_offered":false,"text":"sin herramientas"}]]})");
    auto ask = [&](bool tools) {
        json::object body = json::parse(R"({"model":"menu","stream":true,
            "messages":[{"role":"user","content":"hola"}]})")
                                .as_object();
        if(tools)
            body["tools"] =
                json::parse(R"([{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}])");
        auto const got = assemble(post_openai(f.ep, body).events);
        return got.empty() ? std::string() : got[0];
    };
    BOOST_TEST(ask(true) == "content: con herramientas");
    BOOST_TEST(ask(false) == "content: sin herramientas");
    BOOST_CHECK_THROW(
        fake::parse_scenario(json::parse(R"({"name":"bad","turns":[{"when_tools_offered":"yes","text":"x"}]})")),
        fake::scenario_error);
}

BOOST_AUTO_TEST_CASE(authentication)
{
    fake::fake_llm_options options;
    options.api_key = "sk-secret-key-1234";
    running_fake f(options);
    auto body = anthropic_request("anthropic-text-only");
    auto const none = post(f.ep, "/v1/messages", body, {{"anthropic-version", "2023-06-01"}});
    BOOST_TEST(none.status == 401u);
    BOOST_TEST(shape_diffs(none.json(), json::parse(fixture("anthropic-error-overloaded-529.json"))) ==
        std::vector<std::string>{});
    BOOST_TEST(none.json().at("error").at("type") == "authentication_error");
    BOOST_TEST(none.json().at("error").at("message") == "x-api-key header is required");
    auto const wrong = post_anthropic(f.ep, body);
    BOOST_TEST(wrong.status == 401u);
    BOOST_TEST(wrong.json().at("error").at("message") == "invalid x-api-key");
    auto const bearer = post(f.ep, "/v1/messages", body,
        {{"anthropic-version", "2026-10-21"}, {"authorization", "Bearer sk-secret-key-1234"}});
    BOOST_TEST(bearer.status == 200u);
    auto const key = post(f.ep, "/v1/messages", body,
        {{"anthropic-version", "2023-06-01"}, {"x-api-key", "sk-secret-key-1234"}});
    BOOST_TEST(key.status == 200u);

    auto const o_none = post(f.ep, "/v1/chat/completions", openai_request("openai-text-only"), {});
    BOOST_TEST(o_none.status == 401u);
    BOOST_TEST(o_none.json().at("error").at("code").is_null());
    BOOST_TEST(o_none.json().at("error").at("message").as_string().starts_with("You didn't provide an API key."));
    auto const o_wrong = post_openai(f.ep, openai_request("openai-text-only"));
    BOOST_TEST(o_wrong.status == 401u);
    BOOST_TEST(o_wrong.json().at("error").at("code") == "invalid_api_key");
    BOOST_TEST(shape_diffs(o_wrong.json(), json::parse(fixture("openai-error-rate-limit-429.json"))) ==
        std::vector<std::string>{});
    BOOST_TEST(o_wrong.body.find("sk-test") == std::string::npos); // the key is masked
    auto const o_right = post(f.ep, "/v1/chat/completions", openai_request("openai-text-only"),
        {{"authorization", "Bearer sk-secret-key-1234"}});
    BOOST_TEST(o_right.status == 200u);
}

BOOST_AUTO_TEST_CASE(unknown_models_are_404_in_each_providers_words)
{
    running_fake f;
    auto const a = post_anthropic(f.ep, anthropic_request("claude-nonexistent"));
    BOOST_TEST(a.status == 404u);
    BOOST_TEST(a.body ==
        R"({"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent"},"request_id":")" +
            std::string(a.headers["request-id"]) + "\"}");
    auto const o = post_openai(f.ep, openai_request("gpt-nonexistent"));
    BOOST_TEST(o.status == 404u);
    BOOST_TEST(o.body ==
        R"({"error":{"message":"The model `gpt-nonexistent` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}})");
}

BOOST_AUTO_TEST_CASE(requests_are_validated_like_the_real_apis)
{
    running_fake f;
    // A user turn after tool_use must begin with its tool_result blocks.
    auto const missing = post_anthropic(f.ep,
        json::parse(R"({"model":"anthropic-tool-use","max_tokens":1024,"messages":[
        {"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"},
        {"role":"assistant","content":[{"type":"tool_use","id":"toolu_01A","name":"contar_iniciativas","input":{}}]},
        {"role":"user","content":[{"type":"text","text":"¿Y bien?"}]}]})"));
    BOOST_TEST(missing.status == 400u);
    auto const want = json::parse(fixture("anthropic-error-invalid-request-400.json"));
    BOOST_TEST(shape_diffs(missing.json(), want) == std::vector<std::string>{});
    BOOST_TEST(missing.json().at("error").at("message") == want.at("error").at("message"));

    auto const stray = post_anthropic(f.ep, json::parse(R"({"model":"anthropic-tool-use","max_tokens":1024,"messages":[
        {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01X","content":"1"}]}]})"));
    BOOST_TEST(stray.status == 400u);
    BOOST_TEST(stray.json().at("error").at("message").as_string().starts_with(
        "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01X."));

    auto const no_max = post_anthropic(f.ep, json::parse(R"({"model":"anthropic-tool-use","messages":[]})"));
    BOOST_TEST(no_max.json().at("error").at("message") == "max_tokens: Field required");
    auto const system_role = post_anthropic(f.ep,
        json::parse(R"({"model":"anthropic-tool-use","max_tokens":5,"messages":[{"role":"system","content":"x"}]})"));
    BOOST_TEST(system_role.status == 400u);
    BOOST_TEST(
        system_role.json().at("error").at("message").as_string().starts_with("messages: Unexpected role \"system\""));

    // 2026-10-21 rejects sampling parameters, 2023-06-01 accepts them.
    auto with_temperature = anthropic_request("anthropic-text-only");
    with_temperature.as_object()["temperature"] = 0.2;
    auto const v2026 = post(f.ep, "/v1/messages", with_temperature, {{"anthropic-version", "2026-10-21"}});
    BOOST_TEST(v2026.status == 400u);
    BOOST_TEST(v2026.json().at("error").at("type") == "invalid_request_error");
    BOOST_TEST(v2026.json().at("error").at("message").as_string().starts_with("temperature:"));
    BOOST_TEST(post_anthropic(f.ep, with_temperature).status == 200u);
    auto const no_version = post(f.ep, "/v1/messages", with_temperature, {});
    BOOST_TEST(no_version.status == 400u);

    // OpenAI: tool messages answer the preceding tool_calls, all of them.
    auto const orphan = post_openai(f.ep, json::parse(R"({"model":"openai-tool-calls","messages":[
        {"role":"user","content":"x"},{"role":"tool","tool_call_id":"call_1","content":"1"}]})"));
    BOOST_TEST(orphan.status == 400u);
    BOOST_TEST(orphan.json().at("error").at("param") == "messages.[1].role");
    auto const unanswered = post_openai(f.ep, json::parse(R"({"model":"openai-tool-calls","messages":[
        {"role":"user","content":"x"},
        {"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"a","arguments":"{}"}},
                                          {"id":"call_2","type":"function","function":{"name":"b","arguments":"{}"}}]},
        {"role":"tool","tool_call_id":"call_1","content":"1"},
        {"role":"user","content":"y"}]})"));
    BOOST_TEST(unanswered.status == 400u);
    BOOST_TEST(
        unanswered.json().at("error").at("message").as_string().ends_with("did not have response messages: call_2"));
    auto const bad_role = post_openai(f.ep,
        json::parse(R"({"model":"openai-tool-calls","messages":[{"role":"robot","content":"x"}]})"));
    BOOST_TEST(bad_role.json().at("error").at("code") == "invalid_value");
    auto const not_json = post_text(f.ep, "/v1/chat/completions", "not json", openai_headers());
    BOOST_TEST(not_json.status == 400u);
}

BOOST_AUTO_TEST_CASE(requests_are_recorded)
{
    fake::fake_llm_options options;
    options.max_recorded_requests = 3;
    running_fake f(options);
    auto headers = anthropic_headers();
    headers.emplace_back("x-stainless-retry-count", "2");
    post(f.ep, "/v1/messages?beta=true", anthropic_request("anthropic-text-only"), headers);
    auto const got = f.llm->requests();
    BOOST_REQUIRE(got.size() == 1u);
    BOOST_TEST(got[0].method == "POST");
    BOOST_TEST(got[0].target == "/v1/messages?beta=true");
    BOOST_TEST(got[0].headers["x-stainless-retry-count"] == "2");
    BOOST_TEST(got[0].body.at("model") == "anthropic-text-only");
    for(int i = 0; i < 4; ++i)
        post_openai(f.ep, openai_request("openai-text-only"));
    BOOST_TEST(f.llm->requests().size() == 3u); // the most recent ones
    BOOST_TEST(f.llm->requests().front().target == "/v1/chat/completions");
    BOOST_TEST(f.llm->anthropic_base_url() == "http://127.0.0.1:" + std::to_string(f.ep.port()));
    BOOST_TEST(f.llm->openai_base_url() == "http://127.0.0.1:" + std::to_string(f.ep.port()) + "/v1");
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_scenarios)

BOOST_AUTO_TEST_CASE(the_canned_scenarios_load)
{
    auto const list = fake::read_scenarios(AGENTIO_SCENARIOS);
    std::set<std::string> names;
    for(auto const& s : list)
        names.insert(s.name);
    for(auto const* name : {"anthropic-text-only", "anthropic-tool-use", "anthropic-two-parallel-tools",
            "anthropic-thinking-tool-use", "anthropic-max-tokens", "anthropic-overloaded-midstream", "openai-text-only",
            "openai-tool-calls", "openai-error-midstream", "portfolio-two-rounds"})
        BOOST_TEST(names.contains(name), name);
}

BOOST_AUTO_TEST_CASE(errors_name_the_offending_value)
{
    auto error_of = [](std::string_view text) -> std::string {
        try
        {
            fake::parse_scenario(json::parse(text));
        }
        catch(fake::scenario_error const& e)
        {
            return e.pointer() + " | " + e.what();
        }
        return "no error";
    };
    BOOST_TEST(error_of(R"({"name":"x","turns":[{"text":"a"},[{"faults":[{"kind":"explode"}]}]]})")
                   .starts_with("/turns/1/0/faults/0/kind | "));
    BOOST_TEST(error_of(R"({"name":"x","turns":[{"txet":"a"}]})").starts_with("/turns/0/txet | "));
    BOOST_TEST(error_of(R"({"name":"x","turns":[{"tool_calls":[{"name":"t","input":[]}]}]})") ==
        "/turns/0/tool_calls/0/input | /turns/0/tool_calls/0/input: expected an object (the tool's arguments)");
    BOOST_TEST(error_of(R"({"name":"x","turns":[]})").starts_with("/turns | "));
    BOOST_TEST(error_of(R"({"turns":[{}]})").starts_with(" | missing required key 'name'"));

    auto const dir = std::filesystem::temp_directory_path() / ("fake_llm_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bad.json")
        << "[{\"name\": \"a\", \"turns\": [{}]},\n {\"name\": \"b\", \"turns\": [{\"usage\": {\"input_tokens\": -1}}]}]";
    std::ofstream(dir / "syntax.json.txt") << "ignored: not *.json";
    try
    {
        fake::read_scenarios(dir);
        BOOST_FAIL("expected an error");
    }
    catch(fake::scenario_error const& e)
    {
        BOOST_TEST(e.file() == (dir / "bad.json").string());
        BOOST_TEST(e.pointer() == "/1/turns/0/usage/input_tokens");
    }
    std::ofstream(dir / "bad.json") << "{\"name\": \"a\",\n  \"turns\": [}";
    try
    {
        fake::read_scenarios(dir / "bad.json");
        BOOST_FAIL("expected an error");
    }
    catch(fake::scenario_error const& e)
    {
        BOOST_TEST(std::string(e.what()).find("line 2, column 13") != std::string::npos, e.what());
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(pieces_never_split_a_utf8_sequence)
{
    namespace d = agentio::testing::detail;
    std::string const text =
        "Hay **12 iniciativas en ejecución** de un total de 47 en la cartera. Además, 9 están "
        "planificadas, 21 finalizadas y 5 canceladas. Ñandú «ü» 😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀";
    for(auto p : {d::provider::anthropic, d::provider::openai})
        for(std::size_t chars : {0, 1, 3, 7})
        {
            std::string joined;
            std::string_view rest = text;
            for(std::size_t i = 0; !rest.empty(); ++i)
            {
                auto const n = chars == 0 && i % 2 ? d::next_fragment(rest, i, 0)
                                                   : d::next_text_piece(rest, i, p, chars);
                BOOST_REQUIRE(n > 0);
                BOOST_TEST(!agentio::detail::is_utf8_continuation(n < rest.size() ? rest[n] : 'x'));
                if(chars != 0)
                    BOOST_TEST(agentio::utf8_code_point_prefix(rest, chars) == n);
                joined.append(rest.substr(0, n));
                rest.remove_prefix(n);
            }
            BOOST_TEST(joined == text);
        }
}

BOOST_AUTO_TEST_CASE(generated_text_and_arguments_stream_in_pieces)
{
    fake::fake_llm_options options;
    options.piece_chars = 4;
    running_fake f(options);
    f.add(
        R"({"name":"auto","turns":[{"text":"En ejecución: 12.","tool_calls":[{"name":"t","input":{"ñ":"¿sí?","n":[1,2.5]}}]}]})");
    auto const r = post_anthropic(f.ep, anthropic_request("auto"));
    std::vector<std::string> text_pieces;
    for(auto const& e : r.events)
        if(e.type == "content_block_delta" && e.data.find("text_delta") != std::string::npos)
            text_pieces.emplace_back(json::parse(e.data).at("delta").at("text").as_string());
    BOOST_TEST(text_pieces == (std::vector<std::string>{"En e", "jecu", "ción", ": 12", "."}),
        boost::test_tools::per_element());
    BOOST_TEST(assemble(r.events).back() == R"(1 tool_use t: {"ñ": "¿sí?", "n": [1, 2.5]})");

    running_fake g; // word pieces
    g.add(R"({"name":"auto","turns":[{"text":"Hay doce iniciativas en ejecución de un total de cuarenta y siete."}]})");
    auto const w = post_openai(g.ep, openai_request("auto"));
    BOOST_TEST(assemble(w.events).front() ==
        "content: Hay doce iniciativas en ejecución de un total de cuarenta y siete.");
    BOOST_TEST(w.events.size() > 8u); // role, about a word per chunk, finish, usage, [DONE]
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_load)

BOOST_AUTO_TEST_CASE(two_hundred_concurrent_streams_at_twenty_pieces_a_second)
{
    fake::fake_llm_options options;
    options.token_interval = 50ms;
    options.max_recorded_requests = 0;
    running_fake f(options);
    f.add(
        R"({"name":"load","turns":[{"text":["Hay"," 12"," iniciativas"," en"," ejecución"," de"," un"," total"," de"," 47."]}]})");
    constexpr int streams = 200;
    asio::io_context ioc;
    int ok = 0;
    auto const t0 = clock_type::now();
    for(int i = 0; i < streams; ++i)
    {
        bool const anthropic = i % 2 == 0;
        auto const body = anthropic ? anthropic_request("load") : openai_request("load");
        asio::co_spawn(ioc,
            exchange(f.ep, anthropic ? "/v1/messages" : "/v1/chat/completions", agentio::to_json_text(body),
                anthropic ? anthropic_headers() : openai_headers(), 20s),
            [&, anthropic](std::exception_ptr e, reply r) {
                if(e)
                    std::rethrow_exception(e);
                auto const got = assemble(r.events);
                std::string const want = anthropic ? "0 text: Hay 12 iniciativas en ejecución de un total de 47."
                                                   : "content: Hay 12 iniciativas en ejecución de un total de 47.";
                if(r.complete && got.size() == 1 && got[0] == want)
                    ++ok;
            });
    }
    ioc.run();
    auto const elapsed = clock_type::now() - t0;
    BOOST_TEST(ok == streams);
    BOOST_TEST((elapsed >= 450ms)); // ten pieces at 50 ms
    BOOST_TEST((elapsed < 10s));
    BOOST_TEST_MESSAGE("200 streams of 10 pieces at 20/s: "
        << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() << " ms");
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
// Embeddings: the fake's POST /v1/embeddings, and llm::openai_embedder against it
// ================================================================================

namespace {

namespace llm = agentio::llm;
namespace fd = agentio::testing::detail;

using embed_result = boost::system::result<llm::embeddings, llm::error>;

reply post_embeddings(tcp::endpoint ep, json::value const& body, header_list headers = openai_headers())
{
    return post(ep, "/v1/embeddings", body, std::move(headers));
}

json::value embeddings_request(json::value input, std::string_view model = "text-embedding-3-small")
{
    json::object o;
    o["model"] = model;
    o["input"] = std::move(input);
    return o;
}

// The vectors of an answer body, whichever the encoding.
std::vector<std::vector<float>> vectors_of(json::value const& answer)
{
    std::vector<std::vector<float>> out;
    for(auto const& row : answer.at("data").as_array())
    {
        auto const& e = row.at("embedding");
        std::vector<float> v;
        if(e.is_string())
        {
            auto const bytes = agentio::detail::base64_decode(e.as_string());
            BOOST_REQUIRE(bytes && bytes->size() % 4 == 0);
            for(std::size_t i = 0; i < bytes->size(); i += 4)
            {
                std::uint32_t u = 0;
                for(int k = 0; k < 4; ++k)
                    u |= std::uint32_t(static_cast<unsigned char>((*bytes)[i + k])) << (8 * k);
                v.push_back(std::bit_cast<float>(u));
            }
        }
        else
            for(auto const& n : e.as_array())
                v.push_back(static_cast<float>(n.to_number<double>()));
        out.push_back(std::move(v));
    }
    return out;
}

double norm_of(std::span<float const> v)
{
    double s = 0;
    for(float f : v)
        s += double(f) * f;
    return std::sqrt(s);
}

// An OpenAI 400 naming `param`, in the error shape of the fixtures.
void check_invalid(reply const& r, std::string_view param, std::string_view code = {})
{
    BOOST_TEST(r.status == 400u);
    auto const j = r.json();
    std::vector<std::string> keys;
    for(auto const& kv : j.at("error").as_object())
        keys.emplace_back(kv.key());
    BOOST_TEST(keys == (std::vector<std::string>{"message", "type", "param", "code"}),
        boost::test_tools::per_element()); // the fixture's, whose param and code are not strings
    auto const& e = j.at("error");
    BOOST_TEST(e.at("type") == "invalid_request_error");
    BOOST_TEST(e.at("param") == json::value(param), r.body);
    if(!code.empty())
        BOOST_TEST(e.at("code") == json::value(code), r.body);
}

// An embedder with its own client on its own io_context, called synchronously.
struct embedder_client
{
    asio::io_context ioc;
    std::vector<std::chrono::milliseconds> sleeps; // the backoff delays asked for
    std::optional<llm::openai_embedder> e;

    explicit embedder_client(llm::openai_embedder_options o)
    {
        o.sleep = [this](std::chrono::milliseconds d) -> asio::awaitable<void> {
            sleeps.push_back(d);
            co_return;
        };
        e.emplace(ioc.get_executor(), std::move(o));
    }

    embed_result embed(std::vector<std::string> const& texts)
    {
        std::optional<embed_result> out;
        asio::co_spawn(ioc, e->embed(texts), [&](std::exception_ptr ex, embed_result r) {
            if(ex)
                std::rethrow_exception(ex);
            out = std::move(r);
        });
        ioc.restart();
        ioc.run();
        BOOST_REQUIRE(out);
        return std::move(*out);
    }
};

llm::openai_embedder_options embedder_options(running_fake const& f, std::string model = "text-embedding-3-small")
{
    llm::openai_embedder_options o;
    o.base_url = "http://127.0.0.1:" + std::to_string(f.ep.port()) + "/v1";
    o.api_key = "sk-test";
    o.model = std::move(model);
    return o;
}

// A body of the embeddings API, from rows written by hand.
llm::error protocol_error_of(std::string_view body, std::size_t count, std::optional<unsigned> dims = {})
{
    auto const r = llm::openai::parse_embeddings_body(body, count, dims);
    BOOST_REQUIRE_MESSAGE(!r, "expected an error for " << body);
    BOOST_TEST((r.error().what == llm::error::kind::protocol));
    BOOST_TEST(!r.error().retryable);
    return r.error();
}

std::string float32_base64(std::vector<float> const& v)
{
    std::string bytes;
    for(float f : v)
    {
        auto const u = std::bit_cast<std::uint32_t>(f);
        for(int k = 0; k < 4; ++k)
            bytes.push_back(static_cast<char>((u >> (8 * k)) & 0xff));
    }
    return agentio::detail::base64_encode(bytes);
}

} // namespace

// ================================================================================
BOOST_AUTO_TEST_SUITE(fake_llm_embeddings)

BOOST_AUTO_TEST_CASE(answers_have_the_fixtures_shape_in_floats_and_base64)
{
    running_fake f; // the canned scenario text-embedding-3-small
    auto const fixture_json = json::parse(fixture("openai-embeddings.json"));
    std::vector<std::vector<float>> answers;
    for(auto const* format : {"float", "base64"})
    {
        BOOST_TEST_CONTEXT(format)
        {
            auto const& pair = fixture_json.at(format);
            auto const got = post_embeddings(f.ep, pair.at("request"));
            BOOST_TEST(got.status == 200u);
            BOOST_TEST(got.headers[http::field::content_type] == "application/json");
            BOOST_TEST(std::string(got.headers["x-request-id"]).starts_with("req_"));
            BOOST_TEST(got.complete);
            BOOST_TEST(shape_diffs(got.json(), pair.at("response")) == std::vector<std::string>{},
                boost::test_tools::per_element());
            BOOST_TEST(agentio::to_json_text(got.json()) == got.body); // compact
            BOOST_TEST(got.json().at("model") == "text-embedding-3-small");
            auto const& input = pair.at("request").at("input").as_array();
            auto const vectors = vectors_of(got.json());
            BOOST_REQUIRE(vectors.size() == input.size());
            for(std::size_t i = 0; i < vectors.size(); ++i)
            {
                BOOST_TEST(got.json().at("data").at(i).at("index") == i);
                BOOST_TEST(vectors[i] == fd::hashed_embedding(input[i].as_string(), 8),
                    boost::test_tools::per_element());
                BOOST_TEST(norm_of(vectors[i]) == 1.0, boost::test_tools::tolerance(1e-6));
                answers.insert(answers.end(), vectors[i]);
            }
            // usage.prompt_tokens counts words: 5 + 7 (¿ and ? are not words).
            BOOST_TEST(got.json().at("usage").at("prompt_tokens") == 12);
            BOOST_TEST(got.json().at("usage").at("total_tokens") == 12);
        }
    }
    // The floats as written read back to the very float32 values of the base64 answer.
    BOOST_REQUIRE(answers.size() == 4u);
    BOOST_TEST(answers[0] == answers[2], boost::test_tools::per_element());
    BOOST_TEST(answers[1] == answers[3], boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(dimensions_order_and_inputs)
{
    running_fake f;
    // Default: the scenario's dimensions; one string is one vector.
    auto const whole = post_embeddings(f.ep, embeddings_request("Hola, mundo"));
    BOOST_REQUIRE(whole.status == 200u);
    BOOST_TEST(vectors_of(whole.json()).at(0).size() == 1536u);

    // `dimensions` shortens; rows come in input order; words are lower-cased, punctuation ignored.
    auto body = embeddings_request(json::array{"Hola mundo", "presupuesto por unidad", "¡HOLA, Mundo!", "Hola mundo"});
    body.as_object()["dimensions"] = 32;
    auto const got = post_embeddings(f.ep, body);
    BOOST_REQUIRE(got.status == 200u);
    auto const v = vectors_of(got.json());
    BOOST_REQUIRE(v.size() == 4u);
    for(std::size_t i = 0; i < v.size(); ++i)
    {
        BOOST_TEST(v[i].size() == 32u);
        BOOST_TEST(got.json().at("data").at(i).at("index") == i);
    }
    BOOST_TEST(v[0] == v[2], boost::test_tools::per_element());
    BOOST_TEST(v[0] == v[3], boost::test_tools::per_element());
    BOOST_TEST(v[0] != v[1]);
    BOOST_TEST(v[1] == fd::hashed_embedding("presupuesto por unidad", 32), boost::test_tools::per_element());
    BOOST_TEST(got.json().at("usage").at("prompt_tokens") == 9);

    // Token ids are inputs too: one list, or a list of lists.
    auto const tokens = post_embeddings(f.ep, embeddings_request(json::parse("[[9906, 1917], [9906]]")));
    BOOST_REQUIRE(tokens.status == 200u);
    BOOST_TEST(vectors_of(tokens.json()).size() == 2u);
    BOOST_TEST(tokens.json().at("usage").at("prompt_tokens") == 3);
    auto const one = post_embeddings(f.ep, embeddings_request(json::parse("[9906, 1917]")));
    BOOST_TEST(vectors_of(one.json()).size() == 1u);

    // A text without words is the zero vector; `encoding_format: "float"` is the default.
    body = embeddings_request("¿?");
    body.as_object()["encoding_format"] = "float";
    body.as_object()["dimensions"] = 4;
    auto const empty = post_embeddings(f.ep, body);
    BOOST_TEST(empty.json().at("data").at(0).at("embedding") == json::parse("[0,0,0,0]"));

    // The scenario's own model name, when it has one.
    f.add(R"({"name":"emb","model":"nomic-embed-text","embeddings":{"dimensions":3}})");
    auto const named = post_embeddings(f.ep, embeddings_request("x", "emb"));
    BOOST_TEST(named.json().at("model") == "nomic-embed-text");
}

BOOST_AUTO_TEST_CASE(bad_requests_are_400s_naming_the_param)
{
    running_fake f;
    auto with = [](std::string_view key, json::value v) {
        auto body = embeddings_request(json::array{"a b"});
        body.as_object()[key] = std::move(v);
        return body;
    };
    json::object no_input;
    no_input["model"] = "text-embedding-3-small";
    check_invalid(post_embeddings(f.ep, no_input), "input", "missing_required_parameter");
    check_invalid(post_embeddings(f.ep, embeddings_request("")), "input");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::array{})), "input");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::array{"a", ""})), "input");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::object{})), "input", "invalid_type");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::parse("[1.5, 2]"))), "input", "invalid_type");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::parse(R"(["a", 3])"))), "input[1]", "invalid_type");
    check_invalid(post_embeddings(f.ep, embeddings_request(json::parse(R"([[1], [-2]])"))), "input[1]", "invalid_type");
    json::array many;
    for(int i = 0; i < 2049; ++i)
        many.emplace_back("x");
    check_invalid(post_embeddings(f.ep, embeddings_request(many)), "input", "array_above_max_length");
    auto const format = post_embeddings(f.ep, with("encoding_format", "hex"));
    check_invalid(format, "encoding_format", "invalid_value");
    BOOST_TEST(format.json().at("error").at("message") ==
        "Invalid value: 'hex'. Supported values are: 'float' and 'base64'.");
    check_invalid(post_embeddings(f.ep, with("dimensions", "8")), "dimensions", "invalid_type");
    check_invalid(post_embeddings(f.ep, with("dimensions", 0)), "dimensions", "integer_below_min_value");
    auto const big = post_embeddings(f.ep, with("dimensions", 1537));
    check_invalid(big, "dimensions", "integer_above_max_value");
    BOOST_TEST(big.json().at("error").at("message").as_string().find("<= 1536") != std::string::npos);

    auto const no_model = post_embeddings(f.ep, json::parse(R"({"input":"a"})"));
    BOOST_TEST(no_model.status == 400u);
    BOOST_TEST(no_model.json().at("error").at("message") == "you must provide a model parameter");
    BOOST_TEST(post_text(f.ep, "/v1/embeddings", "not json", openai_headers()).status == 400u);
}

BOOST_AUTO_TEST_CASE(unknown_models_and_models_of_the_other_kind)
{
    running_fake f;
    auto const unknown = post_embeddings(f.ep, embeddings_request("a", "text-embedding-nonexistent"));
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.body ==
        R"({"error":{"message":"The model `text-embedding-nonexistent` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}})");

    // A chat scenario asked for embeddings, and an embedding model asked to chat.
    check_invalid(post_embeddings(f.ep, embeddings_request("a", "openai-text-only")), "model");
    auto const chat = post_openai(f.ep, openai_request("text-embedding-3-small"));
    BOOST_TEST(chat.status == 404u);
    BOOST_TEST(chat.json().at("error").at("param") == "model");
    BOOST_TEST(chat.json().at("error").at("message").as_string().starts_with("This is not a chat model"));
    auto const messages = post_anthropic(f.ep, anthropic_request("text-embedding-3-small"));
    BOOST_TEST(messages.status == 404u);
    BOOST_TEST(messages.json().at("error").at("type") == "not_found_error");

    // Scenario files: either turns or embeddings.
    BOOST_CHECK_THROW(fake::parse_scenario(json::parse(R"({"name":"x","turns":[{}],"embeddings":{}})")),
        fake::scenario_error);
    BOOST_CHECK_THROW(fake::parse_scenario(json::parse(R"({"name":"x"})")), fake::scenario_error);
    try
    {
        fake::parse_scenario(json::parse(R"({"name":"x","embeddings":{"dimensions":0}})"));
        BOOST_FAIL("expected an error");
    }
    catch(fake::scenario_error const& e)
    {
        BOOST_TEST(e.pointer() == "/embeddings/dimensions");
    }
    auto const s = fake::parse_scenario(
        json::parse(R"({"name":"x","embeddings":{"faults":[{"kind":"http_error","status":500,"times":1}]}})"));
    BOOST_REQUIRE(s.embeddings);
    BOOST_TEST(s.embeddings->dimensions == 256u);
    BOOST_TEST(s.embeddings->faults.size() == 1u);
    BOOST_TEST(s.turns.empty());
}

BOOST_AUTO_TEST_CASE(authentication_faults_and_recording)
{
    fake::fake_llm_options options;
    options.api_key = "sk-secret-key-1234";
    running_fake f(options);
    auto const none = post_embeddings(f.ep, embeddings_request("a"), {});
    BOOST_TEST(none.status == 401u);
    BOOST_TEST(none.json().at("error").at("message").as_string().starts_with("You didn't provide an API key."));
    auto const wrong = post_embeddings(f.ep, embeddings_request("a"));
    BOOST_TEST(wrong.status == 401u);
    BOOST_TEST(wrong.json().at("error").at("code") == "invalid_api_key");
    header_list const right{{"authorization", "Bearer sk-secret-key-1234"}};
    BOOST_TEST(post_embeddings(f.ep, embeddings_request("a"), right).status == 200u);

    f.add(R"({"name":"flaky","embeddings":{"dimensions":4,"faults":[
        {"kind":"http_error","status":429,"retry_after":"1","retry_after_ms":20,"times":1},
        {"kind":"http_error","status":500,"times":2}]}})");
    auto const r1 = post_embeddings(f.ep, embeddings_request("a", "flaky"), right);
    BOOST_TEST(r1.status == 429u);
    BOOST_TEST(r1.headers[http::field::retry_after] == "1");
    BOOST_TEST(r1.headers["retry-after-ms"] == "20");
    BOOST_TEST(r1.json().at("error").at("code") == "rate_limit_exceeded");
    auto const r2 = post_embeddings(f.ep, embeddings_request("a", "flaky"), right);
    BOOST_TEST(r2.status == 500u);
    BOOST_TEST(r2.json().at("error").at("type") == "server_error");
    BOOST_TEST(post_embeddings(f.ep, embeddings_request("a", "flaky"), right).status == 200u);
    // Other inputs count their own attempts.
    BOOST_TEST(post_embeddings(f.ep, embeddings_request("b", "flaky"), right).status == 429u);

    // A stream fault on the plain answer: cut in the middle.
    f.add(R"({"name":"cut","embeddings":{"dimensions":64,"faults":[{"kind":"truncate"}]}})");
    auto const cut = post_embeddings(f.ep, embeddings_request("a b c", "cut"), right);
    BOOST_TEST(cut.status == 200u);
    BOOST_TEST(!cut.complete);

    auto const got = f.llm->requests();
    BOOST_REQUIRE(!got.empty());
    BOOST_TEST(got.back().target == "/v1/embeddings");
    BOOST_TEST(got.back().method == "POST");
    BOOST_TEST(got.back().body.at("model") == "cut");
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================
BOOST_AUTO_TEST_SUITE(openai_embeddings)

BOOST_AUTO_TEST_CASE(batches_are_split_and_kept_in_order)
{
    running_fake f;
    auto o = embedder_options(f);
    o.batch_size = 2;
    o.dimensions = 16;
    o.base_url += "/"; // a trailing slash is fine
    embedder_client c(o);
    BOOST_TEST(c.e->model_id() == "openai:text-embedding-3-small@16");
    std::vector<std::string> const texts{"uno", "dos dos", "tres tres tres", "cuatro", "cinco y seis"};
    auto const got = c.embed(texts);
    BOOST_REQUIRE_MESSAGE(got, (got ? "" : got.error().message));
    BOOST_TEST(got->size() == 5u);
    BOOST_TEST(got->dimensions == 16u);
    BOOST_TEST(got->values.size() == 80u);
    BOOST_TEST(got->prompt_tokens == 10u);
    for(std::size_t i = 0; i < texts.size(); ++i)
    {
        auto const want = fd::hashed_embedding(texts[i], 16);
        auto const row = (*got)[i];
        BOOST_TEST(std::vector<float>(row.begin(), row.end()) == want, boost::test_tools::per_element());
    }

    auto const sent = f.llm->requests();
    BOOST_REQUIRE(sent.size() == 3u);
    std::vector<std::size_t> sizes;
    for(auto const& r : sent)
    {
        BOOST_TEST(r.target == "/v1/embeddings");
        BOOST_TEST(r.headers[http::field::authorization] == "Bearer sk-test");
        BOOST_TEST(r.headers["x-stainless-retry-count"] == "0");
        BOOST_TEST(r.body.at("encoding_format") == "base64");
        BOOST_TEST(r.body.at("dimensions") == 16);
        BOOST_TEST(r.body.at("model") == "text-embedding-3-small");
        sizes.push_back(r.body.at("input").as_array().size());
    }
    BOOST_TEST(sizes == (std::vector<std::size_t>{2, 2, 1}), boost::test_tools::per_element());
    BOOST_TEST(sent[2].body.at("input") == json::parse(R"(["cinco y seis"])"));
}

BOOST_AUTO_TEST_CASE(the_same_text_gets_the_same_vector)
{
    running_fake f;
    embedder_client c(embedder_options(f));
    BOOST_TEST(c.e->model_id() == "openai:text-embedding-3-small");
    std::vector<std::string> const texts{"Iniciativas en ejecución", "presupuesto", "iniciativas EN ejecución."};
    auto const a = c.embed(texts);
    auto const b = c.embed(texts);
    BOOST_REQUIRE(a);
    BOOST_REQUIRE(b);
    BOOST_TEST(a->dimensions == 1536u);
    BOOST_TEST(a->values == b->values);
    auto const r0 = (*a)[0], r2 = (*a)[2];
    BOOST_TEST(std::equal(r0.begin(), r0.end(), r2.begin(), r2.end()));

    // No texts: no request, no vectors.
    auto const before = f.llm->requests().size();
    auto const none = c.embed({});
    BOOST_REQUIRE(none);
    BOOST_TEST(none->size() == 0u);
    BOOST_TEST(f.llm->requests().size() == before);
}

BOOST_AUTO_TEST_CASE(a_429_is_retried_then_succeeds)
{
    running_fake f;
    f.add(R"({"name":"flaky","embeddings":{"dimensions":8,"faults":[
        {"kind":"http_error","status":429,"retry_after_ms":"25","times":1}]}})");
    embedder_client c(embedder_options(f, "flaky"));
    auto const got = c.embed({"hola", "mundo"});
    BOOST_REQUIRE_MESSAGE(got, (got ? "" : got.error().message));
    BOOST_TEST(got->size() == 2u);
    BOOST_TEST((c.sleeps == std::vector<std::chrono::milliseconds>{25ms}));
    auto const sent = f.llm->requests();
    BOOST_REQUIRE(sent.size() == 2u);
    BOOST_TEST(sent[0].headers["x-stainless-retry-count"] == "0");
    BOOST_TEST(sent[1].headers["x-stainless-retry-count"] == "1");

    // A 500 every time: three attempts, then the error as the chat providers report it.
    f.add(R"({"name":"down","embeddings":{"dimensions":8,"faults":[{"kind":"http_error","status":500}]}})");
    embedder_client d(embedder_options(f, "down"));
    auto const failed = d.embed({"hola"});
    BOOST_REQUIRE(!failed);
    BOOST_TEST((failed.error().what == llm::error::kind::http_status));
    BOOST_TEST(failed.error().status == 500u);
    BOOST_TEST(failed.error().type == "server_error");
    BOOST_TEST(failed.error().retryable);
    BOOST_TEST(failed.error().request_id.starts_with("req_"));
    BOOST_TEST(d.sleeps.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_401_is_reported_without_retry)
{
    fake::fake_llm_options options;
    options.api_key = "sk-secret-key-1234";
    running_fake f(options);
    embedder_client c(embedder_options(f)); // sends sk-test
    auto const got = c.embed({"hola"});
    BOOST_REQUIRE(!got);
    BOOST_TEST((got.error().what == llm::error::kind::http_status));
    BOOST_TEST(got.error().status == 401u);
    BOOST_TEST(got.error().type == "invalid_request_error");
    BOOST_TEST(got.error().message.starts_with("Incorrect API key provided"));
    BOOST_TEST(!got.error().retryable);
    BOOST_TEST(c.sleeps.empty());
    BOOST_TEST(f.llm->requests().size() == 1u);

    // An unknown model: the 404 of the chat providers.
    auto o = embedder_options(f, "text-embedding-nonexistent");
    o.api_key = "sk-secret-key-1234";
    embedder_client u(o);
    auto const unknown = u.embed({"hola"});
    BOOST_REQUIRE(!unknown);
    BOOST_TEST(unknown.error().status == 404u);
    BOOST_TEST(unknown.error().type == "model_not_found");

    // No model at all: told before any request.
    o.model.clear();
    embedder_client n(o);
    auto const no_model = n.embed({"hola"});
    BOOST_REQUIRE(!no_model);
    BOOST_TEST((no_model.error().what == llm::error::kind::configuration));
}

BOOST_AUTO_TEST_CASE(connection_errors_are_retried)
{
    std::uint16_t port = 0;
    {
        asio::io_context ioc;
        tcp::acceptor a(ioc, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
        port = a.local_endpoint().port();
    } // closed: connections are refused
    llm::openai_embedder_options o;
    o.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
    o.model = "m";
    embedder_client c(o);
    auto const got = c.embed({"hola"});
    BOOST_REQUIRE(!got);
    BOOST_TEST((got.error().what == llm::error::kind::connection));
    BOOST_TEST(c.sleeps.size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_codec_reads_and_writes_the_fixture)
{
    auto const fx = json::parse(fixture("openai-embeddings.json"));
    auto const& request = fx.at("base64").at("request");
    std::vector<std::string> input;
    for(auto const& t : request.at("input").as_array())
        input.emplace_back(t.as_string());
    BOOST_TEST(json::value(llm::openai::make_embeddings_body("text-embedding-3-small", input, 8u)) == request);
    BOOST_TEST(json::value(llm::openai::make_embeddings_body("text-embedding-3-small", input, 8u, "float")) ==
        fx.at("float").at("request"));
    BOOST_TEST(!llm::openai::make_embeddings_body("m", input).contains("dimensions"));

    auto const floats = llm::openai::parse_embeddings_body(agentio::to_json_text(fx.at("float").at("response")), 2, 8u);
    auto const b64 = llm::openai::parse_embeddings_body(agentio::to_json_text(fx.at("base64").at("response")), 2, 8u);
    BOOST_REQUIRE(floats);
    BOOST_REQUIRE(b64);
    BOOST_TEST(floats->dimensions == 8u);
    BOOST_TEST(floats->prompt_tokens == 17u);
    BOOST_TEST(floats->values == b64->values, boost::test_tools::per_element());
    BOOST_TEST(floats->values[0] == 0.23237504065036774f);
    BOOST_TEST(norm_of((*floats)[1]) == 1.0, boost::test_tools::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(the_codec_reorders_rows_and_refuses_bad_answers)
{
    // Shuffled indexes are put in order; float arrays and base64 may even mix.
    auto const shuffled = llm::openai::parse_embeddings_body(R"({"object":"list","data":[
        {"object":"embedding","index":2,"embedding":[0,0,1]},
        {"object":"embedding","index":0,"embedding":[1,0.5,0]},
        {"object":"embedding","index":1,"embedding":")" +
            float32_base64({0, 1, 0}) + R"("}],
        "model":"m","usage":{"prompt_tokens":3,"total_tokens":3}})",
        3);
    BOOST_REQUIRE(shuffled);
    BOOST_TEST(shuffled->values == (std::vector<float>{1, 0.5f, 0, 0, 1, 0, 0, 0, 1}),
        boost::test_tools::per_element());
    BOOST_TEST(shuffled->prompt_tokens == 3u);
    // No index: the order received.
    auto const plain = llm::openai::parse_embeddings_body(R"({"data":[{"embedding":[1]},{"embedding":[2]}]})", 2);
    BOOST_REQUIRE(plain);
    BOOST_TEST(plain->values == (std::vector<float>{1, 2}), boost::test_tools::per_element());

    auto message_of = [](std::string_view body, std::size_t count, std::optional<unsigned> dims = {}) {
        return protocol_error_of(body, count, dims).message;
    };
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1,2]}]})", 2) ==
        "the embeddings answer has 1 vectors for 2 inputs");
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]})", 2) ==
        "the embeddings answer's data[1].embedding has 1 dimensions, the others 2");
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1,2]}]})", 1, 3u) ==
        "the embeddings answer has vectors of 2 dimensions, 3 were asked for");
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":"AAAA!AAA"}]})", 1).find("not valid base64") !=
        std::string::npos);
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":"AAAA"}]})", 1).find("not a whole number") !=
        std::string::npos);
    auto const nan = float32_base64({1.0f, std::numeric_limits<float>::quiet_NaN()});
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":")" + nan + R"("}]})", 1).find("not a finite") !=
        std::string::npos);
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1e39]}]})", 1) ==
        "the embeddings answer's data[0].embedding[0] is not a finite float32");
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1,"2"]}]})", 1).find("not a number") !=
        std::string::npos);
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]})", 2) ==
        "the embeddings answer has two vectors for input 0");
    BOOST_TEST(message_of(R"({"data":[{"index":5,"embedding":[1]}]})", 1).find("out of range") != std::string::npos);
    BOOST_TEST(message_of(R"({"data":[{"index":0,"embedding":[]}]})", 1).find("empty") != std::string::npos);
    BOOST_TEST(message_of(R"({"data":[{"index":0}]})", 1).find("neither") != std::string::npos);
    BOOST_TEST(message_of(R"({"object":"list"})", 1) == "the embeddings answer has no `data` array");
    BOOST_TEST(message_of("<html>", 1) == "the embeddings answer is not a JSON object");
}

BOOST_AUTO_TEST_SUITE_END()
