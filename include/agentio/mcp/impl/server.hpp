//
// agentio/mcp/impl/server.hpp
//

#ifndef AGENTIO_MCP_IMPL_SERVER_HPP
#define AGENTIO_MCP_IMPL_SERVER_HPP

#include <agentio/json_text.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <charconv>
#include <exception>

namespace agentio::mcp {

inline constexpr std::array<std::string_view, 8> log_level_names{
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

inline std::optional<log_level> parse_log_level(std::string_view name) noexcept
{
    for(std::size_t i = 0; i < log_level_names.size(); ++i)
        if(log_level_names[i] == name)
            return static_cast<log_level>(i);
    return std::nullopt;
}

inline std::string_view to_string(log_level level) noexcept
{
    return log_level_names[static_cast<std::size_t>(level)];
}

inline void session::log(log_level level, json::value data, std::string_view logger)
{
    int const threshold = level_.load();
    if(threshold < 0 || static_cast<int>(level) < threshold)
        return;
    json::object params{{"level", to_string(level)}, {"data", std::move(data)}};
    if(!logger.empty())
        params["logger"] = logger;
    notify("notifications/message", std::move(params));
}

inline void session::notify(std::string_view method, json::object params)
{
    send_(jsonrpc::make_notification(method, std::move(params)));
}

namespace detail {

inline json::object const& empty_object()
{
    static json::object const empty;
    return empty;
}

inline json::object const& params_of(json::object const& message)
{
    auto const* p = message.if_contains("params");
    return p && p->is_object() ? p->get_object() : empty_object();
}

// Registers a request for notifications/cancelled and forgets it at scope exit.
template<class Map>
class in_flight_entry
{
public:
    in_flight_entry(std::mutex& m, Map& map, std::string key, asio::any_io_executor ex)
        : mutex_(m), map_(map), key_(std::move(key)), request_(std::make_shared<typename Map::mapped_type::element_type>())
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

private:
    std::mutex& mutex_;
    Map& map_;
    std::string key_;
    typename Map::mapped_type request_;
};

inline bool at_least(std::string_view version, std::string_view wanted)
{
    // Revisions are dates: text order is time order.
    return version >= wanted;
}

} // namespace detail

template<tool_catalog Tools>
asio::awaitable<std::optional<json::object>> server<Tools>::handle_text(session& s, std::string_view text) const
{
    boost::system::error_code ec;
    json::value message = json::parse(text, ec);
    if(ec)
        co_return jsonrpc::make_error(nullptr, jsonrpc::parse_error, "Parse error: " + ec.message());
    co_return co_await handle(s, std::move(message));
}

template<tool_catalog Tools>
asio::awaitable<std::optional<json::object>> server<Tools>::handle(session& s, json::value message,
    session::send_function channel) const
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
        co_return std::nullopt; // we send no requests of our own yet
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
            co_return co_await call_tool(s, params, id, std::move(channel));
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

template<tool_catalog Tools>
json::object server<Tools>::initialize(session& s, json::object const& params, json::value const& id) const
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

    json::object server_info{{"name", options_.info.name}, {"version", options_.info.version}};
    if(!options_.info.title.empty())
        server_info["title"] = options_.info.title;
    json::object result{{"protocolVersion", s.protocol_version_},
        {"capabilities", json::object{{"tools", json::object{{"listChanged", false}}}, {"logging", json::object{}}}},
        {"serverInfo", std::move(server_info)}};
    if(!options_.instructions.empty())
        result["instructions"] = options_.instructions;
    return jsonrpc::make_result(id, std::move(result));
}

template<tool_catalog Tools>
json::object server<Tools>::list_tools(json::object const& params, json::value const& id) const
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
    auto const descriptors = tools_->descriptors();
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

template<tool_catalog Tools>
json::object server<Tools>::tool_result_json(session const& s, tool_result const& r) const
{
    json::array content;
    for(auto const& block : r.content)
    {
        if(auto const* t = std::get_if<text_content>(&block))
            content.push_back(json::object{{"type", "text"}, {"text", t->text}});
        else if(auto const* img = std::get_if<image_content>(&block))
            content.push_back(json::object{{"type", "image"}, {"data", img->base64_data}, {"mimeType", img->mime_type}});
    }
    json::object result{{"content", std::move(content)}};
    // structuredContent exists from 2025-06-18 on; the text block carries the same JSON for older clients.
    if(r.structured && detail::at_least(s.protocol_version_, "2025-06-18"))
        result["structuredContent"] = *r.structured;
    result["isError"] = r.is_error;
    return result;
}

template<tool_catalog Tools>
asio::awaitable<std::optional<json::object>> server<Tools>::call_tool(session& s, json::object const& params,
    json::value id, session::send_function channel) const
{
    auto const* name = params.if_contains("name");
    if(!name || !name->is_string())
        co_return jsonrpc::make_error(id, jsonrpc::invalid_params, "Invalid params: name must be a string");
    std::string const tool_name(name->get_string());
    if(!tools_->contains(tool_name))
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

    auto const ex = co_await asio::this_coro::executor;
    detail::in_flight_entry entry(s.mutex_, s.in_flight_, call_id, ex);
    // Once cancelled, the client expects no answer, whatever the tool made of the cancellation.
    auto call = tools_->call(tool_name, arguments, ctx);
    auto [error, result] = co_await asio::co_spawn(ex, std::move(call),
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
    co_return jsonrpc::make_result(std::move(id), tool_result_json(s, result));
}

} // namespace agentio::mcp

#endif
