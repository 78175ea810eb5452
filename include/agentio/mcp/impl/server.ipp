// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

//
// agentio/mcp/impl/server.ipp
//

#ifndef AGENTIO_MCP_IMPL_SERVER_IPP
#define AGENTIO_MCP_IMPL_SERVER_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <charconv>
#include <exception>
#include <stdexcept>

namespace agentio::mcp {

inline constexpr std::array<std::string_view, 8> log_level_names{"debug", "info", "notice", "warning", "error",
    "critical", "alert", "emergency"};

AGENTIO_DECL std::optional<log_level> parse_log_level(std::string_view name) noexcept
{
    for(std::size_t i = 0; i < log_level_names.size(); ++i)
        if(log_level_names[i] == name)
            return static_cast<log_level>(i);
    return std::nullopt;
}

AGENTIO_DECL std::string_view to_string(log_level level) noexcept
{
    return log_level_names[static_cast<std::size_t>(level)];
}

AGENTIO_DECL void session::log(log_level level, json::value data, std::string_view logger)
{
    int const threshold = level_.load();
    if(threshold < 0 || static_cast<int>(level) < threshold)
        return;
    json::object params{{"level", to_string(level)}, {"data", std::move(data)}};
    if(!logger.empty())
        params["logger"] = logger;
    notify("notifications/message", std::move(params));
}

AGENTIO_DECL void session::notify(std::string_view method, json::object params)
{
    send_(jsonrpc::make_notification(method, std::move(params)));
}

AGENTIO_DECL void session::cancel_all()
{
    std::vector<std::shared_ptr<in_flight_request>> requests;
    {
        std::lock_guard lock(mutex_);
        for(auto const& [id, request] : in_flight_)
            requests.push_back(request);
    }
    for(auto& request : requests)
    {
        request->cancelled = true;
        asio::dispatch(request->executor, [request] { request->signal.emit(asio::cancellation_type::terminal); });
    }
}

AGENTIO_DECL std::vector<std::string> session::subscriptions() const
{
    std::lock_guard lock(mutex_);
    return subscriptions_;
}

AGENTIO_DECL asio::awaitable<client_reply> session::request(std::string_view method, json::object params,
    send_function channel, std::chrono::steady_clock::duration timeout)
{
    auto pending = std::make_shared<pending_request>(co_await asio::this_coro::executor);
    json::value id;
    std::string key;
    {
        std::lock_guard lock(mutex_);
        id = json::string("agentio-" + std::to_string(++next_request_id_));
        key = to_json_text(id);
        pending_[key] = pending;
    }
    auto message = jsonrpc::make_request(id, method, std::move(params));
    if(channel)
        channel(std::move(message));
    else
        send_(std::move(message));
    auto reply = co_await pending->answer.pop_for(timeout);
    {
        std::lock_guard lock(mutex_);
        pending_.erase(key);
    }
    if(reply)
        co_return std::move(*reply);
    co_return client_reply{nullptr,
        json::object{{"code", -32001}, {"message", "Request timed out: no answer to " + std::string(method)}}};
}

AGENTIO_DECL void session::resolve(json::object const& response)
{
    std::shared_ptr<pending_request> pending;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(to_json_text(response.at("id")));
        if(it == pending_.end())
            return; // late or unknown: nobody waits for it
        pending = it->second;
    }
    client_reply reply;
    if(auto const* e = response.if_contains("error"))
        reply.error = e->is_null() ? json::value(json::object{{"code", jsonrpc::internal_error}}) : *e;
    else
        reply.result = response.at("result");
    pending->answer.try_push(std::move(reply)); // a repeated answer finds it full
}

namespace detail {

AGENTIO_DECL json::object const& empty_object()
{
    static json::object const empty;
    return empty;
}

AGENTIO_DECL json::object const& params_of(json::object const& message)
{
    auto const* p = message.if_contains("params");
    return p && p->is_object() ? p->get_object() : empty_object();
}

// Clears a cancellation slot when it goes (if the slot has a signal).
struct slot_clearer
{
    asio::cancellation_slot slot;
    ~slot_clearer()
    {
        if(slot.is_connected())
            slot.clear();
    }
};

// Registers a request for notifications/cancelled and forgets it at scope exit.
template<class Map>
class in_flight_entry
{
public:
    in_flight_entry(std::mutex& m, Map& map, std::string key, asio::any_io_executor ex)
        : mutex_(m)
        , map_(map)
        , key_(std::move(key))
        , request_(std::make_shared<typename Map::mapped_type::element_type>())
    {
        request_->executor = std::move(ex);
        std::lock_guard lock(mutex_);
        map_[key_] = request_;
    }
    ~in_flight_entry()
    {
        std::lock_guard lock(mutex_);
        if(auto it = map_.find(key_); it != map_.end() && it->second == request_)
            map_.erase(it);
    }
    in_flight_entry(in_flight_entry const&) = delete;
    in_flight_entry& operator=(in_flight_entry const&) = delete;

    asio::cancellation_slot slot() { return request_->signal.slot(); }
    bool cancelled() const noexcept { return request_->cancelled.load(); }

    /// Forwards the cancellation of `caller` (its coroutine's) to the request, until the guard goes.
    slot_clearer forward_from(asio::cancellation_state caller)
    {
        auto slot = caller.slot();
        if(slot.is_connected()) // a caller that cannot be cancelled has no slot
            slot.assign([request = request_](asio::cancellation_type t) {
                request->cancelled = true;
                request->signal.emit(t);
            });
        return slot_clearer{slot};
    }

private:
    std::mutex& mutex_;
    Map& map_;
    std::string key_;
    typename Map::mapped_type request_;
};

// A 2026-07-28 request: `server/discover`, or one that names its version in
// `_meta` (`initialize` stays the handshake's, as the revision says for stdio).
AGENTIO_DECL bool is_stateless_request(json::object const& request)
{
    std::string_view const method = request.at("method").get_string();
    if(method == "server/discover")
        return true;
    if(method == "initialize")
        return false;
    auto const* meta = params_of(request).if_contains("_meta");
    return meta && meta->is_object() && meta->get_object().contains(meta_protocol_version);
}

AGENTIO_DECL json::object server_info(implementation const& info)
{
    json::object o{{"name", info.name}, {"version", info.version}};
    if(!info.title.empty())
        o["title"] = info.title;
    return o;
}

// The client capability a server-to-client request needs.
AGENTIO_DECL std::string_view capability_for(std::string_view method) noexcept
{
    return method == "sampling/createMessage" ? "sampling"
        : method == "elicitation/create"      ? "elicitation"
        : method == "roots/list"              ? "roots"
                                              : "";
}

AGENTIO_DECL json::object missing_capability_error(json::value const& id, std::string_view capability)
{
    return jsonrpc::make_error(id, jsonrpc::missing_client_capability,
        "Missing required client capability: " + std::string(capability),
        json::object{{"requiredCapabilities", json::object{{capability, json::object{}}}}});
}

AGENTIO_DECL bool at_least(std::string_view version, std::string_view wanted)
{
    // Revisions are dates: text order is time order.
    return version >= wanted;
}

} // namespace detail

namespace detail {

// The capability a tool's or prompt's input requests need that the client lacks
// ("" when it has them all); a request without a method is reported as "method".
AGENTIO_DECL std::string missing_input_capability(session const& s, json::object const& requests)
{
    for(auto const& [key, request] : requests)
    {
        auto const* method = request.is_object() ? request.get_object().if_contains("method") : nullptr;
        if(!method || !method->is_string())
            return "method";
        auto const needs = capability_for(method->get_string());
        if(!needs.empty() && !s.client_can(needs))
            return std::string(needs);
    }
    return {};
}

// Asks a handshake session's client each input request in turn: the answers by
// key, or why the client did not answer.
AGENTIO_DECL asio::awaitable<std::pair<json::object, std::string>> ask_inputs(session& s, json::object const& requests,
    session::send_function const& channel)
{
    json::object answers;
    for(auto const& [key, request] : requests)
    {
        std::string const method(request.at("method").get_string());
        auto const* request_params = request.get_object().if_contains("params");
        json::object sent = request_params && request_params->is_object() ? request_params->get_object()
                                                                          : json::object{};
        auto reply = co_await s.request(method, std::move(sent), channel);
        if(!reply.ok())
            co_return std::pair{json::object{},
                "the client did not answer " + method + ": " + to_json_text(reply.error)};
        answers[key] = std::move(reply.result);
    }
    co_return std::pair{std::move(answers), std::string()};
}

} // namespace detail

namespace detail {

// The optional fields shared by resources and resource templates. (Not a
// lambda in the coroutine: a closure type has no linkage, and a compiled
// coroutine's frame may not hold one.)
template<class Resource>
void describe_resource(json::object& o, Resource const& r)
{
    if(!r.title.empty())
        o["title"] = r.title;
    if(!r.description.empty())
        o["description"] = r.description;
    if(!r.mime_type.empty())
        o["mimeType"] = r.mime_type;
}

} // namespace detail

AGENTIO_DECL server_base::server_base(tool_catalog_ref tools, server_options options)
    : tools_(tools)
    , options_(std::move(options))
    , state_key_(detail::new_state_key())
{
}

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::handle_text(session& s,
    std::string_view text) const
{
    boost::system::error_code ec;
    json::value message = json::parse(text, ec);
    if(ec)
        co_return jsonrpc::make_error(nullptr, jsonrpc::parse_error, "Parse error: " + ec.message());
    co_return co_await handle(s, std::move(message));
}

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::handle(session& s, json::value message,
    session::send_function channel, std::string_view traceparent) const
{
    std::string why;
    auto const what = jsonrpc::classify(message, why);
    if(what == jsonrpc::kind::invalid)
    {
        // Answer with the id when there is a usable one, else with null.
        json::value id = nullptr;
        if(auto const* o = message.if_object())
            if(auto const* i = o->if_contains("id"); i && (i->is_string() || i->is_int64() || i->is_uint64()))
                id = *i;
        co_return jsonrpc::make_error(std::move(id), jsonrpc::invalid_request, "Invalid Request: " + why);
    }
    if(what == jsonrpc::kind::response)
    {
        s.resolve(message.get_object());
        co_return std::nullopt;
    }
    auto const& msg = message.get_object();
    std::string_view const method = msg.at("method").get_string();
    auto const& params = detail::params_of(msg);

    if(what == jsonrpc::kind::notification)
    {
        if(method == "notifications/initialized")
            s.initialized_ = true;
        else if(method == "notifications/cancelled")
        {
            if(auto const* id = params.if_contains("requestId"))
            {
                std::shared_ptr<session::in_flight_request> request;
                {
                    std::lock_guard lock(s.mutex_);
                    if(auto it = s.in_flight_.find(to_json_text(*id)); it != s.in_flight_.end())
                        request = it->second;
                }
                if(request)
                {
                    request->cancelled = true;
                    asio::dispatch(request->executor,
                        [request] { request->signal.emit(asio::cancellation_type::terminal); });
                }
            }
        }
        co_return std::nullopt; // unknown notifications are ignored, as JSON-RPC wants
    }
    if(detail::is_stateless_request(msg))
        co_return co_await handle_stateless(s, msg, std::move(channel), traceparent);
    co_return co_await dispatch(s, msg, std::move(channel), traceparent);
}

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::dispatch(session& s, json::object const& msg,
    session::send_function channel, std::string_view traceparent) const
{
    std::string_view const method = msg.at("method").get_string();
    auto const& params = detail::params_of(msg);
    json::value const id = msg.at("id");
    try
    {
        if(method == "initialize")
            co_return initialize(s, params, id);
        if(method == "ping")
            co_return jsonrpc::make_result(id, json::object{});
        if(s.protocol_version_.empty())
            co_return jsonrpc::make_error(id, jsonrpc::invalid_request,
                "Invalid Request: the session is not initialized (send initialize first)");
        if(method == "tools/list")
            co_return list_tools(params, id);
        if(method == "tools/call")
            co_return co_await call_tool(s, params, id, std::move(channel), traceparent);
        if(method == "resources/list" || method == "resources/templates/list")
        {
            bool const templates = method == "resources/templates/list";
            json::array list;
            if(templates)
                for(auto const& t : templates_)
                {
                    json::object o{{"uriTemplate", t.uri_template}, {"name", t.name}};
                    detail::describe_resource(o, t);
                    list.push_back(std::move(o));
                }
            else
                for(auto const& r : resources_)
                {
                    json::object o{{"uri", r.uri}, {"name", r.name}};
                    detail::describe_resource(o, r);
                    list.push_back(std::move(o));
                }
            co_return jsonrpc::make_result(id,
                json::object{{templates ? "resourceTemplates" : "resources", std::move(list)}});
        }
        if(method == "resources/read")
            co_return read_resource(params, id);
        if(method == "resources/subscribe" || method == "resources/unsubscribe")
        {
            auto const* uri = params.if_contains("uri");
            if(!uri || !uri->is_string())
                co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: uri must be a string");
            std::lock_guard lock(s.mutex_);
            auto& subs = s.subscriptions_;
            auto it = std::find(subs.begin(), subs.end(), uri->get_string());
            if(method == "resources/subscribe" && it == subs.end())
                subs.emplace_back(uri->get_string());
            else if(method == "resources/unsubscribe" && it != subs.end())
                subs.erase(it);
            co_return jsonrpc::make_result(id, json::object{});
        }
        if(method == "prompts/list")
        {
            json::array list;
            for(auto const& p : prompts_)
            {
                json::object o{{"name", p.name}};
                if(!p.title.empty())
                    o["title"] = p.title;
                if(!p.description.empty())
                    o["description"] = p.description;
                if(!p.arguments.empty())
                {
                    json::array args;
                    for(auto const& a : p.arguments)
                    {
                        json::object arg{{"name", a.name}, {"required", a.required}};
                        if(!a.description.empty())
                            arg["description"] = a.description;
                        args.push_back(std::move(arg));
                    }
                    o["arguments"] = std::move(args);
                }
                list.push_back(std::move(o));
            }
            co_return jsonrpc::make_result(id, json::object{{"prompts", std::move(list)}});
        }
        if(method == "prompts/get")
            co_return co_await get_prompt(s, params, id, channel);
        if(method == "completion/complete")
            co_return complete(params, id);
        if(method == "logging/setLevel")
        {
            auto const* level = params.if_contains("level");
            auto const parsed = level && level->is_string() ? parse_log_level(level->get_string()) : std::nullopt;
            if(!parsed)
                co_return jsonrpc::make_error(id, jsonrpc::invalid_params,
                    "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, "
                    "emergency");
            s.level_ = static_cast<int>(*parsed);
            co_return jsonrpc::make_result(id, json::object{});
        }
        co_return jsonrpc::make_error(id, jsonrpc::method_not_found, "Method not found: " + std::string(method));
    }
    catch(std::exception const& e)
    {
        co_return jsonrpc::make_error(id, jsonrpc::internal_error, std::string("Internal error: ") + e.what());
    }
}

AGENTIO_DECL json::object server_base::capabilities(bool stateless) const
{
    // Nothing changes at run time, so no listChanged; 2026-07-28 has no subscriptions.
    json::object caps{{"tools", json::object{{"listChanged", false}}}, {"logging", json::object{}}};
    if(!resources_.empty() || !templates_.empty())
        caps["resources"] = stateless ? json::object{} : json::object{{"subscribe", true}, {"listChanged", false}};
    if(!prompts_.empty())
        caps["prompts"] = json::object{{"listChanged", false}};
    if(complete_)
        caps["completions"] = json::object{};
    if(stateless)
        caps["tools"] = json::object{};
    return caps;
}

AGENTIO_DECL json::object server_base::discover(json::value const& id) const
{
    json::array versions{json::string(stateless_protocol_version)};
    for(auto v : supported_protocol_versions)
        versions.push_back(json::string(v));
    json::object result{{"supportedVersions", std::move(versions)}, {"capabilities", capabilities(true)}};
    if(!options_.instructions.empty())
        result["instructions"] = options_.instructions;
    return jsonrpc::make_result(id, std::move(result));
}

AGENTIO_DECL std::optional<json::object> server_base::check_stateless(json::object const& request) const
{
    json::value const id = request.contains("id") ? request.at("id") : json::value(nullptr);
    std::string_view const method = request.at("method").get_string();
    auto const& params = detail::params_of(request);
    auto invalid = [&](std::string message) { return jsonrpc::make_error(id, jsonrpc::invalid_params, message); };
    auto const* meta = params.if_contains("_meta");
    if(!meta || !meta->is_object())
        return invalid("Invalid params: _meta is required, with " + std::string(detail::meta_protocol_version) +
            " and " + std::string(detail::meta_client_capabilities));
    auto const* version = meta->get_object().if_contains(detail::meta_protocol_version);
    if(!version || !version->is_string())
        return invalid("Invalid params: _meta." + std::string(detail::meta_protocol_version) + " must be a string");
    std::string_view const requested = version->get_string();
    if(requested != stateless_protocol_version)
    {
        json::array supported{json::string(stateless_protocol_version)};
        for(auto v : supported_protocol_versions)
            supported.push_back(json::string(v));
        auto error = jsonrpc::make_error(id, jsonrpc::unsupported_protocol_version,
            "Unsupported protocol version: " + std::string(requested) +
                (is_supported_protocol_version(requested) ? " without a session (send initialize first)" : ""));
        error.at("error").as_object()["data"] = json::object{{"supported", std::move(supported)},
            {"requested", requested}};
        return error;
    }
    auto const* caps = meta->get_object().if_contains(detail::meta_client_capabilities);
    if(!caps || !caps->is_object())
        return invalid("Invalid params: _meta." + std::string(detail::meta_client_capabilities) + " must be an object");
    if(auto const* level = meta->get_object().if_contains(detail::meta_log_level))
        if(!level->is_string() || !parse_log_level(level->get_string()))
            return invalid("Invalid params: _meta." + std::string(detail::meta_log_level) +
                " must be one of debug, info, notice, warning, error, critical, alert, emergency");
    if(method == "initialize" || method == "ping" || method == "logging/setLevel" || method == "resources/subscribe" ||
        method == "resources/unsubscribe")
        return jsonrpc::make_error(id, jsonrpc::method_not_found,
            "Method not found: " + std::string(method) + " is not part of " + std::string(stateless_protocol_version));
    return std::nullopt;
}

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::handle_stateless(session& s,
    json::object request, session::send_function channel, std::string_view traceparent) const
{
    if(auto error = check_stateless(request))
        co_return error;
    std::string_view const method = request.at("method").get_string();
    json::value const id = request.at("id");
    auto const& meta = detail::params_of(request).at("_meta").get_object();

    // Everything about the client comes with the request; nothing is kept after it.
    session::send_function send = channel ? channel : s.send_;
    session one(send);
    one.protocol_version_ = std::string(stateless_protocol_version);
    one.initialized_ = true;
    one.client_capabilities_ = meta.at(detail::meta_client_capabilities).get_object();
    if(auto const* info = meta.if_contains(detail::meta_client_info); info && info->is_object())
        one.client_info_ = info->get_object();
    if(auto const* level = meta.if_contains(detail::meta_log_level))
        one.level_ = static_cast<int>(*parse_log_level(level->get_string()));
    one.registry_ = s.registry_;

    std::optional<json::object> reply;
    if(method == "server/discover")
        reply = discover(id);
    else
        reply = co_await dispatch(one, request, std::move(send), traceparent);
    if(!reply)
        co_return reply;
    if(auto* error = reply->if_contains("error"); error && error->at("code") == jsonrpc::resource_not_found)
        error->as_object()["code"] = jsonrpc::invalid_params; // 2026-07-28 retires -32002
    if(auto* result = reply->if_contains("result"); result && result->is_object())
    {
        // Every 2026-07-28 result says what it is and who answered; cacheable ones for how long.
        auto& r = result->as_object();
        if(!r.contains("resultType"))
            r["resultType"] = "complete";
        json::object result_meta;
        if(auto* m = r.if_contains("_meta"); m && m->is_object())
            result_meta = m->as_object();
        result_meta[detail::meta_server_info] = detail::server_info(options_.info);
        r["_meta"] = std::move(result_meta);
        bool const listing = method == "server/discover" || method == "tools/list" || method == "prompts/list" ||
            method == "resources/list" || method == "resources/templates/list";
        if(listing || method == "resources/read")
        {
            auto const ttl = listing ? options_.list_ttl : options_.resource_ttl;
            r["ttlMs"] = std::max<std::int64_t>(0, ttl.count());
            r["cacheScope"] = listing ? "public" : "private";
        }
    }
    co_return reply;
}

AGENTIO_DECL json::object server_base::initialize(session& s, json::object const& params, json::value const& id) const
{
    auto const* requested = params.if_contains("protocolVersion");
    if(!requested || !requested->is_string())
        return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: protocolVersion must be a string");
    if(!s.protocol_version_.empty())
        return jsonrpc::make_error(id, jsonrpc::invalid_request, "Invalid Request: the session is already initialized");
    s.protocol_version_ = negotiate_protocol_version(requested->get_string());
    if(auto const* caps = params.if_contains("capabilities"); caps && caps->is_object())
        s.client_capabilities_ = caps->get_object();
    if(auto const* info = params.if_contains("clientInfo"); info && info->is_object())
        s.client_info_ = info->get_object();

    json::object result{{"protocolVersion", s.protocol_version_}, {"capabilities", capabilities(false)},
        {"serverInfo", detail::server_info(options_.info)}};
    if(!options_.instructions.empty())
        result["instructions"] = options_.instructions;
    return jsonrpc::make_result(id, std::move(result));
}

AGENTIO_DECL json::object server_base::list_tools(json::object const& params, json::value const& id) const
{
    // The cursor is the index of the page's first tool, as text: opaque to the client.
    std::size_t first = 0;
    if(auto const* cursor = params.if_contains("cursor"); cursor && !cursor->is_null())
    {
        std::string_view const text = cursor->is_string() ? std::string_view(cursor->get_string()) : std::string_view();
        auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), first);
        if(text.empty() || ec != std::errc() || end != text.data() + text.size())
            return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: unknown cursor");
    }
    auto const descriptors = tools_.descriptors();
    if(first > descriptors.size())
        return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: unknown cursor");
    std::size_t const page = options_.tools_page_size == 0 ? descriptors.size() : options_.tools_page_size;
    std::size_t const last = std::min(descriptors.size(), first + page);
    json::array list;
    for(std::size_t i = first; i < last; ++i)
    {
        auto const& d = descriptors[i];
        json::object tool{{"name", d.name}, {"description", d.description},
            {"inputSchema", json::parse(d.input_schema_text)}};
        if(options_.read_only_tools)
            tool["annotations"] = json::object{{"readOnlyHint", true}};
        list.push_back(std::move(tool));
    }
    json::object result{{"tools", std::move(list)}};
    if(last < descriptors.size())
        result["nextCursor"] = std::to_string(last);
    return jsonrpc::make_result(id, std::move(result));
}

AGENTIO_DECL json::object server_base::tool_result_json(session const& s, tool_result const& r) const
{
    json::array content;
    for(auto const& block : r.content)
    {
        if(auto const* t = std::get_if<text_content>(&block))
            content.push_back(json::object{{"type", "text"}, {"text", t->text}});
        else if(auto const* img = std::get_if<image_content>(&block))
            content.push_back(json::object{{"type", "image"}, {"data", img->base64_data},
                {"mimeType", img->mime_type}});
        else if(auto const* audio = std::get_if<audio_content>(&block))
            content.push_back(json::object{{"type", "audio"}, {"data", audio->base64_data},
                {"mimeType", audio->mime_type}});
        else if(auto const* res = std::get_if<resource_content>(&block))
        {
            json::object embedded{{"uri", res->uri}};
            if(!res->mime_type.empty())
                embedded["mimeType"] = res->mime_type;
            if(res->text)
                embedded["text"] = *res->text;
            if(res->blob)
                embedded["blob"] = *res->blob;
            content.push_back(json::object{{"type", "resource"}, {"resource", std::move(embedded)}});
        }
    }
    json::object result{{"content", std::move(content)}};
    // structuredContent exists from 2025-06-18 on, and is always a JSON object;
    // the text block carries the same JSON for older clients and for arrays.
    if(r.structured && r.structured->is_object() && detail::at_least(s.protocol_version_, "2025-06-18"))
        result["structuredContent"] = *r.structured;
    result["isError"] = r.is_error;
    return result;
}

namespace detail {

// Matches `uri` against an RFC 6570 level-1 template; the variables, or nothing.
AGENTIO_DECL std::optional<std::map<std::string, std::string>> match_uri_template(std::string_view tmpl,
    std::string_view uri)
{
    std::map<std::string, std::string> vars;
    std::size_t t = 0, u = 0;
    while(t < tmpl.size())
    {
        if(tmpl[t] != '{')
        {
            if(u >= uri.size() || uri[u] != tmpl[t])
                return std::nullopt;
            ++t, ++u;
            continue;
        }
        auto const close = tmpl.find('}', t);
        if(close == std::string_view::npos)
            return std::nullopt;
        std::string name(tmpl.substr(t + 1, close - t - 1));
        t = close + 1;
        // The variable runs to the next literal character of the template (or the end), never across '/'.
        char const stop = t < tmpl.size() ? tmpl[t] : '\0';
        std::size_t end = u;
        while(end < uri.size() && uri[end] != stop && uri[end] != '/')
            ++end;
        if(end == u)
            return std::nullopt;
        vars[std::move(name)] = std::string(uri.substr(u, end - u));
        u = end;
    }
    if(u != uri.size())
        return std::nullopt;
    return vars;
}

AGENTIO_DECL json::array contents_json(std::vector<resource_contents> const& contents)
{
    json::array out;
    for(auto const& c : contents)
    {
        json::object o{{"uri", c.uri}};
        if(!c.mime_type.empty())
            o["mimeType"] = c.mime_type;
        if(c.text)
            o["text"] = *c.text;
        if(c.blob)
            o["blob"] = *c.blob;
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace detail

AGENTIO_DECL json::object server_base::read_resource(json::object const& params, json::value const& id) const
{
    auto const* uri_v = params.if_contains("uri");
    if(!uri_v || !uri_v->is_string())
        return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: uri must be a string");
    std::string const uri(uri_v->get_string());
    for(auto const& r : resources_)
        if(r.uri == uri)
            return jsonrpc::make_result(id, json::object{{"contents", detail::contents_json(r.read(uri))}});
    for(auto const& t : templates_)
        if(auto vars = detail::match_uri_template(t.uri_template, uri))
            return jsonrpc::make_result(id, json::object{{"contents", detail::contents_json(t.read(uri, *vars))}});
    return jsonrpc::make_error(id, jsonrpc::resource_not_found, "Resource not found", json::object{{"uri", uri}});
}

AGENTIO_DECL asio::awaitable<json::object> server_base::get_prompt(session& s, json::object const& params,
    json::value const& id, session::send_function channel) const
{
    auto const* name = params.if_contains("name");
    if(!name || !name->is_string())
        co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: name must be a string");
    auto it = std::find_if(prompts_.begin(), prompts_.end(),
        [&](prompt const& p) { return p.name == name->get_string(); });
    if(it == prompts_.end())
        co_return jsonrpc::make_error(id, jsonrpc::invalid_params,
            "Unknown prompt: " + std::string(name->get_string()));
    std::map<std::string, std::string> args;
    if(auto const* a = params.if_contains("arguments"); a && a->is_object())
        for(auto const& kv : a->get_object())
        {
            if(!kv.value().is_string())
                co_return jsonrpc::make_error(id, jsonrpc::invalid_params,
                    "Invalid params: argument " + std::string(kv.key()) + " must be a string");
            args[std::string(kv.key())] = std::string(kv.value().get_string());
        }
    for(auto const& a : it->arguments)
        if(a.required && !args.contains(a.name))
            co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Missing required argument: " + a.name);

    json::array messages;
    if(it->get_with_input)
    {
        // As for tools: 2026-07-28 answers input_required, a session asks the client itself.
        json::object answers;
        if(auto const* given = params.if_contains("inputResponses"); given && given->is_object() && s.stateless())
            answers = given->get_object();
        for(std::size_t round = 0;; ++round)
        {
            auto r = it->get_with_input(args, answers);
            if(!r.input_requests)
            {
                messages = std::move(r.messages);
                break;
            }
            if(auto const missing = detail::missing_input_capability(s, *r.input_requests); missing == "method")
                co_return jsonrpc::make_error(id, jsonrpc::internal_error,
                    "Internal error: an input request of the prompt has no method");
            else if(!missing.empty())
                co_return detail::missing_capability_error(id, missing);
            if(s.stateless())
                co_return jsonrpc::make_result(id,
                    json::object{{"resultType", "input_required"}, {"inputRequests", std::move(*r.input_requests)}});
            if(round + 1 >= options_.max_input_rounds)
                co_return jsonrpc::make_error(id, jsonrpc::internal_error,
                    "Internal error: the prompt kept asking for input");
            auto [given, refused] = co_await detail::ask_inputs(s, *r.input_requests, channel);
            if(!refused.empty())
                co_return jsonrpc::make_error(id, jsonrpc::internal_error, "Internal error: " + refused);
            answers = std::move(given);
        }
    }
    else
        messages = it->get(args);
    json::object result{{"messages", std::move(messages)}};
    if(!it->description.empty())
        result["description"] = it->description;
    co_return jsonrpc::make_result(id, std::move(result));
}

AGENTIO_DECL json::object server_base::complete(json::object const& params, json::value const& id) const
{
    auto const* ref = params.if_contains("ref");
    auto const* argument = params.if_contains("argument");
    if(!ref || !ref->is_object() || !argument || !argument->is_object())
        return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: ref and argument are required");
    auto const* arg_name = argument->get_object().if_contains("name");
    auto const* arg_value = argument->get_object().if_contains("value");
    if(!arg_name || !arg_name->is_string() || !arg_value || !arg_value->is_string())
        return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: argument needs name and value");
    std::vector<std::string> values;
    if(complete_)
        values = complete_(ref->get_object(), std::string(arg_name->get_string()),
            std::string(arg_value->get_string()));
    std::size_t const total = values.size();
    json::array list;
    for(std::size_t i = 0; i < values.size() && i < 100; ++i) // the spec's page: 100 values at most
        list.push_back(json::string(values[i]));
    return jsonrpc::make_result(id,
        json::object{
            {"completion", json::object{{"values", std::move(list)}, {"total", total}, {"hasMore", total > 100}}}});
}

namespace detail {

// The trace context a tools/call runs under: its `params._meta.traceparent`
// when valid (SEP-414), else the transport's (an HTTP header) when valid.
AGENTIO_DECL std::optional<trace::span_context> call_trace_parent(json::object const& params,
    std::string_view transport_traceparent)
{
    if(auto const* meta = params.if_contains("_meta"); meta && meta->is_object())
        if(auto const* given = meta->get_object().if_contains("traceparent"); given && given->is_string())
            if(auto parent = trace::parse_traceparent(std::string_view(given->get_string())))
                return parent;
    if(transport_traceparent.empty())
        return std::nullopt;
    return trace::parse_traceparent(transport_traceparent);
}

// The server span of a tools/call, as the OpenTelemetry MCP conventions have it.
AGENTIO_DECL trace::span start_call_span(trace::tracer& tracer, session const& s, json::object const& params,
    json::value const& id, std::optional<trace::span_context> const& parent)
{
    auto const* name = params.if_contains("name");
    std::string_view const tool = name && name->is_string() ? std::string_view(name->get_string()) : std::string_view();
    std::string span_name = "tools/call";
    if(!tool.empty())
        span_name.append(" ").append(tool);
    trace::span span = tracer.start(span_name, trace::span_kind::server, parent);
    if(!span.recording())
        return span;
    span.set("mcp.method.name", std::string_view("tools/call"));
    span.set(trace::gen_ai::operation_name, std::string_view("execute_tool"));
    if(!tool.empty())
        span.set(trace::gen_ai::tool_name, tool);
    span.set("jsonrpc.request.id", id.is_string() ? std::string(id.get_string()) : to_json_text(id));
    if(!s.protocol_version().empty())
        span.set("mcp.protocol.version", std::string_view(s.protocol_version()));
    if(tracer.config().capture_message_content)
        if(auto const* arguments = params.if_contains("arguments"))
            span.set(trace::gen_ai::tool_call_arguments, to_json_text(*arguments));
    return span;
}

// Ends a tools/call's span with what the client is answered: the JSON-RPC
// error's code, `tool_error` for a result with isError, `cancelled` for no answer.
AGENTIO_DECL void end_call_span(trace::span& span, std::optional<json::object> const& reply, bool capture_content)
{
    if(span.recording())
    {
        json::value const* error = reply ? reply->if_contains("error") : nullptr;
        json::value const* result = reply ? reply->if_contains("result") : nullptr;
        if(!reply)
            span.fail("cancelled", "the client cancelled the call");
        else if(error && error->is_object())
        {
            auto const* code = error->get_object().if_contains("code");
            auto const* message = error->get_object().if_contains("message");
            std::string const code_text = code && code->is_number() ? to_json_text(*code) : std::string("_OTHER");
            span.set("rpc.response.status_code", code_text);
            span.fail(code_text,
                message && message->is_string() ? std::string_view(message->get_string()) : std::string_view());
        }
        else if(result && result->is_object())
        {
            auto const& r = result->get_object();
            if(auto const* is_error = r.if_contains("isError"); is_error && *is_error == json::value(true))
                span.fail("tool_error");
            else if(capture_content)
            {
                auto const* content = r.if_contains("structuredContent");
                if(!content)
                    content = r.if_contains("content");
                if(content)
                    span.set(trace::gen_ai::tool_call_result, to_json_text(*content));
            }
        }
    }
    span.end();
}

} // namespace detail

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::call_tool(session& s, json::object const& params,
    json::value id, session::send_function channel, std::string_view transport_traceparent) const
{
    auto const parent = detail::call_trace_parent(params, transport_traceparent);
    if(!options_.tracer || !options_.tracer->enabled())
    {
        // Not traced here: the tool gets the caller's context to pass on, unchanged.
        std::string const passed_on = parent ? trace::format_traceparent(*parent) : std::string();
        std::string_view const traceparent = passed_on;
        co_return co_await run_tool_call(s, params, std::move(id), std::move(channel), traceparent);
    }
    trace::span span = detail::start_call_span(*options_.tracer, s, params, id, parent);
    std::string const mine = span.traceparent();
    std::string_view const traceparent = mine;
    std::optional<json::object> reply;
    try
    {
        reply = co_await run_tool_call(s, params, std::move(id), std::move(channel), traceparent);
    }
    catch(std::exception const& e)
    {
        span.fail(std::to_string(jsonrpc::internal_error), e.what());
        throw;
    }
    detail::end_call_span(span, reply, options_.tracer->config().capture_message_content);
    co_return reply;
}

AGENTIO_DECL asio::awaitable<std::optional<json::object>> server_base::run_tool_call(session& s,
    json::object const& params, json::value id, session::send_function channel, std::string_view traceparent) const
{
    auto const* name = params.if_contains("name");
    if(!name || !name->is_string())
        co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: name must be a string");
    std::string const tool_name(name->get_string());
    if(!tools_.contains(tool_name))
        co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Unknown tool: " + tool_name);
    json::value arguments = json::object{};
    if(auto const* a = params.if_contains("arguments"); a && !a->is_null())
    {
        if(!a->is_object())
            co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: arguments must be an object");
        arguments = *a;
    }

    std::string const call_id = to_json_text(id);
    tool_context ctx;
    ctx.tool_name = tool_name;
    ctx.call_id = call_id;
    ctx.traceparent = traceparent; // the call's span's, or the caller's: for a tool that calls on
    // Progress goes out only when the client asked for it, with its token as it sent it.
    if(auto const* meta = params.if_contains("_meta"); meta && meta->is_object())
        if(auto const* token = meta->get_object().if_contains("progressToken");
            token && (token->is_string() || token->is_int64() || token->is_uint64()))
        {
            ctx.progress = [&s, &channel, token = *token](double progress, std::optional<double> total,
                               std::string_view text) {
                json::object p{{"progressToken", token}, {"progress", progress}};
                if(total)
                    p["total"] = *total;
                if(!text.empty())
                    p["message"] = text;
                if(channel)
                    channel(jsonrpc::make_notification("notifications/progress", std::move(p)));
                else
                    s.notify("notifications/progress", std::move(p));
            };
        }

    ctx.log = [&s, &channel](std::string_view level_name, json::value data) {
        auto const level = parse_log_level(level_name).value_or(log_level::info);
        int const threshold = s.level_.load();
        if(threshold < 0 || static_cast<int>(level) < threshold)
            return;
        auto message = jsonrpc::make_notification("notifications/message",
            json::object{{"level", to_string(level)}, {"data", std::move(data)}});
        if(channel)
            channel(std::move(message));
        else
            s.send_(std::move(message));
    };
    std::string missing_capability; // 2026-07-28: the call fails with -32021 naming it
    auto& client = ctx.extensions.set(client_channel{});
    client.ask = [&s, &channel, &missing_capability](std::string method,
                     json::object request_params) -> asio::awaitable<client_reply> {
        // Only what the client said it can do: the capability each request needs.
        std::string_view const needs = detail::capability_for(method);
        if(!needs.empty() && !s.client_can(needs))
        {
            if(s.stateless())
                missing_capability = needs;
            co_return client_reply{nullptr,
                json::object{{"code", jsonrpc::method_not_found},
                    {"message", "The client does not offer " + std::string(needs)}}};
        }
        if(s.stateless()) // 2026-07-28 has no server-to-client requests (input_required is not offered)
            co_return client_reply{nullptr,
                json::object{{"code", jsonrpc::method_not_found},
                    {"message",
                        "The server cannot ask the client within a " + std::string(stateless_protocol_version) +
                            " request"}}};
        co_return co_await s.request(method, std::move(request_params), channel);
    };

    // Multi-round input (SEP-2322): a 2026-07-28 client sends back the answers
    // and the state of the previous round; the state must be ours.
    if(s.stateless())
    {
        if(auto const* answers = params.if_contains("inputResponses"); answers && !answers->is_null())
        {
            if(!answers->is_object())
                co_return jsonrpc::make_error(id, jsonrpc::invalid_params,
                    "Invalid params: inputResponses must be an object");
            client.input_responses = answers->get_object();
        }
        if(auto const* sealed = params.if_contains("requestState"); sealed && !sealed->is_null())
        {
            auto opened = sealed->is_string() ? detail::open_state(state_key_, sealed->get_string()) : std::nullopt;
            if(!opened)
                co_return jsonrpc::make_error(id, jsonrpc::invalid_params,
                    "Invalid params: requestState was not issued by this server (integrity check failed)");
            client.request_state = std::move(*opened);
        }
    }
    client.can = [&s](std::string_view capability) { return s.client_can(capability); };

    auto const ex = co_await asio::this_coro::executor;
    detail::in_flight_entry entry(s.registry_->mutex_, s.registry_->in_flight_, call_id, ex);
    // Once cancelled, the client expects no answer, whatever the tool made of the cancellation.
    auto const started = std::chrono::steady_clock::now();
    tool_result result;
    // The caller's own cancellation (the transport saw the client leave: an
    // HTTP stream closed) cancels the call as notifications/cancelled does.
    auto const forwarding = entry.forward_from(co_await asio::this_coro::cancellation_state);
    for(std::size_t round = 0;; ++round)
    {
        auto call = tools_.call(tool_name, arguments, ctx);
        auto [error, returned] = co_await asio::co_spawn(ex, std::move(call),
            asio::bind_cancellation_slot(entry.slot(), asio::as_tuple(asio::use_awaitable)));
        if(entry.cancelled())
            co_return std::nullopt;
        if(error)
        {
            try
            {
                std::rethrow_exception(error);
            }
            catch(std::exception const& e)
            {
                co_return jsonrpc::make_error(id, jsonrpc::internal_error, std::string("Internal error: ") + e.what());
            }
        }
        if(!missing_capability.empty())
            co_return detail::missing_capability_error(id, missing_capability);
        result = std::move(returned);
        auto const* wanted = input_request_of(result);
        if(!wanted)
            break;

        // The tool needs input: only what the client can give.
        if(auto const missing = detail::missing_input_capability(s, wanted->requests); missing == "method")
            co_return jsonrpc::make_error(id, jsonrpc::internal_error,
                "Internal error: an input request of the tool has no method");
        else if(!missing.empty())
            co_return detail::missing_capability_error(id, missing);
        if(s.stateless())
        {
            json::object answer{{"resultType", "input_required"}, {"inputRequests", wanted->requests}};
            if(!wanted->state.empty())
                answer["requestState"] = detail::seal_state(state_key_, wanted->state);
            co_return jsonrpc::make_result(std::move(id), std::move(answer));
        }
        // A session: the server asks the client itself, then calls the tool again with the answers.
        if(round + 1 >= options_.max_input_rounds)
        {
            result = tool_result::error("The tool asked for input more than " +
                std::to_string(options_.max_input_rounds) + " times");
            break;
        }
        auto [answers, refused] = co_await detail::ask_inputs(s, wanted->requests, channel);
        if(entry.cancelled())
            co_return std::nullopt;
        if(!refused.empty())
        {
            result = tool_result::error("The tool needed input, but " + refused);
            break;
        }
        client.input_responses = std::move(answers);
        client.request_state = wanted->state; // in process: nothing to sign
    }
    if(options_.on_tool_call)
        options_.on_tool_call(tool_name, arguments, result, std::chrono::steady_clock::now() - started);
    co_return jsonrpc::make_result(std::move(id), tool_result_json(s, result));
}

} // namespace agentio::mcp

#endif
