//
// agentio/mcp/impl/http.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The body of mcp::streamable_http: the checks of a request (Host, Origin,
// Accept, the 2026-07-28 Mcp-* headers against the body), a call answered as
// JSON or as an SSE stream, and the stateless revision.
//

#ifndef AGENTIO_MCP_IMPL_HTTP_HPP
#define AGENTIO_MCP_IMPL_HTTP_HPP

namespace agentio::mcp {

namespace detail {

// A header value as 2026-07-28 allows it: plain (without the optional
// whitespace around it), or `=?base64?<RFC 4648 §4, padded>?=`. Nothing for a
// Base64 form that is not canonical: wrong length, missing or misplaced `=`,
// characters outside the alphabet, or bits left over.
inline std::optional<std::string> header_value(std::string_view v)
{
    while(!v.empty() && (v.front() == ' ' || v.front() == '\t'))
        v.remove_prefix(1);
    while(!v.empty() && (v.back() == ' ' || v.back() == '\t'))
        v.remove_suffix(1);
    constexpr std::string_view open = "=?base64?", close = "?=";
    if(!v.starts_with(open) || !v.ends_with(close) || v.size() < open.size() + close.size())
        return std::string(v);
    return agentio::detail::base64_decode(v.substr(open.size(), v.size() - open.size() - close.size()));
}

// A 2026-07-28 request's headers as the transport read them: `MCP-Protocol-Version`,
// `Mcp-Method`, `Mcp-Name` (Base64 `=?base64?...?=` forms decoded), and the
// `Mcp-Param-<Name>` fields by `<Name>` in lower case (an empty optional for a
// value whose Base64 form is invalid). The body must agree with all of them.
struct request_headers
{
    std::optional<std::string> protocol_version;
    std::optional<std::string> method;
    std::optional<std::string> name;
    std::map<std::string, std::optional<std::string>, std::less<>> params = {};
};

// Whether an Mcp-Param header's text stands for a JSON argument: strings as
// they are, booleans as true/false, numbers by value (1.0 and 1 agree).
inline bool header_matches(std::string_view text, json::value const& v)
{
    if(v.is_string())
        return text == v.get_string();
    if(v.is_bool())
        return text == (v.get_bool() ? "true" : "false");
    if(v.is_number())
    {
        double d = 0;
        auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
        return ec == std::errc() && end == text.data() + text.size() && d == v.to_number<double>();
    }
    return false;
}

// The Mcp-Param headers of a tools/call against its arguments (SEP-2243): the
// mismatch to report, or nothing. Arguments come from the tool's input schema
// (`x-mcp-header` on a top-level property), so runtime tools take part too.
template<class Tools, class Headers>
std::optional<std::string> param_header_mismatch(Tools const& tools, std::string_view tool, json::object const& params,
    Headers const& headers)
{
    auto const descriptors = tools.descriptors();
    auto const d = std::find_if(descriptors.begin(), descriptors.end(), [&](auto const& x) { return x.name == tool; });
    if(d == descriptors.end() || !d->input_schema)
        return std::nullopt; // an unknown tool: the call itself answers
    auto const* properties = d->input_schema->if_contains("properties");
    if(!properties || !properties->is_object())
        return std::nullopt;
    auto const* args = params.if_contains("arguments");
    json::object const* arguments = args && args->is_object() ? &args->get_object() : nullptr;
    for(auto const& [key, schema] : properties->get_object())
    {
        auto const* mirrored = schema.is_object() ? schema.get_object().if_contains("x-mcp-header") : nullptr;
        if(!mirrored || !mirrored->is_string())
            continue;
        std::string_view const suffix = mirrored->get_string();
        std::string const lower = agentio::detail::ascii_lower(suffix);
        std::string const field = "Mcp-Param-" + std::string(suffix);
        std::string const argument = "params.arguments." + std::string(key);
        auto const* value = arguments ? arguments->if_contains(key) : nullptr;
        auto const sent = headers.params.find(lower);
        if(!value || value->is_null())
        {
            if(sent != headers.params.end())
                return "Header mismatch: " + field + " is sent but " + argument + " is not";
            continue;
        }
        if(sent == headers.params.end())
            return "Header mismatch: " + field + " is required: " + argument + " is in the body";
        if(!sent->second)
            return "Header mismatch: " + field + " is not valid Base64 (=?base64?...?=)";
        if(!header_matches(*sent->second, *value))
            return "Header mismatch: " + field + " must carry " + argument;
    }
    return std::nullopt;
}

// The version header against `_meta` (checked before the version itself, so a
// disagreement is named as such); nothing when `_meta` has no version to compare.
inline std::optional<json::object> version_header_mismatch(json::object const& request, request_headers const& headers)
{
    auto const* meta = params_of(request).if_contains("_meta");
    auto const* version = meta && meta->is_object() ? meta->get_object().if_contains(meta_protocol_version) : nullptr;
    if(!version || !version->is_string() || !headers.protocol_version ||
        *headers.protocol_version == version->get_string())
        return std::nullopt;
    return jsonrpc::make_error(request.contains("id") ? request.at("id") : json::value(nullptr),
        jsonrpc::header_mismatch,
        "Header mismatch: MCP-Protocol-Version is '" + *headers.protocol_version + "' but _meta says '" +
            std::string(version->get_string()) + "'");
}

// `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-<Name>` headers against the body: -32020 when they disagree.
template<class Tools>
std::optional<json::object> headers_mismatch(Tools const& tools, json::object const& request,
    request_headers const& headers)
{
    json::value const id = request.contains("id") ? request.at("id") : json::value(nullptr);
    std::string_view const method = request.at("method").get_string();
    auto const& params = params_of(request);
    if(!headers.method || *headers.method != method)
        return jsonrpc::make_error(id, jsonrpc::header_mismatch,
            "Header mismatch: Mcp-Method must be '" + std::string(method) + "'");
    std::string_view const named_by = method == "resources/read" ? "uri" : "name";
    if(method == "tools/call" || method == "prompts/get" || method == "resources/read")
        if(auto const* name = params.if_contains(named_by);
            name && name->is_string() && (!headers.name || *headers.name != name->get_string()))
            return jsonrpc::make_error(id, jsonrpc::header_mismatch,
                "Header mismatch: Mcp-Name must be '" + std::string(name->get_string()) + "'");
    if(method == "tools/call")
        if(auto const* name = params.if_contains("name"); name && name->is_string())
            if(auto mismatch = param_header_mismatch(tools, name->get_string(), params, headers))
                return jsonrpc::make_error(id, jsonrpc::header_mismatch, *mismatch);
    return std::nullopt;
}

// The HTTP status of a 2026-07-28 error: 404 for a method that is not there,
// 400 for a request the server cannot serve as sent, 200 for the method's own errors.
inline beast::http::status stateless_error_status(json::object const& reply, bool before_dispatch)
{
    auto const* error = reply.if_contains("error");
    if(!error)
        return beast::http::status::ok;
    auto const code = error->at("code").to_number<std::int64_t>();
    if(code == jsonrpc::method_not_found)
        return beast::http::status::not_found;
    if(before_dispatch || code == jsonrpc::missing_client_capability)
        return beast::http::status::bad_request;
    return beast::http::status::ok;
}

inline http::response mcp_http_error(beast::http::status status, int code, std::string_view message,
    http::request const& req)
{
    http::response res{status, req.version()};
    res.set(beast::http::field::content_type, "application/json");
    res.keep_alive(req.keep_alive());
    res.body() = to_json_text(jsonrpc::make_error(nullptr, code, message));
    res.prepare_payload();
    return res;
}

// Why a request is refused against DNS rebinding ("" when it is not): it must
// have exactly one Host field, a well-formed `host[:port]` whose host is one
// of `hosts` (any port, any case); an Origin, when present, must come once and
// be one of `origins` or exactly `http(s)://<one of hosts>[:port]`. An empty
// `hosts` accepts everything.
inline std::string_view refused_host_or_origin(http::request const& req, std::vector<std::string> const& hosts,
    std::vector<std::string> const& origins)
{
    if(hosts.empty())
        return {};
    auto const listed_host = [&](std::optional<std::string_view> host) {
        return host &&
            std::any_of(hosts.begin(), hosts.end(), [&](std::string const& h) { return beast::iequals(h, *host); });
    };
    // Several Host lines are refused whole: servers and proxies disagree on which one counts.
    if(req.count(beast::http::field::host) != 1 || !listed_host(authority_host(req[beast::http::field::host])))
        return "Forbidden: invalid Host header";
    auto const origin_fields = req.count(beast::http::field::origin);
    if(origin_fields == 0)
        return {};
    auto const origin = req[beast::http::field::origin];
    if(origin_fields == 1 &&
        (std::find(origins.begin(), origins.end(), origin) != origins.end() || listed_host(origin_host(origin))))
        return {};
    return "Forbidden: invalid Origin header";
}

// A call answered from the background: its notifications and requests, then
// its reply; the queue closes when the call ends.
struct call_outbox
{
    async_queue<json::object> messages;
    std::atomic<bool> replied{false};
    asio::cancellation_signal cancel; // emitted when the client leaves the stream

    explicit call_outbox(asio::any_io_executor ex) : messages(std::move(ex)) {}

    static session::send_function channel(std::shared_ptr<call_outbox> const& box)
    {
        return [box](json::object m) { box->messages.try_push(std::move(m)); };
    }

    void finish(std::optional<json::object> reply)
    {
        if(reply)
        {
            replied = true;
            messages.try_push(std::move(*reply));
        }
        messages.close();
    }
};

// Answers a call running in the background (bound to box->cancel): with plain
// JSON, which keeps the connection, when its reply comes alone within
// `window`; otherwise with an SSE stream of its messages, reply last, whose
// closing cancels the call (the writer watches the socket, so the connection
// ends with the stream).
template<class Stream>
asio::awaitable<std::optional<beast::http::message_generator>> answer_call(http::request const& req, Stream& stream,
    std::shared_ptr<call_outbox> box, std::chrono::steady_clock::duration window, beast::http::fields const& extra,
    beast::http::status (*status_of)(json::object const&))
{
    namespace bhttp = beast::http;
    auto first = co_await box->messages.pop_for(window); // ends early on a message
    bool const reply_alone = first && box->replied && box->messages.closed() && box->messages.queued() == 0;
    if(reply_alone)
    {
        http::response res{status_of(*first), req.version()};
        for(auto const& f : extra)
            res.set(f.name_string(), f.value());
        res.set(bhttp::field::content_type, "application/json");
        res.keep_alive(req.keep_alive());
        res.body() = to_json_text(*first);
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }

    sse::basic_writer<Stream> writer(stream);
    for(auto const& f : extra)
        writer.headers().set(f.name_string(), f.value());
    writer.headers().set(bhttp::field::cache_control, "no-cache, no-transform");
    writer.headers().set("X-Accel-Buffering", "no");
    if(auto start_ec = co_await writer.start(req.version()))
    {
        box->cancel.emit(asio::cancellation_type::terminal);
        co_await writer.finish();
        co_return std::nullopt;
    }
    writer.disconnect_slot().assign([box](asio::cancellation_type t) {
        box->cancel.emit(t);
        box->messages.close();
    });
    // The first message, if the window saw one, then the rest until the call ends or the client leaves.
    while(!writer.client_gone())
    {
        if(!first && !(first = co_await box->messages.pop()))
            break;
        co_await writer.send("message", to_json_text(*first));
        first.reset();
    }
    writer.disconnect_slot().clear();
    co_await writer.finish();
    co_return std::nullopt;
}

// The request's `traceparent` header, as it came (the server core parses it); empty when none.
inline std::string traceparent_of(http::request const& req)
{
    auto const it = req.find("traceparent");
    return it == req.end() ? std::string() : std::string(it->value().data(), it->value().size());
}

// Whether the request's Accept lines (one list, RFC 9110 §5.3) allow `type`.
inline bool accepts(http::request const& req, std::string_view type)
{
    std::string accept;
    for(auto [it, end] = req.equal_range(beast::http::field::accept); it != end; ++it)
        accept.append(accept.empty() ? "" : ", ").append(it->value());
    return http::accepts_media_type(accept, type);
}

} // namespace detail

template<tool_catalog Tools>
template<class Stream>
asio::awaitable<std::optional<beast::http::message_generator>> streamable_http<Tools>::operator()(http::request&& req,
    Stream& stream) const
{
    namespace bhttp = beast::http;
    using bhttp::status;
    auto fail = [&](status st, int code, std::string_view message) {
        return std::optional<bhttp::message_generator>(detail::mcp_http_error(st, code, message, req));
    };
    auto const& opt = state_->options;
    auto const target = req.target();
    if(target.substr(0, target.find('?')) != opt.path)
        co_return fail(status::not_found, jsonrpc::invalid_request, "Not Found");

    // DNS rebinding: a page on another site must not reach a local server through the browser.
    if(auto const refused = detail::refused_host_or_origin(req, opt.allowed_hosts, opt.allowed_origins);
        !refused.empty())
        co_return fail(status::forbidden, -32000, refused);

    // 2026-07-28 requests carry no session: a version header naming it, or a
    // body whose _meta names a version the handshake revisions do not use.
    auto const version_header = req["MCP-Protocol-Version"];
    if(req["Mcp-Session-Id"].empty() && req.method() != bhttp::verb::post &&
        version_header == stateless_protocol_version)
    {
        auto res = detail::mcp_http_error(status::method_not_allowed, jsonrpc::method_not_found,
            "Method Not Allowed: " + std::string(stateless_protocol_version) + " uses POST only", req);
        res.set(bhttp::field::allow, "POST");
        co_return bhttp::message_generator(std::move(res));
    }
    if(req["Mcp-Session-Id"].empty() && req.method() == bhttp::verb::post)
    {
        boost::system::error_code parse_ec;
        json::value body = json::parse(req.body(), parse_ec);
        std::string why;
        if(!parse_ec && jsonrpc::classify(body, why) == jsonrpc::kind::request &&
            (version_header == stateless_protocol_version ||
                (detail::is_stateless_request(body.get_object()) && !is_supported_protocol_version(version_header))))
            co_return co_await serve_stateless(req, stream, std::move(body.get_object()));
    }

    if(!version_header.empty() && !is_supported_protocol_version(version_header))
    {
        std::string supported;
        for(auto v : supported_protocol_versions)
            supported += (supported.empty() ? "" : ", ") + std::string(v);
        co_return fail(status::bad_request, -32000,
            "Bad Request: Unsupported protocol version: " + std::string(version_header) +
                " (supported versions: " + supported + ")");
    }

    if(req.method() == bhttp::verb::delete_)
    {
        if(req["Mcp-Session-Id"].empty())
            co_return fail(status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required");
        std::shared_ptr<session_entry> ended;
        {
            std::lock_guard lock(state_->mutex);
            if(auto it = state_->sessions.find(req["Mcp-Session-Id"]); it != state_->sessions.end())
            {
                ended = std::move(it->second);
                state_->sessions.erase(it);
            }
        }
        if(!ended)
            co_return fail(status::not_found, -32001, "Session not found");
        ended->session.cancel_all(); // the client is done: its running calls too
        http::response res{status::ok, req.version()};
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }
    if(req.method() != bhttp::verb::post)
    {
        // No standalone stream: the spec lets a server answer GET with 405.
        auto res = detail::mcp_http_error(status::method_not_allowed, -32000, "Method Not Allowed", req);
        res.set(bhttp::field::allow, "POST, DELETE");
        co_return bhttp::message_generator(std::move(res));
    }

    if(req[bhttp::field::content_type].find("application/json") == std::string_view::npos)
        co_return fail(status::unsupported_media_type, -32000,
            "Unsupported Media Type: Content-Type must be application/json");
    if(!detail::accepts(req, "application/json") || !detail::accepts(req, "text/event-stream"))
        co_return fail(status::not_acceptable, -32000,
            "Not Acceptable: Client must accept both application/json and text/event-stream");
    boost::system::error_code ec;
    json::value message = json::parse(req.body(), ec);
    if(ec)
        co_return fail(status::bad_request, jsonrpc::parse_error, "Parse error: " + ec.message());
    std::string why;
    auto const what = jsonrpc::classify(message, why);
    bool const is_initialize = what == jsonrpc::kind::request && message.at("method") == "initialize";

    std::shared_ptr<session_entry> entry;
    std::string session_id;
    std::optional<use_guard> in_use; // the session stays in use until this request is answered
    if(is_initialize && req["Mcp-Session-Id"].empty())
    {
        // The session is reserved now, under its caps, and dropped unless initialize succeeds.
        entry = std::make_shared<session_entry>();
        entry->address = detail::client_address(stream);
        session_id = detail::new_session_id();
        std::chrono::steady_clock::duration retry_after{};
        bool reserved = false;
        {
            std::lock_guard lock(state_->mutex);
            reserved = state_->make_room(entry->address, retry_after);
            if(reserved)
            {
                entry->in_flight = 1;
                state_->sessions.emplace(session_id, entry);
            }
        }
        if(!reserved)
        {
            auto const seconds = std::max<std::chrono::seconds::rep>(1,
                std::chrono::ceil<std::chrono::seconds>(retry_after).count());
            http::response res{status::service_unavailable, req.version()};
            res.set(bhttp::field::content_type, "application/json");
            res.set(bhttp::field::retry_after, std::to_string(seconds));
            res.keep_alive(req.keep_alive());
            res.body() = to_json_text(jsonrpc::make_error(message.at("id"), -32000,
                "Service Unavailable: too many sessions, none idle long enough to end"));
            res.prepare_payload();
            co_return bhttp::message_generator(std::move(res));
        }
        in_use.emplace(state_, entry, session_id);
    }
    else
    {
        if(req["Mcp-Session-Id"].empty())
            co_return fail(status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required");
        {
            std::lock_guard lock(state_->mutex);
            if(auto it = state_->sessions.find(req["Mcp-Session-Id"]); it != state_->sessions.end())
            {
                entry = it->second;
                ++entry->in_flight;
            }
        }
        if(!entry)
            co_return fail(status::not_found, -32001, "Session not found");
        in_use.emplace(state_, entry);
        session_id = std::string(req["Mcp-Session-Id"]);
    }

    auto reply_json = [&](std::optional<json::object> const& body) {
        if(!body)
        {
            http::response accepted{status::accepted, req.version()};
            accepted.keep_alive(req.keep_alive());
            accepted.prepare_payload();
            return std::optional<bhttp::message_generator>(std::move(accepted));
        }
        http::response res{status::ok, req.version()};
        res.set(bhttp::field::content_type, "application/json");
        res.set("Mcp-Session-Id", session_id);
        res.keep_alive(req.keep_alive());
        res.body() = to_json_text(*body);
        res.prepare_payload();
        return std::optional<bhttp::message_generator>(std::move(res));
    };

    if(what != jsonrpc::kind::request)
    {
        // Notifications and the client's answers: accepted, nothing to say (errors included, for invalid ones).
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        if(reply && what == jsonrpc::kind::invalid)
            co_return reply_json(reply);
        http::response res{status::accepted, req.version()};
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }

    if(is_initialize && req["Mcp-Session-Id"].empty())
    {
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        if(reply && reply->contains("result"))
            in_use->keep();
        co_return reply_json(reply);
    }

    if(message.at("method") != "tools/call")
    {
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        co_return reply_json(reply);
    }

    // tools/call: plain JSON when the result comes alone and soon, else an SSE
    // stream carrying the call's progress, logs and requests before its result.
    // The request's traceparent header goes with it (its `_meta` one wins).
    auto const ex = co_await asio::this_coro::executor;
    auto box = std::make_shared<detail::call_outbox>(ex);
    auto run = [](server<Tools> const* srv, std::shared_ptr<session_entry> e, json::value m,
                   std::shared_ptr<detail::call_outbox> b, std::string traceparent) -> asio::awaitable<void> {
        auto reply = co_await srv->handle(e->session, std::move(m), detail::call_outbox::channel(b), traceparent);
        b->finish(std::move(reply));
    };
    // The call holds the outbox: it may finish after this handler, once cancelled.
    auto call = run(state_->srv, entry, std::move(message), box, detail::traceparent_of(req));
    asio::co_spawn(ex, std::move(call), asio::bind_cancellation_slot(box->cancel.slot(), asio::detached));
    bhttp::fields extra;
    extra.set("Mcp-Session-Id", session_id);
    co_return co_await detail::answer_call(req, stream, box, opt.json_reply_window, extra,
        [](json::object const&) { return status::ok; });
}

template<tool_catalog Tools>
template<class Stream>
asio::awaitable<std::optional<beast::http::message_generator>>
streamable_http<Tools>::serve_stateless(http::request const& req, Stream& stream, json::object message) const
{
    namespace bhttp = beast::http;
    using bhttp::status;
    auto json_reply = [&](status st, json::object const& body) {
        http::response res{st, req.version()};
        res.set(bhttp::field::content_type, "application/json");
        res.keep_alive(req.keep_alive());
        res.body() = to_json_text(body);
        res.prepare_payload();
        return std::optional<bhttp::message_generator>(std::move(res));
    };
    if(req[bhttp::field::content_type].find("application/json") == std::string_view::npos)
        co_return json_reply(status::unsupported_media_type,
            jsonrpc::make_error(nullptr, -32600, "Unsupported Media Type: Content-Type must be application/json"));
    if(!detail::accepts(req, "application/json") || !detail::accepts(req, "text/event-stream"))
        co_return json_reply(status::not_acceptable,
            jsonrpc::make_error(nullptr, -32600,
                "Not Acceptable: Client must accept both application/json and text/event-stream"));

    detail::request_headers headers;
    auto header = [&](std::string_view name) -> std::optional<std::string> {
        auto const it = req.find(name);
        if(it == req.end())
            return std::nullopt;
        return detail::header_value(it->value()).value_or(std::string("\x01invalid")); // never equals a name
    };
    headers.protocol_version = header("MCP-Protocol-Version");
    headers.method = header("Mcp-Method");
    headers.name = header("Mcp-Name");
    // Only the Mcp-Param-<Name> fields are copied; <Name> kept in lower case (field names ignore case).
    constexpr std::string_view param_prefix = "mcp-param-";
    for(auto const& field : req)
    {
        std::string_view const name = field.name_string();
        if(name.size() <= param_prefix.size() || !beast::iequals(name.substr(0, param_prefix.size()), param_prefix))
            continue;
        headers.params.insert_or_assign(agentio::detail::ascii_lower(name.substr(param_prefix.size())),
            detail::header_value(field.value()));
    }
    auto error = detail::version_header_mismatch(message, headers);
    if(!error)
        error = state_->srv->check_stateless(message);
    if(!error)
        error = detail::headers_mismatch(state_->srv->tools(), message, headers);
    if(error)
        co_return json_reply(detail::stateless_error_status(*error, true), *error);

    // Nothing outlives the request: its session only carries its cancellation.
    auto request_session = std::make_shared<mcp::session>([](json::object) {});
    if(message.at("method") != "tools/call")
    {
        auto reply = co_await state_->srv->handle_stateless(*request_session, std::move(message));
        co_return json_reply(detail::stateless_error_status(*reply, false), *reply);
    }
    auto const ex = co_await asio::this_coro::executor;
    auto box = std::make_shared<detail::call_outbox>(ex);
    auto run = [](server<Tools> const* srv, std::shared_ptr<mcp::session> s, json::object m,
                   std::shared_ptr<detail::call_outbox> b, std::string traceparent) -> asio::awaitable<void> {
        auto reply = co_await srv->handle_stateless(*s, std::move(m), detail::call_outbox::channel(b), traceparent);
        b->finish(std::move(reply));
    };
    auto call = run(state_->srv, request_session, std::move(message), box, detail::traceparent_of(req));
    asio::co_spawn(ex, std::move(call), asio::bind_cancellation_slot(box->cancel.slot(), asio::detached));
    co_return co_await detail::answer_call(req, stream, box, state_->options.json_reply_window, {},
        [](json::object const& reply) { return detail::stateless_error_status(reply, false); });
}

} // namespace agentio::mcp

#endif
