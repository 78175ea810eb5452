// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "http_api.hpp"

#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/relay.hpp>

namespace normativa {

namespace asio = boost::asio;
namespace json = boost::json;
namespace bhttp = boost::beast::http;

namespace {

bhttp::message_generator json_response(bhttp::status status, json::value const& body, unsigned version)
{
    return agentio::http::json_response(status, body, version);
}

bhttp::message_generator error_response(api_error const& e, unsigned version)
{
    return json_response(static_cast<bhttp::status>(e.status), json::object{{"error", e.message}}, version);
}

bhttp::message_generator unauthorized(unsigned version)
{
    return error_response({401, "Falta una clave de API válida en la cabecera x-api-key"}, version);
}

} // namespace

agentio::http::router<> make_routes(rag_service& service, agentio::http::api_keys const& keys,
    index_status const& status, agentio::http::static_files const* page, agentio::http::router_options options)
{
    agentio::http::router<> routes(std::move(options));
    routes.get("/health", [&service, &status](auto&& req, auto const&) -> asio::awaitable<bhttp::message_generator> {
        json::array laws;
        for(auto const& l : status.laws)
            laws.emplace_back(l);
        json::object body{{"status", "ok"},
            {"index",
                json::object{{"chunks", status.chunks}, {"laws", laws},
                    {"dense", status.embedder.empty() ? json::value(nullptr) : json::value(status.embedder)}}},
            {"llm", service.config().llm_unavailable_reason() ? "not_configured" : "configured"}};
        co_return json_response(bhttp::status::ok, body, req.version());
    });

    routes.post("/api/rag-agent",
        [&service, &keys](auto&& req, auto const&,
            agentio::http::any_stream& stream) -> asio::awaitable<std::optional<bhttp::message_generator>> {
            auto owner = keys.owner_of(req, "x-api-key");
            if(!owner)
                co_return unauthorized(req.version());
            auto parsed = parse_agent_request(req.body(), service.config());
            if(!parsed)
                co_return error_response(parsed.error(), req.version());
            parsed->traceparent = std::string(req["traceparent"]);
            auto prepared = co_await service.prepare(std::move(*parsed), std::move(*owner));
            if(!prepared)
                co_return error_response(prepared.error(), req.version());
            auto work = [&service, run = std::move(*prepared)](event_sink sink) mutable {
                return service.run(std::move(run), std::move(sink));
            };
            co_await agentio::sse::relay(stream, req.version(), std::move(work));
            co_return std::nullopt;
        });

    routes.get("/api/rag-agent/threads/{id}",
        [&service, &keys](auto&& req, auto const& params) -> asio::awaitable<bhttp::message_generator> {
            auto owner = keys.owner_of(req, "x-api-key");
            if(!owner)
                co_return unauthorized(req.version());
            std::string id(params["id"]);
            auto view = co_await service.thread_view(std::move(id), std::move(*owner));
            if(!view)
                co_return error_response(view.error(), req.version());
            co_return json_response(bhttp::status::ok, *view, req.version());
        });

    routes.post("/api/rag-pipeline",
        [&service, &keys](auto&& req, auto const&,
            agentio::http::any_stream& stream) -> asio::awaitable<std::optional<bhttp::message_generator>> {
            if(!keys.owner_of(req, "x-api-key"))
                co_return unauthorized(req.version());
            auto parsed = parse_pipeline_request(req.body(), service.config());
            if(!parsed)
                co_return error_response(parsed.error(), req.version());
            auto work = [&service, request = std::move(*parsed)](event_sink sink) mutable {
                return service.run_pipeline(std::move(request), std::move(sink));
            };
            co_await agentio::sse::relay(stream, req.version(), std::move(work));
            co_return std::nullopt;
        });

    // The page for any other path, but an API path no route takes is a JSON 404, not the page.
    routes.fallback([page](auto&& req, auto const&) -> asio::awaitable<bhttp::message_generator> {
        std::string_view const target = req.target();
        auto const path = target.substr(0, target.find('?'));
        if(!page || path == "/api" || path.starts_with("/api/"))
            co_return error_response({404, "No existe " + std::string(path)}, req.version());
        co_return page->serve(req, path);
    });
    return routes;
}

} // namespace normativa
