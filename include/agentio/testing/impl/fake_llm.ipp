//
// agentio/testing/impl/fake_llm.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The fake's members and its request handler; the reading of scenarios and
// requests, the plan of an answer and the streams are in detail/.
//

#ifndef AGENTIO_TESTING_IMPL_FAKE_LLM_IPP
#define AGENTIO_TESTING_IMPL_FAKE_LLM_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/format.hpp>
#include <agentio/testing/detail/fake_llm_embeddings.hpp>
#include <agentio/testing/detail/fake_llm_scenarios.hpp>
#include <agentio/testing/detail/fake_llm_stream.hpp>
#include <agentio/testing/detail/fake_llm_wire.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace agentio::testing {

AGENTIO_DECL scenario parse_scenario(json::value const& jv)
{
    return detail::scenario_reader({}).read_scenario(jv);
}

AGENTIO_DECL std::vector<scenario> read_scenarios(std::filesystem::path const& path)
{
    std::vector<scenario> out;
    std::error_code ec;
    if(std::filesystem::is_directory(path, ec))
    {
        std::vector<std::filesystem::path> files;
        for(auto const& entry : std::filesystem::directory_iterator(path, ec))
            if(entry.is_regular_file() && entry.path().extension() == ".json")
                files.push_back(entry.path());
        if(ec)
            throw scenario_error(path.string(), {}, "cannot list the directory: " + ec.message());
        std::sort(files.begin(), files.end()); // a stable order: the first definition of a name is reported
        for(auto const& f : files)
            detail::read_scenario_file(f, out);
    }
    else
        detail::read_scenario_file(path, out);

    std::map<std::string, std::size_t> seen;
    for(std::size_t i = 0; i < out.size(); ++i)
        if(!seen.emplace(out[i].name, i).second)
            throw scenario_error(path.string(), {}, "scenario '" + out[i].name + "' is defined twice");
    return out;
}

// ================================================================================
// Shared state
// ================================================================================

namespace detail {

struct fake_llm_state
{
    explicit fake_llm_state(fake_llm_options o) : options(std::move(o)) {}

    fake_llm_options const options;

    mutable std::mutex mutex;
    std::map<std::string, std::shared_ptr<scenario const>> scenarios; // by name
    std::unordered_map<std::string, std::size_t> attempts;            // see next_attempt
    std::deque<recorded_request> recorded;
    tcp::endpoint endpoint; // bound by start()

    std::shared_ptr<scenario const> find(std::string const& name) const
    {
        std::lock_guard lock(mutex);
        auto const it = scenarios.find(name);
        return it == scenarios.end() ? nullptr : it->second;
    }

    // The number of earlier attempts with this key, counting this one.
    std::size_t next_attempt(std::string key)
    {
        std::lock_guard lock(mutex);
        return attempts[std::move(key)]++;
    }

    void record(http::request const& req, json::value const& body, std::chrono::steady_clock::time_point at)
    {
        if(options.max_recorded_requests == 0)
            return;
        recorded_request r;
        r.method = std::string(req.method_string());
        r.target = std::string(req.target());
        for(auto const& f : req)
            r.headers.insert(f.name_string(), f.value());
        r.body = body;
        r.received = at;
        std::lock_guard lock(mutex);
        recorded.push_back(std::move(r));
        while(recorded.size() > options.max_recorded_requests)
            recorded.pop_front();
    }
};

// ================================================================================
// The handler
// ================================================================================

// One request's answering context: provider, request id, HTTP version.
struct exchange
{
    provider p = provider::anthropic;
    unsigned version = 11;
    bool keep_alive = true;
    std::string request_id;

    void set_common(beast::http::fields& f) const
    {
        f.set(p == provider::anthropic ? "request-id" : "x-request-id", request_id);
    }

    http::response json_response(beast::http::status status, std::string body) const
    {
        http::response res{status, version};
        res.set(beast::http::field::content_type, "application/json");
        set_common(res);
        res.body() = std::move(body);
        res.keep_alive(keep_alive);
        res.prepare_payload();
        return res;
    }

    http::response error(api_failure const& f) const
    {
        auto const status = static_cast<beast::http::status>(f.status);
        if(p == provider::anthropic)
            return json_response(status, anthropic_error_body(f.type, f.message, request_id));
        return json_response(status, openai_error_body({f.message, f.type, f.param, f.code}));
    }

    // The provider's usual error for a status, with an optional type/message.
    http::response error_for_status(unsigned status, std::string_view type, std::string_view message) const
    {
        if(p == provider::anthropic)
        {
            std::string_view const t = type.empty() ? anthropic_error_type(status) : type;
            return error({status, std::string(t), std::string(message.empty() ? anthropic_error_message(t) : message),
                {}, {}});
        }
        auto e = openai_error_for(status);
        if(!type.empty())
            e.type = type;
        if(!message.empty())
            e.message = message;
        return error({status, std::string(e.type), std::string(e.message), std::string(e.param), std::string(e.code)});
    }
};

AGENTIO_DECL std::string mask_key(std::string_view key)
{
    if(key.size() < 8)
        return std::string(key.size(), '*');
    return std::string(key.substr(0, 3)) + std::string(key.size() - 7, '*') + std::string(key.substr(key.size() - 4));
}

// The key a client sent: x-api-key, or Authorization: Bearer.
AGENTIO_DECL std::optional<std::string_view> presented_key(http::request const& req)
{
    if(auto const it = req.find("x-api-key"); it != req.end())
        return it->value();
    if(auto const it = req.find(beast::http::field::authorization); it != req.end())
    {
        std::string_view v = it->value();
        if(v.size() > 7 && beast::iequals(v.substr(0, 7), "Bearer "))
            return v.substr(7);
    }
    return std::nullopt;
}

AGENTIO_DECL std::optional<api_failure> check_key(std::string const& expected, http::request const& req, provider p)
{
    if(expected.empty())
        return std::nullopt;
    auto const key = presented_key(req);
    if(key && *key == expected)
        return std::nullopt;
    if(p == provider::anthropic)
        return api_failure{401, "authentication_error", key ? "invalid x-api-key" : "x-api-key header is required", {},
            {}};
    if(!key)
        return api_failure{401, "invalid_request_error",
            "You didn't provide an API key. You need to provide your API key in an Authorization header using "
            "Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if "
            "you're accessing the API from your browser and are prompted for a username and password. You can "
            "obtain an API key from https://platform.openai.com/account/api-keys.",
            {}, {}};
    return api_failure{401, "invalid_request_error",
        "Incorrect API key provided: " + mask_key(*key) +
            ". You can find your API key at https://platform.openai.com/account/api-keys.",
        {}, "invalid_api_key"};
}

// The faults of a response that apply to this attempt.
struct active_faults
{
    fault const* http_error = nullptr;
    fault const* ending = nullptr; // midstream_error, truncate, stall, disconnect
    fault const* slow = nullptr;
};

AGENTIO_DECL active_faults select_faults(std::vector<fault> const& faults, std::size_t attempt)
{
    active_faults a;
    for(auto const& f : faults)
    {
        if(f.times != 0 && attempt >= f.times)
            continue;
        switch(f.kind)
        {
        case fault_kind::http_error:
            if(!a.http_error)
                a.http_error = &f;
            break;
        case fault_kind::slow_tokens:
            if(!a.slow)
                a.slow = &f;
            break;
        default:
            if(!a.ending)
                a.ending = &f;
        }
    }
    return a;
}

// A request that does not fit the scenario's window, refused in the provider's words; nothing when it fits.
AGENTIO_DECL std::optional<api_failure> refuse_for_size(provider p, std::uint64_t window, std::size_t request_bytes,
    std::uint64_t max_tokens)
{
    auto const input = std::max<std::uint64_t>(1, request_bytes / 4); // what the fake reports as input tokens
    auto const n = std::to_string(input), w = std::to_string(window), m = std::to_string(max_tokens);
    if(input > window)
    {
        if(p == provider::anthropic)
            return api_failure{400, "invalid_request_error", "prompt is too long: " + n + " tokens > " + w + " maximum",
                {}, {}};
        return api_failure{400, "invalid_request_error",
            "This model's maximum context length is " + w + " tokens. However, your messages resulted in " + n +
                " tokens. Please reduce the length of the messages.",
            "messages", "context_length_exceeded"};
    }
    if(input + max_tokens > window)
    {
        if(p == provider::anthropic)
            return api_failure{400, "invalid_request_error",
                "input length and `max_tokens` exceed context limit: " + n + " + " + m + " > " + w +
                    ", decrease input length or `max_tokens` and try again",
                {}, {}};
        return api_failure{400, "invalid_request_error",
            "This model's maximum context length is " + w + " tokens. However, you requested " +
                std::to_string(input + max_tokens) + " tokens (" + n + " in the messages, " + m +
                " in the completion). Please reduce the length of the messages or completion.",
            "messages", "context_length_exceeded"};
    }
    return std::nullopt;
}

// The answer of an http_error fault, with its retry headers.
AGENTIO_DECL http::response http_error_answer(exchange const& x, fault const& f)
{
    auto res = x.error_for_status(f.status, f.error_type, f.error_message);
    if(!f.retry_after.empty())
        res.set(beast::http::field::retry_after, f.retry_after);
    if(!f.retry_after_ms.empty())
        res.set("retry-after-ms", f.retry_after_ms);
    if(!f.x_should_retry.empty())
        res.set("x-should-retry", f.x_should_retry);
    return res;
}

// A midstream_error fault where there is no stream: the same failure as an HTTP error.
AGENTIO_DECL http::response midstream_error_answer(exchange const& x, fault const& f)
{
    std::string_view const type = !f.error_type.empty() ? std::string_view(f.error_type)
        : x.p == provider::anthropic                    ? std::string_view("overloaded_error")
                                                        : std::string_view("server_error");
    unsigned const status = type == "overloaded_error" ? 529 : 500;
    return x.error_for_status(status, type, f.error_message);
}

AGENTIO_DECL api_failure openai_model_not_found(std::string const& model)
{
    return {404, "invalid_request_error", "The model `" + model + "` does not exist or you do not have access to it.",
        {}, "model_not_found"};
}

// A plain answer to `POST /v1/embeddings`, and the stream fault to deliver it with, if any.
struct embeddings_answer
{
    http::response res;
    std::shared_ptr<scenario const> sc; // keeps `ending` alive
    fault const* ending = nullptr;
};

AGENTIO_DECL embeddings_answer answer_embeddings(fake_llm_state& st, exchange const& x, json::object const& body)
{
    embeddings_answer a;
    embeddings_request r;
    if(auto failure = read_embeddings_request(body, r))
    {
        a.res = x.error(*failure);
        return a;
    }
    a.sc = st.find(r.model);
    if(!a.sc)
    {
        a.res = x.error(openai_model_not_found(r.model));
        return a;
    }
    if(!a.sc->embeddings)
    {
        a.res = x.error(openai_invalid("fake_llm: scenario '" + a.sc->name +
                "' is a chat model (it has turns, not embeddings); use it with /v1/chat/completions",
            "model"));
        return a;
    }
    scripted_embeddings const& e = *a.sc->embeddings;
    std::size_t dimensions = 0;
    if(auto failure = embedding_dimensions(r, e.dimensions, dimensions))
    {
        a.res = x.error(*failure);
        return a;
    }

    std::size_t attempt = 0;
    if(std::any_of(e.faults.begin(), e.faults.end(), [](fault const& f) { return f.times != 0; }))
        attempt = st.next_attempt("embeddings\n" + a.sc->name + "\n" + std::to_string(r.input_hash));
    auto const faults = select_faults(e.faults, attempt);
    if(faults.http_error)
    {
        a.res = http_error_answer(x, *faults.http_error);
        return a;
    }
    if(faults.ending && faults.ending->kind == fault_kind::midstream_error)
    {
        a.res = midstream_error_answer(x, *faults.ending);
        return a;
    }
    a.res = x.json_response(beast::http::status::ok,
        embeddings_body(r, a.sc->model.empty() ? std::string_view(r.model) : std::string_view(a.sc->model),
            dimensions));
    a.ending = faults.ending;
    return a;
}

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>>
fake_llm_handler::operator()(http::request&& req, beast::tcp_stream& stream)
{
    namespace bhttp = beast::http;
    using result = std::optional<bhttp::message_generator>;
    fake_llm_state& st = *state;

    system::error_code parse_ec;
    json::value body = json::parse(req.body(), parse_ec);
    st.record(req, body, std::chrono::steady_clock::now());

    std::string_view path = req.target();
    path = path.substr(0, path.find('?')); // the SDKs add ?beta=true for beta features
    exchange x;
    x.version = req.version();
    x.keep_alive = req.keep_alive();
    bool const embeddings_endpoint = path == "/v1/embeddings";
    bool const count_endpoint = path == "/v1/messages/count_tokens";
    if(path == "/v1/messages" || count_endpoint)
        x.p = provider::anthropic;
    else if(path == "/v1/chat/completions" || embeddings_endpoint)
        x.p = provider::openai;
    else
    {
        x.p = req.find("anthropic-version") != req.end() ? provider::anthropic : provider::openai;
        x.request_id = x.p == provider::anthropic ? anthropic_request_id() : openai_request_id();
        std::string const what = std::string(req.method_string()) + " " + std::string(path);
        if(x.p == provider::anthropic)
            co_return result(x.error({404, "not_found_error", "Not Found: " + what, {}, {}}));
        co_return result(x.error({404, "invalid_request_error", "Invalid URL (" + what + ")", {}, {}}));
    }
    x.request_id = x.p == provider::anthropic ? anthropic_request_id() : openai_request_id();
    if(req.method() != bhttp::verb::post)
        co_return result(x.error({405, "invalid_request_error",
            "Method " + std::string(req.method_string()) + " not allowed; use POST", {}, {}}));

    if(auto failure = check_key(st.options.api_key, req, x.p))
        co_return result(x.error(*failure));

    std::string_view version;
    if(x.p == provider::anthropic)
    {
        auto const it = req.find("anthropic-version");
        if(it == req.end())
            co_return result(x.error(anthropic_invalid("anthropic-version: header is required")));
        version = it->value();
        if(version != "2023-06-01" && version != "2026-10-21")
            co_return result(x.error(anthropic_invalid("anthropic-version: unknown version '" + std::string(version) +
                "' (this fake accepts 2023-06-01 and 2026-10-21)")));
    }

    if(parse_ec || !body.is_object())
    {
        std::string const why = parse_ec ? "the body is not valid JSON: " + parse_ec.message()
                                         : std::string("the body must be a JSON object");
        co_return result(x.error(x.p == provider::anthropic ? anthropic_invalid(why) : openai_invalid(why)));
    }
    if(embeddings_endpoint)
    {
        embeddings_answer a = answer_embeddings(st, x, body.get_object());
        if(!a.ending)
            co_return result(std::move(a.res));
        auto const timeout = st.options.server.write_timeout;
        event_stream es(stream, x.p, timeout);
        auto group = beside_watch(es, answer_with_fault(es, stream, a.res, *a.ending, timeout));
        auto [order, e1, e2] = co_await group.async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
        report_failures(e1, e2);
        co_return std::nullopt;
    }
    if(count_endpoint)
    {
        // Anthropic's token counting: the Messages request's input, without the answer's settings.
        auto& fields = body.get_object();
        for(std::string_view const extra : {"max_tokens", "stream", "stop_sequences", "temperature", "metadata"})
            if(fields.contains(extra))
                co_return result(x.error(anthropic_invalid(std::string(extra) + ": Extra inputs are not permitted")));
        json::object as_message = fields;
        as_message["max_tokens"] = 1;
        conversation counted;
        if(auto const invalid = read_anthropic(as_message, version, counted))
            co_return result(x.error(*invalid));
        auto const sc = st.find(counted.model);
        if(!sc || sc->turns.empty())
            co_return result(x.error({404, "not_found_error", "model: " + counted.model, {}, {}}));
        // What the fake reports as a request's input tokens: its body's bytes / 4.
        auto const tokens = std::max<std::uint64_t>(1, req.body().size() / 4);
        co_return result(x.json_response(bhttp::status::ok, R"({"input_tokens":)" + std::to_string(tokens) + "}"));
    }
    conversation c;
    auto const failure = x.p == provider::anthropic ? read_anthropic(body.get_object(), version, c)
                                                    : read_openai(body.get_object(), c);
    if(failure)
        co_return result(x.error(*failure));
    std::size_t const request_bytes = req.body().size();
    body = nullptr; // the stream may last long: keep only what it needs
    req.body() = std::string();

    auto const sc = st.find(c.model);
    if(!sc || sc->turns.empty())
    {
        if(x.p == provider::anthropic)
            co_return result(x.error({404, "not_found_error", "model: " + c.model, {}, {}}));
        if(sc) // an embedding model, in OpenAI's words for one asked to chat
            co_return result(x.error({404, "invalid_request_error",
                "This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean "
                "to use v1/completions?",
                "model", {}}));
        co_return result(x.error(openai_model_not_found(c.model)));
    }

    if(sc->context_window)
        if(auto refused = refuse_for_size(x.p, *sc->context_window, request_bytes, c.max_tokens))
            co_return result(x.error(*refused));

    std::size_t const round = std::min(c.round, sc->turns.size() - 1);
    auto const& alternatives = sc->turns[round];
    auto const chosen = std::find_if(alternatives.begin(), alternatives.end(), [&](scripted_response const& r) {
        return (!r.when_tools_offered || *r.when_tools_offered == c.tools_offered) &&
            c.last_tool_result.find(r.when_last_tool_result_contains) != std::string::npos &&
            c.last_user_text.find(r.when_user_message_contains) != std::string::npos &&
            std::all_of(r.when_user_message_also_contains.begin(), r.when_user_message_also_contains.end(),
                [&](std::string const& text) { return c.last_user_text.find(text) != std::string::npos; });
    });
    if(chosen == alternatives.end())
        co_return result(x.error(x.p == provider::anthropic
                ? anthropic_invalid("fake_llm: no alternative of turn " + std::to_string(round) + " of scenario '" +
                      sc->name + "' matches the last tool result and user message")
                : openai_invalid("fake_llm: no alternative of turn " + std::to_string(round) + " of scenario '" +
                      sc->name + "' matches the last tool result and user message")));
    // tool_choice "none": the API answers in text; the turn's calls are not made.
    scripted_response without_calls;
    if(c.tools_forbidden && !chosen->tool_calls.empty())
    {
        without_calls = *chosen;
        without_calls.tool_calls.clear();
        if(without_calls.stop_reason == "tool_use")
            without_calls.stop_reason.clear();
    }
    scripted_response const& r = c.tools_forbidden && !chosen->tool_calls.empty() ? without_calls : *chosen;

    std::size_t attempt = 0;
    bool const counted = std::any_of(r.faults.begin(), r.faults.end(), [](fault const& f) { return f.times != 0; });
    if(counted)
    {
        std::string key = x.p == provider::anthropic ? "anthropic\n" : "openai\n";
        key.append(sc->name).append("\n").append(std::to_string(round)).append("\n");
        key.append(std::to_string(c.messages_hash));
        attempt = st.next_attempt(std::move(key));
    }
    auto const faults = select_faults(r.faults, attempt);

    if(faults.http_error)
        co_return result(http_error_answer(x, *faults.http_error));

    response_plan plan = make_plan(r, *sc, c, x.p, st.options, request_bytes);
    if(faults.slow)
        plan.interval = faults.slow->duration;
    auto const write_timeout = st.options.server.write_timeout;

    if(!c.stream)
    {
        if(faults.ending && faults.ending->kind == fault_kind::midstream_error)
            co_return result(midstream_error_answer(x, *faults.ending));
        auto res = x.json_response(bhttp::status::ok,
            x.p == provider::anthropic ? anthropic_message_body(plan) : openai_completion_body(plan));
        if(!faults.ending)
            co_return result(std::move(res));
        event_stream es(stream, x.p, write_timeout);
        auto group = beside_watch(es, answer_with_fault(es, stream, res, *faults.ending, write_timeout));
        auto [order, e1, e2] = co_await group.async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
        report_failures(e1, e2);
        co_return std::nullopt;
    }

    bhttp::response<bhttp::empty_body> header{bhttp::status::ok, x.version};
    header.set(bhttp::field::content_type, "text/event-stream");
    header.set(bhttp::field::cache_control, "no-cache");
    x.set_common(header);

    event_stream es(stream, x.p, write_timeout);
    es.set_interval(plan.interval);
    es.set_ending_fault(faults.ending);
    auto group = beside_watch(es, stream_response(es, header, plan, x.p, c.include_usage));
    auto [order, e1, e2] = co_await group.async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
    report_failures(e1, e2);
    co_return std::nullopt;
}

} // namespace detail

// ================================================================================
// fake_llm
// ================================================================================

AGENTIO_DECL fake_llm::fake_llm(asio::any_io_executor ex, fake_llm_options options)
    : state_(std::make_shared<detail::fake_llm_state>(options))
    , server_(std::move(ex), detail::fake_llm_handler{state_}, options.server)
{
}

AGENTIO_DECL void fake_llm::add_scenario(scenario s)
{
    auto p = std::make_shared<scenario const>(std::move(s));
    std::lock_guard lock(state_->mutex);
    state_->scenarios[p->name] = std::move(p);
}

AGENTIO_DECL std::size_t fake_llm::load_scenarios(std::filesystem::path const& path)
{
    auto list = read_scenarios(path);
    for(auto& s : list)
        add_scenario(std::move(s));
    return list.size();
}

AGENTIO_DECL std::vector<std::string> fake_llm::scenario_names() const
{
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> names;
    for(auto const& kv : state_->scenarios)
        names.push_back(kv.first);
    return names;
}

AGENTIO_DECL system::result<tcp::endpoint> fake_llm::start(tcp::endpoint const& endpoint)
{
    auto bound = server_.listen(endpoint);
    if(!bound)
        return bound;
    {
        std::lock_guard lock(state_->mutex);
        state_->endpoint = *bound;
    }
    server_.start();
    return bound;
}

AGENTIO_DECL tcp::endpoint fake_llm::endpoint() const
{
    std::lock_guard lock(state_->mutex);
    return state_->endpoint;
}

AGENTIO_DECL void fake_llm::stop()
{
    server_.stop();
}

AGENTIO_DECL std::string fake_llm::anthropic_base_url() const
{
    return http::url_of(endpoint());
}

AGENTIO_DECL std::string fake_llm::openai_base_url() const
{
    return anthropic_base_url() + "/v1";
}

AGENTIO_DECL std::size_t fake_llm::connection_count() const noexcept
{
    return server_.connection_count();
}

AGENTIO_DECL std::vector<recorded_request> fake_llm::requests() const
{
    std::lock_guard lock(state_->mutex);
    return {state_->recorded.begin(), state_->recorded.end()};
}

AGENTIO_DECL void fake_llm::reset()
{
    std::lock_guard lock(state_->mutex);
    state_->recorded.clear();
    state_->attempts.clear();
}

} // namespace agentio::testing

#endif
