//
// agentio/mcp/client/impl/client.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_MCP_CLIENT_IMPL_CLIENT_IPP
#define AGENTIO_MCP_CLIENT_IMPL_CLIENT_IPP

#include <agentio/config.hpp>
#include <agentio/detail/ascii.hpp>
#include <agentio/detail/base64.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/jsonrpc.hpp>
#include <agentio/mcp/client/client.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

namespace agentio::mcp {

namespace detail {

class client_category_impl final : public boost::system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.mcp.client"; }

    std::string message(int ev) const override
    {
        switch(static_cast<client_errc>(ev))
        {
        case client_errc::server_error: return "the MCP server answered with an error";
        case client_errc::timeout: return "the MCP server did not answer in time";
        case client_errc::transport_failed: return "the connection to the MCP server failed";
        case client_errc::closed: return "the connection to the MCP server is closed";
        case client_errc::protocol_error: return "the MCP server broke the protocol";
        case client_errc::unsupported_version: return "no protocol version in common with the MCP server";
        case client_errc::not_connected: return "the MCP client is not connected";
        }
        return "unknown MCP client error";
    }
};

} // namespace detail

AGENTIO_DECL boost::system::error_category const& client_category() noexcept
{
    static detail::client_category_impl const category;
    return category;
}

namespace detail {

inline constexpr std::string_view stateless_version = "2026-07-28";
inline constexpr std::array<std::string_view, 4> handshake_versions{"2025-11-25", "2025-06-18", "2025-03-26",
    "2024-11-05"};

// One request waiting for its answer. Lives in the requesting coroutine's
// frame; the client's map points at it while it waits. Everything runs on the strand.
struct pending_call
{
    asio::steady_timer timer;
    std::optional<json::object> reply = {};
    std::optional<client_error> failure = {};
    std::function<void(progress const&)> const* on_progress = nullptr;
    std::chrono::steady_clock::duration timeout{};
    bool progress_resets_timeout = true;
};

struct client_state
{
    std::shared_ptr<client_transport> transport;
    asio::any_io_executor strand;
    client_options options;
    server_description server = {};
    bool connected = false;
    bool stateless = false;
    bool closed = false;           // no request may start
    bool transport_closed = false; // the transport's close() completed
    std::int64_t next_id = 0;
    std::unordered_map<std::int64_t, pending_call*> pending = {};
    std::optional<std::vector<tool_info>> tools = {};

    client_state(std::shared_ptr<client_transport> t, client_options o)
        : transport(std::move(t))
        , strand(transport->get_executor())
        , options(std::move(o))
    {
    }

    client_state(client_state const&) = delete;
    client_state& operator=(client_state const&) = delete;

    ~client_state()
    {
        if(!transport_closed)
            transport->abort();
    }

    json::object capabilities() const
    {
        json::object caps;
        if(options.on_elicitation)
            caps["elicitation"] = json::object{{"form", json::object{}}};
        return caps;
    }

    // The `_meta` of a 2026-07-28 request.
    void add_stateless_meta(json::object& params) const
    {
        auto& meta = params["_meta"];
        if(!meta.is_object())
            meta = json::object{};
        auto& m = meta.get_object();
        m["io.modelcontextprotocol/protocolVersion"] = stateless_version;
        m["io.modelcontextprotocol/clientCapabilities"] = capabilities();
        m["io.modelcontextprotocol/clientInfo"] = json::object{{"name", options.name}, {"version", options.version}};
    }

    void fail_all(client_error const& e)
    {
        for(auto& [id, p] : pending)
        {
            if(!p->reply && !p->failure)
                p->failure = e;
            p->timer.cancel();
        }
    }
};

// Takes a waiting request out of the client's map however its coroutine ends.
struct pending_registration
{
    client_state& state;
    std::int64_t id;
    ~pending_registration() { state.pending.erase(id); }
};

inline std::optional<std::int64_t> id_number(json::value const& id)
{
    if(id.is_int64())
        return id.get_int64();
    if(id.is_uint64() && id.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(id.get_uint64());
    return std::nullopt;
}

inline std::string string_field(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// Answers one request of the server.
inline asio::awaitable<void> answer_server_request(std::shared_ptr<client_state> s, json::object request)
{
    json::value const id = request.at("id");
    std::string const method(request.at("method").get_string());
    json::object reply;
    try
    {
        if(method == "ping")
            reply = jsonrpc::make_result(id, json::object{});
        else if(method == "elicitation/create" && s->options.on_elicitation)
        {
            auto const* params = request.if_contains("params");
            json::object const empty;
            auto result = co_await s->options.on_elicitation(params && params->is_object() ? params->get_object()
                                                                                           : empty);
            reply = jsonrpc::make_result(id, std::move(result));
        }
        else
            reply = jsonrpc::make_error(id, jsonrpc::method_not_found,
                "Method not found: this client does not serve '" + method + "'");
    }
    catch(std::exception const& e)
    {
        reply = jsonrpc::make_error(id, jsonrpc::internal_error, e.what());
    }
    try
    {
        send_options const plain;
        co_await s->transport->send(reply, plain);
    }
    catch(client_error const&)
    {
        // The connection is gone: nobody waits for this answer any more.
    }
}

// Calls an application's callback from a transport's reader: what it throws
// must not end the reader (every request would then wait for nothing).
template<class Function, class... Args>
void guarded(Function const& f, Args&&... args) noexcept
{
    try
    {
        f(std::forward<Args>(args)...);
    }
    catch(...)
    {
    }
}

inline void receive_message(std::shared_ptr<client_state> const& s, json::object message)
{
    auto const* method = message.if_contains("method");
    auto const* id = message.if_contains("id");
    if(method && method->is_string())
    {
        if(id)
        {
            asio::co_spawn(s->strand, answer_server_request(s, std::move(message)), asio::detached);
            return;
        }
        std::string_view const name = method->get_string();
        auto const* p = message.if_contains("params");
        json::object const empty;
        json::object const& params = p && p->is_object() ? p->get_object() : empty;
        if(name == "notifications/progress")
        {
            auto const* token = params.if_contains("progressToken");
            auto const number = token ? id_number(*token) : std::nullopt;
            auto const it = number ? s->pending.find(*number) : s->pending.end();
            if(it == s->pending.end())
                return;
            pending_call& call = *it->second;
            progress report;
            if(auto const* v = params.if_contains("progress"); v && v->is_number())
                report.value = v->to_number<double>();
            if(auto const* v = params.if_contains("total"); v && v->is_number())
                report.total = v->to_number<double>();
            report.message = string_field(params, "message");
            if(call.progress_resets_timeout)
                call.timer.expires_after(call.timeout); // wakes the waiter, which waits again
            if(call.on_progress && *call.on_progress)
                guarded(*call.on_progress, report);
        }
        else if(name == "notifications/message")
        {
            if(s->options.on_log)
                guarded(s->options.on_log, string_field(params, "level"), string_field(params, "logger"),
                    params.contains("data") ? params.at("data") : json::value(nullptr));
        }
        else if(name == "notifications/tools/list_changed")
        {
            s->tools.reset();
            if(s->options.on_tools_changed)
                guarded(s->options.on_tools_changed);
        }
        return;
    }
    // A response: to a request still waiting, or to nobody (late, or a
    // server that answers notifications); the latter are dropped.
    auto const number = id ? id_number(*id) : std::nullopt;
    if(!number)
        return;
    auto const it = s->pending.find(*number);
    if(it == s->pending.end() || it->second->reply)
        return;
    it->second->reply = std::move(message);
    it->second->timer.cancel();
}

inline client_transport::receiver make_receiver(std::weak_ptr<client_state> weak)
{
    client_transport::receiver r;
    r.on_message = [weak](json::object message) {
        if(auto s = weak.lock())
            receive_message(s, std::move(message));
    };
    r.on_request_failed = [weak](json::value const& id, client_error e) {
        auto s = weak.lock();
        auto const number = s ? id_number(id) : std::nullopt;
        if(!number)
            return;
        if(auto const it = s->pending.find(*number); it != s->pending.end() && !it->second->reply)
        {
            it->second->failure = std::move(e);
            it->second->timer.cancel();
        }
    };
    r.on_closed = [weak](client_error e) {
        if(auto s = weak.lock())
        {
            s->closed = true;
            s->fail_all(e);
        }
    };
    return r;
}

inline asio::awaitable<void> send_cancellation(std::shared_ptr<client_state> s, std::int64_t id, std::string reason)
{
    json::object params;
    params["requestId"] = id;
    params["reason"] = std::move(reason);
    if(s->stateless)
        s->add_stateless_meta(params);
    json::object const notification = jsonrpc::make_notification("notifications/cancelled", std::move(params));
    send_options so;
    so.stateless = s->stateless;
    try
    {
        co_await s->transport->send(notification, so);
    }
    catch(std::exception const&)
    {
    }
}

// A request given up (cancelled, timed out): the transport drops its answer
// stream, and the server is told, except where closing that stream is the
// cancellation (2026-07-28 over HTTP) and for `initialize`, which must not be.
inline void give_up(std::shared_ptr<client_state> const& s, std::int64_t id, std::string_view method,
    std::string reason)
{
    s->transport->abandon(json::value(id));
    if(method == "initialize" || (s->stateless && s->transport->cancels_by_closing_stream()))
        return;
    asio::co_spawn(s->strand, send_cancellation(s, id, std::move(reason)), asio::detached);
}

// Whether a tool's `x-mcp-header` annotations are valid (MCP 2026-07-28,
// SEP-2243): a client must not call a tool whose annotations it cannot honour.
inline bool param_headers_valid(json::object const& input_schema)
{
    auto const* properties = input_schema.if_contains("properties");
    if(!properties || !properties->is_object())
        return true;
    std::vector<std::string> seen;
    for(auto const& [key, schema] : properties->get_object())
    {
        auto const* o = schema.if_object();
        auto const* header = o ? o->if_contains("x-mcp-header") : nullptr;
        if(!header)
            continue;
        if(!header->is_string() || header->get_string().empty() ||
            !agentio::detail::is_http_token(header->get_string()))
            return false;
        auto const* type = o->if_contains("type");
        if(!type || !type->is_string() ||
            (type->get_string() != "string" && type->get_string() != "integer" && type->get_string() != "boolean"))
            return false;
        std::string lower = agentio::detail::ascii_lower(header->get_string());
        if(std::find(seen.begin(), seen.end(), lower) != seen.end())
            return false;
        seen.push_back(std::move(lower));
    }
    return true;
}

// A header value as MCP 2026-07-28 sends it: as is when it is visible ASCII
// without surrounding spaces, else `=?base64?...?=` of its UTF-8.
inline std::string param_header_text(std::string_view text)
{
    bool plain = text.empty() || (text.front() != ' ' && text.back() != ' ');
    for(unsigned char c : text)
        if(c < 0x20 || c > 0x7e)
            plain = false;
    std::string out;
    if(plain)
    {
        out.assign(text.data(), text.size());
        return out;
    }
    std::string const encoded = agentio::detail::base64_encode(text);
    out.reserve(encoded.size() + 11);
    out.append("=?base64?").append(encoded).append("?=");
    return out;
}

// The `Mcp-Param-<Name>` fields of a tools/call, from the tool's schema.
inline std::vector<std::pair<std::string, std::string>> param_headers(client_state const& s, std::string_view tool,
    json::value const& arguments)
{
    std::vector<std::pair<std::string, std::string>> out;
    if(!s.tools || !arguments.is_object())
        return out;
    auto const t = std::find_if(s.tools->begin(), s.tools->end(), [&](tool_info const& x) { return x.name == tool; });
    if(t == s.tools->end())
        return out;
    auto const* properties = t->input_schema.if_contains("properties");
    if(!properties || !properties->is_object())
        return out;
    for(auto const& [key, schema] : properties->get_object())
    {
        auto const* o = schema.if_object();
        auto const* header = o ? o->if_contains("x-mcp-header") : nullptr;
        auto const* value = arguments.get_object().if_contains(key);
        if(!header || !header->is_string() || !value || value->is_null())
            continue;
        std::string text;
        if(value->is_string())
            text = param_header_text(value->get_string());
        else if(value->is_bool())
            text = value->get_bool() ? "true" : "false";
        else if(value->is_number())
            text = to_json_text(*value);
        else
            continue;
        out.emplace_back("Mcp-Param-" + std::string(header->get_string()), std::move(text));
    }
    return out;
}

inline asio::awaitable<void> handshake(std::shared_ptr<client_state> s);

// Sends a request and waits for its answer on the strand; the `result`.
inline asio::awaitable<json::object> exchange(std::shared_ptr<client_state> s, std::string method, json::object params,
    call_options const& options, send_options so = {})
{
    if(s->closed)
        throw client_error(client_errc::closed, "the MCP connection is closed");
    std::int64_t const id = ++s->next_id;
    // The caller's trace context, when valid: in `_meta` (SEP-414) and, over HTTP, as a header too.
    bool const traced = !options.traceparent.empty() && trace::parse_traceparent(options.traceparent).has_value();
    if(options.on_progress || !options.meta.empty() || traced)
    {
        auto& meta = params["_meta"];
        if(!meta.is_object())
            meta = json::object{};
        for(auto const& [k, v] : options.meta)
            meta.get_object()[k] = v;
        if(options.on_progress)
            meta.get_object()["progressToken"] = id;
        if(traced)
            meta.get_object()["traceparent"] = options.traceparent;
    }
    if(traced)
        so.traceparent = options.traceparent;
    so.stateless = s->stateless;
    if(s->stateless)
        s->add_stateless_meta(params);
    pending_call call{asio::steady_timer(s->strand)};
    call.on_progress = &options.on_progress;
    call.timeout = options.timeout.value_or(s->options.request_timeout);
    call.progress_resets_timeout = options.progress_resets_timeout;
    s->pending.emplace(id, &call);
    pending_registration const guard{*s, id};

    // Cancellation is looked at where the server can be told (after the send,
    // before each wait), not thrown at whichever co_await comes next.
    co_await asio::this_coro::throw_if_cancelled(false);
    call.timer.expires_after(call.timeout);
    so.answer_within = call.timeout; // an answer that comes with the send (JSON over HTTP) is bounded too
    json::object message = jsonrpc::make_request(id, method, std::move(params));
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(call.timeout).count();
    bool expired = false;
    try
    {
        co_await s->transport->send(message, so);
    }
    catch(client_error const& e)
    {
        if(e.code() == asio::error::operation_aborted || e.code() == client_errc::timeout)
            give_up(s, id, method, e.code() == client_errc::timeout ? "Timed out" : "The caller cancelled the request");
        // An HTTP session the server forgot (404): a new handshake, then the request again, once.
        if(!s->transport->take_session_expired() || s->stateless || method == "initialize")
            throw;
        expired = true;
    }
    if(expired)
    {
        co_await handshake(s);
        co_await s->transport->send(message, so);
    }
    // The answer may have come with the send itself (a JSON body over HTTP).
    while(!call.reply && !call.failure)
    {
        auto const cs = co_await asio::this_coro::cancellation_state;
        if(cs.cancelled() != asio::cancellation_type::none)
        {
            give_up(s, id, method, "The caller cancelled the request");
            throw client_error(asio::error::operation_aborted, "'" + method + "' cancelled");
        }
        auto [ec] = co_await call.timer.async_wait(asio::as_tuple(asio::use_awaitable));
        if(call.reply || call.failure)
            break;
        if(!ec)
        {
            give_up(s, id, method, "Timed out");
            throw client_error(client_errc::timeout,
                "the MCP server did not answer '" + method + "' within " + std::to_string(ms) + " ms");
        }
        // Cancelled (seen at the top) or a progress notification moved the deadline: look again.
    }
    if(call.failure)
        throw *call.failure;
    json::object& reply = *call.reply;
    if(auto const* error = reply.if_contains("error"))
    {
        int code = 0;
        std::string text = "error";
        json::value data = nullptr;
        if(auto const* e = error->if_object())
        {
            if(auto const* c = e->if_contains("code"); c && c->is_number())
                code = c->to_number<int>();
            if(auto const* m = e->if_contains("message"); m && m->is_string())
                text = m->get_string();
            if(auto const* d = e->if_contains("data"))
                data = *d;
        }
        throw client_error(client_errc::server_error, "'" + method + "': " + text, code, std::move(data));
    }
    auto* result = reply.if_contains("result");
    if(!result || !result->is_object())
        throw client_error(client_errc::protocol_error, "the answer to '" + method + "' has no result object");
    co_return std::move(result->get_object());
}

// The answers to a 2026-07-28 `input_required` result's requests (MRTR).
inline asio::awaitable<json::object> fulfil_input_requests(std::shared_ptr<client_state> s,
    json::object const& requests)
{
    json::object responses;
    for(auto const& [key, request] : requests)
    {
        auto const* r = request.if_object();
        std::string const method = r ? string_field(*r, "method") : std::string();
        auto const* p = r ? r->if_contains("params") : nullptr;
        json::object const empty;
        json::object const& params = p && p->is_object() ? p->get_object() : empty;
        if(method == "elicitation/create" && s->options.on_elicitation)
            responses[key] = co_await s->options.on_elicitation(params);
        else
            throw client_error(client_errc::protocol_error,
                "the MCP server asks for '" + method + "', which this client did not declare");
    }
    co_return responses;
}

// A request of 2026-07-28 may be answered `input_required`: the client fulfils
// the input requests and sends the request again, with a new id, the answers
// and the server's `requestState` as it came (MRTR, SEP-2322).
inline asio::awaitable<json::object> exchange_complete(std::shared_ptr<client_state> s, std::string method,
    json::object params, call_options const& options, send_options so = {})
{
    json::object const original = params;
    for(int round = 0;; ++round)
    {
        json::object result = co_await exchange(s, method, params, options, so);
        auto const* type = result.if_contains("resultType");
        if(!type || !type->is_string() || type->get_string() != "input_required")
            co_return result; // no resultType is a complete result
        if(round == 8)
            throw client_error(client_errc::protocol_error,
                "the MCP server keeps asking for input on '" + method + "'");
        auto const* requests = result.if_contains("inputRequests");
        json::object answers;
        if(requests && requests->is_object())
            answers = co_await fulfil_input_requests(s, requests->get_object());
        params = original;
        params["inputResponses"] = std::move(answers);
        if(auto const* state = result.if_contains("requestState"))
            params["requestState"] = *state;
    }
}

inline void describe_server(server_description& d, json::object const& result)
{
    d.capabilities.clear();
    if(auto const* caps = result.if_contains("capabilities"); caps && caps->is_object())
        d.capabilities = caps->get_object();
    d.instructions = string_field(result, "instructions");
    json::object const* info = nullptr;
    if(auto const* i = result.if_contains("serverInfo"); i && i->is_object())
        info = &i->get_object();
    else if(auto const* meta = result.if_contains("_meta"); meta && meta->is_object())
        if(auto const* i2 = meta->get_object().if_contains("io.modelcontextprotocol/serverInfo"); i2 && i2->is_object())
            info = &i2->get_object();
    if(info)
    {
        d.name = string_field(*info, "name");
        d.version = string_field(*info, "version");
    }
}

inline bool lists_stateless_version(json::value const* versions)
{
    if(!versions || !versions->is_array())
        return false;
    auto const& a = versions->get_array();
    return std::any_of(a.begin(), a.end(),
        [](json::value const& v) { return v.is_string() && v.get_string() == stateless_version; });
}

// server/discover, retried once when the server names 2026-07-28 among the versions it supports.
inline asio::awaitable<bool> discover(std::shared_ptr<client_state> s, call_options const& options)
{
    s->stateless = true;
    for(int attempt = 0;; ++attempt)
    {
        try
        {
            json::object result = co_await exchange(s, "server/discover", json::object(), options);
            if(!lists_stateless_version(result.if_contains("supportedVersions")))
                break;
            describe_server(s->server, result);
            s->server.protocol_version = stateless_version;
            co_return true;
        }
        catch(client_error const& e)
        {
            auto const* supported = e.data().is_object() ? e.data().get_object().if_contains("supported") : nullptr;
            if(attempt == 0 && e.rpc_code() == jsonrpc::unsupported_protocol_version &&
                lists_stateless_version(supported))
                continue;
            if(e.code() == asio::error::operation_aborted || e.code() == client_errc::closed ||
                s->options.mode == negotiation::stateless)
            {
                s->stateless = false;
                throw;
            }
            break;
        }
    }
    s->stateless = false;
    co_return false;
}

// The `initialize` handshake (again, after an HTTP session expired).
inline asio::awaitable<void> handshake(std::shared_ptr<client_state> s)
{
    json::object params{{"protocolVersion", s->options.handshake_version}, {"capabilities", s->capabilities()},
        {"clientInfo", json::object{{"name", s->options.name}, {"version", s->options.version}}}};
    call_options const defaults;
    json::object result = co_await exchange(s, "initialize", std::move(params), defaults);
    std::string const version = string_field(result, "protocolVersion");
    if(std::find(handshake_versions.begin(), handshake_versions.end(), version) == handshake_versions.end())
    {
        co_await s->transport->close();
        s->closed = true;
        s->transport_closed = true;
        throw client_error(client_errc::unsupported_version,
            "the MCP server speaks protocol version '" + version + "', which this client does not");
    }
    describe_server(s->server, result);
    s->server.protocol_version = version;
    co_await s->transport->session_established(version);
    json::object const initialized = jsonrpc::make_notification("notifications/initialized", json::object());
    send_options const plain;
    co_await s->transport->send(initialized, plain);
}

inline asio::awaitable<server_description> connect(std::shared_ptr<client_state> s)
{
    if(s->connected)
        throw client_error(client_errc::not_connected, "the MCP client is already connected");
    co_await s->transport->start(make_receiver(s));
    bool const try_stateless = s->options.mode != negotiation::handshake && s->transport->supports_stateless();
    if(s->options.mode == negotiation::stateless && !try_stateless)
        throw client_error(client_errc::unsupported_version, "this transport cannot carry MCP 2026-07-28");
    if(try_stateless)
    {
        call_options probe;
        if(s->options.mode == negotiation::automatic)
            probe.timeout = std::min<std::chrono::steady_clock::duration>(s->options.request_timeout,
                std::chrono::seconds(10));
        if(co_await discover(s, probe))
        {
            s->connected = true;
            co_return s->server;
        }
        if(s->options.mode == negotiation::stateless)
            throw client_error(client_errc::unsupported_version, "the MCP server does not offer 2026-07-28");
    }
    co_await handshake(s);
    s->connected = true;
    co_return s->server;
}

inline void require_connected(client_state const& s)
{
    if(!s.connected)
        throw client_error(client_errc::not_connected, "connect() the MCP client first");
}

inline asio::awaitable<std::vector<tool_info>> list_tools(std::shared_ptr<client_state> s)
{
    require_connected(*s);
    if(s->tools)
        co_return *s->tools;
    std::vector<tool_info> out;
    std::optional<std::string> cursor;
    for(std::size_t page = 0; page < s->options.max_list_pages; ++page)
    {
        json::object params;
        if(cursor)
            params["cursor"] = *cursor;
        call_options const defaults;
        json::object result = co_await exchange_complete(s, "tools/list", std::move(params), defaults);
        auto const* tools = result.if_contains("tools");
        if(!tools || !tools->is_array())
            throw client_error(client_errc::protocol_error, "the tools/list result has no 'tools' array");
        for(auto const& t : tools->get_array())
        {
            auto const* o = t.if_object();
            auto const* name = o ? o->if_contains("name") : nullptr;
            if(!name || !name->is_string())
                throw client_error(client_errc::protocol_error, "a tool in tools/list has no name");
            tool_info info;
            info.name = name->get_string();
            info.title = string_field(*o, "title");
            info.description = string_field(*o, "description");
            if(auto const* schema = o->if_contains("inputSchema"); schema && schema->is_object())
                info.input_schema = schema->get_object();
            if(auto const* schema = o->if_contains("outputSchema"); schema && schema->is_object())
                info.output_schema = schema->get_object();
            if(auto const* a = o->if_contains("annotations"); a && a->is_object())
                info.annotations = a->get_object();
            info.raw = *o;
            // A 2026-07-28 tool whose header annotations are invalid cannot be
            // called correctly: it is left out, as SEP-2243 asks.
            if(s->stateless && !param_headers_valid(info.input_schema))
                continue;
            out.push_back(std::move(info));
        }
        auto const* next = result.if_contains("nextCursor");
        if(!next || !next->is_string())
        {
            s->tools = out;
            co_return out;
        }
        cursor = std::string(next->get_string());
    }
    throw client_error(client_errc::protocol_error,
        "tools/list has more than " + std::to_string(s->options.max_list_pages) + " pages");
}

inline asio::awaitable<tool_result> call_tool(std::shared_ptr<client_state> s, std::string name, json::value arguments,
    call_options options)
{
    require_connected(*s);
    send_options so;
    if(s->stateless)
    {
        if(!s->tools)
            co_await list_tools(s); // the schemas say which arguments travel in headers
        so.headers = param_headers(*s, name, arguments);
    }
    json::object params{{"name", name}, {"arguments", arguments.is_null() ? json::value(json::object{}) : arguments}};
    json::object result = co_await exchange_complete(s, "tools/call", std::move(params), options, std::move(so));
    co_return tool_result_from_json(result);
}

inline asio::awaitable<json::object> request(std::shared_ptr<client_state> s, std::string method, json::object params,
    call_options options)
{
    require_connected(*s);
    co_return co_await exchange_complete(s, std::move(method), std::move(params), options);
}

inline asio::awaitable<void> notify(std::shared_ptr<client_state> s, std::string method, json::object params)
{
    require_connected(*s);
    if(s->closed)
        throw client_error(client_errc::closed, "the MCP connection is closed");
    json::object const notification = jsonrpc::make_notification(method, std::move(params));
    send_options const plain;
    co_await s->transport->send(notification, plain);
}

inline asio::awaitable<void> ping(std::shared_ptr<client_state> s, call_options options)
{
    require_connected(*s);
    // 2026-07-28 has no ping: discovery is the cheapest request that must be answered.
    (void)co_await exchange(s, s->stateless ? "server/discover" : "ping", json::object(), options);
}

inline asio::awaitable<void> close(std::shared_ptr<client_state> s)
{
    if(s->closed && !s->connected)
        co_return;
    s->fail_all(client_error(client_errc::closed, "the MCP client was closed"));
    s->closed = true;
    co_await s->transport->close();
    s->transport_closed = true;
}

// A bridged tool's call: the client's failures become error results the model reads. The
// caller's trace context (its tool_context's) goes with the request.
inline asio::awaitable<tool_result> bridged_call(client c, std::string name, json::value arguments,
    call_options options, std::string traceparent)
{
    if(!traceparent.empty())
        options.traceparent = traceparent; // a view of this frame's copy, alive until the call ends
    std::string failure;
    try
    {
        co_return co_await c.call_tool(name, arguments, options);
    }
    catch(client_error const& e)
    {
        if(e.code() == asio::error::operation_aborted)
            throw;
        failure = e.what();
    }
    co_return tool_result::error("The MCP tool '" + name + "' could not be called: " + failure);
}

inline dynamic_tools::handler_type make_bridge_handler(client c, std::string name, call_options options)
{
    return [c = std::move(c), name = std::move(name), options = std::move(options)](json::value const& arguments,
               tool_context& ctx) { return bridged_call(c, name, arguments, options, std::string(ctx.traceparent)); };
}

} // namespace detail

AGENTIO_DECL tool_result tool_result_from_json(json::object const& result)
{
    tool_result r;
    if(auto const* content = result.if_contains("content"); content && content->is_array())
        for(auto const& block : content->get_array())
        {
            auto const* b = block.if_object();
            if(!b)
                continue;
            std::string const type = detail::string_field(*b, "type");
            if(type == "text")
                r.content.emplace_back(text_content{detail::string_field(*b, "text")});
            else if(type == "image")
                r.content.emplace_back(image_content{detail::string_field(*b, "mimeType"),
                    detail::string_field(*b, "data")});
            else if(type == "audio")
                r.content.emplace_back(audio_content{detail::string_field(*b, "mimeType"),
                    detail::string_field(*b, "data")});
            else if(type == "resource")
            {
                auto const* res = b->if_contains("resource");
                if(!res || !res->is_object())
                    continue;
                auto const& o = res->get_object();
                resource_content rc{detail::string_field(o, "uri"), detail::string_field(o, "mimeType")};
                if(auto const* t = o.if_contains("text"); t && t->is_string())
                    rc.text = std::string(t->get_string());
                if(auto const* t = o.if_contains("blob"); t && t->is_string())
                    rc.blob = std::string(t->get_string());
                r.content.emplace_back(std::move(rc));
            }
            else if(type == "resource_link")
            {
                // A link, not content: the model gets its name and address.
                std::string text = "resource_link " + detail::string_field(*b, "uri");
                if(auto name = detail::string_field(*b, "name"); !name.empty())
                    text += " (" + name + ")";
                if(auto description = detail::string_field(*b, "description"); !description.empty())
                    text += ": " + description;
                r.content.emplace_back(text_content{std::move(text)});
            }
        }
    if(auto const* structured = result.if_contains("structuredContent"))
        r.structured = *structured;
    if(r.content.empty() && r.structured)
        r.content.emplace_back(text_content{to_json_text(*r.structured)});
    if(auto const* is_error = result.if_contains("isError"); is_error && is_error->is_bool())
        r.is_error = is_error->get_bool();
    return r;
}

AGENTIO_DECL client::client(std::shared_ptr<client_transport> transport, client_options options)
    : state_(std::make_shared<detail::client_state>(std::move(transport), std::move(options)))
{
}

AGENTIO_DECL asio::awaitable<server_description> client::connect()
{
    co_return co_await asio::co_spawn(state_->strand, detail::connect(state_), asio::use_awaitable);
}

AGENTIO_DECL server_description const& client::server() const
{
    detail::require_connected(*state_);
    return state_->server;
}

AGENTIO_DECL asio::awaitable<std::vector<tool_info>> client::list_tools()
{
    co_return co_await asio::co_spawn(state_->strand, detail::list_tools(state_), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<tool_result> client::call_tool(std::string name, json::value arguments,
    call_options options)
{
    co_return co_await asio::co_spawn(state_->strand,
        detail::call_tool(state_, std::move(name), std::move(arguments), std::move(options)), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<void> client::ping(call_options options)
{
    co_await asio::co_spawn(state_->strand, detail::ping(state_, std::move(options)), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<json::object> client::request(std::string method, json::object params,
    call_options options)
{
    co_return co_await asio::co_spawn(state_->strand,
        detail::request(state_, std::move(method), std::move(params), std::move(options)), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<void> client::notify(std::string method, json::object params)
{
    co_await asio::co_spawn(state_->strand, detail::notify(state_, std::move(method), std::move(params)),
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<void> client::close()
{
    co_await asio::co_spawn(state_->strand, detail::close(state_), asio::use_awaitable);
}

AGENTIO_DECL asio::any_io_executor client::get_executor() const
{
    return state_->strand;
}

namespace detail {

// An annotation that is `true` (a hint absent or of another type is false, as the specification's defaults are).
AGENTIO_DECL bool hint_is_true(json::object const& annotations, std::string_view name)
{
    auto const* v = annotations.if_contains(name);
    return v && *v == json::value(true);
}

} // namespace detail

AGENTIO_DECL asio::awaitable<std::vector<std::string>> add_tools(client c, dynamic_tools& tools, bridge_options options)
{
    std::vector<std::string> added;
    for(auto& t : co_await c.list_tools())
    {
        if(!options.only.empty() && std::find(options.only.begin(), options.only.end(), t.name) == options.only.end())
            continue;
        dynamic_tools::definition def;
        def.name = options.prefix + t.name;
        def.description = !t.description.empty() ? t.description : !t.title.empty() ? t.title : t.name;
        def.input_schema = std::move(t.input_schema);
        if(def.input_schema.empty())
            def.input_schema = json::object{{"type", "object"}};
        def.handler = detail::make_bridge_handler(c, t.name, options.call);
        def.idempotent = options.trust_annotations &&
            (detail::hint_is_true(t.annotations, "readOnlyHint") ||
                detail::hint_is_true(t.annotations, "idempotentHint"));
        if(tools.add(std::move(def)))
            added.push_back(options.prefix + t.name);
    }
    co_return added;
}

} // namespace agentio::mcp

#endif
